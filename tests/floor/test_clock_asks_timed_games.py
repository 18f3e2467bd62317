"""The hub's clock asks only the games where a Time countdown runs (`TableGame.timing`): five times a
second, a festival's thousand tables each asked cost the loop milliseconds that every table event waited
behind. A countdown called at a tournament table runs out on the clock (cdc 10.13), after its time (the
floor's games count in the hub's wall time, not in its monotonic clock's), and again in a hub restarted
from its store during the countdown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from service_helpers import Clock, db, started_floor

from hub.edge.service import HubService
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from tablewire import wire
from tablewire.mqtt import Message
from tests.hub.fake_link import RecordingLink
from tests.support import wait_until


class Room:
    """A hub on the store with two clocks far apart, as installed: the monotonic one (the hub's uptime)
    and the wall's (the tournament's)."""

    def __init__(self, store: EventStore, clock: Clock, wall: Clock) -> None:
        self.link = RecordingLink()
        self.tables = FloorTables.open(FloorService.open(store, link=self.link), store)  # type: ignore[arg-type]
        self.hub = HubService(link=self.link, clock=clock, tick=3600, floor_tables=self.tables,  # type: ignore[arg-type]
                              wall=wall.now)
        self.heard: list[dict[str, Any]] = []
        self.hub.add_listener(self.heard.append)
        self.hub.start()

    def send(self, event: wire.AnyTableEvent) -> None:
        self.link.handlers[wire.ALL_TABLE_EVENTS](Message(wire.table_events(event.table), wire.encode(event), False))
        assert self.hub.settle(5)

    def kinds(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.heard if e["type"] == kind]


def started_room(tmp_path: Path) -> tuple[EventStore, Clock, Clock, Room]:
    """A tournament of 12 on two tables, and its hub: the hub's uptime far from the tournament's wall time."""
    store = EventStore(db(tmp_path))
    started_floor(store, 12, tables=2)
    clock, wall = Clock(100_000.0), Clock(5.0)
    return store, clock, wall, Room(store, clock, wall)


def test_only_a_game_with_a_countdown_is_ticked_and_its_time_runs_out(tmp_path: Path) -> None:
    store, clock, wall, room = started_room(tmp_path)
    hub, tables = room.hub, room.tables
    try:
        for table in ("t1", "t2"):  # a hand starts at both tables
            room.send(wire.DealerPressed(table=table, boot="b1", seq=1, at=1.0, button="new_hand", seat=None))
        assert wait_until(lambda: all((g := tables.game(t)) is not None and g.in_hand for t in ("t1", "t2")))
        assert hub._timed_games() == []  # noqa: SLF001 - two hands, no countdown: nothing to ask
        game = tables.game("t2")
        assert game is not None and game.hand is not None and game.hand.round_open
        room.send(wire.DealerPressed(table="t2", boot="b1", seq=2, at=2.0, button="time", seat=game.hand.to_act))
        [called] = room.kinds("time")
        assert hub._timed_games() == [("t2", game)]  # noqa: SLF001
        left = called["expires_at"] - wall.t
        assert left > 10
        clock.t, wall.t = clock.t + left - 1, wall.t + left - 1
        assert hub.tick(5) and room.kinds("fault") == []  # a second left
        clock.t, wall.t = clock.t + 2, wall.t + 2
        assert hub.tick(5)
        assert [(f["table"], f["kind"]) for f in room.kinds("fault")] == [("t2", "time_expired")]
        assert hub._timed_games() == []  # noqa: SLF001 - the countdown ended with the hand of its player
    finally:
        hub.stop()
        store.close()


def test_a_countdown_under_way_runs_out_in_the_hub_restarted_from_its_store(tmp_path: Path) -> None:
    store, clock, wall, room = started_room(tmp_path)
    try:
        room.send(wire.DealerPressed(table="t1", boot="b1", seq=1, at=1.0, button="new_hand", seat=None))
        game = room.tables.game("t1")
        assert game is not None and game.hand is not None and game.hand.round_open
        room.send(wire.DealerPressed(table="t1", boot="b1", seq=2, at=2.0, button="time", seat=game.hand.to_act))
        [called] = room.kinds("time")
    finally:
        room.hub.stop()
    again = Room(store, Clock(7.0), wall)  # a new process: another monotonic clock
    try:
        replayed = again.tables.game("t1")
        assert replayed is not None and replayed.timing
        assert again.hub._timed_games() == [("t1", replayed)]  # noqa: SLF001 - its replay started the countdown again
        wall.t = called["expires_at"] + 1
        assert again.hub.tick(5)
        assert [(f["table"], f["kind"]) for f in again.kinds("fault")] == [("t1", "time_expired")]
    finally:
        again.hub.stop()
        store.close()


def test_a_table_back_online_has_its_own_countdown_ticked_not_the_others(tmp_path: Path) -> None:
    """A table back is told its time left (`HubService._resend` ticks its game first); another table's
    countdown that ran out meanwhile is the clock's to rule, at its tick, not the resend's."""
    store, clock, wall, room = started_room(tmp_path)
    hub, tables = room.hub, room.tables
    try:
        for table in ("t1", "t2"):  # a hand and Time called at both tables
            room.send(wire.DealerPressed(table=table, boot="b1", seq=1, at=1.0, button="new_hand", seat=None))
            game = tables.game(table)
            assert game is not None and game.hand is not None and game.hand.round_open
            room.send(wire.DealerPressed(table=table, boot="b1", seq=2, at=2.0, button="time",
                                         seat=game.hand.to_act))
        gone = max(e["expires_at"] for e in room.kinds("time")) - wall.t + 1
        clock.t, wall.t = clock.t + gone, wall.t + gone
        room.link.handlers[wire.ALL_TABLE_STATUS](Message(wire.table_status("t1"), wire.ONLINE, False))
        assert wait_until(lambda: room.kinds("fault") != [])
        assert hub.settle(5)  # applied after the burst that resent t1's state: whatever that burst ticked, heard
        assert [(f["table"], f["kind"]) for f in room.kinds("fault")] == [("t1", "time_expired")]
        assert hub.tick(5)
        assert [(f["table"], f["kind"]) for f in room.kinds("fault")] == [("t1", "time_expired"),
                                                                          ("t2", "time_expired")]
    finally:
        hub.stop()
        store.close()
