"""The dashboard in a real headless Chromium: live room, faults acknowledged, clock countdown, no hole
cards for viewers (checked on what the page's EventSource received). Skipped without Chromium."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from hub.dashboard import Dashboard
from hub.edge.broker import EmbeddedBroker
from tests.dashboard import browser
from tests.dashboard.conftest import PASSWORD
from tests.dashboard.helpers import ScriptedRoom
from tests.dashboard.test_http import HOLE, deal_hole_cards

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = browser.launch(p)
        yield b
        b.close()


STREETS = {"preflop": "avant le flop", "flop": "flop", "turn": "turn", "river": "river", "showdown": "abattage",
           "complete": "terminé"}  # as labels.js says them in French


def open_page(chromium: Browser, url: str) -> Page:
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.add_init_script(browser.RECORD_STREAM)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(url)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def received(page: Page) -> list[tuple[str, Any]]:
    return [(name, json.loads(data)) for name, data in page.evaluate("() => window.__raw")]


def assert_no_hole_cards(messages: list[tuple[str, Any]]) -> None:
    """What a viewer's page received: seat cards as counts, no faces, no cards named by a fault."""
    for name, data in messages:
        tables = list(data["tables"].values()) if name == "room" else [data["table"]] if name == "update" else []
        for table in filter(None, tables):
            assert all(isinstance(n, int) for z, n in table["zones"].items() if z.startswith("seat:")), table
            assert all("hole" not in seat for seat in table["seats"]), table
        event = data.get("event") or {} if name == "update" else {}
        if event.get("type") == "card" and str(event.get("zone")).startswith("seat:"):
            assert event["card"] is None, event
        faults = data.get("faults", []) if name == "room" else [data] if name == "fault" else []
        for fault in faults + ([event] if event.get("type") == "fault" else []):
            assert fault["cards"] == [] and fault["ruling"].get("cards", []) == [], fault


def login(page: Page, url: str) -> None:
    page.goto(url + "/login")
    page.fill("#user", "alice")
    page.fill("#password", PASSWORD)
    page.click("#submit")
    page.wait_for_url(url + "/")
    page.wait_for_selector("#controls:not(.hidden)")


def test_room_view_follows_a_simulated_room_dealing(chromium: Browser, broker: EmbeddedBroker) -> None:
    from simulators.demo import build_room, deal

    room = build_room(tables=2, host=broker.host, port=broker.port, seed=4)
    assert room.hub is not None
    hub = room.hub
    dash = Dashboard(hub).start()
    try:
        page = open_page(chromium, dash.url + "/")
        threads = [threading.Thread(target=deal, args=(room, t), kwargs={"hands": None, "pace": 0.03, "seed": i},
                                    daemon=True) for i, t in enumerate(room.tables)]
        for thread in threads:
            thread.start()
        # Both tables drawn; a flop reaches the page (hands that end pre-flop show none). Not "the next
        # hand": the demo's croupier can wait forever after a board fault (see docs/dashboard.md).
        page.wait_for_selector("#table-t1 .seats", timeout=30_000)
        page.wait_for_selector("#table-t2 .seats", timeout=30_000)
        page.wait_for_function("() => window.__raw.some(([n, d]) => n === 'update' && "
                               "(JSON.parse(d).table || {board: []}).board.length >= 3)", timeout=90_000)
        room.stop.set()
        for thread in threads:
            thread.join(10)
        quiet_since, seen = time.monotonic(), hub.stats.events_out
        while time.monotonic() - quiet_since < 0.5:  # the agents' last reads have reached the hub
            time.sleep(0.05)
            if hub.stats.events_out != seen:
                quiet_since, seen = time.monotonic(), hub.stats.events_out
        # What is drawn is the hub's last word on each table: hand number and street.
        for table, game in hub.games.items():
            street = f"Donne {game.hand_no}" + (f" · {STREETS[game.hand.street]}" if game.hand and game.in_hand else "")
            page.wait_for_function("([t, s]) => (document.querySelector('#table-' + t + ' h2') || {}).textContent"
                                   ".endsWith(s)", arg=[table, street])
        messages = received(page)
        assert sum(1 for name, _ in messages if name == "update") > 20
        dealt = [d["event"] for n, d in messages if n == "update" and d["event"]["type"] == "card"
                 and d["event"]["zone"].startswith("seat:")]
        assert dealt, "the viewer saw hole cards arrive (as backs)"
        assert_no_hole_cards(messages)
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        dash.stop()
        room.close()


