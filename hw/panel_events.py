"""Panel events: what the seat and dealer panels report, as frozen records stamped by the injected clock.

Emitted by `hw.panel.Panel` (through `hw.panel_input.PanelInput`) to the table agent's queue; the
agent hands `SeatActed` to the dealing monitor (out-of-turn detection) and on to the hub. Pure data.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class SeatButton(StrEnum):
    """The four physical buttons of a seat panel (boîtier joueur)."""

    FOLD = "fold"  # passe
    CHECK_CALL = "check_call"  # parole / suivre: one button, the panel resolves it
    BET_RAISE = "bet_raise"  # ouvrir / relancer: one button, the panel resolves it
    ALLIN = "allin"  # tapis: long press only


class SeatAction(StrEnum):
    """What a seat did, as the rules engine spells it (`hub.rules.records.ActionKind`, same values)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALLIN = "allin"


class DealerButton(StrEnum):
    """The dealer panel's buttons (boîtier croupier); away/back/time apply to a picked seat."""

    NEW_HAND = "new_hand"  # nouvelle donne: long press only
    AWAY = "away"  # joueur absent
    BACK = "back"  # joueur de retour
    TIME = "time"  # « Time » demandé sur un joueur


SEAT_BOUND = frozenset({DealerButton.AWAY, DealerButton.BACK, DealerButton.TIME})


@dataclass(frozen=True, slots=True)
class SeatActed:
    """A player pressed an action button. `to` is the declared total for bet/raise (None: not keyed)."""

    seat: int
    action: SeatAction
    to: int | None
    at: float


@dataclass(frozen=True, slots=True)
class DealerPressed:
    """The dealer confirmed a dealer-panel command; `seat` is set for away, back and time."""

    button: DealerButton
    seat: int | None
    at: float


@dataclass(frozen=True, slots=True)
class AmountKeyed:
    """The amount on the dealer display changed (0: cleared). For the TD view; not a player action."""

    amount: int
    at: float


@dataclass(frozen=True, slots=True)
class SeatOffered:
    """A seat pick for away/back/time is open and the display offers `seat` (the encoder moves it;
    the same button again or the encoder push confirms it as a `DealerPressed`)."""

    button: DealerButton
    seat: int
    at: float


PanelEvent = SeatActed | DealerPressed | AmountKeyed | SeatOffered
