"""The dashboard on a 390x844 phone (#18 point 9) and a TD whose session or hub is gone (point 10), in
a real Chromium: no page is wider than the screen, the header's buttons and the TD's controls are on
screen and take their clicks; a lost session and a hub that does not answer are said on the page."""

from __future__ import annotations

from typing import Any

import pytest

from hub.dashboard import Dashboard, hash_password
from hub.dashboard.auth import Sessions
from tests.dashboard import browser
from tests.dashboard.conftest import PASSWORD
from tests.dashboard.helpers import ScriptedRoom
from tests.dashboard.test_http import deal_hole_cards

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser, Page, ViewportSize  # noqa: E402

from tests.dashboard.test_browser import chromium, login, open_page  # noqa: E402,F401 - a fixture

PHONE: ViewportSize = {"width": 390, "height": 844}
ON_SCREEN = """(sel) => {
  const e = document.querySelector(sel);
  if (!e) return 'missing';
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.left < 0 || r.right > window.innerWidth) return `off-screen ${r.left}..${r.right}`;
  const x = r.left + r.width / 2, y = r.top + Math.min(r.height / 2, 10);
  const hit = document.elementFromPoint(x, y);
  return hit && (hit === e || e.contains(hit)) ? 'ok' : `covered by ${hit && hit.outerHTML.slice(0, 80)}`;
}"""


def phone(chromium: Browser, url: str) -> Page:  # noqa: F811
    page = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(url)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def width(page: Page) -> Any:
    return page.evaluate("() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")


def test_every_page_fits_a_phone_and_its_buttons_take_their_clicks(chromium: Browser,  # noqa: F811
                                                                   room: ScriptedRoom,
                                                                   dashboard: Dashboard) -> None:
    deal_hole_cards(room)
    room.fault("t1", 1, "boxed_card", seat=2, cards=["As"], boxed_in_deal=2, during_deal=True)
    room.settle()
    td = phone(chromium, dashboard.url + "/login")
    assert width(td) <= PHONE["width"]
    login(td, dashboard.url)
    td.wait_for_selector(".fault.decide button[data-option]")
    td.wait_for_selector("#players tr")
    assert width(td) <= PHONE["width"], "the room is wider than the phone"
    for sel in ("#lang", "#logout", "#c-pause", "#f-elim button", "#f-penalty button", "#faults .fault",
                ".fault.decide button[data-option]", "#table-t1 h2 a", "#player-search"):
        td.locator(sel).first.scroll_into_view_if_needed()
        assert td.evaluate(ON_SCREEN, sel) == "ok", sel
    td.click("#lang")  # Playwright fails the click if something else would receive it
    assert td.inner_text("#logout") == "Log out"
    td.click("#c-pause")
    td.wait_for_selector("#result[data-ok='1']")
    for path in ("/table?t=t1", "/clock", "/"):
        td.goto(dashboard.url + path)
        td.wait_for_timeout(600)
        assert width(td) <= PHONE["width"], path
    td.click("#logout")
    td.wait_for_selector("#login-link:not(.hidden)")
    assert td.errors == []  # type: ignore[attr-defined]


def test_a_lost_session_and_a_hub_down_are_said_on_the_page(chromium: Browser, room: ScriptedRoom) -> None:  # noqa: F811
    dash = Dashboard(room.hub, users={"alice": hash_password(PASSWORD)}).start()
    try:
        deal_hole_cards(room)
        room.fault("t1", 1, "boxed_card", seat=2, cards=["As"], boxed_in_deal=1, during_deal=True)
        room.settle()
        td = open_page(chromium, dash.url + "/login")
        login(td, dash.url)
        dash.sessions = Sessions({"alice": hash_password(PASSWORD)})  # the hub restarted: sessions forgotten
        td.click(".fault button.ack")
        td.wait_for_selector("#notice a[href='/login']")
        assert "Session DT perdue" in td.inner_text("#notice")
        assert td.locator("#controls").is_hidden() and td.locator("#login-link").is_visible()
        assert "spectateur" in td.inner_text("#who")
        td.click("#lang")
        assert "TD session lost" in td.inner_text("#notice") and "Log in again" in td.inner_text("#notice")
        td.click("#lang")
        td.click("#notice a")
        td.wait_for_url(dash.url + "/login")
        login(td, dash.url)
        td.click(".fault button.ack")
        td.wait_for_selector(".fault.closed")
        dash.stop()  # the hub goes away with the TD's page open
        room.fault("t1", 1, "boxed_card", seat=2, cards=["Ks"], boxed_in_deal=1, during_deal=True)
        td.click("#c-pause")
        td.wait_for_selector("#notice")
        assert "Hub injoignable" in td.inner_text("#notice")
        assert "✘" in td.inner_text("#result")
    finally:
        dash.stop()


def test_a_hub_restart_is_noticed_by_the_td_s_page_before_he_acts(chromium: Browser,  # noqa: F811
                                                                 room: ScriptedRoom) -> None:
    """The event stream comes back after the restart: the page asks who it is at once and says the
    session is lost (it showed the TD logged in, and every action failed, before #18)."""
    users = {"alice": hash_password(PASSWORD)}
    dash = Dashboard(room.hub, users=users).start()
    port = int(dash.url.rsplit(":", 1)[1])
    td = open_page(chromium, dash.url + "/login")
    login(td, dash.url)
    dash.stop()
    td.wait_for_selector("#live.bad")
    again = Dashboard(room.hub, users=users, port=port).start()  # same address, sessions forgotten
    try:
        td.wait_for_selector("#notice a[href='/login']", timeout=15_000)
        assert "Session DT perdue" in td.inner_text("#notice") and td.locator("#controls").is_hidden()
        assert td.errors == []  # type: ignore[attr-defined]
    finally:
        again.stop()


def test_on_a_phone_the_tables_come_first_and_a_waiting_decision_above_them(chromium: Browser,  # noqa: F811
                                                                            room: ScriptedRoom,
                                                                            dashboard: Dashboard) -> None:
    """Issue #30, point 8: on a phone the room page led with the controls and a long incident list, the
    tables 5,000 px down. The tables come first; a decision the TD must take goes above them."""
    deal_hole_cards(room)
    room.settle()
    td = phone(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    td.wait_for_selector("#table-t1")
    top = "(sel) => document.querySelector(sel).getBoundingClientRect().top + window.scrollY"
    assert td.evaluate(top, "#tables") < td.evaluate(top, "#faults-box") < td.evaluate(top, "#controls")
    room.fault("t1", 1, "boxed_card", seat=2, cards=["As"], boxed_in_deal=2, during_deal=True)
    room.settle()
    td.wait_for_selector(".fault.decide button[data-option]")
    assert td.evaluate(top, "#faults-box") < td.evaluate(top, "#tables") < td.evaluate(top, "#controls")
    assert width(td) <= PHONE["width"]
    assert td.errors == []  # type: ignore[attr-defined]
