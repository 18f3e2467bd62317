"""Builders shared by the floor tests: a started tournament in a store, and table states to compare."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hub.edge.service import HubService
from hub.floor.commands import NewTournament
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from hub.room.game import TableGame
from hub.tournament.structure import pouques_2020, to_toml
from tablewire import wire
from tablewire.mqtt import Message
from tests.hub.fake_link import RecordingLink


def started_floor(store: EventStore, players: int, *, ruleset: str = "cdc-2013", tables: int | None = None,
                  payouts: str = "50,30,20", buy_in_cents: int = 5_000, seed: int = 3) -> FloorService:
    floor = FloorService(store)
    floor.create(NewTournament(name="Test", ruleset=ruleset, structure_toml=to_toml(pouques_2020()),
                               tables=tables, buy_in_cents=buy_in_cents, payouts=payouts, seed=seed), 0.0)
    names = [f"p{i:02d}" for i in range(1, players + 1)]
    batches = [{"cmd": "register", "players": names[i:i + 1000]} for i in range(0, players, 1000)]  # as a TD sends
    for cmd in (*batches, {"cmd": "seat"}, {"cmd": "start"}):
        result = floor.execute(cmd, 0.0)  # type: ignore[arg-type]
        assert result.ok, result.error
    return floor


def game_state(game: TableGame) -> dict[str, object]:
    """Everything that decides how a table's hand goes on."""
    hand = game.hand
    out: dict[str, object] = {"hand_no": game.hand_no, "stacks": dict(game.stacks), "positions": game.positions,
                              "hole": {s: list(c) for s, c in game.hole.items()}, "board": list(game.board),
                              "level": game.level, "in_hand": game.in_hand}
    if hand is not None:
        out.update(street=hand.street, to_act=hand.to_act, live=sorted(hand.live), stack=dict(hand.stack),
                   bet=dict(hand.bet), contributed=dict(hand.contributed), engine_board=list(hand.board),
                   round_open=hand.round_open, result=hand.result.to_dict() if hand.result else None)
    return out


def tables_state(tables: FloorTables) -> dict[str, dict[str, object]]:
    return {t: game_state(seat.game) for t, seat in sorted(tables.tables.items()) if seat.game is not None}


def floor_state(floor: FloorService, now: float) -> dict[str, object]:
    t = floor.require()
    players = {p.name: (p.status.value, p.table, p.seat, p.chips) for p in t.state.players.values()}
    return {"snapshot": floor.snapshot(now), "players": players,
            "events": [e.to_dict() for e in t.events], "standings": t.standings()}


def db(tmp_path: Path, name: str = "floor.db") -> str:
    return str(tmp_path / name)


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def now(self) -> float:
        return self.t


def floor_hub(store: EventStore, clock: Clock, wall: Clock) -> tuple[HubService, FloorTables, list[dict[str, Any]]]:
    """A hub on the tournament's store, as `tapis hub --db` builds it (`FloorTables.open`), started: its
    monotonic clock and the wall's apart, as installed; its clock ticks only when told (`HubService.tick`).
    Returns it, its floor's tables and the hub events it said."""
    _, tables, hub, heard = hub_on_store(store, clock, wall)
    return hub, tables, heard


def hub_on_store(store: EventStore, clock: Clock | None = None, wall: Clock | None = None,
                 ) -> tuple[RecordingLink, FloorTables, HubService, list[dict[str, Any]]]:
    """`floor_hub` with its link (what it published, its handlers, a reconnect); the hub's clock at 100,000 s
    and the wall's at 5 s unless given."""
    link = RecordingLink()
    tables = FloorTables.open(FloorService.open(store, link=link), store)  # type: ignore[arg-type]
    hub = HubService(link=link, clock=clock or Clock(100_000.0), tick=3600,  # type: ignore[arg-type]
                     floor_tables=tables, wall=(wall or Clock(5.0)).now)
    heard: list[dict[str, Any]] = []
    hub.add_listener(heard.append)
    hub.start()
    return link, tables, hub, heard


def send(hub: HubService, event: wire.AnyTableEvent) -> None:
    """A table's event, as the broker hands it to the hub's link, applied."""
    hub._link.handlers[wire.ALL_TABLE_EVENTS](  # type: ignore[attr-defined]  # noqa: SLF001 - the link's handler
        Message(wire.table_events(event.table), wire.encode(event), False))
    assert hub.settle(5)
