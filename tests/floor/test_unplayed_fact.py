"""A hub killed between storing a table's fact and playing it plays that fact when it opens the store.

`FloorTables.receive` stores a fact, then plays it; one consumer thread does both, so only the last
stored fact can be unplayed after a kill. `FloorTables.open` must play it, whatever the table: also a
table whose very first "new hand" press it is (no hand context stored yet for that table).
"""

from __future__ import annotations

from pathlib import Path

from service_helpers import db, floor_state, started_floor, tables_state

from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from tablewire import wire


def _press(table: str, seq: int, at: float) -> wire.DealerPressed:
    return wire.DealerPressed(table=table, boot=f"{table}-b1", seq=seq, at=at, button="new_hand", seat=None)


State = tuple[dict[str, object], dict[str, dict[str, object]]]  # the floor, every table's game


def _straight(path: str, presses: list[wire.DealerPressed]) -> State:
    with EventStore(path) as store:
        floor = started_floor(store, 12, tables=2)
        tables = FloorTables(floor, store)
        for n, press in enumerate(presses, start=1):
            tables.receive(press.table, press, wire.encode(press), 10.0 * n)
        return floor_state(floor, 100.0), tables_state(tables)


def _killed_before_the_last_is_played(path: str, presses: list[wire.DealerPressed]) -> State:
    """Every press but the last received; the last stored as `receive` stores it, then the kill."""
    with EventStore(path) as store:
        floor = started_floor(store, 12, tables=2)
        tables = FloorTables(floor, store)
        *played, last = presses
        for n, press in enumerate(played, start=1):
            tables.receive(press.table, press, wire.encode(press), 10.0 * n)
        assert store.append_table_event(last.table, last.boot, last.seq, wire.encode(last), 10.0 * len(presses))
    with EventStore(path) as store:
        floor = FloorService.open(store)
        tables = FloorTables.open(floor, store)
        return floor_state(floor, 100.0), tables_state(tables)


def test_a_first_press_stored_but_not_played_is_played_on_open(tmp_path: Path) -> None:
    """The table's very first fact: no hand context anywhere in the store."""
    presses = [_press("t1", 1, 5.0)]
    straight = _straight(db(tmp_path, "straight.db"), presses)
    assert straight[1]["t1"]["in_hand"] and straight[1]["t1"]["hand_no"] == 1
    assert _killed_before_the_last_is_played(db(tmp_path, "killed.db"), presses) == straight


def test_a_first_press_of_one_table_is_played_while_another_has_a_hand(tmp_path: Path) -> None:
    """t2 has a hand context (replayed from it); t1's first press, the last fact stored, is played too."""
    presses = [_press("t2", 1, 5.0), _press("t1", 1, 6.0)]
    straight = _straight(db(tmp_path, "straight.db"), presses)
    assert set(straight[1]) == {"t1", "t2"}
    assert _killed_before_the_last_is_played(db(tmp_path, "killed.db"), presses) == straight


def test_a_fact_stored_and_played_is_not_played_twice(tmp_path: Path) -> None:
    """The kill after the play: open rebuilds the same floor (one HandStarted per hand)."""
    presses = [_press("t2", 1, 5.0), _press("t1", 1, 6.0)]
    straight = _straight(db(tmp_path, "straight.db"), presses)
    with EventStore(db(tmp_path, "straight.db")) as store:
        floor = FloorService.open(store)
        assert (floor_state(floor, 100.0), tables_state(FloorTables.open(floor, store))) == straight
