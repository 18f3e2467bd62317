"""Latency through the whole pipeline: tag frame written on a reader's pty -> the hub.

A room of N simulated tables (reader firmware on real ptys, SerialLink, agents, croupiers and
players) in `--procs` worker processes, as tables are separate Pis; the hub with its rules engine and a
private Mosquitto in this process. It times
  - every card arrival: first `TagSeen` written for that card -> the hub's table view updated;
  - every injected boxed card: first `TagSeen` on the tray -> the ruling published on MQTT (the hub
    publishes an event before it calls listeners, so the listener's time is after the publish);
  - each fault stage by stage: the agent has read the card -> its publish call -> the hub's paho
    thread -> the hub's consumer thread -> the ruling published (hooks on MqttLink and HubService).
Times are CLOCK_MONOTONIC, shared by the processes of this machine. Measure on a quiet machine:
another job on the two cores (a test run) doubles the p99.

    python benchmarks/bench_pipeline.py [--tables 20] [--procs 2] [--seconds 30] [--pace 0.3] [--boxed 0.05]
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

from firmware_bridge import TagSeen, encode
from hub.edge.broker import EmbeddedBroker
from hub.edge.service import HubService
from hw.decks import DeckRegistry
from hw.profile import TableProfile
from simulators import demo
from simulators.reader_board import ReaderBoardSimulator
from table_agent.events import TRAY, Zone
from tablewire import wire
from tablewire.mqtt import Message, MqttLink

Key = tuple[str, int, str]  # table, antenna, uid
written: dict[tuple[int, int, str], list[float]] = defaultdict(list)  # (board id, antenna, uid) -> writes
lock = threading.Lock()


class TimedBoard(ReaderBoardSimulator):
    """Records when the first `TagSeen` of each placement is written on the pty."""

    def place(self, antenna: int, uid: bytes) -> None:
        with lock:
            self._fresh = getattr(self, "_fresh", set()) | {(antenna, uid.hex().upper())}
        super().place(antenna, uid)

    def _emit(self, frames):  # type: ignore[no-untyped-def]
        for frame in frames:
            at = time.monotonic()  # before the write: the agent's thread may read it and stamp its time
            if self._write(encode(frame)):  # before this thread takes the clock again
                self.frames_written += 1
                if isinstance(frame, TagSeen):
                    key = (frame.antenna, frame.uid.hex().upper())
                    with lock:
                        fresh = getattr(self, "_fresh", set())
                        if key in fresh:
                            fresh.discard(key)
                            written[(id(self), *key)].append(at)


def worker(args: argparse.Namespace) -> None:
    demo.ReaderBoardSimulator = TimedBoard  # type: ignore[misc]
    ids = args.ids.split(",")
    room = demo.Room(hub=None, tables=[], registry=DeckRegistry.generate(demo.table_ids(args.tables)))
    MqttLink.publish = published_at(MqttLink.publish)  # type: ignore[method-assign]  # the tables' links
    demo.start_tables(room, host="127.0.0.1", port=args.port, ids=ids, seed=7)
    for table in room.tables:
        table.thread = threading.Thread(target=demo.deal, args=(room, table), daemon=True,
                                        kwargs={"hands": None, "pace": args.pace, "seed": int(table.profile.table[1:]),
                                                "boxed_rate": args.boxed})
        table.thread.start()
    time.sleep(args.seconds)
    cpu = os.times()
    names = {id(t.board): t.profile.table for t in room.tables}
    room.close()
    with lock:
        rows = [[names[b], a, u, ts] for (b, a, u), ts in written.items()]
    Path(args.out).write_text(json.dumps({"writes": rows, "cpu": cpu.user + cpu.system,
                                          "faults": [[t, s, *ts] for (t, s), ts in faults_sent.items()]}))


# (table, seq) of a fault -> (card read by the agent, the agent called publish)
faults_sent: dict[tuple[str, int], tuple[float, float]] = {}


def published_at(publish):  # type: ignore[no-untyped-def]
    """Wraps `MqttLink.publish`: records when each fault event left the agent's thread."""
    def timed(link, topic: str, payload: bytes, **kw):  # type: ignore[no-untyped-def]
        if b'"type":"fault"' in payload:
            data = json.loads(payload)
            faults_sent[(data["table"], data["seq"])] = (data["at"], time.monotonic())
        return publish(link, topic, payload, **kw)
    return timed


