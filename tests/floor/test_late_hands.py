"""A hand the hub hears late (its table was cut off) is set up as of when its dealer pressed "new hand".

The table's agent stamps events with its own monotonic clock (here 5000 s ahead of the hub's);
`FloorTables` learns the offset from the events it hears live, stores it, and asks the floor for the
hand's level as of the press. Pouques levels: 50/100 until 2400 s, then 100/200.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from service_helpers import db, floor_state, started_floor, tables_state

from hub.floor.service import FloorService
from hub.floor.store import EventStore, StoreError
from hub.floor.tables import FloorTables
from hub.rules import Level as HandLevel
from simulators.tournament_demo import BOOT, new_demo, open_room
from tablewire import wire

AHEAD = 5000.0  # the table's monotonic clock minus the hub's
LEVEL_1, LEVEL_2 = HandLevel(50, 100, 0, False), HandLevel(100, 200, 0, False)


def _heard(tables: FloorTables, seq: int, hub_time: float, arrival: float) -> None:
    """t1 reports its reader at `hub_time`, heard at `arrival`."""
    event = wire.ReaderStatus(table="t1", boot="b1", seq=seq, at=hub_time + AHEAD, state="connected")
    tables.receive("t1", event, wire.encode(event), arrival)


def _press(seq: int, hub_time: float) -> wire.DealerPressed:
    return wire.DealerPressed(table="t1", boot="b1", seq=seq, at=hub_time + AHEAD, button="new_hand", seat=None)


def test_a_hand_pressed_before_the_level_change_and_heard_after_keeps_its_level(tmp_path: Path) -> None:
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 12, tables=2)
        tables = FloorTables(floor, store)
        _heard(tables, 1, 100.0, 100.3)  # live: the hub learns t1's clock
        floor.pump(2500.0)  # level 2 for the room...
        press = _press(2, 2390.0)  # ...but t1's dealer pressed at 2390 s, before the cut ended
        tables.receive("t1", press, wire.encode(press), 2500.0)
        game = tables.game("t1")
        assert game is not None and game.in_hand and game.level == LEVEL_1
        t = floor.require()
        assert t.state.clock.level().number == 2  # the clock did not go back
        assert t.hand_level(1) == 1 and t.events[-1].at == pytest.approx(2390.3)
        # t2, heard live, plays at the room's level.
        live = wire.DealerPressed(table="t2", boot="c1", seq=1, at=7.0, button="new_hand", seat=None)
        tables.receive("t2", live, wire.encode(live), 2501.0)
        assert tables.game("t2").level == LEVEL_2  # type: ignore[union-attr]


def test_a_boot_never_heard_live_is_set_up_at_its_arrival(tmp_path: Path) -> None:
    """No offset for that clock: the hub knows no better than the arrival (docs/tournament.md)."""
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 12, tables=2)
        tables = FloorTables(floor, store)
        floor.pump(2500.0)
        press = _press(1, 2390.0)
        tables.receive("t1", press, wire.encode(press), 2500.0)
        assert tables.game("t1").level == LEVEL_2  # type: ignore[union-attr]


class Killed(Exception):
    """Stands in for the hub's death between storing a fact and playing it: raised in-process, the
    store reopened (a real SIGKILL of a hub process is tests/floor/test_kill.py)."""


def _late_press_in_the_demo(path: str, *, kill: bool) -> tuple[dict[str, dict[str, object]], dict[str, object]]:
    """The demo room (6-minute levels: level 2 from 360.5 s) until t1 is between hands before the
    change; then t1's next press, stamped then, reaches the hub at 420 s. With `kill`, playing the
    press raises once it is stored (in-process, no signal) and a new FloorService and FloorTables
    are built from the store. Returns (tables, floor) as they end."""
    with EventStore(path, durable=False) as store:
        new_demo(store, players=12, tables=2, ruleset="cdc-2013", seed=4)
        room = open_room(store, seed=4)
        while room.now < 280 or room.tables.game("t1").in_hand:  # type: ignore[union-attr]
            room.step()
        assert room.now < 355  # t1 pressed at level 1
        press = wire.DealerPressed(table="t1", boot=BOOT, seq=store.count_table_events("t1") + 1,
                                   at=room.now + 1, button="new_hand", seat=None)
        room.floor.pump(420.0)
        assert room.floor.require().state.clock.level().number == 2
        tables = room.tables
        if kill:
            def die(*_args: object, **_kw: object) -> None:
                raise Killed

            tables.play = die  # type: ignore[method-assign, assignment]
            with pytest.raises(Killed):
                tables.receive("t1", press, wire.encode(press), 420.0)
            floor = FloorService.open(store)
            tables = FloorTables.open(floor, store)
        else:
            tables.receive("t1", press, wire.encode(press), 420.0)
            floor = room.floor
        return tables_state(tables), floor_state(floor, 420.0)


def test_a_hub_interrupted_before_playing_a_late_press_and_rebuilt_from_its_store_sets_it_up_the_same(
        tmp_path: Path) -> None:
    """The offset is stored with the fact that taught it: the rebuilt hub converts the press alike.
    (An exception stands in for the death; the process-level SIGKILL is tests/floor/test_kill.py.)"""
    straight = _late_press_in_the_demo(db(tmp_path, "straight.db"), kill=False)
    assert straight[0]["t1"]["in_hand"] and straight[0]["t1"]["level"] == HandLevel(25, 50, 0, False)
    assert _late_press_in_the_demo(db(tmp_path, "killed.db"), kill=True) == straight


def test_a_bad_stored_table_clock_is_refused_by_name(tmp_path: Path) -> None:
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 12, tables=2)
        store.put_config("table_clock/t1", {"b1": "soon"})
        with pytest.raises(StoreError, match="table_clock/t1"):
            FloorTables.open(floor, store)
