"""A seat the dealer marked away ("absent") stays away in a hub rebuilt from its store.

The game keeps the seats away from hand to hand and tells the table with each hand's context; a hub
rebuilt from the store (`FloorTables.open`) starts from the current hand's stored context and replays
the facts since, so a seat marked away in an earlier hand came back present: the table was told nobody
was away, the TD's view too. Sent through the hub as a table sends its panel's buttons."""

from __future__ import annotations

from pathlib import Path

from service_helpers import Clock, db, floor_hub, send, started_floor

from hub.edge.service import HubService
from hub.floor.store import EventStore
from hub.room.game import TableGame
from tablewire import wire
from tests.hub.fake_link import RecordingLink


class Table:
    """Table t1's agent: its events in sequence."""

    def __init__(self) -> None:
        self.seq = 0

    def send(self, hub: HubService, button: str | None = None, *, seat: int | None = None,
             fold: int | None = None) -> None:
        self.seq += 1
        head = {"table": "t1", "boot": "b1", "seq": self.seq, "at": float(self.seq)}
        event = wire.SeatActed(**head, seat=fold, action="fold") if fold is not None else \
            wire.DealerPressed(**head, button=button, seat=seat)
        send(hub, event)

    def fold_round(self, hub: HubService, game: TableGame) -> None:
        while game.hand is not None and game.in_hand:
            assert game.hand.to_act is not None
            self.send(hub, fold=game.hand.to_act)


def _away_told(hub: HubService) -> list[int]:
    """The seats away in the last hand context the table was sent."""
    link: RecordingLink = hub._link  # type: ignore[assignment]  # noqa: SLF001
    told = [wire.decode_command(t, p) for t, p, _, _ in link.published if t == wire.table_commands("t1")]
    return [c for c in told if isinstance(c, wire.HandContextCmd)][-1].away


def test_a_seat_away_since_an_earlier_hand_stays_away_after_a_restart(tmp_path: Path) -> None:
    store = EventStore(db(tmp_path))
    started_floor(store, 12, tables=2)
    wall = Clock(5.0)
    table = Table()
    hub, tables, _ = floor_hub(store, Clock(100_000.0), wall)
    try:
        table.send(hub, "new_hand")
        game = tables.game("t1")
        assert game is not None and game.hand is not None
        away = max(game.hand.live)
        table.send(hub, "away", seat=away)  # in hand 1
        table.fold_round(hub, game)
        table.send(hub, "new_hand")
        assert game.hand_no == 2 and _away_told(hub) == [away]
    finally:
        hub.stop()
    again, rebuilt, _ = floor_hub(store, Clock(7.0), wall)
    try:
        game = rebuilt.game("t1")
        assert game is not None and game.hand_no == 2 and set(game.away) == {away}
        table.fold_round(again, game)
        table.send(again, "new_hand")
        assert game.hand_no == 3 and _away_told(again) == [away]
    finally:
        again.stop()
        store.close()
