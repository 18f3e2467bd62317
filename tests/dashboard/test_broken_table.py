"""A table the floor broke up (cdc-2013 3.4: its players drawn to the other tables) leaves the room as a
closed table, never as a table of empty seats with 0 chips: `/api/room` says `closed` with no seats for the
TD and for a viewer, after the table speaks again too, and the room and table pages say so in words. The
tables its players were drawn to show them at once, with their chips, before their next hand."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.dashboard import Dashboard, hash_password
from hub.dashboard.floor_view import closed_tables
from hub.dashboard.model import reseated
from hub.edge.service import HubService
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from hub.tournament.events import TableBroken
from simulators.tournament_demo import new_demo
from tablewire import wire
from tablewire.mqtt import Message
from tests.dashboard import browser
from tests.dashboard.conftest import PASSWORD, RunningClock
from tests.dashboard.helpers import FakeLink, SseClient
from tests.dashboard.test_http import login, request

TABLES = ("t1", "t2", "t3")


class _AfterTheHub(RunningClock):
    """The TD's clock runs past the hub's (fixed at 2.0 s): the floor's time never goes backwards."""

    def now(self) -> float:
        return 2.0 + super().now()


@pytest.fixture
def three_tables(tmp_path: Path) -> Iterator[tuple[HubService, Dashboard]]:
    """24 players on 3 tables of 10: four eliminations and the floor breaks one (20 fit on two)."""
    with EventStore(tmp_path / "tournament.db", durable=False) as store:
        new_demo(store, players=24, tables=3, ruleset="cdc-2013", seed=1)
        floor = FloorService.open(store)
        hub = HubService(link=FakeLink(), floor_tables=FloorTables(floor, store), wall=lambda: 2.0,  # type: ignore[arg-type]
                         tick=0.05)
        dash = Dashboard(hub, floor=floor, users={"alice": hash_password(PASSWORD)}, clock=_AfterTheHub(),
                         floor_lock=hub.floor_lock, clock_period=0.2).start()
        hub.start()
        try:
            yield hub, dash
        finally:
            dash.stop()
            hub.stop()


def _online(hub: HubService, table: str, online: bool = True) -> None:
    status = wire.ONLINE if online else wire.OFFLINE
    hub._submit(Message(wire.table_status(table), status, True))  # the MQTT callback's path
    assert hub.settle()


