"""A hub killed with SIGKILL mid-hand resumes identically.

A subprocess runs the seeded tournament script (`simulators.tournament_demo --steps`: FloorService +
FloorTables + TableGame over a durable store); the test kills it mid-hand, checks that the store
rebuilds the very state an uninterrupted run had at that point (clock, seats, stacks, the hand in
progress), then a new process opens the store and plays on; the two stores end byte-identical."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from service_helpers import floor_state, tables_state

from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from hub.tournament.events import HandEnded
from simulators.tournament_demo import new_demo, open_room
from tablewire import wire

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--players", "27", "--tables", "3", "--seed", "5", "--ruleset", "cdc-2013"]


def _script(db: Path, steps: int) -> list[str]:
    return [sys.executable, "-m", "simulators.tournament_demo", *ARGS, "--steps", str(steps), "--durable",
            "--db", str(db)]


def _dump(db: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]], list[tuple[object, ...]]]:
    con = sqlite3.connect(db)
    try:
        return (con.execute("SELECT body FROM tournament_event ORDER BY id").fetchall(),
                con.execute("SELECT tbl, boot, seq, at, payload FROM table_event ORDER BY id").fetchall(),
                con.execute("SELECT key, value FROM config ORDER BY key").fetchall())
    finally:
        con.close()


def _reference(tmp_path: Path, steps: int) -> tuple[dict[str, object], dict[str, dict[str, object]], float]:
    """An uninterrupted in-process run stopped after `steps` table events."""
    with EventStore(tmp_path / f"ref-{steps}.db", durable=False) as store:
        new_demo(store, players=27, tables=3, ruleset="cdc-2013", seed=5)
        room = open_room(store, seed=5)
        while room.steps < steps:
            room.step()
        return floor_state(room.floor, room.now), tables_state(room.tables), room.now


def _first_break_step() -> int:
    """Table events stored when the script's first break has begun (presses refused from then on)."""
    with EventStore(":memory:", durable=False) as store:
        new_demo(store, players=27, tables=3, ruleset="cdc-2013", seed=5)
        room = open_room(store, seed=5)
        while not room.floor.require().state.clock.on_break:
            room.step()
        return room.steps


BREAK = _first_break_step()
TOTAL = BREAK + 400


@pytest.mark.parametrize("kill_at, mid_hand", [(700, True), (BREAK + 60, False)])
def test_hub_killed_mid_hand_resumes_identically(tmp_path: Path, kill_at: int, mid_hand: bool) -> None:
    """At 700 table events hands are in play; past the first break's start presses are refused."""
    straight = tmp_path / "straight.db"
    subprocess.run(_script(straight, TOTAL), cwd=ROOT, check=True, stdout=subprocess.DEVNULL)

    killed = tmp_path / "killed.db"
    proc = subprocess.Popen(_script(killed, TOTAL), cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if int(line.split()[1]) >= kill_at:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL

    with EventStore(killed) as store:
        stored = store.count_table_events()
        floor = FloorService.open(store)
        tables = FloorTables.open(floor, store)
        assert kill_at <= stored < TOTAL
        live = [g for g in (tables.game(t) for t in tables.tables) if g is not None and g.in_hand]
        if mid_hand:  # some table's hand is in progress, with cards on the felt
            assert live and any(g.hole for g in live)
        else:
            assert floor.require().state.clock.on_break
        ref_floor, ref_tables, now = _reference(tmp_path, stored)
        assert floor_state(floor, now) == ref_floor
        assert tables_state(tables) == ref_tables

    subprocess.run(_script(killed, TOTAL), cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    a, b = _dump(straight), _dump(killed)
    assert len(a[1]) == TOTAL
    assert a == b


def test_kill_between_storing_an_event_and_playing_it(tmp_path: Path) -> None:
    """The worst moment: the event that ends a hand is stored, the floor never saw it. The rebuild
    plays it, so the hand's end, eliminations and moves are counted once, as in a straight run."""
    with EventStore(tmp_path / "straight.db", durable=False) as store:
        new_demo(store, players=27, tables=3, ruleset="cdc-2013", seed=5)
        room = open_room(store, seed=5)
        ended = 0
        while ended < 3:
            ended += sum(1 for e in room.step() if isinstance(e, HandEnded))
        steps, now = room.steps, room.now
        expected, expected_tables = floor_state(room.floor, now), tables_state(room.tables)
    path = tmp_path / "window.db"
    with EventStore(path, durable=False) as store:
        new_demo(store, players=27, tables=3, ruleset="cdc-2013", seed=5)
        room = open_room(store, seed=5)
        while room.steps < steps - 1:
            room.step()
        t = room.floor.require()
        last = room.prepare()  # the script's next event, stored but never played
        assert store.append_table_event(last.table, last.event.boot, last.event.seq, wire.encode(last.event),
                                        room.now)
        assert sum(1 for e in t.events if isinstance(e, HandEnded)) == 2
    with EventStore(path, durable=False) as store:
        floor = FloorService.open(store)
        tables = FloorTables.open(floor, store)
        assert floor_state(floor, now) == expected
        assert tables_state(tables) == expected_tables
        assert store.count_tournament_events() == len(floor.require().events)
