"""The hub's rules engine: a pure hand state machine, five rulebooks and the games as data.

Consumed by the hub (live, from table events) and by the table agent when offline; emits frozen
records and rulings citing articles. No IO, no threads, no clock: time is passed in.
Its hot modules run compiled where `./setup.sh --compiled` built them for these very sources (`compiled`,
docs/rules-engine.md); `ENGINE` says which engine runs and, if the pure one, why.
"""

from hub.rules import compiled

ENGINE = compiled.select(__path__)  # before any other module of the package is imported

from hub.rules.hand import Hand, start_hand
from hub.rules.positions import Level, Positions, default_positions, next_positions
from hub.rules.records import (
    ActionKind,
    ActionRecord,
    ActionStatus,
    BettingRoundOpen,
    Decision,
    FaultKind,
    HandEndKind,
    HandOver,
    HandResult,
    HandSetupError,
    Legal,
    NoBettingRound,
    PhhError,
    PotResult,
    RulesError,
    Ruling,
    RulingGiven,
    Street,
    UnknownRuleset,
)
from hub.rules.rulesets import DEFAULT_RULESET, RULESETS, Ruleset, TimeCaller, get_ruleset

__all__ = [
    "DEFAULT_RULESET", "ENGINE", "RULESETS", "ActionKind", "ActionRecord", "ActionStatus",
    "BettingRoundOpen", "Decision", "FaultKind", "Hand", "HandEndKind", "HandOver", "HandResult",
    "HandSetupError", "Legal", "Level", "NoBettingRound", "PhhError", "PotResult", "Positions", "RulesError",
    "Ruleset", "Ruling", "RulingGiven", "Street", "TimeCaller", "UnknownRuleset",
    "default_positions", "get_ruleset", "next_positions", "start_hand",
]
