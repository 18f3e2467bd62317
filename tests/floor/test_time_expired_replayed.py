"""A Time countdown that ran out is ruled again by a hub rebuilt from its store (`FloorTables.open`).

The hub's clock kills the slow player's hand (cdc 10.13) and nothing stores that: the facts after it were
replayed on a hand where he was still to act, so the next player's fold was out of turn and the rebuilt
hand went on apart from the one the table played. Sent through the hub as a table sends them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from service_helpers import db, game_state, started_floor

from hub.edge.service import HubService
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from tablewire import wire
from tablewire.mqtt import Message
from tests.hub.fake_link import RecordingLink


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def now(self) -> float:
        return self.t


def _hub(store: EventStore, clock: Clock, wall: Clock) -> tuple[HubService, FloorTables, list[dict[str, Any]]]:
    link = RecordingLink()
    tables = FloorTables.open(FloorService.open(store, link=link), store)  # type: ignore[arg-type]
    hub = HubService(link=link, clock=clock, tick=3600, floor_tables=tables, wall=wall.now)  # type: ignore[arg-type]
    heard: list[dict[str, Any]] = []
    hub.add_listener(heard.append)
    hub.start()
    return hub, tables, heard


def _send(hub: HubService, event: wire.AnyTableEvent) -> None:
    hub._link.handlers[wire.ALL_TABLE_EVENTS](  # type: ignore[attr-defined]  # noqa: SLF001 - the link's handler
        Message(wire.table_events(event.table), wire.encode(event), False))
    assert hub.settle(5)


def test_the_hand_after_a_countdown_ran_out_is_rebuilt_as_played(tmp_path: Path) -> None:
    store = EventStore(db(tmp_path))
    started_floor(store, 12, tables=2)
    clock, wall = Clock(100_000.0), Clock(5.0)  # the hub's uptime, the tournament's wall time
    hub, tables, heard = _hub(store, clock, wall)
    try:
        _send(hub, wire.DealerPressed(table="t1", boot="b1", seq=1, at=1.0, button="new_hand", seat=None))
        game = tables.game("t1")
        assert game is not None and game.hand is not None and game.hand.round_open
        slow = game.hand.to_act
        _send(hub, wire.DealerPressed(table="t1", boot="b1", seq=2, at=2.0, button="time", seat=slow))
        [called] = [e for e in heard if e["type"] == "time"]
        gone = called["expires_at"] - wall.t + 1
        clock.t, wall.t = clock.t + gone, wall.t + gone
        assert hub.tick(5)
        assert [(f["kind"], f.get("seat")) for f in heard if f["type"] == "fault"] == [("time_expired", slow)]
        after = game.hand.to_act
        assert slow not in game.hand.live and after is not None
        clock.t, wall.t = clock.t + 5, wall.t + 5
        _send(hub, wire.SeatActed(table="t1", boot="b1", seq=3, at=40.0, seat=after, action="fold"))
        assert after not in game.hand.live  # his fold, in turn
        played = game_state(game)
    finally:
        hub.stop()
    again, rebuilt, _ = _hub(store, Clock(7.0), wall)  # a new process: another monotonic clock
    try:
        replayed = rebuilt.game("t1")
        assert replayed is not None
        assert game_state(replayed) == played
        assert not replayed.timing
    finally:
        again.stop()
        store.close()
