"""Benchmark: the export of N hands (`tapis hands export`), timed; figures printed, never asserted.

Plays a short simulated tournament through the real hub code (`simulators.tournament_demo`, in memory)
with the recorder listening, copies its histories to N hands in a throwaway store, then times
`tapis hands export` to PHH files and to JSON lines, and the recorder's build of one hand's record.
Run: python benchmarks/bench_hands.py [--hands 10000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hub.floor.store import EventStore  # noqa: E402
from hub.history.cli import write_jsonl, write_phh  # noqa: E402
from hub.history.hand_record import public_record  # noqa: E402
from hub.history.recorder import HandRecorder  # noqa: E402
from hub.history.store import HistoryStore, Selection  # noqa: E402
from simulators.tournament_demo import new_demo, open_room  # noqa: E402


def _played(store: EventStore, steps: int, *, record: bool = True) -> tuple[list[dict[str, Any]], float, list[float]]:
    """Histories of a simulated tournament's first `steps` table facts, the recorder's seconds per hand, and
    each fact's seconds on the hub's thread (stored, played, ruled and, with `record`, recorded)."""
    new_demo(store, players=18, tables=2, ruleset="cdc-2013", seed=3)
    room = open_room(store, seed=3)
    recorder = HandRecorder(room.tables, wall=lambda: room.now) if record else None
    receive = room.tables.receive
    spent = 0.0
    per_fact: list[float] = []

    def listened(table: str, event: Any, payload: bytes, now: float) -> Any:
        nonlocal spent
        started = time.perf_counter()
        out = receive(table, event, payload, now)
        played = time.perf_counter()
        if out is not None and recorder is not None:
            for e in out.events:
                recorder.event(e)
        done = time.perf_counter()
        spent += done - played
        per_fact.append(done - started)
        return out

    room.tables.receive = listened  # type: ignore[method-assign]
    for _ in range(steps):
        if room.finished():
            break
        room.step()
    records = list(HistoryStore(store).records(td=True))
    return records, spent / max(1, recorder.written if recorder else 1), per_fact


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def run(hands: int, out: TextIO) -> int:
    with tempfile.TemporaryDirectory(prefix="tapis-hands-bench-") as tmp:
        root = Path(tmp)
        runs: dict[bool, list[list[float]]] = {True: [], False: []}
        for i in range(4):  # alternated, so that other load on the machine hits both alike
            for record in (False, True):
                with EventStore(root / f"played-{i}-{record}.db", durable=False) as played:
                    records, per_hand, per_fact = _played(played, 1500, record=record)
                    runs[record].append(per_fact)
        with EventStore(root / "bench.db", durable=False) as store:
            history = HistoryStore(store)
            started = time.perf_counter()
            with store.atomic():
                for i in range(hands):
                    r = {**records[i % len(records)], "hand": i + 1, "table": f"t{i % 6 + 1}",
                         "ended_at": 1_800_000_000.0 + i}
                    history.put(r, public_record(r))
            stored = time.perf_counter() - started
            size = sum(p.stat().st_size for p in root.glob("bench.db*"))
            started = time.perf_counter()
            n_phh = write_phh(history.records(Selection(), td=True), root / "phh")
            phh_s = time.perf_counter() - started
            started = time.perf_counter()
            with (root / "hands.jsonl").open("w", encoding="utf-8") as f:
                n_jsonl = write_jsonl(history.records(Selection()), f)
            jsonl_s = time.perf_counter() - started
    out.write(f"bench_hands: {len(records)} hands played by the simulated room, recorded in "
              f"{per_hand * 1000:.2f} ms each (at each hand's end, on the hub's thread)\n")
    for record, label in ((False, "without the recorder"), (True, "with the recorder   ")):
        p50 = min(_pct(r, 0.50) for r in runs[record])
        p99 = min(_pct(r, 0.99) for r in runs[record])
        top = min(max(r) * 1000 for r in runs[record])
        out.write(f"  each table fact on the hub's thread, {label}: p50 {p50:.2f} ms, p99 {p99:.2f} ms, "
                  f"max {top:.1f} ms (best of {len(runs[record])} runs)\n")
    out.write(f"  {hands} hands stored in {stored:.2f} s ({size / hands / 1024:.1f} kB a hand, both versions)\n")
    out.write(f"  export PHH, TD's: {n_phh} files in {phh_s:.2f} s ({n_phh / phh_s:.0f} hands/s)\n")
    out.write(f"  export JSON lines, public: {n_jsonl} hands in {jsonl_s:.2f} s ({n_jsonl / jsonl_s:.0f} hands/s)\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=10_000)
    args = p.parse_args(argv)
    return run(args.hands, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
