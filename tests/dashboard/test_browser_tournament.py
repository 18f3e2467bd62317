"""Issue 18, "Done when": a 30-player pouques-2020 tournament played to its winner only through the page
(registration, a re-entry, the dinner break, table breaks, the final table, eliminations confirmed
one by one, the payout export), in headless Chromium, with no raw identifier in either language."""

from __future__ import annotations

import re

import pytest

from hub.dashboard import Dashboard
from hub.tournament.events import FinalTableDrawn, TableBroken
from tests.dashboard import browser
from tests.dashboard.test_browser_desk import confirm, desk, desk_dash, notice, pouques, raw_words, register  # noqa: F401

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser  # noqa: E402

from tests.dashboard.test_browser import chromium  # noqa: E402,F401 - a fixture


def euros(cell: str) -> int:
    """ "1 234,56" -> 123456 cents."""
    return int(re.sub(r"\D", "", cell)) if cell else 0


def test_a_30_player_tournament_to_its_winner_through_the_page(chromium: Browser,  # noqa: F811
                                                               desk_dash: Dashboard) -> None:  # noqa: F811
    floor = desk_dash.floor
    assert floor is not None
    page = desk(chromium, desk_dash.url)
    names = [f"Joueur {i:02d}" for i in range(1, 31)]
    for name in names:
        register(page, name)
    page.click("#b-seat")
    notice(page, "Places tirées")
    page.click("#b-start")
    notice(page, "Tournoi lancé")
    page.wait_for_selector("#playing tr[data-player='Joueur 30']")
    assert len(floor.require().state.tables) == 3

    def eliminate_first() -> str:
        player = page.get_attribute("#playing tr[data-player] ", "data-player")
        assert player is not None
        page.click(f"#playing tr[data-player='{player}'] button.eliminate")
        confirm(page, f"Éliminer {re.escape(player)}")
        notice(page, f"{re.escape(player)} éliminé")
        page.wait_for_selector(f"#out tr[data-player='{player}']")
        return player

    # a re-entry in level 1 (pouques 7, 22)
    first = eliminate_first()
    page.fill("#f-register [name=player]", first)
    page.click("#b-reenter")
    confirm(page, f"Réentrée : {first}")
    notice(page, "réentrée enregistrée")
    page.wait_for_function("() => document.getElementById('s-entries').textContent === '31'")
    # the dinner break after level 6: the TD jumps to level 6 and runs its last second out
    page.fill("#k-level", "6")
    page.click("#k-jump")
    notice(page, "Horloge mise à jour")
    page.fill("#k-left", "0:01")
    page.click("#k-set")
    page.wait_for_function("() => document.getElementById('s-level').textContent === 'Pause'", timeout=15_000)
    for _ in range(5):
        eliminate_first()  # the TD rules players out during the break too
    page.fill("#k-left", "0:01")
    page.click("#k-set")
    page.wait_for_function("() => document.getElementById('s-level').textContent.startsWith('7 ·')", timeout=15_000)
    while page.locator("#playing tr[data-player]").count() > 0:
        eliminate_first()
    events = floor.require().events
    assert any(isinstance(e, TableBroken) for e in events) and any(isinstance(e, FinalTableDrawn) for e in events)
    winner = page.inner_text("#out tr:nth-child(2)").split("\t")
    assert winner[0] == "1" and winner[2] == "vainqueur"
    assert raw_words(page) == [], raw_words(page)
    # the payout export: every cent of the pool (31 x 50 EUR x 96 %) paid, places 1 to 30
    csv = page.evaluate("async () => (await fetch(document.getElementById('csv-link').href)).text()")
    rows = [line.split(";") for line in csv.lstrip("\ufeff").splitlines()[1:]]
    assert [int(r[0]) for r in rows] == list(range(1, 31)) and len({r[1] for r in rows}) == 30
    assert sum(euros(r[4]) for r in rows) == 31 * 5_000 * 96 // 100
    page.click("#lang")
    page.wait_for_function("() => document.querySelector('#out tr:nth-child(2)').textContent.includes('winner')")
    assert raw_words(page) == [], raw_words(page)
    assert page.errors == []  # type: ignore[attr-defined]
