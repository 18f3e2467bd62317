"""The fault vocabulary both sides name: what the table observed, what the hub ruled.

`FaultKind` and `FaultDetected` are raised by the table's dealing monitor (and by the hub's engine
for betting faults); `Decision` is what a ruleset makes of one; `Deadline` is which dealt card a
player must be seated for. Pure data: no IO, no clock. The `FaultKind` and `Decision` values are the
public contract of spec/faults.md; never rename one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType


class FaultKind(StrEnum):
    """What the table observed (spec/faults.md, "Fault kinds")."""

    BOXED_CARD = "boxed_card"  # feuille morte
    EXPOSED_CARD = "exposed_card"  # carte retournée pendant la donne
    CARD_TO_EMPTY_SEAT = "card_to_empty_seat"
    WRONG_DEAL_ORDER = "wrong_deal_order"
    SEAT_SKIPPED = "seat_skipped"  # joueur oublié
    EXTRA_HOLE_CARD = "extra_hole_card"
    MISSING_HOLE_CARD = "missing_hole_card"
    FLOP_WITHOUT_BURN = "flop_without_burn"
    FLOP_TWO_BURNS = "flop_two_burns"
    FLOP_FOUR_CARDS = "flop_four_cards"
    PREMATURE_FLOP = "premature_flop"
    TURN_WITHOUT_BURN = "turn_without_burn"
    RIVER_WITHOUT_BURN = "river_without_burn"
    PREMATURE_TURN = "premature_turn"
    PREMATURE_RIVER = "premature_river"
    BOARD_REMOVED = "board_removed"
    UNKNOWN_TAG = "unknown_tag"
    FOREIGN_CARD = "foreign_card"
    MIXED_DECKS = "mixed_decks"
    DUPLICATE_CARD = "duplicate_card"
    DEAD_CARD_IN_HAND = "dead_card_in_hand"
    ABSENT_PLAYER = "absent_player"
    OUT_OF_TURN = "out_of_turn"
    TIME_EXPIRED = "time_expired"  # raised by the hub's clock, not by the monitor
    INSUFFICIENT_BET = "insufficient_bet"  # raised by the hub's engine, not by the monitor


class Deadline(StrEnum):
    """Which dealt card a player must be seated for (RULES.md §1, "must be seated when")."""

    FIRST_CARD = "first_card"  # cdc-2013 5.1
    OWN_LAST_CARD = "own_last_card"  # brest-2011 III.13
    BUTTON_SECOND_CARD = "button_second_card"  # pouques-2020 27
    LAST_CARD = "last_card"  # pcpm, cpt87 5.1


class Decision(StrEnum):
    """What the ruleset in force makes of a fault (spec/faults.md, "Ruling decisions").

    The hub rules one (`hub.rulings`); the table's monitor learns it to let the dealer's correction
    pass silently (`DealingMonitor.expect_remedy`): the betting ones and `td_decision` change nothing
    at the table.
    """

    SET_ASIDE = "set_aside"
    MISDEAL = "misdeal"  # fausse donne
    REPLACE_WITH_BURN = "replace_with_burn"
    CONTINUE = "continue"
    DESIGNATE_BURN = "designate_burn"
    BURN_TO_FLOP = "burn_to_flop"
    EXTRA_CARD_BURN = "extra_card_burn"
    RESHUFFLE_BOARD = "reshuffle_board"
    RIVER_AS_TURN = "river_as_turn"
    BOTTOM_CARD = "bottom_card"
    BURN_AND_NEXT = "burn_and_next"
    BURN_AS_FIRST = "burn_as_first"
    HAND_CANCELLED_BETS_RETURNED = "hand_cancelled_bets_returned"
    HAND_CANCELLED_POT_SPLIT = "hand_cancelled_pot_split"
    HAND_DEAD = "hand_dead"
    ACTION_BINDING = "action_binding"
    ACTION_RELEASED = "action_released"
    CALL_OR_FOLD_ONLY = "call_or_fold_only"
    COMPLETED_TO_MIN_RAISE = "completed_to_min_raise"
    TREATED_AS_CALL = "treated_as_call"
    TD_DECISION = "td_decision"
    # added by this project (documented in docs/faults.md)
    BURN_PREMATURE = "burn_premature"  # pouques 77, premature river
    CARD_KEPT = "card_kept"  # pcpm: the dealer's own exposed card stays in his hand


@dataclass(frozen=True, slots=True)
class FaultDetected:
    """A dealing fault, raised at the card (or action) that revealed it.

    `details` carries what a ruling needs; keys the rulings use are documented in
    docs/faults.md (e.g. `deal_position`, `exposed_count`, `during_deal`, `boxed_in_deal`).
    """

    kind: FaultKind
    hand: int
    seat: int | None
    cards: tuple[str, ...]
    at: float
    details: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def as_payload(self) -> dict[str, object]:
        """JSON-ready: `{"type": "fault", "hand", "kind", "seat", "cards", "at", "details"}`."""
        return {"type": "fault", "hand": self.hand, "kind": self.kind.value, "seat": self.seat,
                "cards": list(self.cards), "at": self.at, "details": dict(self.details)}
