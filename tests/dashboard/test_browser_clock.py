"""The clock screen's complete board (#18 point 4) in a real Chromium: chips in play, level length,
the blind schedule, the end of late registration, entries; a full-screen mode without the header; the
sound choice kept across a reload; the time whole on a portrait screen ("38:4" was cut)."""

from __future__ import annotations

import pytest

from hub.dashboard import Dashboard
from tests.dashboard import browser

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser  # noqa: E402

from tests.dashboard.test_browser import chromium, open_page  # noqa: E402,F401 - a fixture

TIME_SHOWN = "() => /\\d\\d:\\d\\d/.test(document.getElementById('clk-time').textContent)"


def plain(text: str) -> str:
    return text.replace("\u202f", " ").replace("\xa0", " ")


def test_the_clock_shows_the_whole_tournament_board(chromium: Browser, dashboard: Dashboard) -> None:  # noqa: F811
    clock = open_page(chromium, dashboard.url + "/clock")
    clock.wait_for_function(TIME_SHOWN)
    snap = dashboard.clock_snapshot()
    assert snap is not None
    assert plain(clock.inner_text("#clk-chips")) == "600 000" == f"{snap['chips_in_play']:,}".replace(",", " ")
    assert clock.inner_text("#clk-length") == "6 min"
    assert clock.inner_text("#clk-late") == "fin du niveau 2"  # cdc-2013 2.8
    assert clock.inner_text("#clk-entries") == "60"
    rows = clock.locator("#clk-schedule tr")
    assert rows.count() == 6
    assert plain(rows.nth(0).inner_text()).split("\t") == ["Niveau 2", "50 / 100", "6 min"]
    assert "Pause" in rows.nth(5).inner_text()
    assert plain(clock.inner_text("#clk-next")) == "Niveau suivant : 50 / 100"  # narrow no-break space
    assert dashboard.floor_command({"cmd": "clock", "action": "level", "level": 3})["ok"]
    clock.wait_for_function("() => document.getElementById('clk-late').textContent === 'closes'")
    clock.click("#lang")
    assert clock.inner_text("#clk-late") == "closed" and clock.inner_text("#clk-length") == "6 min"
    clock.click("#lang")
    # full screen: the header is hidden, the corner button (or Esc) brings it back
    clock.click("#full")
    assert clock.locator("header").is_hidden()
    clock.click("#exit-full")
    assert clock.locator("header").is_visible()
    clock.click("#full")
    clock.keyboard.press("Escape")
    assert clock.locator("header").is_visible()
    assert clock.errors == []  # type: ignore[attr-defined]


def test_the_sound_choice_is_kept_across_a_reload(chromium: Browser, dashboard: Dashboard) -> None:  # noqa: F811
    clock = open_page(chromium, dashboard.url + "/clock")
    assert clock.get_attribute("#sound-state", "data-on") == "0"
    clock.click("#sound")
    assert clock.get_attribute("#sound-state", "data-on") == "1"
    clock.reload()
    clock.wait_for_function(TIME_SHOWN)
    assert clock.get_attribute("#sound-state", "data-on") == "1"
    clock.click("#sound")
    clock.reload()
    assert clock.get_attribute("#sound-state", "data-on") == "0"


@pytest.mark.parametrize("size", [(390, 844), (768, 1024), (1080, 1920), (1920, 1080)])
def test_the_time_fits_the_screen(chromium: Browser, dashboard: Dashboard, size: tuple[int, int]) -> None:  # noqa: F811
    page = chromium.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
    page.goto(dashboard.url + "/clock")
    page.wait_for_function(TIME_SHOWN)
    page.evaluate("() => { document.getElementById('clk-time').textContent = '1:38:42'; }")  # the widest it gets
    box = page.evaluate("""() => { const e = document.getElementById('clk-time'); const r = e.getBoundingClientRect();
        const range = document.createRange(); range.selectNodeContents(e); const t = range.getBoundingClientRect();
        return [t.left, t.right, e.scrollWidth, e.clientWidth, window.innerWidth,
                Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)]; }""")
    left, right, scroll, client, inner, page_width = box
    assert left >= 0 and right <= inner and scroll <= client, box
    assert page_width <= inner, box


def test_the_room_page_carries_the_clock(chromium: Browser, dashboard: Dashboard) -> None:  # noqa: F811
    """Issue #30, point 4: the TD's main page shows the level, the blinds, the time left (counting down),
    the next break and the players left; a pause reads on it."""
    room = open_page(chromium, dashboard.url + "/")
    room.wait_for_function("() => /\\d\\d:\\d\\d/.test(document.getElementById('rc-time').textContent)")
    snap = dashboard.clock_snapshot()
    assert snap is not None
    assert room.inner_text("#rc-level") == f"Niveau {snap['level']}"
    assert plain(room.inner_text("#rc-blinds")).startswith(f"{snap['small_blind']} / {snap['big_blind']}")
    assert room.inner_text("#rc-players") == f"Joueurs restants {snap['players_left']} / {snap['entries']}"
    first = room.inner_text("#rc-time")
    room.wait_for_function(f"() => document.getElementById('rc-time').textContent !== {first!r}", timeout=5000)
    assert dashboard.floor_command({"cmd": "clock", "action": "pause"})["ok"]
    room.wait_for_function("() => document.getElementById('rc-status').textContent === 'HORLOGE ARRÊTÉE'")
    assert room.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)], ids=["1080p", "720p"])
def test_the_clock_screen_fits_a_tv_with_no_scroll_and_no_word_cut(chromium: Browser, dashboard: Dashboard,  # noqa: F811
                                                                    size: tuple[int, int]) -> None:
    """Issue #30, point 5: the clock screen on a TV: everything in view, no scroll bar, no tile's word cut
    in two ("Ré-/entrées")."""
    clock = open_page(chromium, dashboard.url + "/clock")
    clock.set_viewport_size({"width": size[0], "height": size[1]})
    clock.wait_for_function(TIME_SHOWN)
    clock.wait_for_timeout(300)
    height = clock.evaluate("() => document.documentElement.scrollHeight")
    width = clock.evaluate("() => document.documentElement.scrollWidth")
    assert height <= size[1] and width <= size[0], (height, width)
    cut = clock.evaluate("""() => [...document.querySelectorAll('.grid span, .grid b')].filter(e => {
        const words = e.textContent.trim().split(/\\s+/).length;
        const lines = Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight));
        return lines > words;  // more lines than words: a word was broken
    }).map(e => e.textContent)""")
    assert cut == []


def test_the_clock_names_the_winner_and_stops(chromium: Browser, dashboard: Dashboard) -> None:  # noqa: F811
    """Issue #30, point 5: once one player is left, the clock screen names him and no longer counts."""
    clock = open_page(chromium, dashboard.url + "/clock")
    clock.wait_for_function(TIME_SHOWN)
    floor = dashboard.floor
    assert floor is not None
    alive = sorted(p.name for p in floor.require().state.players.values() if p.alive)
    for name in alive[1:]:
        assert dashboard.floor_command({"cmd": "eliminate", "player": name})["ok"]
    winner = alive[0]
    clock.wait_for_function(f"() => document.getElementById('clk-time').textContent === {winner!r}", timeout=10_000)
    assert clock.inner_text("#clk-level") == "Vainqueur"
    clock.wait_for_timeout(1200)
    assert clock.inner_text("#clk-time") == winner  # not counting down any more
    assert clock.errors == []  # type: ignore[attr-defined]
