"""Issue 18 (points 2, 3, 5, 6) on the page, in headless Chromium: the registration desk (entries, draw,
start, a pouques re-entry), eliminations confirmed on the page and undone, the clock controls with
their checks, penalties and the final-table draw refused in plain words, the printable results and
the CSV export; French and English, desktop and phone, no raw identifier shown."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.dashboard import Dashboard, hash_password
from hub.floor.commands import NewTournament
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.tournament.structure import pouques_2020, to_toml
from tests.dashboard import browser
from tests.dashboard.conftest import PASSWORD, RunningClock
from tests.dashboard.helpers import ScriptedRoom

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser, Page  # noqa: E402

from tests.dashboard.test_browser import chromium, open_page  # noqa: E402,F401 - a fixture

# What a TD must never read: identifiers of the code, pydantic's words.
RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|Input tag|validation error|Input should|undefined|NaN|null")


@pytest.fixture
def pouques(tmp_path: Path) -> Iterator[FloorService]:
    """An empty pouques-2020 tournament (re-entry once in the first 6 levels), 50 € buy-in."""
    with EventStore(tmp_path / "desk.db", durable=False) as store:
        floor = FloorService(store)
        floor.create(NewTournament(name="Pouques du jeudi", ruleset="pouques-2020",
                                   structure_toml=to_toml(pouques_2020()), buy_in_cents=5_000, seed=5), 0.0)
        yield floor


@pytest.fixture
def desk_dash(room: ScriptedRoom, pouques: FloorService) -> Iterator[Dashboard]:
    dash = Dashboard(room.hub, floor=pouques, users={"alice": hash_password(PASSWORD)}, clock=RunningClock(),
                     clock_period=0.3).start()
    yield dash
    dash.stop()


def desk(chromium: Browser, url: str, *, width: int = 1400, height: int = 900, lang: str = "fr") -> Page:  # noqa: F811
    page = open_page(chromium, url + "/login")
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(f"() => localStorage.setItem('tapis.lang', '{lang}')")
    page.fill("#user", "alice")
    page.fill("#password", PASSWORD)
    page.click("#submit")
    page.wait_for_url(url + "/")
    page.goto(url + "/desk")
    page.wait_for_selector("#desk-registration:not(.hidden) #f-register")
    return page


def spaced(text: str) -> str:
    """French typography's narrow no-break space read as a space, so a pattern reads as the TD does."""
    return text.replace("\u202f", " ").replace("\xa0", " ")


def shown(page: Page, element: str, pattern: str) -> str:
    """The text of the element with id `element` once it matches `pattern` (spaces as the TD reads them)."""
    page.wait_for_function("([id, re]) => new RegExp(re).test(document.getElementById(id).textContent"
                           ".replace(/[\\u202f\\u00a0]/g, ' '))", arg=[element, pattern])
    return spaced(page.inner_text("#" + element))


def notice(page: Page, pattern: str) -> str:
    return shown(page, "notice-text", pattern)


def register(page: Page, name: str) -> None:
    page.fill("#f-register [name=player]", name)
    page.click("#f-register button[type=submit], #f-register button:not([type])")
    notice(page, f"{re.escape(name)} (inscrit|registered)")


def confirm(page: Page, question: str) -> None:
    page.wait_for_selector("#confirm:not(.hidden)")
    assert re.search(question, spaced(page.inner_text("#confirm-text"))), page.inner_text("#confirm-text")
    page.click("#confirm-yes")


def row(page: Page, table: str, player: str) -> str:
    page.wait_for_selector(f"#{table} tr[data-player='{player}']")
    return page.inner_text(f"#{table} tr[data-player='{player}']")


def raw_words(page: Page) -> list[str]:
    return RAW.findall(page.inner_text("body"))


