"""A Time countdown that runs out at a tournament table, through the hub as a table sends its buttons.

The hub's clock kills the slow player's hand (cdc 10.13). A hand that ends so goes to the floor like any
other: it went to the table and the room only, the floor kept it in progress and refused every later
"new hand" at that table. And nothing stores the expiry: a hub rebuilt from its store (`FloorTables.open`)
replayed the facts after it on a hand where he was still to act (the next player's fold out of turn). A
hub rebuilt during a countdown tells the table the time left, not the whole time again. And the time does
not run out while the table waits for the TD: his ruling ends the Time call."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from service_helpers import Clock, db, floor_hub, game_state, send, started_floor

from hub.edge.service import HubService
from hub.floor.store import EventStore, StoreError
from hub.floor.tables import FloorTables
from tablewire import wire
from tests.hub.fake_link import RecordingLink
from tests.support import wait_until


def _expire(hub: HubService, clock: Clock, wall: Clock, heard: list[dict[str, Any]]) -> None:
    """The countdown called runs out, on the hub's clock."""
    [called] = [e for e in heard if e["type"] == "time"]
    gone = called["expires_at"] - wall.t + 1
    clock.t, wall.t = clock.t + gone, wall.t + gone
    assert hub.tick(5)


def _time_called_heads_up(hub: HubService, tables: FloorTables) -> int:
    """Table t1's first hand folded round to two players, Time called on the one to act; its next seq."""
    send(hub, wire.DealerPressed(table="t1", boot="b1", seq=1, at=1.0, button="new_hand", seat=None))
    game = tables.game("t1")
    assert game is not None and game.hand is not None
    seq = 2
    while len(game.hand.live) > 2:
        send(hub, wire.SeatActed(table="t1", boot="b1", seq=seq, at=seq, seat=game.hand.to_act, action="fold"))
        seq += 1
    send(hub, wire.DealerPressed(table="t1", boot="b1", seq=seq, at=seq, button="time", seat=game.hand.to_act))
    return seq + 1


def test_a_hand_the_countdown_ends_is_counted_and_the_next_is_dealt(tmp_path: Path) -> None:
    store = EventStore(db(tmp_path))
    started_floor(store, 12, tables=2)
    clock, wall = Clock(100_000.0), Clock(5.0)
    hub, tables, heard = floor_hub(store, clock, wall)
    try:
        seq = _time_called_heads_up(hub, tables)
        game = tables.game("t1")
        assert game is not None
        _expire(hub, clock, wall, heard)
        [end] = [e for e in heard if e["type"] == "hand_end"]
        assert end["hand"] == 1 and not game.in_hand and not hub.tables["t1"].hand_open
        assert tables.floor.in_hand("t1") is None  # counted: the winner's chips, the floor's stacks
        chips = {p.seat: p.chips for p in tables.floor.require().state.players.values() if p.table == 1}
        assert chips == {int(s): v for s, v in end["stacks"].items()}
        send(hub, wire.DealerPressed(table="t1", boot="b1", seq=seq, at=seq, button="new_hand", seat=None))
        assert [e for e in heard if e["type"] == "hand_refused"] == [] and game.hand_no == 2 and game.in_hand
    finally:
        hub.stop()
        store.close()


def test_the_hand_after_a_countdown_ran_out_is_rebuilt_as_played(tmp_path: Path) -> None:
    store = EventStore(db(tmp_path))
    started_floor(store, 12, tables=2)
    clock, wall = Clock(100_000.0), Clock(5.0)  # the hub's uptime, the tournament's wall time
    hub, tables, heard = floor_hub(store, clock, wall)
    try:
        send(hub, wire.DealerPressed(table="t1", boot="b1", seq=1, at=1.0, button="new_hand", seat=None))
        game = tables.game("t1")
        assert game is not None and game.hand is not None and game.hand.round_open
        slow = game.hand.to_act
        send(hub, wire.DealerPressed(table="t1", boot="b1", seq=2, at=2.0, button="time", seat=slow))
        _expire(hub, clock, wall, heard)
        assert [(f["kind"], f.get("seat")) for f in heard if f["type"] == "fault"] == [("time_expired", slow)]
        after = game.hand.to_act
        assert slow not in game.hand.live and after is not None
        clock.t, wall.t = clock.t + 5, wall.t + 5
        send(hub, wire.SeatActed(table="t1", boot="b1", seq=3, at=40.0, seat=after, action="fold"))
        assert after not in game.hand.live  # his fold, in turn
        played = game_state(game)
    finally:
        hub.stop()
    again, rebuilt, _ = floor_hub(store, Clock(7.0), wall)  # a new process: another monotonic clock
    try:
        replayed = rebuilt.game("t1")
        assert replayed is not None
        assert game_state(replayed) == played
        assert not replayed.timing
    finally:
        again.stop()
        store.close()


