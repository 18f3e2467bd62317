"""`judge_wager` alone (hub/rules/betting.py), every branch with the whole judgement: what stands,
the kind applied, the street total, the reason and the ruling (its seat, fault and article). The
hand only reads some of these fields; the referee's screen and the rulings read the rest. Written
from the mutation triage of issue 29 (docs/testing.md)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hub.rules import ActionKind, ActionStatus, Decision, FaultKind
from hub.rules.betting import Judgement, judge_wager, min_raise_to, reopened
from hub.rules.records import Ruling
from hub.rules.rulesets import get_ruleset

CDC = get_ruleset("cdc-2013")
POUQUES = get_ruleset("pouques-2020")
K, S = ActionKind, ActionStatus


def judge(kind: ActionKind, to: int | None, *, own: int = 0, stack: int = 10_000, max_bet: int = 300,
          min_to: int = 500, may_raise: bool = True, rules: object = CDC, **kw: object) -> Judgement:
    return judge_wager(rules, seat=4, kind=kind, to=to, own_bet=own, stack=stack,  # type: ignore[arg-type]
                       max_bet=max_bet, min_to=min_to, may_raise=may_raise, **kw)  # type: ignore[arg-type]


def corrected(applied: ActionKind, to: int, decision: Decision, article: str) -> Judgement:
    return Judgement(S.CORRECTED, applied, to, FaultKind.INSUFFICIENT_BET,
                     Ruling(decision, article, 4, FaultKind.INSUFFICIENT_BET))


def rejected(reason: str, own: int = 0) -> Judgement:
    return Judgement(S.REJECTED, None, own, reason)


def test_refusals_name_their_reason_and_leave_the_bet_where_it_was() -> None:
    assert judge(K.RAISE, None, own=100) == rejected("amount_required", 100)
    assert judge(K.RAISE, 10_200, own=100) == rejected("more_than_stack", 100)
    assert judge(K.RAISE, 900, own=100, max_to=800) == rejected("above_pot_limit", 100)
    assert judge(K.RAISE, 100, own=100) == rejected("amount_not_above_bet", 100)  # exactly his own bet
    assert judge(K.RAISE, 250, own=100) == rejected("below_call", 100)  # short call: he chooses again
    assert judge(K.RAISE, 600, own=100, may_raise=False) == rejected("raise_not_allowed", 100)
    assert judge(K.ALLIN, None, own=100, stack=1_000, may_raise=False) == rejected("raise_not_allowed", 100)


def test_a_call_is_accepted_and_a_raise_to_the_bet_is_a_call_with_a_ruling() -> None:
    assert judge(K.CALL, 300) == Judgement(S.ACCEPTED, K.CALL, 300)
    assert judge(K.RAISE, 300) == corrected(K.CALL, 300, Decision.TREATED_AS_CALL, "cdc-2013 10.9")
    # all-in for exactly the bet is a call, even for a seat that may not raise
    assert judge(K.ALLIN, None, stack=300, may_raise=False) == Judgement(S.ACCEPTED, K.CALL, 300)


def test_bets_and_raises_are_named_by_the_bet_they_face() -> None:
    assert judge(K.RAISE, 200, max_bet=0, min_to=100) == Judgement(S.ACCEPTED, K.BET, 200)
    assert judge(K.RAISE, 600) == Judgement(S.ACCEPTED, K.RAISE, 600)
    assert judge(K.ALLIN, None, stack=900) == Judgement(S.ACCEPTED, K.ALLIN, 900)


def test_pot_limit_caps_an_allin_at_the_pot_only_below_the_stack() -> None:
    assert judge(K.ALLIN, None, max_bet=0, min_to=100, max_to=700) == Judgement(
        S.CORRECTED, K.BET, 700, "pot_limit")
    assert judge(K.ALLIN, None, max_to=700) == Judgement(S.CORRECTED, K.RAISE, 700, "pot_limit")
    assert judge(K.ALLIN, None, stack=700, max_to=700) == Judgement(S.ACCEPTED, K.ALLIN, 700)


def test_a_short_opening_bet_is_aligned_on_the_big_blind_cdc_10_9() -> None:
    assert judge(K.RAISE, 30, max_bet=0, min_to=100) == corrected(
        K.BET, 100, Decision.COMPLETED_TO_MIN_RAISE, "cdc-2013 10.9")


def test_the_fifty_percent_rule_at_its_edge_and_never_past_the_stack() -> None:
    # increment 100 of 202: just under half, a call; 101 of 202: half or more, completed to 502
    assert judge(K.RAISE, 400, min_to=502) == corrected(K.CALL, 300, Decision.TREATED_AS_CALL, "cdc-2013 10.9")
    assert judge(K.RAISE, 401, min_to=502) == corrected(K.RAISE, 502, Decision.COMPLETED_TO_MIN_RAISE,
                                                        "cdc-2013 10.9")
    assert judge(K.RAISE, 400, stack=450) == corrected(K.ALLIN, 450, Decision.COMPLETED_TO_MIN_RAISE,
                                                       "cdc-2013 10.9")
    assert judge(K.RAISE, 400, stack=500) == corrected(K.ALLIN, 500, Decision.COMPLETED_TO_MIN_RAISE,
                                                       "cdc-2013 10.9")


def test_an_announced_short_raise_is_completed_and_silence_is_the_default_cdc_10_3() -> None:
    assert judge(K.RAISE, 310, announced=True) == corrected(K.RAISE, 500, Decision.COMPLETED_TO_MIN_RAISE,
                                                            "cdc-2013 10.3")
    assert judge(K.RAISE, 310) == corrected(K.CALL, 300, Decision.TREATED_AS_CALL, "cdc-2013 10.9")


def test_chip_rules_single_chip_and_identical_chips_cdc_10_10_10_11() -> None:
    assert judge(K.RAISE, None, chips=(1_000,)) == corrected(K.CALL, 300, Decision.TREATED_AS_CALL,
                                                             "cdc-2013 10.10")
    assert judge(K.RAISE, None, chips=(200, 200)) == corrected(K.CALL, 300, Decision.TREATED_AS_CALL,
                                                               "cdc-2013 10.11")
    # two chips of 150 make exactly the call: not the identical-chips rule, a raise to the bet
    assert judge(K.RAISE, None, chips=(150, 150)) == corrected(K.CALL, 300, Decision.TREATED_AS_CALL,
                                                               "cdc-2013 10.9")
    # 400 + 400 - 400 = 400 is not under the 300 to call: both chips are needed to raise
    assert judge(K.RAISE, None, chips=(400, 400)) == Judgement(S.ACCEPTED, K.RAISE, 800)
    # two chips of 300 facing 300: one calls, the other is needed for the raise (not one too many)
    assert judge(K.RAISE, None, chips=(300, 300)) == Judgement(S.ACCEPTED, K.RAISE, 600)
    # not facing a bet (an opening bet, the big blind's option): a single chip is a bet of its value
    assert judge(K.RAISE, None, max_bet=0, min_to=100, chips=(500,)) == Judgement(S.ACCEPTED, K.BET, 500)
    assert judge(K.RAISE, None, own=100, max_bet=100, chips=(500,)) == Judgement(S.ACCEPTED, K.RAISE, 600)
    # different chips: the identical-chips rule does not apply
    assert judge(K.RAISE, None, chips=(100, 500)) == Judgement(S.ACCEPTED, K.RAISE, 600)
    # pouques 67: several chips over 50 % are a raise (no identical-chips rule)
    assert judge(K.RAISE, None, chips=(200, 200), rules=POUQUES).applied is not K.CALL
    # a single chip with the single-chip rule off is judged by the identical-chips rule no more
    lone = replace(CDC, single_chip_is_call=False)
    assert judge(K.RAISE, None, chips=(1_000,), rules=lone) == Judgement(S.ACCEPTED, K.RAISE, 1_000)


@pytest.mark.parametrize(("max_bet", "own", "expected"), [(200, 100, True), (150, 100, False)])
def test_pouques_53_reopens_at_double_his_own_bet(max_bet: int, own: int, expected: bool) -> None:
    assert reopened(POUQUES, full_since=False, max_bet=max_bet, own_bet=own, min_to_when_acted=0) is expected


def test_the_minimum_raise_is_never_below_the_big_blind() -> None:
    assert min_raise_to(CDC, 300, 50, 100) == 400
    assert min_raise_to(CDC, 300, 200, 100) == 500
