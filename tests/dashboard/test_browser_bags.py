"""Issue 32, the bag sheet on the page in headless Chromium: the counts by table and seat, the TD's "fin de
journée" asked first, then the bags and the day-2 draw; French then English, no raw identifier shown, and
printed (the print stylesheet: the controls hidden, the draw on its own page) to a PDF."""

from __future__ import annotations

import pytest

from hub.dashboard import Dashboard
from tests.dashboard import browser

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser  # noqa: E402

from tests.dashboard.test_browser import chromium, open_page  # noqa: E402,F401 - a fixture
from tests.dashboard.test_browser_desk import (  # noqa: E402,F401 - fixtures
    _started,
    confirm,
    desk,
    desk_dash,
    pouques,
    raw_words,
    shown,
)


def test_the_td_ends_the_day_and_the_sheet_prints_with_the_draw(chromium: Browser,  # noqa: F811
                                                                desk_dash: Dashboard) -> None:  # noqa: F811
    floor = desk_dash.floor
    assert floor is not None
    _started(floor, 14)
    viewer = open_page(chromium, desk_dash.url + "/bags")
    viewer.wait_for_selector("#b-table tr[data-player='Joueur 1']")
    assert "Niveau 1" in viewer.inner_text("#b-title")
    assert viewer.is_hidden("#end-day")  # the counts are public, the end of the day is the TD's
    page = desk(chromium, desk_dash.url)
    page.goto(desk_dash.url + "/bags")
    page.wait_for_selector("#end-day:not(.hidden)")
    page.click("#end-day")
    confirm(page, "Finir le jour 1 \\? L'horloge s'arrête")
    shown(page, "b-said", "Jour 1 fini : les places du jour 2 sont tirées")
    shown(page, "b-title", "Fin du jour 1 : jetons mis en sac")
    rows = page.locator("#b-table tr[data-player]")
    assert rows.count() == 14
    first = rows.first.inner_text().split("\t")
    assert first[3].replace("\u202f", " ") == "50 000" and first[4] == "1" and first[5].startswith("table ")
    assert page.locator("#b-draw .draw-table").count() == 2  # 14 players: two tables of 7 on day 2
    assert "Tirage des places du jour 2" in page.inner_text("#b-draw")
    assert page.is_hidden("#end-day")
    assert raw_words(page) == [], raw_words(page)
    page.click("#lang")
    shown(page, "b-title", "End of day 1: chips bagged")
    assert "Day 2 seat draw" in page.inner_text("#b-draw") and raw_words(page) == []
    page.emulate_media(media="print")
    assert page.is_hidden("header") and page.is_visible("#b-table")
    assert page.evaluate("getComputedStyle(document.getElementById('b-draw')).breakBefore") == "page"
    assert page.pdf(format="A4")[:4] == b"%PDF"
    assert page.errors == [] and viewer.errors == []  # type: ignore[attr-defined]
