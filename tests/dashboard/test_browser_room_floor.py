"""The room page's own floor controls (issue 18 part C): "Éliminer", a move, a penalty and the final-table
draw are asked first on the page and can be undone, with the desk's mechanism (common.js); a floor
refusal reads in the page's language only, French on the French page, English on the English one."""

from __future__ import annotations

import re

import pytest

from hub.dashboard import Dashboard
from hub.floor.commands import decode_command
from tests.dashboard import browser

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser, Page  # noqa: E402

from tests.dashboard.test_browser import chromium, login, open_page  # noqa: E402,F401 - a fixture
from tests.dashboard.test_browser_desk import shown, spaced  # noqa: E402


def result(page: Page, pattern: str) -> str:
    return shown(page, "result", pattern)


def asked(page: Page, pattern: str, *, yes: bool = True) -> None:
    page.wait_for_selector("#confirm:not(.hidden)")
    assert re.search(pattern, spaced(page.inner_text("#confirm-text"))), page.inner_text("#confirm-text")
    page.click("#confirm-yes" if yes else "#confirm-no")
    page.wait_for_selector("#confirm", state="hidden")


def seated(dashboard: Dashboard) -> tuple[str, int]:
    """A player at table 1 and his chips."""
    state = dashboard.floor.require().state  # type: ignore[union-attr]
    player = next(p for p in sorted(state.players.values(), key=lambda p: p.name) if p.alive and p.table == 1)
    return player.name, player.chips


