"""Ruleset table for `brest-2011` (Brest Hold'em tournament rules, 2011): fault kind -> clauses.

Read by `hub.rulings.engine`; kinds in `_SILENT` (or absent) fall back to cdc-2013, cited as
"cdc-2013 x.y (brest-2011 silent)". Articles are those of seeds/001. Pure data.
"""

from __future__ import annotations

from collections.abc import Mapping

from hub.rulings.model import Clause, RulingsTable
from hub.rulings.model import Decision as D
from hub.rulings.model import When as W
from tablewire.faults import Deadline
from tablewire.faults import FaultKind as K

_SILENT: frozenset[K] = frozenset({K.CARD_TO_EMPTY_SEAT, K.BOARD_REMOVED, K.MIXED_DECKS})
_MISDEAL = (Clause(D.MISDEAL, "brest-2011 III.7"),)
_IRREGULAR = (Clause(D.HAND_CANCELLED_POT_SPLIT, "brest-2011 III.11"),)

_TABLE: Mapping[K, tuple[Clause, ...]] = {
    K.BOXED_CARD: (
        Clause(D.MISDEAL, "brest-2011 III.9", W.TWO_BOXED_IN_DEAL),
        Clause(D.TD_DECISION, "brest-2011 III.9", W.TWO_BOXED_AFTER_DEAL,
               options=(D.SET_ASIDE, D.HAND_CANCELLED_POT_SPLIT)),
        Clause(D.SET_ASIDE, "brest-2011 III.9"),
    ),
    K.EXPOSED_CARD: (
        Clause(D.MISDEAL, "brest-2011 III.7", W.SECOND_EXPOSED),
        Clause(D.MISDEAL, "brest-2011 III.7", W.FIRST_TWO_CARDS),
        Clause(D.MISDEAL, "brest-2011 III.4", W.DEALER_CARD),
        Clause(D.REPLACE_WITH_BURN, "brest-2011 III.4"),
    ),
    K.WRONG_DEAL_ORDER: _MISDEAL,
    K.SEAT_SKIPPED: _MISDEAL,
    K.EXTRA_HOLE_CARD: (
        Clause(D.BURN_AS_FIRST, "brest-2011 III.7", W.SMALL_BLIND_ONE_EXTRA),
        Clause(D.MISDEAL, "brest-2011 III.7"),
    ),
    K.MISSING_HOLE_CARD: _MISDEAL,
    K.FLOP_WITHOUT_BURN: (Clause(D.DESIGNATE_BURN, "brest-2011 III.14"),),
    K.FLOP_TWO_BURNS: (Clause(D.BURN_TO_FLOP, "brest-2011 III.15"),),
    K.FLOP_FOUR_CARDS: (Clause(D.EXTRA_CARD_BURN, "brest-2011 III.16"),),
    K.PREMATURE_FLOP: (Clause(D.RESHUFFLE_BOARD, "brest-2011 III.18"),),
    K.TURN_WITHOUT_BURN: (Clause(D.BURN_AND_NEXT, "brest-2011 III.17"),),
    K.RIVER_WITHOUT_BURN: (Clause(D.BURN_AND_NEXT, "brest-2011 III.17"),),
    K.PREMATURE_TURN: (Clause(D.RIVER_AS_TURN, "brest-2011 III.19"),),
    K.PREMATURE_RIVER: (Clause(D.RESHUFFLE_BOARD, "brest-2011 III.20"),),
    K.UNKNOWN_TAG: _IRREGULAR,
    K.FOREIGN_CARD: _IRREGULAR,
    K.DUPLICATE_CARD: _IRREGULAR,
    K.DEAD_CARD_IN_HAND: (Clause(D.HAND_DEAD, "brest-2011 III.6"),),
    K.ABSENT_PLAYER: (Clause(D.HAND_DEAD, "brest-2011 III.13"),),
    K.OUT_OF_TURN: (
        Clause(D.CALL_OR_FOLD_ONLY, "brest-2011 VII.21", W.THREE_ACTED, seat_from="skipped"),
        Clause(D.ACTION_BINDING, "brest-2011 VII.20"),
    ),
    K.TIME_EXPIRED: (Clause(D.HAND_DEAD, "brest-2011 IV.6"),),
    K.INSUFFICIENT_BET: (
        Clause(D.COMPLETED_TO_MIN_RAISE, "brest-2011 VII.15", W.HALF_MIN_RAISE),
        Clause(D.TREATED_AS_CALL, "brest-2011 VII.15"),
    ),
}

RULINGS = RulingsTable(
    ruleset="brest-2011",
    deadline=Deadline.OWN_LAST_CARD,  # III.13: seated when one's own last card is dealt
    substantial_article="brest-2011 III.12",
    table=_TABLE,
    silent=_SILENT,
)
