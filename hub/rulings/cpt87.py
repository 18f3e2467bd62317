"""Ruleset table for `cpt87` (Challenge Poker Team 87 championship rules): fault kind -> clauses.

Read by `hub.rulings.engine`; kinds in `_SILENT` fall back to cdc-2013, cited "(cpt87 silent)".
Articles are those of seeds/004. Pure data.
"""

from __future__ import annotations

from collections.abc import Mapping

from hub.rulings.model import Clause, RulingsTable
from hub.rulings.model import Decision as D
from hub.rulings.model import When as W
from tablewire.faults import Deadline
from tablewire.faults import FaultKind as K

_SILENT: frozenset[K] = frozenset({
    K.TURN_WITHOUT_BURN, K.RIVER_WITHOUT_BURN, K.BOARD_REMOVED, K.DEAD_CARD_IN_HAND,
})
_MISDEAL = (Clause(D.MISDEAL, "cpt87 6.5"),)
_IRREGULAR = (Clause(D.HAND_CANCELLED_POT_SPLIT, "cpt87 6.4"),)

_TABLE: Mapping[K, tuple[Clause, ...]] = {
    K.BOXED_CARD: (
        Clause(D.TD_DECISION, "cpt87 6.3", W.TWO_BOXED, options=(D.SET_ASIDE, D.HAND_CANCELLED_POT_SPLIT)),
        Clause(D.SET_ASIDE, "cpt87 6.3"),
    ),
    K.EXPOSED_CARD: (
        Clause(D.MISDEAL, "cpt87 6.5", W.SECOND_EXPOSED),
        Clause(D.MISDEAL, "cpt87 6.5", W.FIRST_TWO_CARDS),
        Clause(D.REPLACE_WITH_BURN, "cpt87 6.7"),
    ),
    K.CARD_TO_EMPTY_SEAT: _MISDEAL,
    K.WRONG_DEAL_ORDER: _MISDEAL,
    K.SEAT_SKIPPED: _MISDEAL,
    # no misdeal if the last player served has not looked: only the TD can know
    K.EXTRA_HOLE_CARD: (
        Clause(D.TD_DECISION, "cpt87 6.5", W.LAST_SERVED, options=(D.BURN_AS_FIRST, D.MISDEAL)),
        Clause(D.MISDEAL, "cpt87 6.5"),
    ),
    K.MISSING_HOLE_CARD: (
        Clause(D.TD_DECISION, "cpt87 6.5", W.LAST_SERVED, options=(D.CONTINUE, D.MISDEAL)),
        Clause(D.MISDEAL, "cpt87 6.5"),
    ),
    K.FLOP_WITHOUT_BURN: (Clause(D.DESIGNATE_BURN, "cpt87 6.8"),),
    K.FLOP_TWO_BURNS: (Clause(D.BURN_TO_FLOP, "cpt87 6.8"),),
    K.FLOP_FOUR_CARDS: (Clause(D.EXTRA_CARD_BURN, "cpt87 6.8"),),
    K.PREMATURE_FLOP: (Clause(D.RESHUFFLE_BOARD, "cpt87 6.8"),),
    # 6.9: burn, keep the would-be river face down, reshuffle the bad turn for a new turn
    K.PREMATURE_TURN: (Clause(D.RESHUFFLE_BOARD, "cpt87 6.9"),),
    K.PREMATURE_RIVER: (Clause(D.RESHUFFLE_BOARD, "cpt87 6.9"),),
    K.UNKNOWN_TAG: _IRREGULAR,
    K.FOREIGN_CARD: _IRREGULAR,
    K.DUPLICATE_CARD: _IRREGULAR,
    K.MIXED_DECKS: (
        Clause(D.HAND_CANCELLED_POT_SPLIT, "cpt87 6.4", W.NOT_RECOVERABLE),
        Clause(D.SET_ASIDE, "cpt87 6.4"),
    ),
    K.ABSENT_PLAYER: (Clause(D.HAND_DEAD, "cpt87 5.1"),),
    K.OUT_OF_TURN: (
        Clause(D.CALL_OR_FOLD_ONLY, "cpt87 8.2", W.SUBSTANTIAL, seat_from="skipped"),
        Clause(D.ACTION_BINDING, "cpt87 8.2"),
    ),
    K.TIME_EXPIRED: (Clause(D.HAND_DEAD, "cpt87 4.5"),),
    K.INSUFFICIENT_BET: (
        Clause(D.COMPLETED_TO_MIN_RAISE, "cpt87 8.4", W.HALF_MIN_RAISE),
        Clause(D.TREATED_AS_CALL, "cpt87 8.4"),
    ),
}

RULINGS = RulingsTable(
    ruleset="cpt87",
    deadline=Deadline.LAST_CARD,  # 5.1: seated when the last private card is dealt
    substantial_article="cpt87 6.6",
    table=_TABLE,
    silent=_SILENT,
)
