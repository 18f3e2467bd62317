"""Issue #32 in headless Chromium: the TD opens the hand of an incident from the room's page and steps
through its cards in the antennas' order to the ruling; a viewer's page of the same hand shows no card
that was not shown at the table."""

from __future__ import annotations

from typing import Any

import pytest

from hub.dashboard import Dashboard
from hub.floor.service import FloorService
from hub.history.hand_record import public_record
from hub.history.store import HistoryStore
from tests.dashboard import browser
from tests.dashboard.helpers import ScriptedRoom
from tests.dashboard.test_http import deal_hole_cards
from tests.hub.test_hand_history import Felt

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser  # noqa: E402

from tests.dashboard.test_browser import chromium, login, open_page  # noqa: E402,F401 - a fixture

DEALT = ("As", "Kd", "Qh", "Ah", "Ks", "2c")  # seats 2, 3, 1, 2, 3, 1


def boxed_card_hand() -> dict[str, Any]:
    """Hand 1 at t1: a boxed card found after three hole cards (cdc-2013 6.3), seat 2 folds, 3 and 1 show down."""
    felt = Felt({1: 5000, 2: 5000, 3: 5000})
    felt.new_hand()
    felt.deal(*DEALT[:3])
    felt.fault("boxed_card", ["5h"], seat=None, boxed_in_deal=1, during_deal=True)
    for seat, face in zip((2, 3, 1), DEALT[3:], strict=True):
        felt.card(f"seat:{seat}", face)
    felt.act(1, "call")
    felt.act(2, "fold")
    felt.act(3, "check")
    for street in (("7c", "8d", "9h"), ("Tc",), ("3s",)):
        for face in street:
            felt.card("board", face)
        while felt.game.hand is not None and felt.game.hand.round_open and felt.game.hand.to_act is not None:
            felt.act(felt.game.hand.to_act, "check")
    return felt.record()


def test_the_td_steps_from_an_incident_through_its_hand_card_by_card_to_the_ruling(
        chromium: Browser, room: ScriptedRoom, dashboard: Dashboard, floor: FloorService) -> None:  # noqa: F811
    record = boxed_card_hand()
    assert record["replayable"], record["problems"]
    HistoryStore(floor.store).put(record, public_record(record))
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    deal_hole_cards(room)  # the live room's incident, hand 1 at t1
    room.fault("t1", 1, "boxed_card", seat=None, cards=["5h"], boxed_in_deal=1, during_deal=True)
    room.settle()
    td.wait_for_selector(".fault a.replay")
    td.click(".fault a.replay")
    td.wait_for_selector("#current")
    assert "card 0 / " in td.inner_text("#current")
    for step, (face, seat) in enumerate(zip(DEALT, (2, 3, 1, 2, 3, 1), strict=True), start=1):
        td.click("#next")
        td.wait_for_function(f"() => document.querySelector('#current').textContent.includes('card {step} /')")
        current = td.inner_text("#current")
        assert face[0] in current and f"siège / seat {seat}" in current, current  # the zone in words
        ruled = td.locator("#so-far li.fault").count()
        assert ruled == (1 if step >= 3 else 0), (step, td.inner_text("#so-far"))  # the ruling after card 3
    fault = td.inner_text("#so-far li.fault")
    assert "cdc-2013 6.3" in fault and "la carte est mise de côté" in fault, fault  # in words, not `set_aside`
    assert td.errors == []  # type: ignore[attr-defined]
    viewer = open_page(chromium, dashboard.url + "/hand?t=t1&h=1")
    text = viewer.content()
    assert "A♠" not in text and "A♥" not in text and "K♦" in text  # seat 2 folded; seat 3 showed down
    assert viewer.locator("#next").count() == 0


# Each visible link's colour against the first opaque background behind it: WCAG's contrast ratio.
LINK_CONTRAST = """() => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b]
    .map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const behind = e => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length === 3 || c[3] > 0) return c.slice(0, 3); } return [255, 255, 255]; };
  return [...document.querySelectorAll("a")].filter(a => a.offsetParent !== null).map(a => {
    const [x, y] = [lum(rgb(getComputedStyle(a).color)), lum(behind(a))];
    return [a.textContent.trim(), (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)];
  });
}"""


def test_the_links_to_a_hand_and_on_its_pages_read_on_the_felt(
        chromium: Browser, room: ScriptedRoom, dashboard: Dashboard, floor: FloorService) -> None:  # noqa: F811
    """The incident's « La donne, carte par carte » and the hand pages' links were the browser's own blue on
    the dark felt (a contrast of 2 : 1): a TD could not read them. WCAG's 4.5 : 1 for text, at least."""
    record = boxed_card_hand()
    HistoryStore(floor.store).put(record, public_record(record))
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    deal_hole_cards(room)
    room.fault("t1", 1, "boxed_card", seat=None, cards=["5h"], boxed_in_deal=1, during_deal=True)
    room.settle()
    td.wait_for_selector(".fault a.replay")
    links = dict(td.evaluate(LINK_CONTRAST))
    assert "La donne, carte par carte" in links and min(links.values()) >= 4.5, links
    for path in ("/hands?t=t1", "/hand?t=t1&h=1", "/hand?t=t1&h=1&step=2"):
        td.goto(dashboard.url + path)
        links = dict(td.evaluate(LINK_CONTRAST))
        assert len(links) >= 2 and min(links.values()) >= 4.5, (path, links)
