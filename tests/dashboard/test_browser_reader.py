"""What the table's agent says of its reader, on the TD's pages in headless Chromium: the silent seat
named (« siège 3 »), what to do, in the page's language; a table's words put as text, never markup."""

from __future__ import annotations

import pytest

from firmware_bridge import FaultCode
from hub.dashboard import Dashboard
from hw.felt import Zone
from table_agent import reader_words as words
from table_agent.reader_words import RESTARTED
from tablewire import wire
from tests.dashboard import browser
from tests.dashboard.helpers import ScriptedRoom

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser  # noqa: E402

from tests.dashboard.test_browser import chromium, login, open_page  # noqa: E402,F401 - a fixture

HOSTILE = '<img src=x onerror="window.__pwned=1"><b>gras</b>'


def test_a_silent_seat_antenna_is_named_on_the_room_and_table_pages(chromium: Browser,  # noqa: F811
                                                                     room: ScriptedRoom,
                                                                     dashboard: Dashboard) -> None:
    said = words.fault(FaultCode.READER_TIMEOUT, words.place(5, Zone.seat_zone(3)), "reader chip silent", unread=True)
    room.send(wire.ReaderStatus(**room._base("t1"), state="fault", detail=said))
    room.send(wire.ReaderStatus(**room._base("t2"), state="connected", detail=RESTARTED))
    room.settle()
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    shown = td.locator("#table-t1 .reader-detail")
    shown.wait_for()
    assert shown.inner_text() == "lecteur\u202f: siège 3 (antenne 5)\u202f: module lecteur muet, cartes non lues " \
                                 "(pas parties)\u202f; vérifier le câble du module"
    assert shown.get_attribute("title") == said  # both languages, the board's own words with them
    assert td.locator("#table-t2 .reader-detail").count() == 0  # reading again: nothing to do in the room
    td.click("#lang")
    td.wait_for_function("() => document.querySelector('#table-t1 .reader-detail')?.textContent"
                         ".startsWith('reader: seat 3 (antenna 5): reader module silent')")
    td.click("#lang")
    table = open_page(chromium, dashboard.url + "/table?t=t2")  # the table's own page says it
    table.wait_for_selector(".reader-detail")
    assert table.inner_text(".reader-detail") == "lecteur redémarré, reprise de la lecture"  # not « lecteur : lecteur »
    table.wait_for_function("() => /Lecteur · lecteur redémarré, reprise de la lecture/"
                            ".test(document.getElementById('log').textContent)")  # its log keeps it
    assert td.errors == [] and table.errors == []  # type: ignore[attr-defined]


def test_a_table_s_hostile_reader_words_are_shown_as_text_and_cut(chromium: Browser,  # noqa: F811
                                                                  room: ScriptedRoom, dashboard: Dashboard) -> None:
    room.send(wire.ReaderStatus(**room._base("t1"), state="lost", detail=HOSTILE + " x" * 200))
    room.settle()
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    shown = td.locator("#table-t1 .reader-detail")
    shown.wait_for()
    text = shown.inner_text()
    assert text.startswith("lecteur\u202f: " + HOSTILE) and text.endswith("…") and len(text) < 200
    assert td.locator("#table-t1 img, #table-t1 .reader-detail b").count() == 0
    assert td.evaluate("() => window.__pwned") is None
    page = open_page(chromium, dashboard.url + "/table?t=t1")  # and on the table's page, for a viewer
    page.wait_for_selector(".reader-detail")
    assert page.locator("img").count() == 0 and page.evaluate("() => window.__pwned") is None
    assert td.errors == [] and page.errors == []  # type: ignore[attr-defined]