Stamps = dict[tuple[str, int], float]


def hub_timings() -> tuple[Stamps, Stamps, Stamps]:
    """Times each fault event reaches the hub's paho thread, its consumer thread, and is done with
    (the ruling published)."""
    received: Stamps = {}
    dequeued: Stamps = {}
    handled: Stamps = {}

    def key(payload: bytes) -> tuple[str, int] | None:
        if b'"type":"fault"' not in payload:
            return None
        data = json.loads(payload)
        return data["table"], data["seq"]

    wrap, handle = MqttLink._wrap, HubService._handle_message

    def timed_wrap(self, handler):  # type: ignore[no-untyped-def]
        deliver = wrap(self, handler)

        def timed(c, u, msg):  # type: ignore[no-untyped-def]
            now = time.monotonic()
            if self.client_id.startswith("tapis-hub") and (k := key(msg.payload)):
                received[k] = now
            deliver(c, u, msg)
        return timed

    def timed_handle(self, message):  # type: ignore[no-untyped-def]
        k = key(message.payload)
        if k:
            dequeued[k] = time.monotonic()
        handle(self, message)
        if k:
            handled[k] = time.monotonic()

    MqttLink._wrap = timed_wrap  # type: ignore[method-assign]
    HubService._handle_message = timed_handle  # type: ignore[method-assign]
    return received, dequeued, handled


