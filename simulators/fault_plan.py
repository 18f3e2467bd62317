"""Which dealing fault a simulated croupier makes in which hand: kinds, a rate per hand and an rng.

Read by `simulators.croupier` at the start of each hand; names the faults by their contract kinds
(`tablewire.faults.FaultKind`, spec/faults.md). The table observes them and the hub rules them: the
plan only decides what the croupier's hands do wrong, never what the room makes of it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from tablewire.faults import FaultKind

# What the croupier knows how to get wrong (and to put right once ruled), in the order of a hand: the
# deal (a card boxed, turned over, to an empty seat, out of order, a seat skipped, one card too many or
# too few, a tag of no deck, another table's card, a player away), the board (burns, premature or extra
# cards, a card taken off, the second deck at the burn, a dead card to a hand) and the betting (out of
# turn, a short raise, Time called and let run out). Left out: `duplicate_card` (a registry refuses one
# face on two tags of a deck, and the same face from the other deck is `mixed_decks`).
INJECTABLE: tuple[FaultKind, ...] = (
    FaultKind.BOXED_CARD, FaultKind.EXPOSED_CARD, FaultKind.CARD_TO_EMPTY_SEAT, FaultKind.WRONG_DEAL_ORDER,
    FaultKind.SEAT_SKIPPED, FaultKind.EXTRA_HOLE_CARD, FaultKind.MISSING_HOLE_CARD, FaultKind.UNKNOWN_TAG,
    FaultKind.FOREIGN_CARD, FaultKind.ABSENT_PLAYER,
    FaultKind.FLOP_WITHOUT_BURN, FaultKind.FLOP_TWO_BURNS, FaultKind.FLOP_FOUR_CARDS, FaultKind.PREMATURE_FLOP,
    FaultKind.TURN_WITHOUT_BURN, FaultKind.RIVER_WITHOUT_BURN, FaultKind.PREMATURE_TURN,
    FaultKind.PREMATURE_RIVER, FaultKind.BOARD_REMOVED, FaultKind.MIXED_DECKS, FaultKind.DEAD_CARD_IN_HAND,
    FaultKind.OUT_OF_TURN, FaultKind.INSUFFICIENT_BET, FaultKind.TIME_EXPIRED,
)
# The plan of `tapis demo` and `tapis sim table` unless --faults names others: every kind but Time run
# out, which stops the table for the rulebook's minute and ten seconds (ask for it with --faults).
DEFAULT_KINDS: tuple[FaultKind, ...] = tuple(k for k in INJECTABLE if k is not FaultKind.TIME_EXPIRED)


class FaultPlan:
    """`rate`: the chance that a hand carries one fault (0.1: one hand in ten on average).

    Kinds are drawn from a shuffled bag (each kind once per round of the bag), so a run of any
    length shows every kind in turn; a kind drawn for a hand that ended before its moment (no
    flop, no betting) stays due for the next hands until the croupier makes it."""

    def __init__(self, *, rate: float, rng: random.Random, kinds: Iterable[FaultKind | str] = DEFAULT_KINDS) -> None:
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"fault rate {rate}: expected 0 to 1 (the chance per hand)")
        known = {str(k) for k in FaultKind}
        strange = [str(k) for k in kinds if str(k) not in known]
        if strange:
            raise ValueError(f"no fault kind {', '.join(strange)} (spec/faults.md; "
                             f"the croupier makes {', '.join(str(k) for k in INJECTABLE)})")
        chosen = tuple(FaultKind(k) for k in kinds)
        unknown = [str(k) for k in chosen if k not in INJECTABLE]
        if unknown:
            raise ValueError(f"the croupier cannot make {', '.join(unknown)} "
                             f"(it makes {', '.join(str(k) for k in INJECTABLE)})")
        if not chosen and rate:
            raise ValueError("a fault rate without any fault kind")
        self.rate = rate
        self.kinds = chosen
        self.rng = rng
        self._bag: list[FaultKind] = []
        self.due: FaultKind | None = None
        self.made: dict[FaultKind, int] = {}
        self.passed: dict[FaultKind, int] = {}  # due in a hand where this table could not make it

    def for_hand(self) -> FaultKind | None:
        """The fault to make in the hand starting now, if any."""
        if self.due is None and self.kinds and self.rng.random() < self.rate:
            if not self._bag:
                self._bag = list(self.kinds)
                self.rng.shuffle(self._bag)
            self.due = self._bag.pop()
        return self.due

    def made_it(self, kind: FaultKind) -> None:
        """The croupier made the due fault: the next hands draw again."""
        self.made[kind] = self.made.get(kind, 0) + 1
        if self.due == kind:
            self.due = None

    def pass_on(self, kind: FaultKind) -> None:
        """The due fault cannot be made at this table as it is (no empty seat, heads-up, no other
        table's deck in the registry): counted, and the next hands draw again."""
        self.passed[kind] = self.passed.get(kind, 0) + 1
        if self.due == kind:
            self.due = None
