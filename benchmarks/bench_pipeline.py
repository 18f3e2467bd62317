"""Latency from a tag frame written on the reader's pty to the hub's state update.

Runs a demo room (reader firmware on real ptys, SerialLink, agents, a private Mosquitto, the hub)
with N tables dealing at once, and times every card arrival: the first `TagSeen` frame for that
card written on the pty -> the hub's table view updated (listener call). Prints percentiles.

    python benchmarks/bench_pipeline.py [--tables 4] [--seconds 20] [--pace 0.1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time

from firmware_bridge import TagSeen, encode
from hub.broker import EmbeddedBroker
from simulators import demo
from simulators.reader_board import ReaderBoardSimulator

written: dict[tuple[int, str], float] = {}  # (antenna, uid) -> first TagSeen written
lock = threading.Lock()


class TimedBoard(ReaderBoardSimulator):
    def _emit(self, frames):  # type: ignore[no-untyped-def]
        for frame in frames:
            if self._write(encode(frame)):
                self.frames_written += 1
                if isinstance(frame, TagSeen):
                    key = (id(self), frame.antenna, frame.uid.hex().upper())
                    with lock:
                        written.setdefault(key, time.monotonic())  # type: ignore[arg-type]

    def remove(self, antenna: int, uid: bytes) -> None:
        super().remove(antenna, uid)
        with lock:
            written.pop((id(self), antenna, uid.hex().upper()), None)  # type: ignore[arg-type]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--pace", type=float, default=0.1, help="seconds between a dealer's cards")
    args = ap.parse_args()
    demo.ReaderBoardSimulator = TimedBoard  # type: ignore[misc]
    latencies: list[float] = []
    with EmbeddedBroker() as broker:
        room = demo.build_room(tables=args.tables, host=broker.host, port=broker.port, seed=7,
                               miss_rate=0.02, dropout_rate=0.01)
        boards = {t.profile.table: t for t in room.tables}

        def on_event(event: dict) -> None:  # type: ignore[type-arg]
            if event["type"] != "card" or event["action"] != "arrived":
                return
            now = time.monotonic()
            table = boards[event["table"]]
            uid = table.felt.uid(event["card"], event["deck"])
            antenna = table.profile.antenna_of(__import__("table_agent.events", fromlist=["Zone"]).Zone.parse(event["zone"]))
            with lock:
                t0 = written.get((id(table.board), antenna, uid))  # type: ignore[arg-type]
            if t0 is not None:
                latencies.append(now - t0)

        room.hub.add_listener(on_event)
        cpu0 = os.times()
        for i, table in enumerate(room.tables):
            table.thread = threading.Thread(target=demo.deal, args=(room, table),
                                            kwargs={"hands": None, "pace": args.pace, "seed": i}, daemon=True)
            table.thread.start()
        time.sleep(args.seconds)
        cpu1 = os.times()
        room.close()
    lat = sorted(x * 1000 for x in latencies)
    q = statistics.quantiles(lat, n=100)
    cpu = (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / args.seconds
    print(f"pipeline: {args.tables} tables, {len(lat)} card arrivals in {args.seconds:.0f} s "
          f"({len(lat) / args.seconds:.1f}/s)")
    print(f"tag frame written on pty -> hub state update: median {statistics.median(lat):.2f} ms, "
          f"p90 {q[89]:.2f} ms, p99 {q[98]:.2f} ms, max {lat[-1]:.2f} ms")
    print(f"process CPU (agents + hub + simulators, broker excluded): {cpu * 100:.0f} % of one core")


if __name__ == "__main__":
    main()
