"""A cpt87 Time request on the TD's room page, in headless Chromium: in words (no raw identifier), with a
button per answer, the table not shown blocked (play goes on), and "Time accordé" granting it."""

from __future__ import annotations

import pytest

from hub.dashboard import Dashboard
from tablewire import wire
from tests.dashboard import browser
from tests.dashboard.helpers import ScriptedRoom
from tests.dashboard.test_http import deal_hole_cards

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser  # noqa: E402

from tests.dashboard.test_browser import chromium, login, open_page  # noqa: E402,F401 - a fixture


def test_the_td_grants_a_time_request_from_the_room_page(chromium: Browser, room: ScriptedRoom,  # noqa: F811
                                                         dashboard: Dashboard) -> None:
    dashboard.on_decision = lambda d: room.hub.decide(d.table, d.kind, d.option, d.by)
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    deal_hole_cards(room)  # cpt87, three players: the button (seat 1) speaks first
    room.send(wire.DealerPressed(**room._base("t1"), button="time", seat=1))  # noqa: SLF001
    room.settle()
    grant = td.locator(".fault.decide button[data-option='grant_time']")
    grant.wait_for()
    text = td.inner_text(".fault.decide")
    assert "Demande de Time" in text and "cpt87 4.5" in text
    assert [td.inner_text(f".fault.decide button[data-option='{o}']") for o in ("grant_time", "refuse_time")] == [
        "Time accordé", "Time refusé par le DT"]
    assert "time_request" not in text and "grant_time" not in text
    assert "attend la décision du DT" not in td.inner_text("#table-t1")  # not blocked: the player may act
    grant.click()
    td.wait_for_selector(".fault:not(.decide)")
    assert "Time accordé" in td.inner_text(".fault") and td.locator(".fault button[data-option]").count() == 0
    game = room.hub.games["t1"]
    assert game.timing and game.hand is not None and game.hand.time_call is not None
    assert game.hand.time_call.seat == 1
    assert td.errors == []  # type: ignore[attr-defined]