@pytest.mark.parametrize("size", [(1400, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_rooms_eliminate_is_asked_first_and_undone(chromium: Browser, dashboard: Dashboard,  # noqa: F811
                                                       size: tuple[int, int]) -> None:
    td = open_page(chromium, dashboard.url + "/login")
    td.set_viewport_size({"width": size[0], "height": size[1]})  # on a phone the question is in view, clickable
    login(td, dashboard.url)
    name, chips = seated(dashboard)
    state = lambda: dashboard.floor.require().state.players[name]  # type: ignore[union-attr]  # noqa: E731
    td.fill("#f-elim [name=player]", name)
    td.click("#f-elim button")
    asked(td, f"Éliminer {re.escape(name)} \\? Ses jetons sortent du jeu", yes=False)  # "Retour": nothing done
    td.wait_for_timeout(300)
    assert state().alive and td.locator("#undo").is_hidden()
    td.click("#f-elim button")
    asked(td, f"Éliminer {re.escape(name)}")
    result(td, f"✔ {re.escape(name)} éliminé")
    assert not state().alive
    # the misclick is taken back: the undo is asked too, and is an event (the player is back with his chips)
    td.click("#undo")
    asked(td, f"Annuler : {re.escape(name)} éliminé")
    result(td, "✔ Action annulée")
    assert state().alive and state().chips == chips
    assert td.locator("#undo").is_hidden()  # an undo is not undone from here
    assert td.errors == []  # type: ignore[attr-defined]


def test_move_penalty_and_redraw_are_asked_and_refusals_read_in_one_language(chromium: Browser,  # noqa: F811
                                                                            dashboard: Dashboard) -> None:
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    name, _ = seated(dashboard)
    # the ruleset's ladder only, as on the desk; an amount the rung does not allow is said at once, not asked
    ladder = dashboard.floor.require().state.policy.penalties  # type: ignore[union-attr]
    kinds = [step.kind.value for step in ladder]
    td.wait_for_function("(kinds) => JSON.stringify([...document.querySelectorAll('#f-penalty option')]"
                         ".map(o => o.value)) === JSON.stringify(kinds)", arg=kinds)
    bounded = next(step for step in ladder if step.high)
    td.fill("#f-penalty [name=player]", name)
    td.select_option("#f-penalty select", bounded.kind.value)
    td.fill("#f-penalty [name=amount]", str(bounded.high + 1))
    td.click("#f-penalty button")
    said = result(td, "indiquer un nombre entier")
    assert said.endswith(f"de {bounded.low} à {bounded.high}."), said
    assert td.locator("#confirm").is_hidden()
    # a penalty: asked with its kind in words, done, undone (a warning takes no amount, whatever the field held)
    td.fill("#f-penalty [name=player]", name)
    td.fill("#f-penalty [name=amount]", "99")
    td.select_option("#f-penalty select", "warning")
    td.click("#f-penalty button")
    asked(td, f"Avertissement pour {re.escape(name)}")
    result(td, f"Sanction pour {re.escape(name)} : Avertissement")
    # a move to a seat that is taken: asked, then refused in French only
    td.fill("#f-move [name=player]", name)
    td.fill("#f-move [name=table]", "t2")
    td.fill("#f-move [name=seat]", "1")
    td.click("#f-move button")
    asked(td, f"Déplacer {re.escape(name)} à la table 2, siège 1")
    fr = result(td, "Refusé")
    assert fr.startswith("✘ Refusé par le hub : ") and "siège 1 de la Table 2 n'est pas libre" in fr, fr
    assert not re.search(r"\b(seat|table \d+ is|not free)\b", fr), fr
    # the final-table draw with 60 players left: asked, refused
    td.click("#f-redraw button")
    asked(td, "Tirer au sort les places de la table finale")
    fr = result(td, "la table finale est à")
    assert "la table finale est à" in fr and "players" not in fr, fr
    # the switch to English redraws what the page said: the same refusal, in English only
    td.select_option("#f-penalty select", bounded.kind.value)
    td.click("#lang")
    en = result(td, "Refused by the hub: the final table seats")
    assert td.eval_on_selector("#f-penalty select", "s => s.value") == bounded.kind.value  # kept, in English
    assert "Refusé" not in en and "table finale" not in en, en
    # an unknown player, on the English page: English only
    td.fill("#f-elim [name=player]", "Nobody Here")
    td.click("#f-elim button")
    asked(td, "Eliminate Nobody Here\\? His chips leave play")
    en = result(td, "unknown player")  # the line said "Refused" already (the redraw)
    assert en == "✘ Refused by the hub: unknown player 'Nobody Here'", en
    td.fill("#f-elim [name=player]", "Nobody Here")
    td.click("#lang")  # back to French: the same refusal in French
    td.click("#f-elim button")
    asked(td, "Éliminer Nobody Here")
    fr = result(td, "Refusé par le hub : joueur inconnu")
    assert fr == "✘ Refusé par le hub : joueur inconnu « Nobody Here »", fr
    assert td.errors == []  # type: ignore[attr-defined]


AMOUNT_WORDS = {"missed_hands": ("{n} mains de pénalité", "{n} penalty hands"),
                "missed_rounds": ("{n} tours de pénalité", "{n} penalty rounds"),
                "suspension": ("exclusion temporaire de {n} min", "a {n}-minute suspension")}


def test_a_penalty_is_asked_and_said_with_its_amount(chromium: Browser, dashboard: Dashboard) -> None:  # noqa: F811
    """The TD typed 2 rounds, not 4: the question and the line after it say how many, in each language
    (they said « Tours de pénalité pour Ada ? », the rung alone)."""
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    name, _ = seated(dashboard)
    ladder = dashboard.floor.require().state.policy.penalties  # type: ignore[union-attr]
    step = next(step for step in ladder if step.high and step.high > step.low)
    n = step.low + 1
    fr, en = (words.format(n=n) for words in AMOUNT_WORDS[step.kind.value])
    td.wait_for_selector(f"#f-penalty option[value={step.kind.value}]", state="attached")
    td.fill("#f-penalty [name=player]", name)
    td.select_option("#f-penalty select", step.kind.value)
    td.fill("#f-penalty [name=amount]", str(n))
    td.click("#f-penalty button")
    asked(td, f"^{re.escape(fr)} pour {re.escape(name)} \\?$")
    result(td, f"✔ Sanction pour {re.escape(name)} : {re.escape(fr)}$")
    td.click("#lang")
    result(td, f"✔ {re.escape(en)} given to {re.escape(name)}$")
    assert td.errors == []  # type: ignore[attr-defined]


def test_the_rooms_move_fields_say_what_they_want(chromium: Browser, dashboard: Dashboard) -> None:  # noqa: F811
    """The seat's field read « 1 » and the table's « Table »: a TD could not tell a seat from a count. As on the
    desk: « table (1) », « siège », in each language."""
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    fields = "f => [...f.querySelectorAll('input')].map(i => i.placeholder)"
    assert td.eval_on_selector("#f-move", fields) == ["joueur", "table (1)", "siège"]
    td.click("#lang")
    assert td.eval_on_selector("#f-move", fields) == ["player", "table (1)", "seat"]


def test_a_move_asked_while_the_players_table_deals_is_made_when_the_hand_ends(
        chromium: Browser, dashboard: Dashboard) -> None:  # noqa: F811
    """In a live room a table is always in a hand: the move was refused (« déplacer … quand elle sera finie »)
    and the TD could not move anyone. Now it is said for the hand's end, made then, and the desk lists it."""
    floor = dashboard.floor
    assert floor is not None
    name, _ = seated(dashboard)
    state = floor.require().state
    free = max(state.tables[2].seats)
    with dashboard.floor_lock:  # a seat freed at table 2 (a bust), then table 1 deals
        assert floor.execute(decode_command({"cmd": "eliminate", "player": state.tables[2].seats[free]}), 4.0).ok
        floor.hand_started("t1", state.tables[1].hand_no + 1, 5.0)
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    td.fill("#f-move [name=player]", name)
    td.fill("#f-move [name=table]", "t2")
    td.fill("#f-move [name=seat]", str(free))
    td.click("#f-move button")
    asked(td, f"Déplacer {re.escape(name)} à la table 2, siège {free}")
    said = result(td, "à la fin de la donne en cours")
    assert said == f"✔ {name} ira à la table 2, siège {free}, à la fin de la donne en cours", said
    assert state.players[name].table == 1
    t1 = state.tables[1]
    with dashboard.floor_lock:
        floor.hand_ended("t1", t1.hand_no, {seat: state.players[p].chips for seat, p in t1.seats.items()
                                            if seat in t1.start_stacks}, 6.0)
    assert state.players[name].table == 2 and state.players[name].seat == free
    td.goto(dashboard.url + "/desk")
    td.wait_for_selector("#history li[data-position]")
    assert f"{name} ira à la table 2, siège {free}, à la fin de la donne" in td.inner_text("#history")
    assert td.errors == []  # type: ignore[attr-defined]


def test_the_rooms_minutes_are_checked_on_the_page_as_on_the_desk(chromium: Browser,  # noqa: F811
                                                                  dashboard: Dashboard) -> None:
    """0 minutes went to the hub and came back refused in its words; now the page says what it wants."""
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    asked_before = len(dashboard.floor.require().events)  # type: ignore[union-attr]
    td.fill("#c-minutes", "0")
    td.click("#c-add")
    assert result(td, "nombre entier de minutes") == "✘ Indiquer un nombre entier de minutes, de 1 à 360."
    assert len(dashboard.floor.require().events) == asked_before  # type: ignore[union-attr]  # nothing sent
    td.fill("#c-minutes", "2")
    td.click("#c-add")
    result(td, "✔")
    assert len(dashboard.floor.require().events) > asked_before  # type: ignore[union-attr]
    assert td.errors == []  # type: ignore[attr-defined]
