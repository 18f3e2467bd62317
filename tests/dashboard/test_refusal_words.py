"""Every refusal of the tournament core that reaches the TD's page has French words (issue 18 part C).

The core raises in English; `hub.floor.command_words.in_french` gives the French the page shows on
its French side. This test reads each `raise` of the core's errors in the source (a new refusal is
checked the day it is written), fills its placeholders with sample values and asks for its French.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hub.floor.command_words import in_english, in_french

ROOT = Path(__file__).resolve().parents[2]
# The modules whose refusals reach a TD command's answer (seating's ValueErrors become FloorErrors), or
# the dashboard's line of a table whose "new hand" the floor refused (`hub.floor.tables`).
SOURCES = [*sorted((ROOT / "hub" / "tournament").glob("*.py")), ROOT / "hub" / "floor" / "service.py",
           ROOT / "hub" / "floor" / "tables.py"]
ERRORS = "TournamentError|ClockError|RegistrationError|FloorError|PenaltyError|StructureError|ValueError"
RAISE = re.compile(rf"raise (?:{ERRORS})\(((?:\s*f?\"(?:[^\"\\]|\\.)*\")+)")
LITERAL = re.compile(r"f?\"((?:[^\"\\]|\\.)*)\"")
# Records of the store (a bad event file) and of the command line: not a TD's refusal at the page.
NOT_A_REFUSAL = re.compile(r"JSON-ready|event type|record|TOML|cannot apply|event log starts|neither a level|"
                           r"time does not go backwards|starting stack|at least one level|level numbers|"
                           r"bad duration|bad blinds|ante and ante kind")


def sample(template: str) -> str:
    """The message as a TD would read it: `{table_label(...)}` -> Table 7, `{name!r}` -> 'Ada', any other
    placeholder -> 7."""
    template = re.sub(r"\{table_label\([^{}]*\)\}", "Table 7", template)
    return re.sub(r"\{[^{}]*\}", "7", re.sub(r"\{[^{}]*!r\}", "'Ada'", template))


def templates() -> list[str]:
    """Every refusal's text as written in the source, placeholders and all."""
    return ["".join(LITERAL.findall(match.group(1))) for path in SOURCES for match in RAISE.finditer(path.read_text())]


def refusals() -> list[str]:
    found: list[str] = []
    for text in templates():
        if " / " in text or NOT_A_REFUSAL.search(text):
            continue  # already "français / English", or not a refusal a TD meets
        found.append(sample(text))
    return found


def test_the_source_is_read() -> None:
    found = refusals()
    assert len(found) > 40
    assert "the clock is already paused" in found and "'Ada' is not playing" not in found


def test_a_refusal_names_a_table_as_the_dashboard_does() -> None:
    """"Table 1", as the dashboard shows it (`table_label`), never the number or the hub's id ("table 3",
    "à la table t1"), in French and in English."""
    raw = [text for text in templates() if re.search(r"(?i)\btables? \{", text)]
    assert not raw, f"a table named by its number or id, not by table_label: {raw}"
    assert "Table 7 has fewer than two players" in refusals()
    assert in_french("Table 7 has fewer than two players") == "Table 7 a moins de deux joueurs"


def test_the_hubs_refusal_of_a_cancel_names_the_table_as_the_dashboard_does() -> None:
    from hub.edge.service import _cancel_refusal

    over = "la donne 12 de la Table 3 est finie / hand 12 at Table 3 is over"
    assert _cancel_refusal("t3", 12, "hand 12 is over") == over
    assert _cancel_refusal("t3", 12, "no hand") == "pas de donne en cours à la Table 3 / no hand in progress at Table 3"


@pytest.mark.parametrize("english", refusals())
def test_each_refusal_of_the_core_has_french_words(english: str) -> None:
    french = in_french(english)
    assert french != english, f"no French for {english!r}"
    assert in_english(english) == english


def test_the_dashboards_own_refusals_have_both_languages() -> None:
    """No floor on the hub, or the store down: the dashboard says it in both languages itself."""
    from hub.dashboard.server import _refused

    said = _refused({"cmd": "eliminate"}, "pas de tournoi sur ce hub", "no tournament floor on this hub")
    assert said["error_fr"] != said["error_en"] and said["ok"] is False