def test_the_desk_registers_starts_eliminates_undoes_and_reenters(chromium: Browser,  # noqa: F811
                                                                  desk_dash: Dashboard) -> None:
    page = desk(chromium, desk_dash.url)
    for name in ("Ada", "Brune", "Chloé", "Dédé"):
        register(page, name)
    page.wait_for_function("() => document.getElementById('s-pool').textContent.includes('192,00')")  # 96 %
    assert "inscrit, pas encore placé" in row(page, "playing", "Dédé")  # entered, before the draw
    assert page.locator("#playing tr[data-player='Dédé'] button.eliminate").count() == 0
    page.click("#b-seat")
    notice(page, "Places tirées")
    page.click("#b-start")
    notice(page, "Tournoi lancé")
    assert "1 · " in row(page, "playing", "Ada")  # table 1, its seat
    # an elimination is asked first; "Retour" leaves Ada in play
    page.click("#playing tr[data-player='Ada'] button.eliminate")
    page.wait_for_selector("#confirm:not(.hidden)")
    page.click("#confirm-no")
    assert desk_dash.floor.require().state.players["Ada"].alive  # type: ignore[union-attr]
    page.click("#playing tr[data-player='Ada'] button.eliminate")
    confirm(page, "Éliminer Ada \\? Ses jetons sortent du jeu")
    notice(page, "Ada éliminé")
    assert row(page, "out", "Ada").split("\t")[0].strip() == "4"
    # the misclick is undone: a record, not an erasure
    page.click("#undo")
    confirm(page, "Annuler : Ada éliminé")
    notice(page, "Action annulée")
    assert "50 000" in row(page, "playing", "Ada").replace("\u202f", " ").replace("\xa0", " ")
    assert page.locator("#out tr[data-player='Ada']").count() == 0
    # out again, and back by a re-entry (pouques 7, 22)
    page.click("#playing tr[data-player='Ada'] button.eliminate")
    confirm(page, "Éliminer Ada")
    notice(page, "Ada éliminé")
    page.fill("#f-register [name=player]", "Ada")
    page.click("#b-reenter")
    confirm(page, "Réentrée : Ada")
    notice(page, "Ada : réentrée enregistrée")
    row(page, "playing", "Ada")
    page.wait_for_function("() => document.getElementById('s-entries').textContent === '5'")
    page.wait_for_function("() => document.getElementById('s-pool').textContent.includes('240,00')")
    # a second re-entry is refused in plain French
    page.click("#playing tr[data-player='Ada'] button.eliminate")
    confirm(page, "Éliminer Ada")
    notice(page, "Ada éliminé")
    page.click("#b-reenter")
    confirm(page, "Réentrée : Ada")
    assert "Refusé par le hub : Ada a déjà utilisé sa réentrée (pouques-2020 7, 22, 32)" in notice(page, "Refusé")
    assert raw_words(page) == [], raw_words(page)
    assert page.errors == []  # type: ignore[attr-defined]


def _started(floor: FloorService, players: int) -> None:
    for cmd in ({"cmd": "register", "players": [f"Joueur {i}" for i in range(1, players + 1)]},
                {"cmd": "seat"}, {"cmd": "start"}):
        assert floor.execute(cmd, 0.5).ok  # type: ignore[arg-type]