def percentiles(name: str, values: list[float]) -> str:
    if len(values) < 2:
        return f"{name}: {len(values)} samples, not enough"
    ms = sorted(v * 1000 for v in values)
    q = statistics.quantiles(ms, n=100)
    return (f"{name}: n={len(ms)} median {statistics.median(ms):.2f} ms, p90 {q[89]:.2f} ms, "
            f"p99 {q[98]:.2f} ms, max {ms[-1]:.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--procs", type=int, default=2, help="worker processes for the tables")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--pace", type=float, default=0.3, help="seconds between a croupier's cards")
    ap.add_argument("--boxed", type=float, default=0.05, help="chance of a boxed card before each hole card")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--ids", help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    ap.add_argument("--switch", type=float, default=None,
                    help="sys.setswitchinterval for every process (Python's default is 0.005 s; 0.0005 "
                         "made no difference on a quiet machine: 9.5-15 ms against 10-17 ms ruling p99)")
    args = ap.parse_args()
    if args.switch:
        sys.setswitchinterval(args.switch)
    if args.worker:
        worker(args)
        return
    ids = demo.table_ids(args.tables)
    registry = DeckRegistry.generate(ids)
    layout = TableProfile.default("t1", seats=9)
    received: dict[Key, list[float]] = defaultdict(list)
    rulings: dict[Key, list[float]] = defaultdict(list)
    events = 0
    hub_received, hub_dequeued, hub_handled = hub_timings()
    faults: dict[tuple[str, int], tuple[float, float]] = {}
    with EmbeddedBroker() as broker:
        room = demo.Room(hub=None, tables=[], registry=registry)
        hub = demo.start_hub(room, host=broker.host, port=broker.port, ids=ids, seed=7)

        def on_event(event: dict) -> None:
            nonlocal events
            now = time.monotonic()
            events += 1
            table = event["table"]
            if event["type"] == "card" and event["action"] == "arrived" and event["card"]:
                antenna = layout.antenna_of(Zone.parse(event["zone"]))
                received[(table, antenna, registry.uid_of(event["deck"], event["card"]))].append(now)
            elif event["type"] == "fault" and event["kind"] == "boxed_card":
                uid = registry.uid_of(f"{table}/A", event["cards"][0])
                rulings[(table, layout.antenna_of(TRAY), uid)].append(now)

        hub.add_listener(on_event)
        # A second subscriber to the raw table events splits the path: the agent's own timestamp
        # (frames read) and the arrival through Mosquitto, without the hub.
        stages: dict[Key, list[tuple[float, float]]] = defaultdict(list)

        def on_raw(message: Message) -> None:
            now = time.monotonic()
            data = json.loads(message.payload)
            if data.get("type") == "card_arrived" and data.get("card"):
                antenna = layout.antenna_of(Zone.parse(data["zone"]))
                stages[(data["table"], antenna, data["uid"])].append((data["at"], now))

        spy = MqttLink(client_id="bench-spy", host=broker.host, port=broker.port)
        spy.subscribe(wire.ALL_TABLE_EVENTS, on_raw)
        spy.start()
        outs = [f"/tmp/tapis-bench-{os.getpid()}-{i}.json" for i in range(args.procs)]
        procs = [subprocess.Popen([sys.executable, __file__, "--worker", "--ids", ",".join(ids[i::args.procs]),
                                   "--tables", str(args.tables), "--port", str(broker.port),
                                   "--seconds", str(args.seconds), "--pace", str(args.pace),
                                   "--boxed", str(args.boxed), "--out", outs[i]]
                                  + (["--switch", str(args.switch)] if args.switch else []))
                 for i in range(args.procs)]
        cpu0, wall0 = os.times(), time.monotonic()
        for proc in procs:
            proc.wait()
        cpu1, wall = os.times(), time.monotonic() - wall0
        hands = sum(g.hand_no for g in hub.games.values())
        spy.stop()
        room.close()
    writes: dict[Key, list[float]] = {}
    worker_cpu = 0.0
    for out in outs:
        data = json.loads(Path(out).read_text())
        worker_cpu += data["cpu"]
        faults.update({(t, seq): (read, sent) for t, seq, read, sent in data["faults"]})
        Path(out).unlink()
        for table, antenna, uid, ts in data["writes"]:
            writes[(table, antenna, uid)] = sorted(ts)

    def pair(seen: dict[Key, list[float]]) -> list[float]:
        out = []
        for key, times in seen.items():
            starts = writes.get(key, [])
            for t in times:
                i = bisect.bisect_right(starts, t)
                if i:
                    out.append(t - starts[i - 1])
        return out

    agent_read, to_broker = [], []
    for key, pairs in stages.items():
        starts = writes.get(key, [])
        for at, arrived in pairs:
            i = bisect.bisect_right(starts, at)
            if i:
                agent_read.append(at - starts[i - 1])
                to_broker.append(arrived - at)
    hub_cpu = (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / wall
    print(f"pipeline: {args.tables} tables in {args.procs} processes for {wall:.0f} s, {hands} hands, "
          f"{events / wall:.0f} hub events/s")
    print(percentiles("card: tag frame on pty -> hub state", pair(received)))
    print(percentiles("boxed card: tag frame on pty -> ruling published", pair(rulings)))
    print(percentiles("  of which: tag frame on pty -> agent has read it", agent_read))
    print(percentiles("  of which: agent -> Mosquitto -> a subscriber", to_broker))
    by_stage: dict[str, list[float]] = defaultdict(list)
    for k, (read, sent) in faults.items():
        if k in hub_handled:
            by_stage["agent has read the card -> publish called"].append(sent - read)
            by_stage["publish called -> hub's paho thread"].append(hub_received[k] - sent)
            by_stage["hub's paho thread -> hub's consumer"].append(hub_dequeued[k] - hub_received[k])
            by_stage["hub's consumer -> ruling published"].append(hub_handled[k] - hub_dequeued[k])
    print("fault -> ruling, stage by stage:")
    for name, values in by_stage.items():
        print(percentiles(f"  {name}", values))
    print(f"hub process (hub + engine; Mosquitto excluded): CPU {hub_cpu * 100:.0f} % of one core, "
          f"max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB; "
          f"table processes: {worker_cpu / wall * 100:.0f} % of one core in all")


if __name__ == "__main__":
    main()