def _until(read: Callable[[], dict[str, Any]], test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The room once `test` holds (the dashboard applies events on its own thread): a bound, not a timing."""
    for _ in range(200):
        tables = read()
        if test(tables):
            return tables
        time.sleep(0.05)
    return tables


def _break_a_table(hub: HubService, dash: Dashboard) -> str:
    """The TD eliminates players from the page until the floor breaks a table; returns its id."""
    cookie, csrf = login(dash)
    floor = hub.floor_tables.floor  # type: ignore[union-attr]
    for i in range(1, 25):
        body = {"cmd": "eliminate", "player": f"joueur{i:02d}"}
        status, answer, _ = request(dash, "POST", "/api/td/floor", body, cookie=cookie, csrf=csrf)
        assert status == 200 and answer["ok"], answer["error"]
        broken = [e.table for e in floor.require().events if isinstance(e, TableBroken)]
        if broken:
            return f"t{broken[0]}"
    raise AssertionError("the floor never broke a table")


def test_a_broken_table_is_shown_closed_with_no_seats_to_the_td_and_to_viewers(
        three_tables: tuple[HubService, Dashboard]) -> None:
    hub, dash = three_tables
    for table in TABLES:
        _online(hub, table)
    cookie, _ = login(dash)

    def td() -> dict[str, Any]:
        return request(dash, "GET", "/api/room", cookie=cookie)[1]["tables"]

    def viewer() -> dict[str, Any]:
        return request(dash, "GET", "/api/room")[1]["tables"]

    before = _until(td, lambda t: all(t.get(x, {}).get("seats") for x in TABLES))
    assert all(before[x]["seats"] and not before[x].get("closed") for x in TABLES), before
    broken = _break_a_table(hub, dash)
    for read in (td, viewer):
        tables = _until(read, lambda t: bool(t[broken].get("closed")))
        assert tables[broken]["closed"] is True and tables[broken]["seats"] == [], tables[broken]
        assert tables[broken]["pot"] == 0 and not tables[broken]["hand_open"]
        assert all(tables[x]["seats"] and not tables[x]["closed"] for x in TABLES if x != broken)
    # its Pi still speaks (switched off, a reader): the update it brings is closed, not empty seats again
    stream = SseClient(dash.url, cookie=cookie)
    try:
        stream.wait_for(lambda name, _: name == "room")
        _online(hub, broken, online=False)
        update = stream.wait_for(lambda name, d: name == "update" and d["event"].get("type") == "table_status"
                                 and d["event"].get("table") == broken)
    finally:
        stream.close()
    assert update["table"]["closed"] is True and update["table"]["seats"] == [], update["table"]
    for read in (td, viewer):
        assert read()[broken]["closed"] is True and read()[broken]["seats"] == []
    log = request(dash, "GET", f"/api/log?t={broken}", cookie=cookie)[1]["events"]
    assert any(e["type"] == "table_closed" for e in log), log


def test_the_tables_a_broken_one_was_shared_out_to_show_their_new_players_before_they_speak(
        three_tables: tuple[HubService, Dashboard]) -> None:
    """The players drawn to the other tables (cdc-2013 3.4) sit there on the page at once, with their
    chips: a table between hands sends nothing until its next hand, and would show its old seats."""
    hub, dash = three_tables
    for table in TABLES:
        _online(hub, table)
    _until(lambda: request(dash, "GET", "/api/room")[1]["tables"],
           lambda t: all(t.get(x, {}).get("seats") for x in TABLES))
    broken = _break_a_table(hub, dash)
    state = hub.floor_tables.floor.require().state  # type: ignore[union-attr]
    expected = {f"t{n}": {seat: (name, state.players[name].chips) for seat, name in t.seats.items()}
                for n, t in state.tables.items()}
    assert broken not in expected and len(expected) == 2

    def seats(tables: dict[str, Any]) -> dict[str, dict[int, tuple[str, int]]]:
        return {x: {s["seat"]: (s["player"], s["stack"]) for s in tables[x]["seats"]} for x in expected}

    tables = _until(lambda: request(dash, "GET", "/api/room")[1]["tables"], lambda t: seats(t) == expected)
    assert seats(tables) == expected
    assert all(len(v) == 10 for v in expected.values())  # 20 players left on two tables of 10


def test_the_room_and_the_table_page_say_a_broken_table_is_closed_in_french_and_english(
        three_tables: tuple[HubService, Dashboard]) -> None:
    if (why := browser.missing()) is not None:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    from tests.dashboard.test_browser import open_page
    from tests.dashboard.test_words import SNAKE, VISIBLE

    hub, dash = three_tables
    for table in TABLES:
        _online(hub, table)
    broken = _break_a_table(hub, dash)
    _until(lambda: request(dash, "GET", "/api/room")[1]["tables"], lambda t: bool(t[broken].get("closed")))
    with sync_playwright() as p:
        chromium = browser.launch(p)
        try:
            for lang, words in (("fr", "Table cassée"), ("en", "Table broken up")):
                for path in ("/", f"/table?t={broken}"):
                    page = open_page(chromium, dash.url + path)
                    page.evaluate(f"() => localStorage.setItem('tapis.lang', '{lang}')")
                    page.reload()
                    box = page.locator(f"[data-table='{broken}']")
                    box.wait_for()
                    page.wait_for_function(f"() => document.body.innerText.includes({words!r})")
                    assert box.locator("table.seats tr").count() == 0  # no seats, no 0 chips
                    assert not SNAKE.findall(page.evaluate(VISIBLE)), SNAKE.findall(page.evaluate(VISIBLE))
                    assert page.errors == []  # type: ignore[attr-defined]
                    page.context.close()
        finally:
            chromium.close()


def test_only_a_table_the_tournament_seated_and_no_longer_has_is_closed(tmp_path: Path) -> None:
    """`closed_tables`: a hub table the tournament never seated (t9, a cash table "bar") is not closed."""
    with EventStore(tmp_path / "tournament.db", durable=False) as store:
        floor = new_demo(store, players=24, tables=3, ruleset="cdc-2013", seed=1)
        names = ["t1", "t2", "t3", "t9", "bar", "t0"]
        assert closed_tables(floor.tournament, names) == set()
        assert closed_tables(None, names) == set()
        for i in range(1, 5):
            assert floor.execute({"cmd": "eliminate", "player": f"joueur{i:02d}"}, 1.0 + i).ok
        broken = {f"t{e.table}" for e in floor.require().events if isinstance(e, TableBroken)}
        assert len(broken) == 1
        assert closed_tables(floor.tournament, names) == broken


def test_reseated_follows_the_floor_between_hands_only_and_keeps_who_is_away() -> None:
    seat = {"bet": 0, "live": False, "hole": [], "hole_count": 0}
    snap = {"table": "t1", "hand_open": False, "closed": False,
            "seats": [{**seat, "seat": 1, "player": "Ada", "stack": 500, "away": True},
                      {**seat, "seat": 2, "player": "Bob", "stack": 700, "away": True}]}
    assert reseated(snap, {1: ("Ada", 500), 2: ("Bob", 700)}) is None  # nothing changed: no update
    assert reseated({**snap, "hand_open": True}, {1: ("Ada", 500)}) is None  # the hand's own events rule
    assert reseated({**snap, "closed": True}, {1: ("Ada", 500)}) is None
    moved = reseated(snap, {1: ("Ada", 500), 2: ("Cyd", 900), 5: ("Dan", 300)})
    assert moved is not None
    assert [(s["seat"], s["player"], s["stack"], s["away"]) for s in moved["seats"]] == [
        (1, "Ada", 500, True), (2, "Cyd", 900, False), (5, "Dan", 300, False)]


def test_the_log_says_a_table_closed_once_whichever_word_brings_the_closing() -> None:
    """The table's own event (the moves said there) may bring the floor's breaking of it before the periodic
    look does (`Dashboard.follow_floor`): its log says 'table closed' after that event all the same, once, and
    not again at its later words (its Pi switched off), nor twice when the periodic look brings it."""
    from hub.dashboard.model import closed_snapshot

    hub = HubService(link=FakeLink())  # type: ignore[arg-type]
    dash = Dashboard(hub, users={"alice": hash_password(PASSWORD)}).start()
    try:
        def seen(table: str, event: dict[str, Any], closed: bool) -> list[str]:
            snap = {"table": table, "hand": 3, "hand_open": False, "closed": False, "seats": []}
            dash._apply(0.0, {"table": table, **event}, closed_snapshot(snap) if closed else snap)
            return [e["type"] for e in dash.model.logs[table]]

        assert seen("t2", {"type": "hand_end", "hand": 3}, False) == ["hand_end"]
        assert seen("t2", {"type": "floor_moves", "hand": 3, "moves": []}, True) == [
            "hand_end", "floor_moves", "table_closed"]
        assert seen("t2", {"type": "table_status", "status": "offline"}, True)[3:] == ["table_status"]
        assert seen("t3", {"type": "hand_end", "hand": 3}, False) == ["hand_end"]
        assert seen("t3", {"type": "table_closed"}, True) == ["hand_end", "table_closed"]  # the periodic look's
    finally:
        dash.stop()
