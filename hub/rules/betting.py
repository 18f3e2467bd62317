"""No-limit betting arithmetic per ruleset: minimum bet and raise, short all-ins, the 50 % rule.

Consumed by `hand`; takes the street's numbers (highest bet, last full raise, the seat's bet and
stack) and a requested bet or raise, emits a `Judgement`: what stands, whether it was corrected
(`completed_to_min_raise`, `treated_as_call`) and under which article. No state of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hub.rules.records import ActionKind, ActionStatus, Decision, FaultKind, Ruling
from hub.rules.rulesets import MinRaiseRule, ReopenRule, Ruleset

_DOUBLE = MinRaiseRule.DOUBLE  # bound once: each full raise asks (an enum's attribute costs a hook)


def min_raise_to(rules: Ruleset, max_bet: int, last_full: int, bb: int) -> int:
    """The smallest full bet or raise, as a street total.

    `last_full` is the last full increment (INCREMENT rule, cdc 10.5) or the last full bet's
    total (DOUBLE rule, pcpm and pouques 52); never less than the big blind either way.
    """
    step = last_full if last_full > bb else bb
    return max_bet + step


def full_raise_marker(rules: Ruleset, max_bet: int, new_to: int) -> int:
    """What a full bet or raise to `new_to` leaves as `last_full` for the next one."""
    if rules.min_raise is _DOUBLE:
        return new_to
    return new_to - max_bet


def reopened(
    rules: Ruleset, *, full_since: bool, max_bet: int, own_bet: int, min_to_when_acted: int
) -> bool:
    """May a seat that already acted on this street raise again?"""
    if full_since:
        return True
    if rules.reopen is ReopenRule.CUMULATIVE:
        return max_bet >= min_to_when_acted  # short all-ins added up to a full raise (pcpm)
    if rules.reopen is ReopenRule.DOUBLE_OWN:
        return max_bet >= 2 * own_bet  # pouques 53
    return False


@dataclass(frozen=True, slots=True)
class Judgement:
    status: ActionStatus
    applied: ActionKind | None
    to: int
    reason: str | None = None
    ruling: Ruling | None = None


def _corrected(rules: Ruleset, seat: int, applied: ActionKind, to: int, decision: Decision,
               topic: str) -> Judgement:
    ruling = Ruling(decision, rules.article(topic), seat, FaultKind.INSUFFICIENT_BET)
    return Judgement(ActionStatus.CORRECTED, applied, to, FaultKind.INSUFFICIENT_BET, ruling)


def _reject(reason: str, to: int) -> Judgement:
    return Judgement(ActionStatus.REJECTED, None, to, reason)


def judge_wager(
    rules: Ruleset,
    *,
    seat: int,
    kind: ActionKind,
    to: int | None,
    own_bet: int,
    stack: int,
    max_bet: int,
    min_to: int,
    may_raise: bool,
    announced: bool = False,
    chips: Sequence[int] | None = None,
    max_to: int | None = None,
) -> Judgement:
    """Judge a bet, raise or all-in request; `to` is the declared street total.

    `max_to` is the pot-limit maximum (None: no-limit). Above it a declared amount is refused (the
    player says again); « tapis » in a pot-limit game is a raise of the pot when the stack is larger.
    """
    all_in_to = own_bet + stack
    call_to = max_bet if max_bet < all_in_to else all_in_to
    capped = False
    if kind is ActionKind.ALLIN:
        to = all_in_to
        if max_to is not None and max_to < all_in_to and max_to > max_bet and may_raise:
            to, capped = max_to, True
    elif to is None:
        if not chips:
            return _reject("amount_required", own_bet)
        to = own_bet + sum(chips)
    if to > all_in_to:
        return _reject("more_than_stack", own_bet)
    if max_to is not None and to > max_to and to > max_bet:
        return _reject("above_pot_limit", own_bet)
    if capped:
        return Judgement(ActionStatus.CORRECTED, ActionKind.BET if max_bet == 0 else ActionKind.RAISE, to,
                         "pot_limit")
    if to <= own_bet:
        return _reject("amount_not_above_bet", own_bet)
    facing = max_bet > own_bet
    # Chip rules come first (cdc 10.9 last sentence): a silent single chip, or identical chips
    # one of which is not needed to call, is a call.
    if chips and not announced and facing and to > max_bet:
        if len(chips) == 1 and rules.single_chip_is_call:
            return _corrected(rules, seat, ActionKind.CALL, call_to, Decision.TREATED_AS_CALL,
                              "single_chip")
        if (rules.multiple_chips_rule and len(chips) > 1 and len(set(chips)) == 1
                and to - chips[0] < max_bet):
            return _corrected(rules, seat, ActionKind.CALL, call_to, Decision.TREATED_AS_CALL,
                              "multiple_chips")
    if to == all_in_to:
        if to <= max_bet:
            return Judgement(ActionStatus.ACCEPTED, ActionKind.CALL, to)
        if not may_raise:
            return _reject("raise_not_allowed", own_bet)
        return Judgement(ActionStatus.ACCEPTED, ActionKind.ALLIN, to)
    if to < max_bet:
        # Short call (cdc 10.9): the player must complete the call or fold; he chooses again.
        return _reject("below_call", own_bet)
    if to == max_bet:
        if kind is ActionKind.CALL:
            return Judgement(ActionStatus.ACCEPTED, ActionKind.CALL, to)
        return _corrected(rules, seat, ActionKind.CALL, to, Decision.TREATED_AS_CALL,
                          "insufficient_raise")
    if not may_raise:
        return _reject("raise_not_allowed", own_bet)
    raise_kind = ActionKind.BET if max_bet == 0 else ActionKind.RAISE
    if to >= min_to:
        return Judgement(ActionStatus.ACCEPTED, raise_kind, to)
    completed = min_to if min_to < all_in_to else all_in_to
    done = ActionKind.ALLIN if completed == all_in_to else raise_kind
    if max_bet == 0:
        # Short opening bet: aligned on the big blind (cdc 10.9, first case).
        return _corrected(rules, seat, done, completed, Decision.COMPLETED_TO_MIN_RAISE,
                          "short_bet")
    if announced and rules.announced_raise_completed:
        return _corrected(rules, seat, done, completed, Decision.COMPLETED_TO_MIN_RAISE,
                          "announced")
    if (to - max_bet) * 100 >= rules.completion_percent * (min_to - max_bet):
        return _corrected(rules, seat, done, completed, Decision.COMPLETED_TO_MIN_RAISE,
                          "insufficient_raise")
    return _corrected(rules, seat, ActionKind.CALL, call_to, Decision.TREATED_AS_CALL,
                      "insufficient_raise")
