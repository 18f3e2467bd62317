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
    python benchmarks/bench_pipeline.py --db [--repeat 2]    # the tournament hub, recorder off and on

`--db` runs the hub `tapis hub --db` builds (`hub.cli.build_hub`: HubLink, a durable SQLite store, the
tournament floor; nine players seated at each table by the floor's draw, `benchmarks/load_tournament.py`)
in turns with the hand-history recorder off and on (`--repeat` runs of each), and prints the boxed card's
ruling latency p50/p99 of each side by side, and the recorder's own time on the hub's thread per hand.
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
from typing import Any

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


_HOOKS: list[tuple[Stamps, Stamps, Stamps]] = []  # installed once: every run of the process shares them


def hub_timings() -> tuple[Stamps, Stamps, Stamps]:
    """Times each fault event reaches the hub's paho thread, its consumer thread, and is done with
    (the ruling published); emptied for each run."""
    if _HOOKS:
        for stamps in _HOOKS[0]:
            stamps.clear()
        return _HOOKS[0]
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
    _HOOKS.append((received, dequeued, handled))
    return received, dequeued, handled


def percentiles(name: str, values: list[float]) -> str:
    if len(values) < 2:
        return f"{name}: {len(values)} samples, not enough"
    ms = sorted(v * 1000 for v in values)
    q = statistics.quantiles(ms, n=100)
    return (f"{name}: n={len(ms)} median {statistics.median(ms):.2f} ms, p90 {q[89]:.2f} ms, "
            f"p99 {q[98]:.2f} ms, max {ms[-1]:.2f} ms")


def run_room(args: argparse.Namespace, hub_kind: str) -> dict[str, Any]:
    """One run of `args.seconds`: the tables in worker processes against a hub in this process, on a private
    Mosquitto. `hub_kind`: "cash" (`demo.start_hub`, each table's game configured), or the tournament hub
    of `tapis hub --db` (`hub.cli.build_hub`: HubLink, a durable store, the floor) with the hand-history
    recorder "off" or "on". Returns the samples and counts `report` prints."""
    ids = demo.table_ids(args.tables)
    registry = DeckRegistry.generate(ids)
    layout = TableProfile.default("t1", seats=9)
    received: dict[Key, list[float]] = defaultdict(list)
    rulings: dict[Key, list[float]] = defaultdict(list)
    counts = {"events": 0, "hands": 0}
    hub_received, hub_dequeued, hub_handled = hub_timings()
    faults: dict[tuple[str, int], tuple[float, float]] = {}
    recorder_s: list[tuple[float, float]] = []
    probe = None
    with EmbeddedBroker() as broker:
        room = demo.Room(hub=None, tables=[], registry=registry)
        if hub_kind == "cash":
            hub = demo.start_hub(room, host=broker.host, port=broker.port, ids=ids, seed=7)
        else:
            import load_tournament  # beside this script

            from hub.history.recorder import HandRecorder

            write = HandRecorder._write
            HandRecorder._write = _timed(write, recorder_s)  # type: ignore[method-assign]
            parts, probe = load_tournament.start_tournament_hub(broker.port, args.tables, 7, args.db_dir,
                                                                record_hands=hub_kind == "on")
            parts.start()
            room._closers.append(parts.stop)
            room._closers.append(lambda: setattr(HandRecorder, "_write", write))
            hub = parts.service

        def on_event(event: dict) -> None:
            now = time.monotonic()
            counts["events"] += 1
            table = event["table"]
            if event["type"] == "hand_end":
                counts["hands"] += 1
            elif event["type"] == "card" and event["action"] == "arrived" and event["card"]:
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
        spy.stop()
        room.close()
        if probe is not None:
            probe.close()
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
    by_stage: dict[str, list[float]] = defaultdict(list)
    for k, (read, sent) in faults.items():
        if k in hub_handled and k in hub_received:  # the hub on MqttLink (cash); HubLink has no paho thread
            by_stage["agent has read the card -> publish called"].append(sent - read)
            by_stage["publish called -> hub's paho thread"].append(hub_received[k] - sent)
            by_stage["hub's paho thread -> hub's consumer"].append(hub_dequeued[k] - hub_received[k])
            by_stage["hub's consumer -> ruling published"].append(hub_handled[k] - hub_dequeued[k])
        elif k in hub_handled and k in hub_dequeued:
            by_stage["hub's loop -> ruling published"].append(hub_handled[k] - hub_dequeued[k])
    return {"wall": wall, "hands": counts["hands"], "events": counts["events"], "cards": pair(received),
            "rulings": pair(rulings), "agent_read": agent_read, "to_broker": to_broker, "by_stage": by_stage,
            "hub_cpu": (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / wall, "worker_cpu": worker_cpu,
            "recorder_s": [end - began for began, end in recorder_s],
            "waited": waited(faults, hub_dequeued, recorder_s)}


def _timed(write: Any, spent: list[tuple[float, float]]) -> Any:
    """`HandRecorder._write` timed: when the hub's thread wrote a hand's history (CLOCK_MONOTONIC, shared by
    the processes: a ruling published by a table meanwhile waited for it)."""
    def timed(self: Any, *a: Any) -> Any:
        began = time.monotonic()
        try:
            return write(self, *a)
        finally:
            spent.append((began, time.monotonic()))
    return timed


def waited(faults: dict[tuple[str, int], tuple[float, float]], dequeued: dict[tuple[str, int], float],
           writes: list[tuple[float, float]]) -> list[float]:
    """For each ruling the hub's loop took up, the seconds it waited behind a history being written: the
    overlap of (the table published it, the hub's loop took it) with the recorder's writes (0: none)."""
    out = []
    for k, (_read, sent) in faults.items():
        if k in dequeued:
            out.append(sum(max(0.0, min(end, dequeued[k]) - max(began, sent)) for began, end in writes))
    return out


def report(args: argparse.Namespace, r: dict[str, Any]) -> None:
    wall = r["wall"]
    print(f"pipeline: {args.tables} tables in {args.procs} processes for {wall:.0f} s, {r['hands']} hands, "
          f"{r['events'] / wall:.0f} hub events/s")
    print(percentiles("card: tag frame on pty -> hub state", r["cards"]))
    print(percentiles("boxed card: tag frame on pty -> ruling published", r["rulings"]))
    print(percentiles("  of which: tag frame on pty -> agent has read it", r["agent_read"]))
    print(percentiles("  of which: agent -> Mosquitto -> a subscriber", r["to_broker"]))
    print("fault -> ruling, stage by stage:")
    for name, values in r["by_stage"].items():
        print(percentiles(f"  {name}", values))
    print(f"hub process (hub + engine; Mosquitto excluded): CPU {r['hub_cpu'] * 100:.0f} % of one core, "
          f"max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB; "
          f"table processes: {r['worker_cpu'] / wall * 100:.0f} % of one core in all")


def p50_p99(values: list[float]) -> tuple[float, float]:
    ms = sorted(v * 1000 for v in values)
    return statistics.median(ms), statistics.quantiles(ms, n=100, method="inclusive")[98]  # never past the max


def report_recorder(args: argparse.Namespace, runs: dict[str, list[dict[str, Any]]]) -> None:
    """The tournament hub's ruling latency with the recorder off and on, side by side, and its time per hand."""
    print(f"\nthe tournament hub (`tapis hub --db`: store, floor), {args.tables} tables, {args.repeat} x "
          f"{args.seconds:.0f} s per variant, in turns (off, on, off, on...):")
    print(f"{'':<13}{'rulings':>8}{'hands':>7}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}   boxed card: tag frame on "
          "pty -> ruling published")
    figures = {}
    for kind in ("off", "on"):
        rulings = [v for r in runs[kind] for v in r["rulings"]]
        hands = sum(r["hands"] for r in runs[kind])
        if len(rulings) < 2:
            print(f"recorder {kind:<4} {len(rulings)} rulings: not enough")
            continue
        figures[kind] = p50_p99(rulings)
        print(f"recorder {kind:<4}{len(rulings):>8}{hands:>7}{figures[kind][0]:>9.2f}{figures[kind][1]:>9.2f}"
              f"{max(rulings) * 1000:>9.2f}")
        for i, r in enumerate(runs[kind], start=1):
            if len(r["rulings"]) >= 2:
                p50, p99 = p50_p99(r["rulings"])
                print(f"  run {i}: {len(r['rulings'])} rulings, p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    if len(figures) == 2:
        on, off = figures["on"], figures["off"]
        print(f"on / off: p50 x{on[0] / off[0]:.2f}, p99 x{on[1] / off[1]:.2f}")
    spent = [v for r in runs["on"] for v in r["recorder_s"]]
    if len(spent) >= 2:
        print(percentiles("the recorder on the hub's thread, per hand's history written", spent))
    behind = [v for r in runs["on"] for v in r["waited"]]
    hit = sorted(v for v in behind if v > 0)
    if behind:
        print(f"rulings that waited behind a history being written: {len(hit)} of {len(behind)} "
              f"({len(hit) / len(behind) * 100:.1f} %)"
              + (f", by {statistics.median(hit) * 1000:.2f} ms (median), {hit[-1] * 1000:.2f} ms at most"
                 if hit else ""))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--procs", type=int, default=2, help="worker processes for the tables")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--pace", type=float, default=0.3, help="seconds between a croupier's cards")
    ap.add_argument("--boxed", type=float, default=0.05, help="chance of a boxed card before each hole card")
    ap.add_argument("--db", action="store_true",
                    help="the tournament hub of `tapis hub --db` (store, floor) instead of the cash hub: the "
                         "ruling latency with the hand-history recorder off and on, side by side")
    ap.add_argument("--repeat", type=int, default=2, help="--db: runs of each variant, in turns")
    ap.add_argument("--db-dir", default=None, help="--db: where the store is made (default: the temp dir)")
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
    if not args.db:
        report(args, run_room(args, "cash"))
        return
    runs: dict[str, list[dict[str, Any]]] = {"off": [], "on": []}
    for _ in range(args.repeat):
        for kind in ("off", "on"):
            runs[kind].append(run_room(args, kind))
            print(f"-- recorder {kind}:")
            report(args, runs[kind][-1])
    report_recorder(args, runs)


if __name__ == "__main__":
    main()