def test_clock_controls_penalties_and_refusals_in_plain_words(chromium: Browser,  # noqa: F811
                                                              desk_dash: Dashboard) -> None:
    floor = desk_dash.floor
    assert floor is not None
    _started(floor, 12)
    page = desk(chromium, desk_dash.url)
    page.fill("#k-minutes", "-5")
    page.click("#k-remove")
    assert notice(page, "nombre entier") == "Indiquer un nombre entier de minutes, de 1 à 360."
    before = floor.snapshot(desk_dash.clock.now())["time_left"]
    page.fill("#k-minutes", "5")
    page.click("#k-remove")
    notice(page, "Horloge mise à jour")
    after = floor.snapshot(desk_dash.clock.now())["time_left"]
    assert 290 < before - after < 320  # type: ignore[operator]
    page.fill("#k-left", "12:30")
    page.click("#k-set")
    notice(page, "Horloge mise à jour")
    page.wait_for_function("() => /^12:(2\\d|30)/.test(document.getElementById('s-time').textContent)")
    page.fill("#k-left", "douze")
    page.click("#k-set")
    notice(page, "minutes et secondes")
    page.fill("#k-level", "3")
    page.click("#k-jump")
    notice(page, "Horloge mise à jour")
    page.wait_for_function("() => document.getElementById('s-level').textContent.startsWith('3 ·')")
    page.fill("#k-level", "99")
    page.click("#k-jump")
    assert "pas de niveau 99" in notice(page, "Refusé")
    # penalties: the ruleset's ladder only, as the rulebook writes it (pouques 49: no penalty rounds)
    page.wait_for_function("() => document.querySelectorAll('#p-kind option').length === 3")
    assert page.eval_on_selector_all("#p-kind option", "os => os.map(o => [o.textContent, o.title])") == [
        ["Avertissement", "pouques-2020 49, 64"], ["Exclusion temporaire (min) 5–30", "pouques-2020 49"],
        ["Disqualification", "pouques-2020 43, 64"]]
    # the amount held to the rung picked: none for a warning, the rulebook's 5 to 30 minutes for a suspension
    amount = "i => [i.disabled, i.min, i.max, i.value]"
    page.select_option("#p-kind", "warning")
    assert page.eval_on_selector("#f-penalty [name=amount]", amount)[0] is True
    page.select_option("#p-kind", "suspension")
    assert page.eval_on_selector("#f-penalty [name=amount]", amount) == [False, "5", "30", "5"]
    page.select_option("#p-kind", "disqualification")
    assert page.eval_on_selector("#f-penalty [name=amount]", amount)[0] is True
    page.select_option("#p-kind", "suspension")
    # a suspension with confirmation, then one longer than the rulebook allows: said at once, nothing asked
    page.fill("#f-penalty [name=player]", "Joueur 3")
    page.fill("#f-penalty [name=amount]", "30")  # the rung's bound itself is allowed
    page.click("#f-penalty button")
    confirm(page, "exclusion temporaire de 30 min pour Joueur 3")  # the minutes typed, said
    notice(page, "Sanction pour Joueur 3 : exclusion temporaire de 30 min")
    # the history says it as the TD gave it, minutes and all
    given = page.locator("#history li[data-position]", has_text="Joueur 3").first
    given.wait_for()
    said = spaced(given.inner_text())
    assert "Sanction pour Joueur 3 : exclusion temporaire de 30 min" in said, said
    records = len(floor.require().state.players["Joueur 3"].penalties)
    page.fill("#f-penalty [name=amount]", "45")
    page.click("#f-penalty button")
    said = notice(page, "indiquer un nombre entier")
    assert said.endswith("Exclusion temporaire (min) : indiquer un nombre entier de 5 à 30."), said
    assert page.locator("#confirm").is_hidden() and len(floor.require().state.players["Joueur 3"].penalties) == records
    page.select_option("#p-kind", "warning")
    page.select_option("#p-kind", "suspension")  # picked again: the amount back within its bounds
    assert page.eval_on_selector("#f-penalty [name=amount]", amount) == [False, "5", "30", "5"]
    page.click("#b-redraw")
    confirm(page, "table finale")
    # the notice said "Refusé" already (the penalty): wait for this refusal's own words
    assert "Refusé par le hub : la table finale est à 9 : il reste 12 joueurs" in notice(page, "la table finale est à")
    # the TD's own move, confirmed, then undone: Joueur 5 is back on his seat
    state = floor.require().state
    home = (state.players["Joueur 5"].table, state.players["Joueur 5"].seat)
    other = next(n for n in state.tables if n != home[0])
    free = min(set(range(1, 11)) - set(state.tables[other].seats))
    page.fill("#f-move [name=player]", "Joueur 5")
    page.fill("#f-move [name=table]", f"t{other}")
    page.fill("#f-move [name=seat]", "11")
    page.click("#f-move button")
    notice(page, "Indiquer le joueur, la table")
    page.fill("#f-move [name=seat]", str(free))
    page.click("#f-move button")
    confirm(page, f"Déplacer Joueur 5 à la table {other}, siège {free}")
    assert f"table {home[0]} siège {home[1]} → table {other} siège {free}" in notice(page, "Joueur 5 déplacé")
    page.click("#undo")
    confirm(page, "Annuler : Joueur 5 déplacé")
    assert f"table {other} siège {free} → table {home[0]} siège {home[1]}" in notice(page, "Action annulée")
    back = floor.require().state.players["Joueur 5"]  # the state is rebuilt by the undo: read it again
    assert (back.table, back.seat) == home
    assert raw_words(page) == [], raw_words(page)
    page.click("#lang")  # the same refusal in English
    page.click("#b-redraw")
    confirm(page, "final table")
    assert "Refused by the hub: the final table seats 9: 12 players are left" in notice(page, "Refused.*final table")
    assert raw_words(page) == [], raw_words(page)
    assert page.errors == []  # type: ignore[attr-defined]


