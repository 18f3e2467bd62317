"""Vocabulary of the dealing monitor: fault kinds, streets, the hand context and the fault event.

Sits between `table_agent.zones` (which emits `CardArrived`/`CardLeft`) and the hub's rulings
(`hub.rulings`), which turn a `FaultDetected` into a ruling. Pure data: no IO, no clock.
The `FaultKind` values are the public contract of `spec/faults.md`; never rename one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType


class DealingError(Exception):
    """Root of every error raised by the dealing monitor (only commands raise; observations never do)."""


class UnknownRemedy(DealingError, ValueError):
    """`expect_remedy` got a decision that is not in spec/faults.md."""


class BadHandContext(DealingError, ValueError):
    """The hand context sent by the hub is inconsistent (e.g. first seat to deal not dealt in)."""


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


class Street(StrEnum):
    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"


class Deadline(StrEnum):
    """Which dealt card a player must be seated for (RULES.md §1, "must be seated when")."""

    FIRST_CARD = "first_card"  # cdc-2013 5.1
    OWN_LAST_CARD = "own_last_card"  # brest-2011 III.13
    BUTTON_SECOND_CARD = "button_second_card"  # pouques-2020 27
    LAST_CARD = "last_card"  # pcpm, cpt87 5.1


class Remedy(StrEnum):
    """Ruling decisions, as the monitor learns them to let the dealer's correction pass silently.

    Same strings as the decisions of spec/faults.md (`hub.rulings.Decision`); the betting ones
    (`action_binding`, ...) and `td_decision` change nothing at the table.
    """

    SET_ASIDE = "set_aside"
    MISDEAL = "misdeal"
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
    BURN_PREMATURE = "burn_premature"
    CARD_KEPT = "card_kept"
    HAND_CANCELLED_BETS_RETURNED = "hand_cancelled_bets_returned"
    HAND_CANCELLED_POT_SPLIT = "hand_cancelled_pot_split"
    HAND_DEAD = "hand_dead"
    # nothing to expect at the table for these: accepted so every ruling can be passed on
    ACTION_BINDING = "action_binding"
    ACTION_RELEASED = "action_released"
    CALL_OR_FOLD_ONLY = "call_or_fold_only"
    COMPLETED_TO_MIN_RAISE = "completed_to_min_raise"
    TREATED_AS_CALL = "treated_as_call"
    TD_DECISION = "td_decision"


@dataclass(frozen=True, slots=True)
class FaultDetected:
    """A dealing fault, raised at the card (or action) that revealed it.

    `details` carries what a ruling needs; keys used by `hub.rulings` are documented in
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


@dataclass(frozen=True, slots=True)
class HandContext:
    """What the hub tells the table at each hand start."""

    hand: int
    seats: tuple[int, ...]  # seats dealt in (physical numbers)
    button: int
    first_to_deal: int  # left of the button; heads-up: the big blind
    hole_cards: int = 2  # NLHE 2, PLO 4, Pineapple 3
    deck: str | None = "A"  # deck in play; None: the first card's deck
    table_decks: frozenset[str] = frozenset({"A", "B"})
    away: frozenset[int] = frozenset()
    table_seats: int = 10
    deadline: Deadline = Deadline.FIRST_CARD
    dealer: int | None = None  # seat of the player dealing; None: a croupier deals
    small_blind: int | None = None  # None: derived (heads-up the button, else first to deal)
    discards: int = 0  # cards each player throws away and keeps playing (Pineapple 1)
    excluded_ranks: frozenset[str] = frozenset()  # not in this game's deck (short deck: 2-5)

    def __post_init__(self) -> None:
        if len(self.seats) < 2 or len(set(self.seats)) != len(self.seats):
            raise BadHandContext(f"hand {self.hand}: need at least two distinct seats, got {self.seats}")
        if any(not 1 <= s <= self.table_seats for s in self.seats):
            raise BadHandContext(f"hand {self.hand}: seats {self.seats} outside 1..{self.table_seats}")
        if self.first_to_deal not in self.seats:
            raise BadHandContext(f"hand {self.hand}: first seat to deal {self.first_to_deal} is not dealt in")
        if self.hole_cards < 1 or not 0 <= self.discards < self.hole_cards:
            raise BadHandContext(f"hand {self.hand}: need hole_cards >= 1 and 0 <= discards < hole_cards")

    @property
    def deal_order(self) -> tuple[int, ...]:
        """Seats dealt in, clockwise (increasing seat numbers) from the first seat to deal."""
        ordered = sorted(self.seats)
        start = ordered.index(self.first_to_deal)
        return tuple(ordered[start:] + ordered[:start])

    @property
    def small_blind_seat(self) -> int:
        if self.small_blind is not None:
            return self.small_blind
        return self.button if len(self.seats) == 2 else self.first_to_deal
