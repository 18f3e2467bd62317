"""No raw identifier on any page, in French or in English (#18 point 8), in a real Chromium.

Every page (room, table, clock, login; TD and viewer) is opened over a room with faults, a pending
td_decision, actions out of turn and a hand log, in both languages; the desk and the results page with a
tournament under way (registrations, an elimination, a TD's move, a refusal, a question asked), on a
desktop and on a 390x844 phone; its visible text (and titles,
placeholders, options) is scanned for snake_case ids, the spec's ids whose label differs from them,
cards in the short form ("7c"), "main 9" (the header says "Donne"), French words left on the English
page and French typography. The translation tables are checked against ../shared/spec and the enums.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.dashboard import Dashboard
from hub.rules.records import ActionKind, ActionStatus, HandEndKind, Street
from hub.tournament.events import MoveReason
from hub.tournament.penalties import PenaltyKind
from hub.tournament.state import PlayerStatus
from tablewire.faults import Decision, FaultKind
from tests.dashboard import browser
from tests.dashboard.helpers import ScriptedRoom
from tests.dashboard.test_http import deal_hole_cards

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser, Page  # noqa: E402

from tests.dashboard.test_browser import chromium, login, open_page  # noqa: E402,F401 - a fixture
from tests.dashboard.test_browser_desk import confirm, desk, desk_dash, notice, pouques  # noqa: E402,F401

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "faults.md"
if not SPEC.exists():
    SPEC = Path("/work/shared/spec/faults.md")

VISIBLE = """() => {
  const parts = [document.body.innerText, document.title];
  document.querySelectorAll('[title]').forEach(e => parts.push(e.title));
  document.querySelectorAll('input[placeholder]').forEach(e => parts.push(e.placeholder));
  document.querySelectorAll('option').forEach(e => parts.push(e.textContent));
  return parts.join('\\n');
}"""
SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
SHORT_CARD = re.compile(r"(?<![\w♠♥♦♣])(?:10|[2-9TJQKA])[cdhs]\b")
FRENCH_ONLY = ["spectateur", "directeur de tournoi", "Donne", "Déconnexion", "Salle", "Horloge", "Siège",
               "Incidents", "Joueurs", "Niveau", "Vu par", "hors ligne", "Mise insuffisante", "Éliminer", "éliminé",
               "Inscri", "Réentrée", "Refusé", "Annuler", "Retour", "Confirmer", "inconnu", "Prix", "Exclusion",
               "Imprimer", "en jeu", "Pénalité", "Déplacer", "siège"]


def spec_ids() -> tuple[set[str], set[str]]:
    """The fault kinds and decisions the contract names (its two tables' first column)."""
    kinds: set[str] = set()
    decisions: set[str] = set()
    table: set[str] | None = None
    for line in SPEC.read_text().splitlines():
        if line.startswith("## Fault kinds"):
            table = kinds
        elif line.startswith("## Ruling decisions"):
            table = decisions
        elif table is not None and line.startswith("| `"):
            table.update(re.findall(r"`([a-z_]+)`", line.split("|")[1]))
    return kinds, decisions


def problems(text: str, lang: str, labels: dict[str, Any]) -> list[str]:
    """Every raw identifier or wrong word in a page's visible text."""
    found = [f"snake_case id {m!r}" for m in SNAKE.findall(text)]
    mine = labels[lang]
    for group, table in mine.items():
        for ident, word in table.items():
            if ident in ("true", "false") or re.search(rf"\b{re.escape(ident)}\b", word, re.I):
                continue  # the id is a word of its own label ("flop", "Le coup continue")
            if lang == "en" and "_" not in ident and ident != "allin":
                continue  # "left", "check": English words on an English page
            if re.search(rf"(?<![\w-]){re.escape(ident)}(?![\w-])", text):
                found.append(f"raw {group} id {ident!r}")
    found += [f"short card {m!r}" for m in SHORT_CARD.findall(text)]
    if lang == "fr":
        found += [f"'main N' {m!r}" for m in re.findall(r"\bmain \d+", text)]
        plain = text.replace("??", "")
        found += [f"typography {m!r}" for m in re.findall(r".[:;?!]", plain)
                  if m[0] not in "\u202f\u00a0" and not (m[1] == ":" and m[0].isdigit())]
    else:
        found += [f"French on the English page {w!r}" for w in FRENCH_ONLY if w in text]
    return found


@pytest.fixture
def busy(room: ScriptedRoom, dashboard: Dashboard) -> Iterator[Dashboard]:
    """A td_decision open (cpt87 6.3), an action out of turn and its ruling, a fault on a second table."""
    deal_hole_cards(room)
    room.fault("t1", 1, "boxed_card", seat=2, cards=["7c"], boxed_in_deal=2, during_deal=True)
    room.act("t1", 3, "call")  # out of turn: the small blind is to act
    room.act("t1", 1, "raise", to=400)
    room.configure("t2", {1: 20_000, 2: 20_000}, button=1)
    room.status("t2", True)
    room.new_hand("t2")
    room.fault("t2", 1, "flop_without_burn", cards=[])
    room.card("t2", "muck", "7h")
    room.settle()
    yield dashboard


def scan(page: Page, labels: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for lang in ("fr", "en"):
        if page.evaluate("() => LANG") != lang:
            page.click("#lang")
        page.wait_for_timeout(200)
        out += [f"{page.url} [{lang}] {p}" for p in problems(page.evaluate(VISIBLE), lang, labels)]
    page.click("#lang")  # back to French for the next page
    return out


def test_no_page_shows_a_raw_identifier_in_either_language(chromium: Browser, busy: Dashboard) -> None:  # noqa: F811
    td = open_page(chromium, busy.url + "/login")
    login(td, busy.url)
    td.wait_for_selector(".fault.decide button[data-option]")
    labels = td.evaluate("() => LABELS")
    found = scan(td, labels)
    td.goto(busy.url + "/table?t=t1")
    td.wait_for_selector("#log div")
    found += scan(td, labels)
    viewer = open_page(chromium, busy.url + "/")
    viewer.wait_for_selector(".fault")
    found += scan(viewer, labels)
    viewer.goto(busy.url + "/table?t=t2")
    viewer.wait_for_selector("#log div")
    found += scan(viewer, labels)
    viewer.goto(busy.url + "/clock")
    viewer.wait_for_function("() => /\\d:\\d\\d/.test(document.getElementById('clk-time').textContent)")
    found += scan(viewer, labels)
    viewer.goto(busy.url + "/login")
    found += scan(viewer, labels)
    assert found == [], "\n".join(found)
    assert td.errors == [] and viewer.errors == []  # type: ignore[attr-defined]


@pytest.fixture
def under_way(desk_dash: Dashboard) -> Dashboard:  # noqa: F811
    """pouques-2020, 14 registered, seated and started, one out, one moved by the TD."""
    floor = desk_dash.floor
    assert floor is not None
    names = ["Ada", "Brune", "Chloé", "Dédé", "Émile", "Fanny", "Gaston", "Hélène", "Igor", "Jules", "Katia",
             "Léon", "Margot", "Noé"]
    for cmd in ({"cmd": "register", "players": names}, {"cmd": "seat"}, {"cmd": "start"},
                {"cmd": "eliminate", "player": "Noé"}):
        assert floor.execute(cmd, 0.5).ok, cmd  # type: ignore[arg-type]
    state = floor.require().state
    ada = state.players["Ada"]
    other = next(n for n in state.tables if n != ada.table)
    free = next(s for s in range(1, 11) if s not in state.tables[other].seats)
    assert floor.execute({"cmd": "move", "player": "Ada", "table": f"t{other}", "seat": free}, 0.6).ok
    return desk_dash


@pytest.mark.parametrize("size", [(1400, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_desk_and_the_results_have_no_raw_identifier(chromium: Browser, under_way: Dashboard,  # noqa: F811
                                                         size: tuple[int, int]) -> None:
    labels = open_page(chromium, under_way.url + "/login").evaluate("() => LABELS")
    page = desk(chromium, under_way.url, width=size[0], height=size[1])
    page.wait_for_selector("#out tr[data-player='Noé']")
    # a refusal from the core (its French from command_words), then a question left open on the page
    page.fill("#f-register [name=player]", "Ada")
    page.click("#b-reenter")
    confirm(page, "Réentrée : Ada")
    notice(page, "Refusé")
    found = scan(page, labels)
    page.click("#playing tr[data-player='Brune'] button.eliminate")
    page.wait_for_selector("#confirm:not(.hidden)")
    found += scan(page, labels)
    page.click("#confirm-yes")
    notice(page, "Brune éliminé")
    page.wait_for_selector("#undo:not(.hidden)")
    found += scan(page, labels)
    page.goto(under_way.url + "/results")
    page.wait_for_selector("#r-table tr[data-player='Brune']")
    found += scan(page, labels)
    assert found == [], "\n".join(found)
    assert page.errors == []  # type: ignore[attr-defined]


def test_every_identifier_has_a_label_in_both_languages(chromium: Browser, dashboard: Dashboard) -> None:  # noqa: F811
    page = open_page(chromium, dashboard.url + "/login")
    labels = page.evaluate("() => LABELS")
    kinds, decisions = spec_ids()
    assert len(kinds) > 20 and len(decisions) > 20  # the spec's tables were read
    wanted = {"fault": kinds | {str(k) for k in FaultKind}, "decision": decisions | {str(d) for d in Decision},
              "street": {str(s) for s in Street}, "status": {str(s) for s in ActionStatus},
              "action": {str(a) for a in ActionKind},
              "result": {str(r) for r in HandEndKind} | {"misdeal", "cancelled"},
              "penalty": {str(p) for p in PenaltyKind}, "player_status": {str(p) for p in PlayerStatus},
              "move_reason": {str(r) for r in MoveReason},
              "standing": {"playing", "registered", "winner", "out"}}
    missing = [f"{lang}.{group}.{ident}" for lang in ("fr", "en") for group, ids in wanted.items()
               for ident in sorted(ids) if not labels[lang].get(group, {}).get(ident)]
    assert missing == []
    same = [f"{group}.{ident}" for group, ids in wanted.items() for ident in ids
            if labels["fr"][group][ident] == labels["en"][group][ident] and "_" in ident]
    assert same == []  # a compound id left untranslated in one of them


def test_the_checker_catches_what_it_is_for() -> None:
    """The scanner itself: each kind of raw text it must refuse (so an empty list means something)."""
    labels = {"fr": {"street": {"preflop": "avant le flop"}, "fault": {}}, "en": {"street": {"preflop": "preflop"}}}
    assert problems("Décider\u202f: hand_cancelled_pot_split", "fr", labels)
    assert problems("Donne 9 · preflop", "fr", labels)
    assert problems("main 9, 7c", "fr", labels)
    assert problems("Décider: x", "fr", labels)
    assert problems("alice (directeur de tournoi)", "en", labels)
    assert not problems("Donne 9 · avant le flop · 7♣ · 05:32 · ??", "fr", labels)
    assert not problems("Hand 9 · preflop", "en", labels)
