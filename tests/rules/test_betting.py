"""Betting rules per ruleset: corrections (50 % rule), reopening after short all-ins, refusals."""

from __future__ import annotations

import pytest

from hub.rules import ActionKind, ActionStatus, Decision, FaultKind, Level, Street, start_hand
from hub.rules.hand import Hand


def hand(ruleset: str = "cdc-2013", sb: int = 50, bb: int = 100, **stacks: int) -> Hand:
    s = {1: 10_000, 2: 10_000, 3: 10_000, 4: 10_000}
    s.update({int(k[1:]): v for k, v in stacks.items()})
    return start_hand(ruleset, Level(sb, bb), 1, s)


def test_short_raise_at_least_half_is_completed_cdc_10_9() -> None:
    h = hand()
    h.act(4, ActionKind.RAISE, 300)  # min re-raise now 500
    rec = h.act(1, ActionKind.RAISE, 400)  # increment 100 of the 200 needed: 50 %
    assert rec.status is ActionStatus.CORRECTED and rec.to == 500
    assert rec.reason == FaultKind.INSUFFICIENT_BET
    assert rec.ruling is not None
    assert (rec.ruling.decision, rec.ruling.article) == (Decision.COMPLETED_TO_MIN_RAISE,
                                                         "cdc-2013 10.9")


def test_short_raise_below_half_is_a_call_cdc_10_9() -> None:
    h = hand()
    h.act(4, ActionKind.RAISE, 300)
    rec = h.act(1, ActionKind.RAISE, 390)
    assert rec.status is ActionStatus.CORRECTED and rec.applied is ActionKind.CALL
    assert rec.to == 300 and h.stack[1] == 9_700
    assert rec.ruling is not None and rec.ruling.decision is Decision.TREATED_AS_CALL


def test_a_short_raise_completed_to_the_minimum_stops_at_the_stack_cdc_10_9() -> None:
    """450 in front after the raise to 300 (next minimum 500): a raise to 400 is over half the
    increment, so it is completed, but only to 450, all he has: he is all-in, the bet to call is
    450, not 500."""
    h = hand(s1=450)
    h.act(4, ActionKind.RAISE, 300)
    rec = h.act(1, ActionKind.RAISE, 400)
    assert rec.status is ActionStatus.CORRECTED and rec.applied is ActionKind.ALLIN
    assert (rec.to, rec.added, h.stack[1], h.bet[1]) == (450, 450, 0, 450)
    assert rec.ruling is not None and rec.ruling.decision is Decision.COMPLETED_TO_MIN_RAISE
    legal = h.legal()
    assert (legal.seat, legal.call_to, legal.min_raise_to) == (2, 450, 650)


def test_announced_short_raise_is_completed_cdc_10_3() -> None:
    h = hand()
    h.act(4, ActionKind.RAISE, 300)
    rec = h.act(1, ActionKind.RAISE, 310, announced=True)
    assert rec.to == 500 and rec.ruling is not None
    assert rec.ruling.article == "cdc-2013 10.3"


def test_short_opening_bet_is_aligned_on_the_big_blind() -> None:
    h = hand()
    for seat in (4, 1, 2):
        h.act(seat, ActionKind.CALL)
    h.act(3, ActionKind.CHECK)
    h.deal_board("2c", "7d", "9h")
    rec = h.act(2, ActionKind.BET, 60)
    assert rec.status is ActionStatus.CORRECTED and rec.to == 100
    assert rec.ruling is not None and rec.ruling.decision is Decision.COMPLETED_TO_MIN_RAISE


def test_single_larger_chip_is_a_call_cdc_10_10() -> None:
    h = hand()
    rec = h.act(4, ActionKind.RAISE, chips=(500,))
    assert rec.applied is ActionKind.CALL and rec.to == 100
    assert rec.ruling is not None and rec.ruling.article == "cdc-2013 10.10"


def test_pouques_52_over_50_percent_completed_to_double() -> None:
    h = hand("pouques-2020")
    h.act(4, ActionKind.RAISE, 200)
    rec = h.act(1, ActionKind.RAISE, 300)  # 300 is 50 % over 200
    assert rec.status is ActionStatus.CORRECTED and rec.to == 400
    assert rec.ruling is not None and rec.ruling.article == "pouques-2020 52"
    rec = h.act(2, ActionKind.RAISE, 590)  # under 50 % over 400: adjusted to a call
    assert rec.applied is ActionKind.CALL and rec.to == 400


