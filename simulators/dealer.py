"""A scripted dealer: complete no-limit hold'em hands as the physical steps a croupier makes.

`deal_hand` returns the steps of one hand (hole cards round by round from the first seat, folds to
the muck, burns and board, showdown, then the felt cleared), drawn with an injected `random.Random`.
`Felt` performs steps on a reader simulator, turning zones into antennas and cards into tag UIDs,
so a simulated hand goes through the real pty, decoder, presence and zones code.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from hw.decks import FULL_DECK, DeckRegistry
from hw.profile import TableProfile
from table_agent.events import BOARD, BURN, MUCK, TRAY, Zone


@dataclass(frozen=True, slots=True)
class Hole:
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class Burn:
    card: str


@dataclass(frozen=True, slots=True)
class Board:
    card: str


@dataclass(frozen=True, slots=True)
class Tray:
    card: str


@dataclass(frozen=True, slots=True)
class Muck:
    seat: int


@dataclass(frozen=True, slots=True)
class Clear:
    pass


CardStep = Hole | Burn | Board | Tray  # one card from the deck to a zone
Step = CardStep | Muck | Clear


def deal_order(seats: Sequence[int], button: int) -> list[int]:
    """Seats clockwise from the first left of the button (heads-up that is the big blind)."""
    ordered = sorted(seats)
    after = [s for s in ordered if s > button]
    return after + [s for s in ordered if s <= button]


def deal_hand(seats: Sequence[int], button: int, rng: random.Random, *, fold_rate: float = 0.35,
              hole_cards: int = 2) -> list[Step]:
    """One complete, correctly dealt hand; the steps end with the felt cleared."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    order = deal_order(seats, button)
    steps: list[Step] = [Hole(seat, deck.pop()) for _ in range(hole_cards) for seat in order]
    live = list(order)

    def folds() -> None:
        for seat in list(live):
            if len(live) > 1 and rng.random() < fold_rate:
                live.remove(seat)
                steps.append(Muck(seat))

    folds()  # pre-flop
    for street_cards in (3, 1, 1):  # flop, turn, river; folds after each but the river (showdown)
        if len(live) < 2:
            break
        steps.append(Burn(deck.pop()))
        steps.extend(Board(deck.pop()) for _ in range(street_cards))
        if sum(isinstance(s, Board) for s in steps) < 5:
            folds()
    steps.append(Clear())
    return steps


class Antennas(Protocol):
    """What the felt needs of a reader simulator."""

    def place(self, antenna: int, uid: bytes) -> None: ...

    def remove(self, antenna: int, uid: bytes) -> None: ...


class Felt:
    """Performs dealer steps on a reader simulator; remembers where it put each card."""

    def __init__(self, *, profile: TableProfile, registry: DeckRegistry, board: Antennas,
                 deck: str | None = None) -> None:
        self._profile = profile
        self._registry = registry
        self._board = board
        self.deck = deck or profile.deck_ids[0]
        self._where: dict[str, int] = {}  # uid hex -> antenna
        self._foreign: str | None | bool = False  # another table's deck, looked up once (False: not yet)
        self._strays = 0

    def seats(self) -> list[int]:
        """The seats this felt has antennas for."""
        return sorted(z.seat for z in self._profile.antenna_map().values() if z.seat is not None)

    def foreign_deck(self) -> str | None:
        """A deck of the registry that belongs to another table (`tapis sim decks t1 t2` writes two), or None."""
        if self._foreign is False:
            decks = tomllib.loads(self._registry.dump()).get("deck", {})
            table = self._profile.table
            self._foreign = next((d for d, body in sorted(decks.items())
                                  if body.get("table") not in (None, table) and d not in self._profile.deck_ids), None)
        return self._foreign if isinstance(self._foreign, str) else None

    def foreign_uid(self, card: str) -> str:
        """The tag of `card` in another table's deck (a card that wandered from a neighbour's table)."""
        deck = self.foreign_deck()
        if deck is None:
            raise ValueError(f"no other table's deck in the registry for table {self._profile.table}")
        return self.uid(card, deck)

    def stray_uid(self) -> str:
        """A tag in no registered deck (a loyalty card, a phone's NFC, a badly encoded card)."""
        while True:
            self._strays += 1
            uid = f"04EEEE{self._strays:08X}"
            if self._registry.lookup(uid).deck is None:
                return uid

    def faces_at(self, zone: Zone) -> list[str]:
        """The faces of the cards this felt put in `zone`."""
        return [str(self._registry.lookup(uid).card) for uid in self.cards_at(zone)]

    def uid(self, card: str, deck: str | None = None) -> str:
        return self._registry.uid_of(deck or self.deck, card)

    def put(self, zone: Zone, uid: str) -> None:
        self.lift(uid)
        antenna = self._profile.antenna_of(zone)
        self._board.place(antenna, bytes.fromhex(uid))
        self._where[uid] = antenna

    def lift(self, uid: str) -> None:
        antenna = self._where.pop(uid, None)
        if antenna is not None:
            self._board.remove(antenna, bytes.fromhex(uid))

    def placed(self) -> list[str]:
        """Every tag this felt has put down and not lifted."""
        return list(self._where)

    def cards_at(self, zone: Zone) -> list[str]:
        antenna = self._profile.antenna_of(zone)
        return [uid for uid, a in self._where.items() if a == antenna]

    @staticmethod
    def zone_of(step: CardStep) -> Zone:
        """Where a step puts its card."""
        if isinstance(step, Hole):
            return Zone.seat_zone(step.seat)
        return BURN if isinstance(step, Burn) else BOARD if isinstance(step, Board) else TRAY

    def perform(self, step: Step) -> None:
        if isinstance(step, Hole | Burn | Board | Tray):
            self.put(self.zone_of(step), self.uid(step.card))
        elif isinstance(step, Muck):
            for uid in self.cards_at(Zone.seat_zone(step.seat)):
                self.put(MUCK, uid)
        elif isinstance(step, Clear):
            for uid in list(self._where):
                self.lift(uid)
