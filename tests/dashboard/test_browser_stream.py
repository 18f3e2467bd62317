"""The delayed stream's page (/stream) in headless Chromium: its own login, the delay said in words in both
languages, and a hand's hole cards drawn on their seats once the hand is over and the delay has passed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hub.dashboard import Dashboard
from hw.ports import ManualClock
from tests.dashboard import browser
from tests.dashboard.helpers import ScriptedRoom
from tests.dashboard.test_http import HOLE, deal_hole_cards
from tests.dashboard.test_stream import DELAY, WATCHER, clock, streaming  # noqa: F401 - fixtures
from tests.support import wait_until

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser  # noqa: E402

SHOTS = Path(os.environ["TAPIS_SCREENSHOTS"]) if os.environ.get("TAPIS_SCREENSHOTS") else None

from tests.dashboard.test_browser import chromium, open_page, received  # noqa: E402,F401 - a fixture


def test_the_stream_page_shows_a_hand_s_cards_after_the_delay(
        chromium: Browser, room: ScriptedRoom, streaming: Dashboard, clock: ManualClock) -> None:  # noqa: F811
    feed = streaming.stream
    assert feed is not None
    page = open_page(chromium, streaming.url + "/stream")
    page.wait_for_selector("#stream-login:not(.hidden)")
    page.fill("#user", "obs")
    page.fill("#password", WATCHER)
    page.click("#submit")
    page.wait_for_function("() => window.__tapis && window.__tapis.received >= 1")  # the (empty) room
    assert page.inner_text("#delay") == "différé de 5 min"
    deal_hole_cards(room)
    room.act("t1", 1, "fold")
    room.act("t1", 2, "fold")
    room.settle()
    # the dashboard offers the hub's events to the stream on its own thread: the hand's end must be offered
    # (stamped with this clock) before the clock moves, or it is stamped later (a loaded CI run failed so)
    assert wait_until(lambda: feed.line._ended.get("t1", -1) >= 1, 10)
    clock.advance(DELAY - 1)
    assert feed.tick() == 0  # the hand is over but not yet a delay old
    clock.advance(1)
    assert feed.tick() > 0
    page.wait_for_selector("#table-t1 tr[data-seat='2']")
    page.wait_for_function("() => document.querySelector('#table-t1 tr[data-seat=\"3\"]').innerText.includes('K♦')")
    seats = {seat: page.inner_text(f"#table-t1 tr[data-seat='{seat}']") for seat in HOLE}
    for seat, faces in HOLE.items():
        for face in faces:
            shown = face[:-1].replace("T", "10") + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[face[-1]]
            assert shown in seats[seat], (seat, shown, seats[seat])
    log = page.inner_text("#tables")
    assert "sans abattage" in log and "Siège 3 gagne" in log, log  # the result, who won the pot
    page.screenshot(path=str(SHOTS / "stream.png")) if SHOTS else None
    page.click("#lang")
    assert page.inner_text("#delay") == "5-min delay"
    assert [name for name, _ in received(page)][0] == "room"
    assert page.errors == []  # type: ignore[attr-defined]
