"""The felt's vocabulary: its zones and what a card tag stands for.

Shared by the hardware profile and the deck registry (`hw`) and by the table agent above them,
which builds its zone events on these names; here, at the bottom, so `hw` needs nothing of the
table agent. Pure data: no IO.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ZoneKind(StrEnum):
    SEAT = "seat"  # place d'un joueur
    BOARD = "board"  # tableau
    BURN = "burn"  # brûlée
    MUCK = "muck"  # cartes couchées
    TRAY = "tray"  # bac des cartes mortes (dead-card tray)


@dataclass(frozen=True, slots=True)
class Zone:
    """A felt zone; seats carry their physical seat number (1..seats)."""

    kind: ZoneKind
    seat: int | None = None

    def __post_init__(self) -> None:
        if (self.kind is ZoneKind.SEAT) != (self.seat is not None):
            raise ValueError(f"a seat zone needs a seat number, other zones none: {self!r}")

    def __str__(self) -> str:
        return f"seat:{self.seat}" if self.kind is ZoneKind.SEAT else self.kind.value

    @classmethod
    def parse(cls, text: str) -> Zone:
        """`seat:3`, `board`, `burn`, `muck`, `tray` (as in scenario files and profiles)."""
        name, _, number = text.strip().partition(":")
        try:
            kind = ZoneKind(name)
        except ValueError:
            raise ValueError(f"unknown zone {text!r}: expected seat:N, board, burn, muck or tray") from None
        if kind is ZoneKind.SEAT:
            if not number.isdigit() or int(number) < 1:
                raise ValueError(f"bad seat zone {text!r}: expected seat:N with N >= 1")
            return cls(kind, int(number))
        if number:
            raise ValueError(f"zone {text!r} takes no number")
        return cls(kind)

    @classmethod
    def seat_zone(cls, seat: int) -> Zone:
        return cls(ZoneKind.SEAT, seat)


@dataclass(frozen=True, slots=True)
class CardTag:
    """What a tag UID stands for, from the deck registry.

    `card` is rank then suit (`As`, `Td`); `deck` is the registry's deck id. A tag in no registered
    deck has `card=None, deck=None`. `table` is the table the deck belongs to (None: unassigned).
    """

    uid: str  # upper-case hex, as read from the antenna
    card: str | None
    deck: str | None
    table: str | None = None

    @property
    def known(self) -> bool:
        return self.deck is not None
