"""Rulings engine: turns a table's `FaultDetected` into a `Ruling` of the tournament's ruleset.

Consumes a fault (from the dealing monitor, the clock or the betting engine) and a `Situation`
(from the hub's rules engine); emits a `Ruling` citing the article. The per-ruleset tables are
data, read from the rulebook files (`hub.rulebooks`); this module only evaluates their named conditions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from hub.rulings.model import Clause, Decision, Ruling, RulingsTable, Situation, Substantial, UnknownRuleset, When
from tablewire.faults import Deadline, FaultDetected, FaultKind

RULESETS: tuple[str, ...] = ("cdc-2013", "brest-2011", "pouques-2020", "pcpm", "cpt87")  # the seeds
DEFAULT_RULESET = "cdc-2013"  # and the fallback where another rulebook is silent
_VOIDING = (Decision.MISDEAL,)  # what substantial action turns into "continue"
_WRONG_COUNT = (FaultKind.MISSING_HOLE_CARD, FaultKind.EXTRA_HOLE_CARD, FaultKind.SEAT_SKIPPED)


def _int(fault: FaultDetected, key: str) -> int:
    value = fault.details.get(key, 0)
    return value if isinstance(value, int) else 0


def _flag(fault: FaultDetected, key: str) -> bool:
    return fault.details.get(key) is True


def _half_min_raise(f: FaultDetected, s: Situation) -> bool:
    """cdc 10.9: a short raise is completed if it reached 50 % of the minimum raise increment."""
    if "corrected" in f.details:
        return f.details["corrected"] == Decision.COMPLETED_TO_MIN_RAISE
    if _flag(f, "announced"):
        return True
    current, to, min_to = _int(f, "current_bet"), _int(f, "to"), _int(f, "min_raise_to")
    return 2 * (to - current) >= (min_to - current)


def _half_over_bet(f: FaultDetected, s: Situation) -> bool:
    """pouques 52: at least 50 % over the previous bet must be completed to double it."""
    if "corrected" in f.details:
        return f.details["corrected"] == Decision.COMPLETED_TO_MIN_RAISE
    return 2 * _int(f, "to") >= 3 * _int(f, "current_bet")


_CONDITIONS: Mapping[When, Callable[[FaultDetected, Situation], bool]] = {
    When.ALWAYS: lambda f, s: True,
    When.TWO_BOXED_IN_DEAL: lambda f, s: _flag(f, "during_deal") and _int(f, "boxed_in_deal") >= 2,
    When.TWO_BOXED_AFTER_DEAL_BETTING: lambda f, s: (
        not _flag(f, "during_deal") and _int(f, "boxed_after_deal") >= 2 and s.betting_possible),
    When.TWO_BOXED_AFTER_DEAL: lambda f, s: not _flag(f, "during_deal") and _int(f, "boxed_after_deal") >= 2,
    When.TWO_BOXED: lambda f, s: _int(f, "boxed_in_deal") + _int(f, "boxed_after_deal") >= 2,
    When.SECOND_EXPOSED: lambda f, s: _int(f, "exposed_count") >= 2,
    When.FIRST_TWO_CARDS: lambda f, s: 1 <= _int(f, "deal_position") <= 2,
    When.DEALER_CARD: lambda f, s: _flag(f, "dealer_card"),
    When.BUTTON_FIRST_CARD: lambda f, s: _flag(f, "button_first_card"),
    When.SMALL_BLIND_ONE_EXTRA: lambda f, s: _flag(f, "small_blind") and _int(f, "extra") == 1,
    When.LAST_SERVED: lambda f, s: _flag(f, "last_served"),
    When.NO_ACTION_YET: lambda f, s: _int(f, "actions_preflop") == 0,
    When.ONE_ACTION: lambda f, s: _int(f, "actions_preflop") == 1,
    When.SUBSTANTIAL: lambda f, s: s.substantial_action or _int(f, "acted_since_skipped") >= 3,
    When.LATE_WAKE_UP: lambda f, s: _int(f, "acted_since_skipped") >= 2,
    When.THREE_ACTED_POT_OPENED: lambda f, s: _int(f, "acted_since_skipped") >= 3 and s.pot_opened,
    When.THREE_ACTED: lambda f, s: _int(f, "acted_since_skipped") >= 3,
    When.NOT_RECOVERABLE: lambda f, s: not s.recoverable,
    When.HALF_MIN_RAISE: _half_min_raise,
    When.HALF_OVER_BET: _half_over_bet,
}


def rulings_table(ruleset: str) -> RulingsTable:
    """The data of one rulebook; raises `UnknownRuleset` for an unknown id."""
    from hub import rulebooks  # the files are read at the edge; hub.rulebooks imports this package

    try:
        return rulebooks.BookView()[ruleset].rulings
    except KeyError:
        known = ", ".join(rulebooks.BookView())
        raise UnknownRuleset(f"unknown ruleset {ruleset!r}: expected one of {known}") from None


def clauses_for(kind: FaultKind, ruleset: str) -> tuple[tuple[Clause, str], ...]:
    """The clauses tried for `kind`, each with the article as cited (fallbacks say so)."""
    data = rulings_table(ruleset)
    own: tuple[Clause, ...] = () if kind in data.silent else data.table.get(kind, ())
    tried = tuple((c, c.article) for c in own)
    if ruleset == DEFAULT_RULESET or (own and kind not in data.partial):
        return tried
    note = f" ({ruleset} silent)"
    return tried + tuple((c, c.article + note) for c in rulings_table(DEFAULT_RULESET).table.get(kind, ()))


def rule(fault: FaultDetected, ruleset: str = DEFAULT_RULESET, situation: Situation | None = None) -> Ruling:
    """The ruling of `ruleset` for `fault`; raises `UnknownRuleset` for an unknown id."""
    data = rulings_table(ruleset)
    s = situation if situation is not None else Situation()
    for clause, article in clauses_for(fault.kind, ruleset):  # noqa: B007 - the clause found is used below
        if _CONDITIONS[clause.when](fault, s):
            break
    else:  # every table ends with an unconditional clause; this is a safety net
        return _ruling(fault, ruleset, s, Decision.TD_DECISION, f"{ruleset} (no rule)", fault.seat, ())
    seat = fault.seat
    if clause.seat_from is not None:
        named = fault.details.get(clause.seat_from)
        seat = named if isinstance(named, int) else seat
    if clause.decision in _VOIDING and s.substantial_action:
        # cdc 7.7 / brest III.12: only hands with the right cards play on
        dead = (fault.seat,) if fault.seat is not None and fault.kind in _WRONG_COUNT else ()
        return _ruling(fault, ruleset, s, Decision.CONTINUE, data.substantial_article, seat, (), dead)
    return _ruling(fault, ruleset, s, clause.decision, article, seat, clause.options)


def release(fault: FaultDetected, ruleset: str = DEFAULT_RULESET) -> Ruling:
    """The out-of-turn action of `fault` is released: the action changed before the player's turn
    (a bet or raise by the skipped player), so he is free again, chips back (cdc 10.2, brest VII.20,
    pouques 59, pcpm, cpt87 8.2). The betting engine decides when; this cites the article."""
    clauses = clauses_for(FaultKind.OUT_OF_TURN, ruleset)
    article = next(a for c, a in clauses if c.decision is Decision.ACTION_BINDING)
    return _ruling(fault, ruleset, Situation(), Decision.ACTION_RELEASED, article, fault.seat, ())


def _ruling(fault: FaultDetected, ruleset: str, s: Situation, decision: Decision, article: str,
            seat: int | None, options: tuple[Decision, ...], dead: tuple[int, ...] = ()) -> Ruling:
    if decision is Decision.HAND_DEAD and seat is not None:
        dead = (seat,)
    refunds: Mapping[int, int] = MappingProxyType({})
    if decision is Decision.HAND_CANCELLED_BETS_RETURNED:
        refunds = MappingProxyType({k: v for k, v in s.committed.items() if v})
    return Ruling(decision=decision, article=article, ruleset=ruleset, kind=fault.kind, hand=fault.hand,
                  seat=seat, cards=fault.cards, dead_seats=dead, options=options, refunds=refunds,
                  at=fault.at)


def deadline(ruleset: str) -> Deadline:
    """Which dealt card a player must be seated for, to fill `HandContext.deadline`."""
    return rulings_table(ruleset).deadline


_CHIPS = frozenset({"call", "bet", "raise", "allin"})


def is_substantial(ruleset: str, actions: Sequence[str]) -> bool:
    """Whether the voluntary actions since the deal (blinds excluded) void any misdeal.

    cdc 7.7: two consecutive actions, one at least with chips, or three actions; cpt87 6.6: two
    consecutive chip actions, or three; brest III.12 / pcpm: two players put chips in after the
    blinds; pouques 48: the anomaly is covered by two actions of any kind.
    """
    rule = rulings_table(ruleset).substantial
    chips = [a in _CHIPS for a in actions]
    pairs = list(zip(chips, chips[1:]))
    if rule is Substantial.TWO_IN_A_ROW_ONE_WITH_CHIPS_OR_THREE:
        return len(actions) >= 3 or any(a or b for a, b in pairs)
    if rule is Substantial.TWO_IN_A_ROW_WITH_CHIPS_OR_THREE:
        return len(actions) >= 3 or any(a and b for a, b in pairs)
    if rule is Substantial.TWO_ACTIONS:
        return len(actions) >= 2
    return sum(chips) >= 2
