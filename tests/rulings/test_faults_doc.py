"""docs/faults.md stays in step with the ruleset tables and names every fault kind and decision."""

from __future__ import annotations

import pathlib

from hub.rulings import Decision
from hub.rulings.doc import BEGIN, END, ruleset_tables
from table_agent.dealing import FaultKind

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "faults.md"


def test_generated_tables_match_the_data() -> None:
    text = DOC.read_text()
    section = text[text.index(BEGIN):text.index(END) + len(END)]
    assert section == ruleset_tables(), "regenerate: python -m hub.rulings.doc"


def test_every_kind_and_decision_documented() -> None:
    head = DOC.read_text().split(BEGIN)[0]
    for name in [*FaultKind, *Decision]:
        assert f"`{name}`" in head or f"{name}`" in head, name
