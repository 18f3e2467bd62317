"""Records serialise to the shapes spec/scenario.md fixes; errors keep their built-in bases."""

from __future__ import annotations

import json

import pytest

from hub.rules import (
    ActionKind,
    BettingRoundOpen,
    HandSetupError,
    Level,
    NoBettingRound,
    RulesError,
    UnknownRuleset,
    get_ruleset,
    start_hand,
)


def test_action_ruling_and_hand_end_dicts() -> None:
    h = start_hand("cdc-2013", Level(50, 100), 1, {1: 1_000, 2: 1_000, 3: 1_000, 4: 1_000})
    rec = h.act(4, ActionKind.RAISE, 150)  # 50 % of the 100 needed: completed to 200
    d = rec.to_dict()
    assert {k: d[k] for k in ("type", "seat", "action", "to", "status", "reason")} == {
        "type": "action", "seat": 4, "action": "raise", "to": 150, "status": "corrected",
        "reason": "insufficient_bet"}
    assert d["amount"] == 200
    assert d["ruling"] == {"decision": "completed_to_min_raise", "article": "cdc-2013 10.9",
                           "seat": 4, "kind": "insufficient_bet"}
    for seat in (1, 2, 3):
        h.act(seat, ActionKind.FOLD)
    assert h.result is not None
    end = h.result.to_dict()
    assert end == {"type": "hand_end", "result": "uncontested",
                   "stacks": {"1": 1_000, "2": 950, "3": 900, "4": 1_150},
                   "pots": [{"amount": 250, "winners": [4], "eligible": [4]}]}
    json.dumps([e.to_dict() for e in h.log])


def test_errors_are_also_builtins() -> None:
    with pytest.raises(KeyError):
        get_ruleset("wsop")
    assert issubclass(UnknownRuleset, RulesError)
    with pytest.raises(ValueError):
        start_hand("cdc-2013", Level(50, 100), 1, {1: 1_000})
    assert issubclass(HandSetupError, RulesError)
    h = start_hand("cdc-2013", Level(50, 100), 1, {1: 1_000, 2: 1_000})
    with pytest.raises(RuntimeError):
        h.deal_board("As", "Kd", "7h")
    assert issubclass(BettingRoundOpen, RulesError)
    h.act(1, ActionKind.CALL)
    h.act(2, ActionKind.CHECK)
    with pytest.raises(NoBettingRound):
        h.legal()
