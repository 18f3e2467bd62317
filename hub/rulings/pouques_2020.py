"""Ruleset table for `pouques-2020` (Casino de Pouques-les-Eaux, casino croupiers): fault kind -> clauses.

Read by `hub.rulings.engine`; kinds in `_SILENT` (or absent) fall back to cdc-2013, cited as
"cdc-2013 x.y (pouques-2020 silent)"; `_PARTIAL` kinds try these clauses first, then cdc-2013.
Articles are those of seeds/002 (78 lists misdeals "non exhaustive", 79 dead hands). Pure data.
"""

from __future__ import annotations

from collections.abc import Mapping

from hub.rulings.model import Clause, RulingsTable
from hub.rulings.model import Decision as D
from hub.rulings.model import When as W
from tablewire.faults import Deadline
from tablewire.faults import FaultKind as K

_SILENT: frozenset[K] = frozenset({
    K.FLOP_TWO_BURNS, K.FLOP_FOUR_CARDS, K.BOARD_REMOVED, K.UNKNOWN_TAG, K.FOREIGN_CARD,
    K.DUPLICATE_CARD, K.MIXED_DECKS,
})
_PARTIAL: frozenset[K] = frozenset({K.EXPOSED_CARD})  # 78 names only the 1st/2nd/button's card
_MISDEAL = (Clause(D.MISDEAL, "pouques-2020 78"),)

_TABLE: Mapping[K, tuple[Clause, ...]] = {
    K.BOXED_CARD: (
        Clause(D.MISDEAL, "pouques-2020 78", W.TWO_BOXED),  # 2+ cards out of the stub
        Clause(D.SET_ASIDE, "pouques-2020 79"),
    ),
    K.EXPOSED_CARD: (
        Clause(D.MISDEAL, "pouques-2020 78", W.BUTTON_FIRST_CARD),
        Clause(D.MISDEAL, "pouques-2020 78", W.SECOND_EXPOSED),
        Clause(D.MISDEAL, "pouques-2020 78", W.FIRST_TWO_CARDS),
    ),
    K.CARD_TO_EMPTY_SEAT: _MISDEAL,  # "d'autres anomalies ... avant qu'une action soit couverte"
    K.WRONG_DEAL_ORDER: _MISDEAL,
    K.SEAT_SKIPPED: _MISDEAL,
    K.EXTRA_HOLE_CARD: (Clause(D.HAND_DEAD, "pouques-2020 79"),),
    K.MISSING_HOLE_CARD: _MISDEAL,
    K.FLOP_WITHOUT_BURN: (Clause(D.DESIGNATE_BURN, "pouques-2020 77"),),
    K.PREMATURE_FLOP: (
        Clause(D.MISDEAL, "pouques-2020 77", W.NO_ACTION_YET),
        Clause(D.TD_DECISION, "pouques-2020 77", W.ONE_ACTION, options=(D.MISDEAL, D.RESHUFFLE_BOARD)),
        Clause(D.RESHUFFLE_BOARD, "pouques-2020 77"),
    ),
    K.TURN_WITHOUT_BURN: (Clause(D.BURN_AND_NEXT, "pouques-2020 77"),),
    K.RIVER_WITHOUT_BURN: (Clause(D.BURN_AND_NEXT, "pouques-2020 77"),),
    K.PREMATURE_TURN: (Clause(D.BOTTOM_CARD, "pouques-2020 77"),),
    K.PREMATURE_RIVER: (Clause(D.BURN_PREMATURE, "pouques-2020 77"),),
    K.DEAD_CARD_IN_HAND: (Clause(D.HAND_DEAD, "pouques-2020 79"),),
    K.ABSENT_PLAYER: (Clause(D.HAND_DEAD, "pouques-2020 27"),),
    K.OUT_OF_TURN: (
        Clause(D.TD_DECISION, "pouques-2020 70", W.LATE_WAKE_UP, options=(D.HAND_DEAD, D.CONTINUE),
               seat_from="skipped"),
        Clause(D.ACTION_BINDING, "pouques-2020 59"),
    ),
    K.TIME_EXPIRED: (Clause(D.HAND_DEAD, "pouques-2020 63"),),
    K.INSUFFICIENT_BET: (
        Clause(D.COMPLETED_TO_MIN_RAISE, "pouques-2020 52", W.HALF_OVER_BET),
        Clause(D.TREATED_AS_CALL, "pouques-2020 52"),
    ),
}

RULINGS = RulingsTable(
    ruleset="pouques-2020",
    deadline=Deadline.BUTTON_SECOND_CARD,  # 27: seated when the button receives his 2nd card
    substantial_article="pouques-2020 48",
    table=_TABLE,
    silent=_SILENT,
    partial=_PARTIAL,
)