def test_results_print_and_export_with_players_still_in(chromium: Browser,  # noqa: F811
                                                        desk_dash: Dashboard) -> None:
    floor = desk_dash.floor
    assert floor is not None
    _started(floor, 12)
    assert floor.execute({"cmd": "eliminate", "player": "Joueur 7"}, 1.0).ok
    page = desk(chromium, desk_dash.url)
    page.goto(desk_dash.url + "/results")
    page.wait_for_selector("#r-table tr[data-player='Joueur 7']")
    assert page.inner_text("#r-table tr[data-player='Joueur 7']").split("\t")[:3] == ["12", "Joueur 7", "éliminé"]
    still = page.inner_text("#r-table tr[data-player='Joueur 1']")
    assert "en jeu" in still and "€" not in still
    assert raw_words(page) == [], raw_words(page)
    csv = page.evaluate("async () => (await fetch('/api/results.csv')).text()")
    assert csv.splitlines()[0].lstrip("\ufeff").startswith("Place;Joueur / Player;")
    assert "12;Joueur 7;éliminé / out;1;" in csv and ";Joueur 1;en jeu / still playing;1;" in csv
    page.click("#lang")
    assert "still playing" in page.inner_text("#r-table tr[data-player='Joueur 1']")
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_desk_fits_a_phone_in_both_languages(chromium: Browser, desk_dash: Dashboard,  # noqa: F811
                                                 lang: str) -> None:
    assert desk_dash.floor is not None
    _started(desk_dash.floor, 12)
    page = desk(chromium, desk_dash.url, width=390, height=844, lang=lang)
    page.wait_for_selector("#playing tr[data-player='Joueur 1']")
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > 391).map(e => e.tagName + '#' + e.id)""")
    assert wide == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.click("#playing tr[data-player='Joueur 1'] button.eliminate")
    page.click("#confirm-yes")
    notice(page, "Joueur 1 (éliminé|eliminated)")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert raw_words(page) == [], raw_words(page)
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.fixture
def brest_dash(room: ScriptedRoom, tmp_path: Path) -> Iterator[Dashboard]:
    """A brest-2011 tournament (wait-list, II.2), created empty."""
    with EventStore(tmp_path / "brest.db", durable=False) as store:
        floor = FloorService(store)
        floor.create(NewTournament(name="Brest", ruleset="brest-2011", structure_toml=to_toml(pouques_2020()),
                                   buy_in_cents=2_000, payouts="pouques", seed=3), 0.0)
        dash = Dashboard(room.hub, floor=floor, users={"alice": hash_password(PASSWORD)}, clock=RunningClock(),
                         clock_period=0.3).start()
        yield dash
        dash.stop()


def test_absent_arrival_wait_list_and_chip_race_at_the_desk(chromium: Browser,  # noqa: F811
                                                            brest_dash: Dashboard) -> None:
    floor = brest_dash.floor
    assert floor is not None
    page = desk(chromium, brest_dash.url)
    for name in ("Ada", "Brune", "Chloé", "Dédé", "Erwan"):
        register(page, name)
    page.check("#r-absent")
    register(page, "Fañch")  # registered, not there yet
    page.uncheck("#r-absent")
    assert not floor.require().state.players["Fañch"].arrived
    page.fill("#f-register [name=player]", "Fañch")
    page.click("#b-arrive")
    notice(page, "Fañch est arrivé")
    page.click("#b-seat")
    notice(page, "Places tirées")
    page.click("#b-start")
    notice(page, "Tournoi lancé")
    page.fill("#f-register [name=player]", "Gwen")
    page.click("#b-wait")
    notice(page, "Liste d'attente mise à jour")
    page.wait_for_function("() => document.getElementById('wait-list').textContent.includes('Gwen')")
    page.click("#b-wait-seat")  # nobody is out yet: brest II.2 says why not
    confirm(page, "Placer Gwen")
    assert "un joueur de la liste d'attente entre après une élimination" in notice(page, "Refusé")
    page.click("#playing tr[data-player='Ada'] button.eliminate")
    confirm(page, "Éliminer Ada")
    notice(page, "Ada éliminé")
    page.click("#b-wait-seat")
    confirm(page, "Placer Gwen")
    notice(page, "Liste d'attente mise à jour")
    page.wait_for_selector("#playing tr[data-player='Gwen']")
    # a chip race: a bad entry is caught on the page, a good one colours up table 1
    page.fill("#f-race [name=table]", "t1")
    page.fill("#f-race [name=small]", "25")
    page.fill("#f-race [name=big]", "100")
    page.fill("#f-race [name=leftovers]", "Brune 3")
    page.click("#f-race button")
    notice(page, "Indiquer la table")
    page.fill("#f-race [name=leftovers]", "Brune=3, Chloé=1")
    page.click("#f-race button")
    confirm(page, "Course aux jetons à la table 1 : plaques de 25 en 100")
    notice(page, "Course aux jetons faite à la table 1")
    assert any(type(e).__name__ == "ChipsColouredUp" for e in floor.require().events)
    assert raw_words(page) == [], raw_words(page)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_lookalike_name_is_asked_before_a_second_entry(chromium: Browser, desk_dash: Dashboard) -> None:  # noqa: F811
    """Issue #30, point 6: "agnes" typed beside "Agnès" is asked first ("Retour" enters nobody); entered
    anyway, the misclick is undone from the desk."""
    page = desk(chromium, desk_dash.url)
    register(page, "Agnès")
    page.wait_for_selector("#playing tr[data-player='Agnès']")
    page.fill("#f-register [name=player]", "agnes")
    page.click("#f-register button[type=submit], #f-register button:not([type])")
    page.wait_for_selector("#confirm:not(.hidden)")
    assert "« agnes » ressemble à « Agnès »" in spaced(page.inner_text("#confirm-text"))
    page.click("#confirm-no")
    assert "agnes" not in desk_dash.floor.require().state.players  # type: ignore[union-attr]
    page.click("#f-register button[type=submit], #f-register button:not([type])")
    confirm(page, "ressemble à")
    notice(page, "agnes")
    assert "agnes" in desk_dash.floor.require().state.players  # type: ignore[union-attr]
    page.click("#undo")
    confirm(page, "Annuler")
    notice(page, "Action annulée")
    page.wait_for_function("() => !document.querySelector(\"#playing tr[data-player='agnes']\")")
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.fixture
def empty_dash(room: ScriptedRoom, tmp_path: Path) -> Iterator[Dashboard]:
    """A hub whose store holds no tournament yet (a club's first night as installed)."""
    with EventStore(str(tmp_path / "empty.db")) as store:
        dash = Dashboard(room.hub, floor=FloorService(store), users={"alice": hash_password(PASSWORD)},
                         clock=RunningClock(), clock_period=0.3).start()
        yield dash
        dash.stop()


def test_a_tournament_is_created_from_the_desk_with_a_template(chromium: Browser, empty_dash: Dashboard) -> None:  # noqa: F811
    """Issue #30, point 2: on an empty store the desk offers the new tournament (not a refusal naming the
    hub's file): a name, the rulebook, the buy-in, the TD's payouts, a structure from a template, edited."""
    url = empty_dash.url
    page = open_page(chromium, url + "/login")
    page.set_viewport_size({"width": 1400, "height": 900})
    page.fill("#user", "alice")
    page.fill("#password", PASSWORD)
    page.click("#submit")
    page.wait_for_url(url + "/")
    page.goto(url + "/desk")
    page.wait_for_selector("#desk-new #n-template option", state="attached")
    assert page.locator("#desk-registration").is_hidden()
    page.fill("#f-new [name=name]", "Jeudi du club")
    page.select_option("#f-new [name=ruleset]", "pouques-2020")
    page.fill("#f-new [name=buy_in]", "20")
    page.fill("#f-new [name=payouts]", "60,40")
    page.fill("#f-new [name=pool]", "90")
    assert "Soirée club" in page.input_value("#n-structure")
    page.select_option("#n-template", "pouques-2020")
    text = page.input_value("#n-structure")
    assert "starting_stack = 50000" in text
    page.fill("#n-structure", text.replace("starting_stack = 50000", "starting_stack = 30000"))  # edited
    page.click("#f-new button")
    notice(page, "Tournoi « Jeudi du club » créé")
    page.wait_for_selector("#desk-registration", state="visible")
    assert page.locator("#desk-new").is_hidden()
    floor = empty_dash.floor
    assert floor is not None
    t = floor.require()
    assert (t.state.name, t.state.policy.ruleset, t.state.structure.starting_stack) == (
        "Jeudi du club", "pouques-2020", 30_000)
    register(page, "Agnès")
    register(page, "Bruno")
    assert floor.snapshot(0.0)["payouts_cents"] == [2_160, 1_440]  # the TD's 60/40 of 90 % of 2 x 20 EUR
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_tds_actions_are_listed_and_undone_from_the_history(chromium: Browser,  # noqa: F811
                                                               desk_dash: Dashboard) -> None:
    """Issue #30, point 6: an action taken earlier (another page, an hour ago) is undone from the desk's
    history while nothing has played since; one that can no longer be undone says so by having no button."""
    page = desk(chromium, desk_dash.url)
    for name in ("Agnès", "agnes", "Bruno"):
        page.fill("#f-register [name=player]", name)
        page.click("#f-register button[type=submit], #f-register button:not([type])")
        if name == "agnes":
            confirm(page, "ressemble à")
        notice(page, re.escape(name))
    page.goto(desk_dash.url + "/desk")  # the page left and come back: the history is the floor's
    page.wait_for_selector("#history li[data-position]")
    items = page.locator("#history li[data-position]")
    assert [spaced(items.nth(i).inner_text()).split(" · ", 1)[1] for i in range(3)] == [
        "Inscription : Bruno Annuler", "Inscription : agnes Annuler", "Inscription : Agnès Annuler"]
    items.nth(1).locator("button.undo-action").click()
    confirm(page, "Annuler : Inscription : agnes")
    notice(page, "Action annulée")
    floor = desk_dash.floor
    assert floor is not None
    assert "agnes" not in floor.require().state.players and "Bruno" in floor.require().state.players
    page.wait_for_function("() => document.querySelectorAll('#history button.undo-action').length === 2")
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_deal_at_the_final_table_is_shown_both_ways_and_confirmed(chromium: Browser,  # noqa: F811
                                                                   desk_dash: Dashboard) -> None:
    """Issue #30, payouts: the players left agree a deal: the desk shows chip chop and ICM side by side,
    the TD confirms one (asked first), and the results pay it."""
    page = desk(chromium, desk_dash.url)
    for name in ("Ada", "Brune", "Chloé"):
        register(page, name)
    page.click("#b-seat")
    notice(page, "Places tirées")
    page.click("#b-start")
    notice(page, "Tournoi lancé")
    page.click("#b-deal")
    page.wait_for_selector("#deal tr[data-player='Ada']")
    assert page.locator("#deal tr[data-player]").count() == 3
    assert "chip chop" in page.inner_text("#deal") and "ICM" in page.inner_text("#deal")
    page.click("#deal-icm")
    confirm(page, "Accord \\(ICM")
    notice(page, "Accord enregistré")
    floor = desk_dash.floor
    assert floor is not None
    won = floor.prizes()
    assert set(won) == {"Ada", "Brune", "Chloé"} and sum(won.values()) == sum(floor.prizes_to_play() or [0]) \
        == floor.payout_rule().prize_pool(3, 5_000)  # type: ignore[union-attr]
    assert page.errors == []  # type: ignore[attr-defined]
