"""What every ruling carries besides its decision (the ruleset, the hand, the time, the cards: the
journal and the dashboard print them), the safety net when no clause applies, and the engine's
reading of fault details. Written against mutants of hub/rulings/engine.py that survived the
per-fault tables (docs/testing.md)."""

from __future__ import annotations

import pytest

from hub.rulings import Decision as D
from hub.rulings import Situation, UnknownRuleset, engine, release, rule
from table_agent.dealing import FaultDetected
from table_agent.dealing import FaultKind as K


def _fault(kind: K, seat: int | None = 3, cards: tuple[str, ...] = ("Qc",), **details: object) -> FaultDetected:
    return FaultDetected(kind=kind, hand=12, seat=seat, cards=cards, at=100.5, details=details)


@pytest.mark.parametrize("ruleset", engine.RULESETS)
def test_a_ruling_names_its_ruleset_hand_time_kind_and_cards(ruleset: str) -> None:
    f = _fault(K.EXTRA_HOLE_CARD, extra=1)
    for ruling in (rule(f, ruleset), rule(f, ruleset, Situation(substantial_action=True)),
                   release(_fault(K.OUT_OF_TURN), ruleset)):
        assert (ruling.ruleset, ruling.hand, ruling.at) == (ruleset, 12, 100.5)
        assert ruling.kind in (K.EXTRA_HOLE_CARD, K.OUT_OF_TURN) and ruling.cards == ("Qc",)
        assert ruling.options == () or ruling.decision is D.TD_DECISION


def test_no_clause_applies_the_td_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table ends with an unconditional clause; should one not, the TD decides (never a crash)."""
    monkeypatch.setattr(engine, "clauses_for", lambda kind, ruleset: ())
    ruling = rule(_fault(K.BOXED_CARD, seat=4), "pcpm")
    assert (ruling.decision, ruling.article, ruling.seat, ruling.options) == (D.TD_DECISION, "pcpm (no rule)", 4, ())
    assert (ruling.ruleset, ruling.hand, ruling.cards, ruling.at) == ("pcpm", 12, ("Qc",), 100.5)


def test_an_unknown_ruleset_names_the_known_ones() -> None:
    with pytest.raises(UnknownRuleset, match=r"^unknown ruleset 'nope': expected one of cdc-2013, "):
        rule(_fault(K.BOXED_CARD), "nope")


def test_details_that_are_missing_or_not_integers_count_as_zero() -> None:
    assert engine._int(_fault(K.BOXED_CARD), "exposed_count") == 0
    assert engine._int(_fault(K.BOXED_CARD, exposed_count="2"), "exposed_count") == 0
    assert engine._int(_fault(K.BOXED_CARD, exposed_count=2), "exposed_count") == 2


def test_a_correction_already_decided_by_the_betting_engine_is_taken_as_is() -> None:
    completed = _fault(K.BOXED_CARD, corrected=str(D.COMPLETED_TO_MIN_RAISE), to=100, current_bet=100)
    called = _fault(K.BOXED_CARD, corrected=str(D.TREATED_AS_CALL), to=1_000, current_bet=100)
    for check in (engine._half_over_bet, engine._half_min_raise):
        assert check(completed, Situation()) is True
        assert check(called, Situation()) is False
    assert engine._half_over_bet(_fault(K.BOXED_CARD, to=150, current_bet=100), Situation()) is True
    assert engine._half_over_bet(_fault(K.BOXED_CARD, to=149, current_bet=100), Situation()) is False


def test_the_skipped_seat_is_named_when_known_else_the_faults_own() -> None:
    """cdc 10.2: substantial action after an out-of-turn action: the skipped player may only call or
    fold; the ruling names him (`skipped`), or the fault's seat when the detail is missing."""
    named = rule(_fault(K.OUT_OF_TURN, seat=3, skipped=5), "cdc-2013", Situation(substantial_action=True))
    unnamed = rule(_fault(K.OUT_OF_TURN, seat=3), "cdc-2013", Situation(substantial_action=True))
    assert (named.decision, named.seat) == (D.CALL_OR_FOLD_ONLY, 5)
    assert (unnamed.decision, unnamed.seat) == (D.CALL_OR_FOLD_ONLY, 3)


def test_a_misdeal_turned_into_continue_keeps_the_faults_seat() -> None:
    ruling = rule(_fault(K.MISSING_HOLE_CARD, seat=5, held=1), "cdc-2013", Situation(substantial_action=True))
    assert (ruling.decision, ruling.seat) == (D.CONTINUE, 5)
