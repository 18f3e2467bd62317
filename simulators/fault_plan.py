"""Which dealing fault a simulated croupier makes in which hand: kinds, a rate per hand and an rng.

Read by `simulators.croupier` at the start of each hand; names the faults by their contract kinds
(`tablewire.faults.FaultKind`, spec/faults.md). The table observes them and the hub rules them: the
plan only decides what the croupier's hands do wrong, never what the room makes of it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from tablewire.faults import FaultKind

# What the croupier knows how to get wrong (and to put right once ruled): a card boxed in the deck,
# a hole card turned over during the deal, a flop dealt without its burn or with two, a player acting
# before his turn.
INJECTABLE: tuple[FaultKind, ...] = (
    FaultKind.BOXED_CARD, FaultKind.EXPOSED_CARD, FaultKind.FLOP_WITHOUT_BURN, FaultKind.FLOP_TWO_BURNS,
    FaultKind.OUT_OF_TURN,
)


class FaultPlan:
    """`rate`: the chance that a hand carries one fault (0.1: one hand in ten on average).

    Kinds are drawn from a shuffled bag (each kind once per round of the bag), so a run of any
    length shows every kind in turn; a kind drawn for a hand that ended before its moment (no
    flop, no betting) stays due for the next hands until the croupier makes it."""

    def __init__(self, *, rate: float, rng: random.Random, kinds: Iterable[FaultKind | str] = INJECTABLE) -> None:
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"fault rate {rate}: expected 0 to 1 (the chance per hand)")
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
