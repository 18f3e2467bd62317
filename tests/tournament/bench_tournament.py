"""Benchmark of the tournament core (prints figures; not a test): a simulated 120-player Pouques
event and a 600-player festival played to a winner, replay from stored JSON, snapshot cost.

Run: cd /work/main && python tests/tournament/bench_tournament.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tournament_sim import play  # noqa: E402

from hub.tournament.events import event_from_dict  # noqa: E402
from hub.tournament.tournament import Tournament  # noqa: E402


def main() -> None:
    for ruleset, players, tables in (("pouques-2020", 120, 12), ("cdc-2013", 600, 60)):
        t0 = time.perf_counter()
        t, report = play(ruleset, players=players, tables=tables, seed=1, check=False)
        played = time.perf_counter() - t0
        print(f"{ruleset}: {players} players on {tables} tables to one winner: {report.hands} hands, "
              f"{report.moves} moves, {report.broken} tables broken, {len(t.events)} events in "
              f"{played:.2f} s ({report.hands / played:,.0f} hands/s, "
              f"{played / report.hands * 1e3:.3f} ms per hand incl. the simulator)")
        t0 = time.perf_counter()
        blob = json.dumps([e.to_dict() for e in t.events])
        encoded = time.perf_counter() - t0
        t0 = time.perf_counter()
        records = [event_from_dict(d) for d in json.loads(blob)]
        decoded = time.perf_counter() - t0
        t0 = time.perf_counter()
        rebuilt = Tournament.replay(records)
        replayed = time.perf_counter() - t0
        assert rebuilt.state == t.state
        n = len(t.events)
        print(f"  store {n} events as JSON: {n / encoded:,.0f} ev/s encode, {n / decoded:,.0f} ev/s decode, "
              f"{len(blob) / 1e6:.2f} MB; replay {n / replayed:,.0f} ev/s ({replayed * 1e3:.1f} ms)")
        fresh, _ = play(ruleset, players=players, tables=tables, seed=1, max_rounds=1, check=False)
        t0 = time.perf_counter()
        for i in range(200):
            fresh.snapshot(100.0 + i)
        print(f"  snapshot with {players} players seated: {(time.perf_counter() - t0) / 200 * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
