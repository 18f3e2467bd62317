"""Ruleset table for `pcpm` (Poker Club de Pont-St-Martin, dealerless tournament rules): fault kind -> clauses.

Read by `hub.rulings.engine`. The rulebook has no article numbers: clauses cite its section titles
("pcpm La donne"). Kinds in `SILENT` fall back to cdc-2013, cited "(pcpm silent)". Pure data.
"""

from __future__ import annotations

from collections.abc import Mapping

from hub.rulings.model import Clause, RulingsTable
from hub.rulings.model import Decision as D
from hub.rulings.model import When as W
from tablewire.faults import Deadline
from tablewire.faults import FaultKind as K

_SILENT: frozenset[K] = frozenset({
    K.BOXED_CARD, K.CARD_TO_EMPTY_SEAT, K.BOARD_REMOVED, K.UNKNOWN_TAG, K.FOREIGN_CARD,
    K.DUPLICATE_CARD, K.MIXED_DECKS,
})
_DEAL = "pcpm La donne"
_MISDEAL = (Clause(D.MISDEAL, "pcpm Fausse donne"),)

_TABLE: Mapping[K, tuple[Clause, ...]] = {
    K.EXPOSED_CARD: (
        Clause(D.MISDEAL, "pcpm Fausse donne", W.SECOND_EXPOSED),
        Clause(D.MISDEAL, "pcpm Fausse donne", W.FIRST_TWO_CARDS),
        Clause(D.CARD_KEPT, _DEAL, W.DEALER_CARD),
        Clause(D.REPLACE_WITH_BURN, _DEAL),
    ),
    K.WRONG_DEAL_ORDER: _MISDEAL,
    K.SEAT_SKIPPED: _MISDEAL,
    K.EXTRA_HOLE_CARD: (
        Clause(D.BURN_AS_FIRST, "pcpm Fausse donne", W.SMALL_BLIND_ONE_EXTRA),
        Clause(D.MISDEAL, "pcpm Fausse donne"),
    ),
    K.MISSING_HOLE_CARD: _MISDEAL,
    K.FLOP_WITHOUT_BURN: (Clause(D.DESIGNATE_BURN, _DEAL),),
    K.FLOP_TWO_BURNS: (Clause(D.BURN_TO_FLOP, _DEAL),),
    K.FLOP_FOUR_CARDS: (Clause(D.EXTRA_CARD_BURN, _DEAL),),
    K.PREMATURE_FLOP: (Clause(D.RESHUFFLE_BOARD, _DEAL),),
    K.TURN_WITHOUT_BURN: (Clause(D.BURN_AND_NEXT, _DEAL),),
    K.RIVER_WITHOUT_BURN: (Clause(D.BURN_AND_NEXT, _DEAL),),
    K.PREMATURE_TURN: (Clause(D.RIVER_AS_TURN, _DEAL),),
    K.PREMATURE_RIVER: (Clause(D.RESHUFFLE_BOARD, _DEAL),),
    K.DEAD_CARD_IN_HAND: (Clause(D.HAND_DEAD, _DEAL),),
    K.ABSENT_PLAYER: (Clause(D.HAND_DEAD, "pcpm Retards et absents"),),
    K.OUT_OF_TURN: (
        Clause(D.HAND_DEAD, "pcpm Les actions et les relances", W.THREE_ACTED_POT_OPENED,
               seat_from="skipped"),
        Clause(D.CALL_OR_FOLD_ONLY, "pcpm Les actions et les relances", W.THREE_ACTED, seat_from="skipped"),
        Clause(D.ACTION_BINDING, "pcpm Les actions et les relances"),
    ),
    K.TIME_EXPIRED: (Clause(D.HAND_DEAD, "pcpm Les cartes mortes"),),
    K.INSUFFICIENT_BET: (
        Clause(D.COMPLETED_TO_MIN_RAISE, "pcpm Les actions et les relances", W.HALF_MIN_RAISE),
        Clause(D.TREATED_AS_CALL, "pcpm Les actions et les relances"),
    ),
}

RULINGS = RulingsTable(
    ruleset="pcpm",
    deadline=Deadline.LAST_CARD,  # "assis ... lors de la distribution de la dernière carte"
    substantial_article="pcpm Fausse donne",
    table=_TABLE,
    silent=_SILENT,
)
