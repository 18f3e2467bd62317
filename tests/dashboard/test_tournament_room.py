"""The dashboard of a tournament hub (`tapis hub --db`, issue #14 point 3): the tables' games live in the
floor's tables (`hub.floor.tables`), not in the hub's own; the room and table views still show seats
with the players' names, stacks, bets, pot, street, button and the player to act."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.dashboard import Dashboard, hash_password
from hub.edge.service import HubService
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from simulators.tournament_demo import new_demo
from tablewire import wire
from tablewire.mqtt import Message
from tests.dashboard.conftest import PASSWORD, RunningClock
from tests.dashboard.helpers import FakeLink
from tests.dashboard.test_http import request
from tests.support import wait_until


@pytest.fixture
def tournament_hub(tmp_path: Path) -> Iterator[tuple[HubService, Dashboard]]:
    with EventStore(tmp_path / "tournament.db", durable=False) as store:
        new_demo(store, players=18, tables=2, ruleset="cdc-2013", seed=1)
        floor = FloorService.open(store)
        link = FakeLink()
        hub = HubService(link=link, floor_tables=FloorTables(floor, store), wall=lambda: 2.0, tick=0.05)  # type: ignore[arg-type]
        dash = Dashboard(hub, floor=floor, users={"alice": hash_password(PASSWORD)}, clock=RunningClock(),
                         floor_lock=hub.floor_lock).start()
        hub.start()
        try:
            yield hub, dash
        finally:
            dash.stop()
            hub.stop()


def _send(hub: HubService, event: wire.AnyTableEvent) -> None:
    hub._submit(Message(wire.table_events(event.table), wire.encode(event), False))  # the MQTT callback's path


def test_a_tournament_table_shows_names_stacks_pot_street_button_and_who_is_to_act(
        tournament_hub: tuple[HubService, Dashboard]) -> None:
    hub, dash = tournament_hub
    head: dict[str, Any] = {"table": "t1", "boot": "b1", "at": 1.0}
    _send(hub, wire.DealerPressed(**head, seq=1, button="new_hand", seat=None))
    assert hub.settle()
    floor = hub.floor_tables.floor  # type: ignore[union-attr]
    names = {seat: name for seat, name in floor.require().state.tables[1].seats.items()}
    game = hub.floor_tables.game("t1")  # type: ignore[union-attr]
    assert game is not None and game.in_hand

    def room_t1(cookie: str | None = None) -> dict[str, Any]:
        return request(dash, "GET", "/api/room", cookie=cookie)[1]["tables"]["t1"]

    hand = game.hand
    assert hand is not None

    def shown(table: dict[str, Any]) -> dict[str, Any]:
        seats = {s["seat"]: s for s in table["seats"]}
        return {"players": {s: p["player"] for s, p in seats.items()},
                "stacks": {s: p["stack"] for s, p in seats.items()},
                "bets": {s: p["bet"] for s, p in seats.items() if p["bet"]}, "pot": table["pot"],
                "street": table["street"], "button": table["button"], "to_act": table["to_act"]}

    expected = {"players": names, "stacks": {s: hand.stack[s] for s in names},
                "bets": {s: b for s, b in hand.bet.items() if b}, "pot": hand.pot, "street": str(hand.street),
                "button": hand.positions.button, "to_act": hand.to_act}
    # the dashboard's consumer applies the hub's events on its own thread: the view once it caught up
    assert wait_until(lambda: shown(room_t1()) == expected, 30), (shown(room_t1()), expected)
    assert hand.pot > 0 and hand.to_act in names


def test_a_tournament_table_before_its_first_hand_shows_its_players(
        tournament_hub: tuple[HubService, Dashboard]) -> None:
    hub, dash = tournament_hub
    hub._submit(Message(wire.table_status("t2"), wire.ONLINE, True))
    assert hub.settle()
    floor = hub.floor_tables.floor  # type: ignore[union-attr]
    state = floor.require().state
    expected = {seat: (name, state.players[name].chips) for seat, name in state.tables[2].seats.items()}

    def seats() -> dict[int, tuple[str, int]]:
        table = request(dash, "GET", "/api/room")[1]["tables"].get("t2", {})
        return {s["seat"]: (s["player"], s["stack"]) for s in table.get("seats", [])}

    assert wait_until(lambda: seats() == expected, 30), (seats(), expected)


def test_the_td_cancels_a_blocked_hand_from_the_page(tournament_hub: tuple[HubService, Dashboard]) -> None:
    """Issue #14 point 6: "annuler la donne" on the page (a TD's POST) ends the hand, citing the article."""
    from tests.dashboard.test_http import login

    hub, dash = tournament_hub
    head: dict[str, Any] = {"table": "t1", "boot": "b1", "at": 1.0}
    _send(hub, wire.DealerPressed(**head, seq=1, button="new_hand", seat=None))
    _send(hub, wire.DealerPressed(**{**head, "at": 2.0}, seq=2, button="new_hand", seat=None))  # refused: blocked
    assert hub.settle()
    cancel = {"cmd": "cancel_hand", "table": "t1", "by": "alice"}
    assert request(dash, "POST", "/api/td/floor", cancel)[0] == 403  # a viewer may not
    cookie, csrf = login(dash)
    status, body, _ = request(dash, "POST", "/api/td/floor", cancel, cookie=cookie, csrf=csrf)
    assert status == 200 and body["ok"], body
    assert body["data"]["article"] == "cdc-2013 6.4" and "cdc-2013 6.4" in body["data"]["text"]
    assert hub.settle()
    game = hub.floor_tables.game("t1")  # type: ignore[union-attr]
    assert game is not None and not game.in_hand
    def log_t1() -> list[dict[str, Any]]:
        return request(dash, "GET", "/api/log?t=t1", cookie=cookie)[1]["events"]

    assert wait_until(lambda: any(e["type"] == "hand_end" for e in log_t1()), 30), log_t1()
    log = log_t1()
    ruling = next(e for e in log if e["type"] == "ruling" and e.get("kind") == "td_cancel")
    assert ruling["article"] == "cdc-2013 6.4" and ruling["by"] == "alice"
    assert next(e for e in log if e["type"] == "hand_end")["result"] == "cancelled"
    status, body, _ = request(dash, "POST", "/api/td/floor", cancel, cookie=cookie, csrf=csrf)
    assert status == 409 and "no hand in progress" in body["error"]