def test_a_rebuilt_hub_tells_the_table_the_time_left(tmp_path: Path) -> None:
    store = EventStore(db(tmp_path))
    started_floor(store, 12, tables=2)
    clock, wall = Clock(100_000.0), Clock(5.0)
    hub, tables, heard = floor_hub(store, clock, wall)
    try:
        send(hub, wire.DealerPressed(table="t1", boot="b1", seq=1, at=1.0, button="new_hand", seat=None))
        game = tables.game("t1")
        assert game is not None and game.hand is not None
        send(hub, wire.DealerPressed(table="t1", boot="b1", seq=2, at=2.0, button="time", seat=game.hand.to_act))
        [called] = [e for e in heard if e["type"] == "time"]
    finally:
        hub.stop()
    wall.t += 20
    again, _, _ = floor_hub(store, Clock(7.0), wall)
    link: RecordingLink = again._link  # noqa: SLF001

    def betting() -> list[wire.BettingCmd]:
        told = [wire.decode_command(t, p) for t, p, _, _ in list(link.published) if t == wire.table_commands("t1")]
        return [c for c in told if isinstance(c, wire.BettingCmd)]
    try:
        link.reconnect()  # the broker lets it in: each table is sent its hand's state again
        assert wait_until(lambda: betting() != [])
        assert betting()[-1].time_left == called["expires_at"] - wall.t
    finally:
        again.stop()
        store.close()


class FullStore(EventStore):
    """Fails its COMMITs while `full` (SQLite on a full disk), reads going on."""

    full = False

    def _exec(self, sql: str, params: tuple[object, ...] = ()) -> sqlite3.Cursor:
        if self.full and sql.strip().upper() == "COMMIT":
            raise StoreError(f"the event store {self.path} failed: database or disk is full")
        return super()._exec(sql, params)


def test_a_hand_the_countdown_ends_on_a_full_disk_is_counted_once_the_store_writes(tmp_path: Path) -> None:
    store = FullStore(db(tmp_path))
    started_floor(store, 12, tables=2)
    clock, wall = Clock(100_000.0), Clock(5.0)
    hub, tables, heard = floor_hub(store, clock, wall)
    try:
        _time_called_heads_up(hub, tables)
        store.full = True
        _expire(hub, clock, wall, heard)
        assert [e for e in heard if e["type"] == "hand_end"] == []  # not said: the floor could not count it
        rebuilt = tables.game("t1")
        assert rebuilt is not None and rebuilt.timing and tables.floor.in_hand("t1") == 1
        store.full = False
        assert hub.tick(5)
        [end] = [e for e in heard if e["type"] == "hand_end"]
        assert end["hand"] == 1 and tables.floor.in_hand("t1") is None
    finally:
        hub.stop()
        store.close()


def test_time_does_not_run_out_while_the_table_waits_for_the_td(tmp_path: Path) -> None:
    """pouques 70: two players act before the one on the clock woke up: the table stops for the TD's
    decision, the late one may not act. His Time ran on and killed his hand before the TD ruled on it."""
    store = EventStore(db(tmp_path))
    started_floor(store, 12, ruleset="pouques-2020", tables=2)
    clock, wall = Clock(100_000.0), Clock(5.0)
    hub, tables, heard = floor_hub(store, clock, wall)
    try:
        send(hub, wire.DealerPressed(table="t1", boot="b1", seq=1, at=1.0, button="new_hand", seat=None))
        game = tables.game("t1")
        assert game is not None and game.hand is not None and game.hand.to_act is not None
        slow = game.hand.to_act
        send(hub, wire.DealerPressed(table="t1", boot="b1", seq=2, at=2.0, button="time", seat=slow))
        seats = sorted(game.hand.live)
        after = [s for s in seats if s > slow] + [s for s in seats if s < slow]
        for seq, seat in ((3, after[0]), (4, after[1])):  # out of turn, before him
            send(hub, wire.SeatActed(table="t1", boot="b1", seq=seq, at=seq, seat=seat, action="call"))
        assert game.waiting_td
        _expire(hub, clock, wall, heard)
        assert [f for f in heard if f["type"] == "fault" and f["kind"] == "time_expired"] == []
        assert slow in game.hand.live and game.hand.to_act == slow
        hub.decide("t1", "out_of_turn", "call_or_fold_only", "alice")  # the dashboard's button
        assert wait_until(lambda: not game.waiting_td)
        assert slow in game.hand.live and game.hand.to_act == slow and not game.timing
        assert hub.tick(5) and [f for f in heard if f["type"] == "fault" and f["kind"] == "time_expired"] == []
    finally:
        hub.stop()
        store.close()
