"""Issue #14 on the page, in headless Chromium: a tournament table drawn with its players' names and an
"Annuler la donne" button for the TD (points 3 and 6), a refused td_decision shown as such (point 5)."""

from __future__ import annotations

from typing import Any

import pytest

from hub.dashboard import Dashboard
from hub.edge.service import HubService
from tablewire import wire
from tests.dashboard import browser
from tests.dashboard.helpers import ScriptedRoom
from tests.dashboard.test_http import deal_hole_cards
from tests.dashboard.test_tournament_room import _send, tournament_hub  # noqa: F401 - a fixture

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser  # noqa: E402

from tests.dashboard.test_browser import chromium, login, open_page  # noqa: E402,F401 - a fixture


def test_a_refused_decision_loses_its_buttons_and_is_not_shown_decided(chromium: Browser,  # noqa: F811
                                                                         room: ScriptedRoom,
                                                                         dashboard: Dashboard) -> None:
    dashboard.on_decision = lambda d: room.hub.decide(d.table, d.kind, d.option, d.by)
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    deal_hole_cards(room)
    room.fault("t1", 1, "boxed_card", seat=2, cards=["As"], boxed_in_deal=2, during_deal=True)  # cpt87 6.3
    room.settle()
    button = td.locator(".fault.decide button[data-option='set_aside']")
    button.wait_for()
    room.hub.decide("t1", "boxed_card", "set_aside", "bob")  # decided elsewhere first
    room.settle()
    button.click()
    td.wait_for_selector(".fault .refused")
    text = td.inner_text(".fault")
    assert "refusée par le hub" in text and "décidé" not in text
    assert td.locator(".fault button[data-option]").count() == 0
    assert td.errors == []  # type: ignore[attr-defined]


def test_a_tournament_table_shows_names_and_the_td_cancels_its_hand(
        chromium: Browser, tournament_hub: tuple[HubService, Dashboard]) -> None:  # noqa: F811
    hub, dash = tournament_hub
    head: dict[str, Any] = {"table": "t1", "boot": "b1", "at": 1.0}
    _send(hub, wire.DealerPressed(**head, seq=1, button="new_hand", seat=None))
    assert hub.settle()
    names = set(hub.floor_tables.floor.require().state.tables[1].seats.values())  # type: ignore[union-attr]
    td = open_page(chromium, dash.url + "/login")
    login(td, dash.url)
    td.wait_for_selector("#table-t1 td.player")
    drawn = {td.locator("#table-t1 td.player").nth(i).inner_text() for i in range(len(names))}
    assert drawn == names
    td.click("#table-t1 button.cancel-hand")
    # asked on the page, in its language (the browser's own dialog has its buttons in the browser's)
    td.wait_for_selector("#confirm:not(.hidden)")
    assert td.inner_text("#confirm-text").startswith("Annuler la donne — Table 1, Donne ")
    assert td.inner_text("#confirm-yes") == "Confirmer" and td.inner_text("#confirm-no") == "Retour"
    td.click("#confirm-yes")
    td.wait_for_function("() => /Donne annulée par le DT — cdc-2013 6.4/"
                         ".test(document.querySelector('#table-t1 .cancel-result')?.textContent || '')")
    assert hub.settle()
    game = hub.floor_tables.game("t1")  # type: ignore[union-attr]
    assert game is not None and not game.in_hand
    assert td.errors == []  # type: ignore[attr-defined]


def test_the_store_down_badge_names_the_technical_cause_as_such(chromium: Browser,  # noqa: F811
                                                                 room: ScriptedRoom, dashboard: Dashboard) -> None:
    room.hub._retry_store = lambda: None  # type: ignore[method-assign]  # the store stays down
    room.hub.store_down = "database or disk is full"  # what SQLite says (hub.floor.store)
    td = open_page(chromium, dashboard.url + "/login")  # the page reads the hub's health as it loads
    login(td, dashboard.url)
    td.wait_for_selector("#store-down:not(.hidden)")
    assert td.inner_text("#store-down").startswith("STOCKAGE EN PANNE")
    assert td.get_attribute("#store-down", "title") == \
        "Cause technique (pour l'installateur)\u202f: database or disk is full"
    assert td.errors == []  # type: ignore[attr-defined]


def test_incidents_are_grouped_by_table_and_all_marked_seen_at_once(chromium: Browser,  # noqa: F811
                                                                     room: ScriptedRoom,
                                                                     dashboard: Dashboard) -> None:
    """Issue #30, point 8: after a busy half hour the open incidents read table by table, and "Tout marquer
    vu" clears every one that asks only a look; a decision stays open until decided."""
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    deal_hole_cards(room)
    room.fault("t1", 1, "boxed_card", seat=None, cards=["5h"], boxed_in_deal=1, during_deal=True)
    room.fault("t1", 1, "boxed_card", seat=None, cards=["6h"], boxed_in_deal=2, during_deal=True)  # cpt87 6.3
    room.settle()
    td.wait_for_selector(".fault-group[data-table='t1'] .fault.decide")
    assert td.locator(".fault-group[data-table='t1'] h4").inner_text() == "Table 1"
    assert td.locator(".fault-group .fault").count() == 2
    td.click("#ack-all")
    td.wait_for_function("() => document.querySelectorAll('.fault-group .fault').length === 1")
    assert td.locator(".fault-group .fault.decide").count() == 1  # the decision is still there
    still = [f for f in dashboard.model.faults.values() if f.open]
    assert [f.needs_decision for f in still] == [True] and all(f.acked_by == "alice" for f in
                                                            dashboard.model.faults.values() if not f.open)
    assert td.errors == []  # type: ignore[attr-defined]


def test_the_dead_hands_of_a_ruling_are_named_as_seats(chromium: Browser, room: ScriptedRoom,  # noqa: F811
                                                       dashboard: Dashboard) -> None:
    """« mains mortes : 3 » read as three dead hands: it is seat 3's. The seats are named as seats, in each language."""
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    deal_hole_cards(room)
    room.fault("t1", 1, "absent_player", seat=3, deadline="first_card", deal_position=1)  # his hand is dead
    room.settle()
    td.wait_for_selector(".fault")
    dead = td.locator(".fault .text", has_text="mains mortes")
    assert dead.inner_text().replace("\u202f", " ") == "mains mortes : siège 3", dead.inner_text()
    td.click("#lang")
    dead = td.locator(".fault .text", has_text="dead hands")
    assert dead.inner_text() == "dead hands: seat 3", dead.inner_text()
    assert td.errors == []  # type: ignore[attr-defined]
