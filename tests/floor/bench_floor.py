"""Benchmark of the floor service: store appends (durable and not), a whole simulated tournament
through the hub code, and the rebuild after a kill. Prints figures; asserts nothing about speed.

    cd /work/main && python tests/floor/bench_floor.py
"""

from __future__ import annotations

import io
import tempfile
import time
from pathlib import Path

from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from simulators.tournament_demo import new_demo, open_room, run_tournament_demo


def bench_appends(tmp: Path, durable: bool, n: int) -> float:
    with EventStore(tmp / f"appends-{durable}.db", durable=durable) as store:
        payload = b'{"v":1,"table":"t1","type":"card_arrived","zone":"seat:3","card":"As"}'
        start = time.perf_counter()
        for seq in range(1, n + 1):
            store.append_table_event("t1", "boot", seq, payload, float(seq))
        return (time.perf_counter() - start) / n


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for durable, n in ((True, 2000), (False, 20000)):
            per = bench_appends(tmp, durable, n)
            print(f"append_table_event, synchronous={'FULL' if durable else 'OFF'}: "
                  f"{per * 1e6:8.1f} us each ({1 / per:9.0f}/s, {n} appends)")

        start = time.perf_counter()
        out = io.StringIO()
        run_tournament_demo(60, 6, "cdc-2013", 1, out, as_json=True)
        took = time.perf_counter() - start
        last = out.getvalue().splitlines()[-1]
        import json
        results = json.loads(last)
        events, hands = results["table_events"], results["hands"]
        print(f"tournament demo 60 players / 6 tables: {took:6.2f} s, {events} table events "
              f"({events / took:7.0f}/s), {hands} hands ({hands / took:5.1f}/s)")

        path = tmp / "rebuild.db"
        with EventStore(path, durable=False) as store:
            new_demo(store, players=60, tables=6, ruleset="cdc-2013", seed=1)
            room = open_room(store, seed=1)
            while room.steps < 4000 and not room.finished():
                room.step()
            tournament_events = store.count_tournament_events()
        start = time.perf_counter()
        with EventStore(path) as store:
            floor = FloorService.open(store)
            FloorTables.open(floor, store)
        took = time.perf_counter() - start
        print(f"rebuild after a kill (4000 table events, {tournament_events} tournament events): "
              f"{took * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
