"""The hub's clock asks only the games where a Time countdown runs (`TableGame.timing`): five times a
second, a festival's thousand tables each asked cost the loop milliseconds that every table event waited
behind. A countdown at a tournament table still runs out on the clock (cdc 10.13)."""

from __future__ import annotations

from pathlib import Path

from service_helpers import db, started_floor

from hub.edge.service import HubService
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from hub.rules.timecall import TimeCall
from tablewire import wire
from tablewire.mqtt import Message
from tests.hub.fake_link import RecordingLink
from tests.support import wait_until


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def now(self) -> float:
        return self.t


def test_only_a_game_with_a_countdown_is_ticked_and_its_time_runs_out(tmp_path: Path) -> None:
    store = EventStore(db(tmp_path))
    started_floor(store, 12, tables=2)
    link = RecordingLink()
    tables = FloorTables.open(FloorService.open(store, link=link), store)  # type: ignore[arg-type]
    clock = Clock()
    hub = HubService(link=link, clock=clock, tick=3600, floor_tables=tables, wall=lambda: 5.0)  # type: ignore[arg-type]
    hub.start()
    try:
        for table in ("t1", "t2"):  # a hand starts at both tables
            event = wire.DealerPressed(table=table, boot="b1", seq=1, at=1.0, button="new_hand", seat=None)
            link.handlers[wire.ALL_TABLE_EVENTS](Message(wire.table_events(table), wire.encode(event), False))
        assert wait_until(lambda: all((g := tables.game(t)) is not None and g.in_hand for t in ("t1", "t2")))
        assert hub._timed_games() == []  # noqa: SLF001 - two hands, no countdown: nothing to ask
        game = tables.game("t2")
        assert game is not None and game.hand is not None
        seat = game.hand.to_act
        assert seat is not None and game.hand.round_open
        game.hand.time_call = TimeCall(seat, 100.0, 130.0, 140.0, next(iter(game.hand.rules.time_callers)), "10.13")
        assert hub._timed_games() == [("t2", game)]  # noqa: SLF001
        faults: list[dict[str, object]] = []
        hub.add_listener(lambda e: faults.append(e) if e["type"] == "fault" else None)
        clock.t = 139.0
        assert hub.tick(5) and faults == []  # the countdown has a second left
        clock.t = 141.0
        assert hub.tick(5)
        assert [(f["table"], f["kind"]) for f in faults] == [("t2", "time_expired")]
        assert hub._timed_games() == []  # noqa: SLF001 - the countdown ended with the hand of its player
    finally:
        hub.stop()
        store.close()
