"""The desk offers the club's rulebook files (issue #31): the five seeds, then each file of the folder the
install gives the hub (`tapis hub --rulebooks /etc/tapis/rulebooks`), a broken one shown with its one-line
error; a tournament made from the desk with a club's file keeps the file's text and rules under it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.dashboard import Dashboard, hash_password
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.tournament.structure import pouques_2020, to_toml
from tests.dashboard.conftest import PASSWORD, RunningClock
from tests.dashboard.helpers import ScriptedRoom
from tests.dashboard.test_http import login, request

CLUB = Path(__file__).parents[1] / "rulebooks" / "club-bords-de-loire.toml"


@pytest.fixture
def desk(room: ScriptedRoom, tmp_path: Path) -> Iterator[tuple[Dashboard, Path]]:
    books = tmp_path / "rulebooks"
    books.mkdir()
    shutil.copy(CLUB, books / "bords-de-loire.toml")
    (books / "casse.toml").write_text('id = "club-x"\nname = "x"\ninherits = "cdc-2013"\nburns = 2\n',
                                      encoding="utf-8")
    (books / "notes.txt").write_text("pas un règlement", encoding="utf-8")
    with EventStore(tmp_path / "t.db", durable=False) as store:
        dash = Dashboard(room.hub, floor=FloorService.open(store), users={"alice": hash_password(PASSWORD)},
                         clock=RunningClock(), rulebooks=books).start()
        yield dash, books
        dash.stop()


def new(**extra: object) -> dict[str, object]:
    return {"cmd": "new", "name": "Jeudi", "ruleset": "pcbl-2026", "structure_toml": to_toml(pouques_2020()),
            "buy_in_cents": 1000, "payouts": "50,30,20", **extra}


def test_the_desk_lists_the_seeds_then_the_club_files(desk: tuple[Dashboard, Path]) -> None:
    dash, _ = desk
    status, body, _ = request(dash, "GET", "/api/rulebooks")
    assert status == 200
    books = body["rulebooks"]
    assert [b["id"] for b in books[:5]] == ["cdc-2013", "brest-2011", "pouques-2020", "pcpm", "cpt87"]
    assert books[5] == {"id": "pcbl-2026", "name": "Poker Club des Bords de Loire, règlement intérieur 2026",
                        "file": "bords-de-loire.toml"}
    assert books[6]["file"] == "casse.toml" and "burns: clé inconnue" in books[6]["error"]
    assert len(books) == 7  # notes.txt is no rulebook


def test_a_tournament_made_at_the_desk_under_the_club_file(desk: tuple[Dashboard, Path]) -> None:
    dash, books = desk
    cookie, csrf = login(dash)
    status, body, _ = request(dash, "POST", "/api/td/floor", new(rulebook_file="bords-de-loire.toml"),
                              cookie=cookie, csrf=csrf)
    assert status == 200 and body["ok"], body
    (books / "bords-de-loire.toml").unlink()  # the text is kept with the tournament
    assert dash.floor is not None
    again = FloorService.open(dash.floor.store).require()
    assert again.state.policy.ruleset == "pcbl-2026" and again.events[0].rulebook  # type: ignore[attr-defined]


@pytest.mark.parametrize(("file", "says"), [("casse.toml", "burns: clé inconnue"), ("../t.db", "un fichier .toml"),
                                            ("absent.toml", "absent du dossier")])
def test_a_file_the_desk_cannot_use_is_refused_in_one_line(desk: tuple[Dashboard, Path], file: str,
                                                           says: str) -> None:
    dash, _ = desk
    cookie, csrf = login(dash)
    status, body, _ = request(dash, "POST", "/api/td/floor", new(rulebook_file=file), cookie=cookie, csrf=csrf)
    assert status == 409 and says in body["error_fr"] and len(body["error_fr"].splitlines()) == 1, body
    assert dash.floor is not None and dash.floor.tournament is None


def test_the_desk_page_offers_the_club_file_and_creates_the_tournament(desk: tuple[Dashboard, Path]) -> None:
    """In Chromium: the desk's list shows the seeds, the club's file and the broken one (not selectable);
    the tournament created with the club's file rules under pcbl-2026."""
    from tests.dashboard import browser

    if (why := browser.missing()) is not None:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    dash, _ = desk
    with sync_playwright() as playwright:
        chromium = browser.launch(playwright)
        try:
            page = chromium.new_context(viewport={"width": 1400, "height": 900}).new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(dash.url + "/login")
            page.fill("#user", "alice")
            page.fill("#password", PASSWORD)
            page.click("#submit")
            page.wait_for_url(dash.url + "/")
            page.goto(dash.url + "/desk")
            page.wait_for_selector("#f-new [name=ruleset] option[value='file:bords-de-loire.toml']", state="attached")
            options = page.eval_on_selector_all("#f-new [name=ruleset] option",
                                                "os => os.map(o => [o.value, o.textContent, o.disabled])")
            assert [o[0] for o in options[:5]] == ["cdc-2013", "brest-2011", "pouques-2020", "pcpm", "cpt87"]
            assert options[5][1] == ("Poker Club des Bords de Loire, règlement intérieur 2026 "
                                     "(fichier du club bords-de-loire.toml)")
            assert options[6][2] and "casse.toml" in options[6][1] and "burns" in options[6][1]
            page.fill("#f-new [name=name]", "Jeudi du club")
            page.select_option("#f-new [name=ruleset]", "file:bords-de-loire.toml")
            page.click("#f-new button")
            page.wait_for_selector("#desk-registration", state="visible")
            assert errors == []
        finally:
            chromium.close()
    assert dash.floor is not None
    t = dash.floor.require()
    assert (t.state.name, t.state.policy.ruleset) == ("Jeudi du club", "pcbl-2026")
