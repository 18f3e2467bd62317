"""Ruleset table for `cdc-2013` (Club des Clubs, v2013.06): fault kind -> clauses, first match wins.

Read by `hub.rulings.engine`; the default ruleset, and the fallback where another rulebook is
silent. Articles are those of seeds/000 (the French text). Pure data.
"""

from __future__ import annotations

from collections.abc import Mapping

from hub.rulings.model import Clause, RulingsTable
from hub.rulings.model import Decision as D
from hub.rulings.model import When as W
from tablewire.faults import Deadline
from tablewire.faults import FaultKind as K

_SILENT: frozenset[K] = frozenset()
_MISDEAL = (Clause(D.MISDEAL, "cdc-2013 7.1"),)
_IRREGULAR = (Clause(D.HAND_CANCELLED_BETS_RETURNED, "cdc-2013 6.4"),)

_TABLE: Mapping[K, tuple[Clause, ...]] = {
    K.BOXED_CARD: (
        Clause(D.MISDEAL, "cdc-2013 6.3", W.TWO_BOXED_IN_DEAL),
        Clause(D.HAND_CANCELLED_BETS_RETURNED, "cdc-2013 6.3", W.TWO_BOXED_AFTER_DEAL_BETTING),
        Clause(D.SET_ASIDE, "cdc-2013 6.3"),
    ),
    K.EXPOSED_CARD: (
        Clause(D.MISDEAL, "cdc-2013 7.1", W.SECOND_EXPOSED),
        Clause(D.MISDEAL, "cdc-2013 7.1", W.FIRST_TWO_CARDS),
        Clause(D.REPLACE_WITH_BURN, "cdc-2013 7.3"),
    ),
    K.CARD_TO_EMPTY_SEAT: _MISDEAL,
    K.WRONG_DEAL_ORDER: _MISDEAL,
    K.SEAT_SKIPPED: _MISDEAL,
    K.EXTRA_HOLE_CARD: _MISDEAL,
    K.MISSING_HOLE_CARD: _MISDEAL,
    K.FLOP_WITHOUT_BURN: (Clause(D.DESIGNATE_BURN, "cdc-2013 8.3"),),
    K.FLOP_TWO_BURNS: (Clause(D.BURN_TO_FLOP, "cdc-2013 8.3"),),
    K.FLOP_FOUR_CARDS: (Clause(D.EXTRA_CARD_BURN, "cdc-2013 8.3"),),
    K.PREMATURE_FLOP: (Clause(D.RESHUFFLE_BOARD, "cdc-2013 8.3"),),
    # no explicit text: the principle of 8.3 (the unburned card is designated the burn)
    K.TURN_WITHOUT_BURN: (Clause(D.BURN_AND_NEXT, "cdc-2013 8.3"),),
    K.RIVER_WITHOUT_BURN: (Clause(D.BURN_AND_NEXT, "cdc-2013 8.3"),),
    K.PREMATURE_TURN: (Clause(D.RIVER_AS_TURN, "cdc-2013 8.4"),),
    K.PREMATURE_RIVER: (Clause(D.RESHUFFLE_BOARD, "cdc-2013 8.5"),),
    # 8.6 cancels only a board no longer discernible: the tags keep it known (see Situation)
    K.BOARD_REMOVED: (Clause(D.CONTINUE, "cdc-2013 8.6"),),
    K.UNKNOWN_TAG: _IRREGULAR,
    K.FOREIGN_CARD: _IRREGULAR,
    K.DUPLICATE_CARD: _IRREGULAR,
    K.MIXED_DECKS: (
        Clause(D.HAND_CANCELLED_BETS_RETURNED, "cdc-2013 6.4", W.NOT_RECOVERABLE),
        Clause(D.SET_ASIDE, "cdc-2013 6.4"),
    ),
    K.DEAD_CARD_IN_HAND: (Clause(D.HAND_DEAD, "cdc-2013 7.5"),),
    K.ABSENT_PLAYER: (Clause(D.HAND_DEAD, "cdc-2013 5.1"),),
    K.OUT_OF_TURN: (
        Clause(D.CALL_OR_FOLD_ONLY, "cdc-2013 10.2", W.SUBSTANTIAL, seat_from="skipped"),
        Clause(D.ACTION_BINDING, "cdc-2013 10.2"),
    ),
    K.TIME_EXPIRED: (Clause(D.HAND_DEAD, "cdc-2013 4.5"),),
    K.INSUFFICIENT_BET: (
        Clause(D.COMPLETED_TO_MIN_RAISE, "cdc-2013 10.9", W.HALF_MIN_RAISE),
        Clause(D.TREATED_AS_CALL, "cdc-2013 10.9"),
    ),
}

RULINGS = RulingsTable(
    ruleset="cdc-2013",
    deadline=Deadline.FIRST_CARD,  # 5.1: seated when the first card is dealt
    substantial_article="cdc-2013 7.7",
    table=_TABLE,
    silent=_SILENT,
)
