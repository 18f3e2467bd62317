"""Rulings: what each rulebook makes of a fault the table observed (spec/faults.md).

Consumes `FaultDetected` (tablewire.faults, raised by the table) and a `Situation` from the hub's rules engine;
emits a `Ruling` citing the article of the tournament's ruleset. Pure: no IO, no clock.
"""

from hub.rulings.engine import (
    DEFAULT_RULESET,
    RULESETS,
    clauses_for,
    deadline,
    is_substantial,
    release,
    rule,
    rulings_table,
)
from hub.rulings.model import (
    Clause,
    Decision,
    Ruling,
    RulingsError,
    RulingsTable,
    Situation,
    UnknownRuleset,
    When,
)

__all__ = [
    "DEFAULT_RULESET",
    "RULESETS",
    "Clause",
    "Decision",
    "Ruling",
    "RulingsError",
    "RulingsTable",
    "Situation",
    "UnknownRuleset",
    "When",
    "clauses_for",
    "deadline",
    "is_substantial",
    "release",
    "rule",
    "rulings_table",
]