def test_short_allin_does_not_reopen_cdc() -> None:
    h = hand(s1=250)
    h.act(4, ActionKind.RAISE, 200)
    h.act(1, ActionKind.ALLIN)  # 250: short of the 300 minimum
    h.act(2, ActionKind.FOLD)
    h.act(3, ActionKind.CALL)
    legal = h.legal()
    assert legal.seat == 4 and legal.call_to == 250 and not legal.can_raise
    rec = h.act(4, ActionKind.RAISE, 600)
    assert rec.status is ActionStatus.REJECTED and rec.reason == "raise_not_allowed"


def test_a_player_who_checked_may_raise_over_a_short_allin_bet_cdc_10_8() -> None:
    """On the flop seats 2 and 3 check, seat 4 bets all-in 30 (less than the big blind): it is
    the street's first bet, so those who checked may raise it (cdc 10.8), the 30 being no raise
    that could have closed their betting."""
    h = hand(s4=130)
    for seat in (4, 1, 2):
        h.act(seat, ActionKind.CALL)
    h.act(3, ActionKind.CHECK)
    h.deal_board("As", "Kd", "7c")
    h.act(2, ActionKind.CHECK)
    h.act(3, ActionKind.CHECK)
    rec = h.act(4, ActionKind.ALLIN)
    assert (rec.applied, rec.to) == (ActionKind.ALLIN, 30)
    h.act(1, ActionKind.CALL)
    legal = h.legal()
    assert (legal.seat, legal.can_raise, legal.call_to, legal.min_raise_to) == (2, True, 30, 130)
    assert h.act(2, ActionKind.RAISE, 130).status is ActionStatus.ACCEPTED


def test_full_allin_reopens() -> None:
    h = hand(s1=300)
    h.act(4, ActionKind.RAISE, 200)
    h.act(1, ActionKind.ALLIN)  # 300 = a full raise
    h.act(2, ActionKind.FOLD)
    h.act(3, ActionKind.CALL)
    assert h.legal().can_raise


def test_pouques_53_reopens_when_highest_bet_doubles_his_own() -> None:
    h = hand("pouques-2020", s1=150, s2=200)
    h.act(4, ActionKind.CALL)  # 100
    h.act(1, ActionKind.ALLIN)  # 150: short
    h.act(2, ActionKind.ALLIN)  # 200 = double seat 4's 100
    h.act(3, ActionKind.CALL)
    assert h.legal(4).can_raise


def test_pcpm_cumulative_short_allins_reopen() -> None:
    h = hand("pcpm", s1=150, s2=190)
    h.act(4, ActionKind.CALL)
    h.act(1, ActionKind.ALLIN)
    h.act(2, ActionKind.ALLIN)  # 190 < 200: not yet double
    h.act(3, ActionKind.CALL)
    assert not h.legal(4).can_raise
    h2 = hand("pcpm", s1=150, s2=200)
    h2.act(4, ActionKind.CALL)
    h2.act(1, ActionKind.ALLIN)
    h2.act(2, ActionKind.ALLIN)
    h2.act(3, ActionKind.CALL)
    assert h2.legal(4).can_raise


def test_check_facing_a_bet_is_rejected_and_call_with_nothing_to_call_checks() -> None:
    h = hand()
    assert h.act(4, ActionKind.CHECK).reason == "cannot_check"
    for seat in (4, 1, 2):
        h.act(seat, ActionKind.CALL)
    rec = h.act(3, ActionKind.CALL)
    assert rec.applied is ActionKind.CHECK and not h.betting_open


def test_raise_above_stack_rejected() -> None:
    h = hand(s4=500)
    rec = h.act(4, ActionKind.RAISE, 600)
    assert rec.status is ActionStatus.REJECTED and rec.reason == "more_than_stack"


def test_big_blind_has_the_option() -> None:
    h = hand()
    for seat in (4, 1, 2):
        h.act(seat, ActionKind.CALL)
    assert h.to_act == 3 and h.legal().can_check and h.legal().can_raise


def test_board_refused_while_betting_open() -> None:
    from hub.rules import BettingRoundOpen

    h = hand()
    assert h.betting_open
    with pytest.raises(BettingRoundOpen):
        h.deal_board("2c", "7d", "9h")


def test_flop_card_by_card_then_flop_round() -> None:
    h = hand()
    for seat in (4, 1, 2):
        h.act(seat, ActionKind.CALL)
    h.act(3, ActionKind.CHECK)
    assert h.deal_board("2c") is Street.PREFLOP and not h.betting_open
    assert h.deal_board("7d", "9h") is Street.FLOP and h.to_act == 2
