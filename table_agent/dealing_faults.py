"""Vocabulary of the dealing monitor: its errors, streets and the hand context the hub sends.

The fault kinds, the `FaultDetected` event and the ruling decisions the monitor learns are the
contract's (`tablewire.faults`): the hub's rulings name them too. Pure data: no IO, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tablewire.faults import Deadline


class DealingError(Exception):
    """Root of every error raised by the dealing monitor (only commands raise; observations never do)."""


class UnknownRemedy(DealingError, ValueError):
    """`expect_remedy` got a decision that is not in spec/faults.md."""


class BadHandContext(DealingError, ValueError):
    """The hand context sent by the hub is inconsistent (e.g. first seat to deal not dealt in)."""


class Street(StrEnum):
    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"


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