def test_fault_appears_and_td_acknowledges_it_viewer_never_sees_faces(chromium: Browser, room: ScriptedRoom,
                                                                       dashboard: Dashboard) -> None:
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    viewer = open_page(chromium, dashboard.url + "/")
    deal_hole_cards(room)
    room.fault("t1", 1, "boxed_card", seat=2, cards=["As"], boxed_in_deal=1, during_deal=True)
    room.settle()
    td.wait_for_selector("#table-t1 .seats .card:not(.back)")
    assert td.inner_text("#table-t1 tr[data-seat='2']").count("A") == 2  # As and Ah, drawn for the TD
    viewer.wait_for_selector(".fault")
    assert viewer.locator("#table-t1 .seats .card:not(.back)").count() == 0
    assert viewer.locator("#table-t1 .seats .card.back").count() == 6
    button = td.locator(".fault button.ack")
    button.wait_for()
    button.click()
    viewer.wait_for_selector(".fault.closed")
    assert "vu par alice" in viewer.inner_text(".fault.closed")
    td.wait_for_selector(".fault.closed")
    messages = received(viewer)
    assert_no_hole_cards(messages)
    raw = json.dumps(messages)
    assert not [f for pair in HOLE.values() for f in pair if re.search(rf"\b{f}\b", raw)]
    assert any(re.search(r"\bAs\b", data) for _, data in td.evaluate("() => window.__raw"))  # the TD does get them
    assert td.errors == [] and viewer.errors == []  # type: ignore[attr-defined]


def test_td_decides_a_td_decision_on_the_page(chromium: Browser, room: ScriptedRoom, dashboard: Dashboard) -> None:
    decided: list[str] = []
    dashboard.on_decision = lambda d: decided.append(d.option)
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    deal_hole_cards(room)
    room.fault("t1", 1, "boxed_card", seat=2, cards=["As"], boxed_in_deal=2, during_deal=True)  # cpt87 6.3
    room.settle()
    td.locator(".fault.decide button[data-option='set_aside']").click()
    td.wait_for_selector(".fault.closed")
    assert decided == ["set_aside"]
    assert "décidé\u202f: Carte mise de côté" in td.inner_text(".fault.closed")  # the option's words, not its id


def test_clock_screen_counts_down_and_the_td_pauses_it(chromium: Browser, dashboard: Dashboard) -> None:
    clock = open_page(chromium, dashboard.url + "/clock")
    clock.wait_for_function("() => /^0[56]:[0-5][0-9]$/.test(document.getElementById('clk-time').textContent)")
    first = clock.inner_text("#clk-time")
    clock.wait_for_function(f"() => document.getElementById('clk-time').textContent !== '{first}'")
    m1, s1 = map(int, first.split(":"))
    m2, s2 = map(int, clock.inner_text("#clk-time").split(":"))
    assert m2 * 60 + s2 < m1 * 60 + s1  # it counts down
    assert clock.inner_text("#clk-blinds") == "25 / 50"
    assert clock.inner_text("#clk-players") == "60 / 60"
    assert clock.inner_text("#clk-pool").replace("\u202f", " ").replace("\xa0", " ") == "2 880,00 €"
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    td.click("#c-pause")
    td.wait_for_selector("#result[data-ok='1']")
    clock.wait_for_selector("#clk-time.paused")
    assert clock.inner_text("#clk-status") == "HORLOGE ARRÊTÉE"
    clock.click("#lang")
    assert clock.inner_text("#clk-status") == "CLOCK PAUSED"
    td.click("#c-resume")
    clock.wait_for_function("() => !document.getElementById('clk-time').classList.contains('paused')")
    # The chimes: a level change, then one minute before the break (demo: a break after level 6).
    assert dashboard.floor_command({"cmd": "clock", "action": "level", "level": 6})["ok"]
    clock.wait_for_function("() => window.__sounds.played.includes('level')")
    assert (clock.inner_text("#clk-blinds"), clock.inner_text("#clk-ante")) == ("200 / 400", "ante 40")
    assert dashboard.floor_command({"cmd": "clock", "action": "remove", "seconds": 310})["ok"]
    clock.wait_for_function("() => window.__sounds.played.includes('break_soon')")
    assert clock.evaluate("() => window.__sounds.played") == ["level", "break_soon"]
