"""Panel input logic: button edges and encoder steps in, `SeatActed` / `DealerPressed` events out.

Pure (no gpiozero, no clock reads): `hw.panel.Panel` feeds it the edges its gpiozero callbacks see,
stamped by the injected clock, and forwards the events it returns. It debounces contacts, times long
presses, resolves check/call and bet/raise from what the hub says is owed, keeps the keyed amount
(snapped to the level's chip unit) and runs the dealer's seat pick for away, back and time.
"""

from __future__ import annotations

from dataclasses import dataclass

from hw.panel_events import (
    SEAT_BOUND,
    AmountKeyed,
    DealerButton,
    DealerPressed,
    PanelEvent,
    SeatActed,
    SeatAction,
    SeatButton,
    SeatOffered,
)

STEP_MULTIPLIERS = (1, 10, 100)  # encoder push cycles the step: 1, 10, 100 chip units per detent
MAX_AMOUNT = 99_999_999  # eight digits on the display
STEP_SHOWN_FOR = 1.5  # seconds the display shows the step size after a short push


class _Contact:
    """One mechanical contact: accepts an edge only once the previous accepted edge is `bounce` old."""

    __slots__ = ("bounce", "last_edge", "down_since")

    def __init__(self, bounce: float) -> None:
        self.bounce = bounce
        self.last_edge = float("-inf")
        self.down_since: float | None = None

    def press(self, at: float) -> bool:
        if at - self.last_edge < self.bounce:
            return False
        self.last_edge = self.down_since = at
        return True

    def release(self, at: float) -> float | None:
        """How long the accepted press lasted, or None when this edge is bounce (or had no press)."""
        if self.down_since is None or at - self.last_edge < self.bounce:
            return None
        held, self.down_since, self.last_edge = at - self.down_since, None, at
        return held


@dataclass(slots=True)
class _Pick:
    button: DealerButton
    seat: int
    expires: float


class PanelInput:
    """The panel's state: owed amounts per seat, keyed amount, seat pick. One owner thread (see Panel)."""

    def __init__(
        self,
        seats: int,
        *,
        bounce: float = 0.02,
        allin_hold: float = 0.8,
        new_hand_hold: float = 1.0,
        clear_hold: float = 1.0,
        pick_window: float = 8.0,
    ) -> None:
        if not 1 <= seats <= 10:
            raise ValueError(f"a table has 1..10 seats, got {seats}")
        self.seats = seats
        self.allin_hold = allin_hold
        self.new_hand_hold = new_hand_hold
        self.clear_hold = clear_hold
        self.pick_window = pick_window
        self._bounce = bounce
        self._contacts: dict[object, _Contact] = {}
        self._owed: dict[int, int] = {}
        self._opened: dict[int, bool] = {}
        self.to_act: int | None = None
        self.chip_unit = 1
        self.amount = 0
        self._multiplier = 0  # index into STEP_MULTIPLIERS
        self.step_shown_until = float("-inf")  # the display shows the new step size until then
        self._pick: _Pick | None = None

    # -- what the hub tells the panel ---------------------------------------------------------------

    def set_to_call(self, seat: int, amount: int, *, opened: bool | None = None) -> None:
        """`amount` is what `seat` must add to call (0: may check). `opened`: a bet (or blind) stands in
        this round, so bet/raise reports `raise`; default `amount > 0` (pass True for the big blind)."""
        self._seat(seat)
        if amount < 0:
            raise ValueError(f"seat {seat}: amount to call cannot be negative ({amount})")
        self._owed[seat] = amount
        self._opened[seat] = amount > 0 if opened is None else opened

    def clear_to_call(self) -> None:
        """New betting round or new hand: nothing owed anywhere until the hub says so."""
        self._owed.clear()
        self._opened.clear()

    def set_chip_unit(self, unit: int) -> None:
        """The level's smallest chip: keyed amounts move and snap to multiples of it."""
        if unit < 1:
            raise ValueError(f"chip unit must be at least 1, got {unit}")
        self.chip_unit = unit
        self.amount = min(MAX_AMOUNT // unit * unit, (self.amount + unit // 2) // unit * unit)

    @property
    def step(self) -> int:
        return self.chip_unit * STEP_MULTIPLIERS[self._multiplier]

    @property
    def picking(self) -> DealerButton | None:
        return self._pick.button if self._pick is not None else None

    @property
    def picked_seat(self) -> int | None:
        return self._pick.seat if self._pick is not None else None

    def expire(self, now: float) -> None:
        """Drop a seat pick left unconfirmed past its window (called before every input and refresh)."""
        if self._pick is not None and now >= self._pick.expires:
            self._pick = None

    def action_of(self, seat: int, button: SeatButton) -> SeatAction:
        """What a press of `button` at `seat` reports now (check or call, bet or raise)."""
        if button is SeatButton.CHECK_CALL:
            return SeatAction.CALL if self._owed.get(seat, 0) > 0 else SeatAction.CHECK
        if button is SeatButton.BET_RAISE:
            return SeatAction.RAISE if self._opened.get(seat, False) else SeatAction.BET
        return SeatAction.FOLD if button is SeatButton.FOLD else SeatAction.ALLIN

    # -- edges from the hardware ---------------------------------------------------------------------

    def seat_edge(self, seat: int, button: SeatButton, pressed: bool, at: float) -> list[PanelEvent]:
        self._seat(seat)
        self.expire(at)
        contact = self._contact(("seat", seat, button))
        if button is SeatButton.ALLIN:
            # tapis only on a deliberate press: reported at release once held long enough
            if pressed:
                contact.press(at)
                return []
            held = contact.release(at)
            if held is None or held < self.allin_hold:
                return []
            return [SeatActed(seat, SeatAction.ALLIN, None, at)]
        if not pressed:
            contact.release(at)
            return []
        if not contact.press(at):
            return []
        action = self.action_of(seat, button)
        if button is not SeatButton.BET_RAISE or self.amount == 0:
            return [SeatActed(seat, action, None, at)]
        to, self.amount = self.amount, 0  # the keyed amount belongs to this bet
        self.step_shown_until = float("-inf")
        return [SeatActed(seat, action, to, at), AmountKeyed(0, at)]

    def dealer_edge(self, button: DealerButton, pressed: bool, at: float) -> list[PanelEvent]:
        self.expire(at)
        contact = self._contact(("dealer", button))
        if button is DealerButton.NEW_HAND:
            if pressed:
                contact.press(at)
                return []
            held = contact.release(at)
            if held is None or held < self.new_hand_hold:
                return []
            self._pick = None
            self.clear_to_call()
            events: list[PanelEvent] = [DealerPressed(DealerButton.NEW_HAND, None, at)]
            if self.amount:
                self.amount = 0
                events.append(AmountKeyed(0, at))
            return events
        assert button in SEAT_BOUND
        if not pressed:
            contact.release(at)
            return []
        if not contact.press(at):
            return []
        if self._pick is not None and self._pick.button is button:
            return [self._confirm(at)]
        # Time is nearly always called on the player to act: offer that seat first
        seat = self.to_act or (self._pick.seat if self._pick else 1)
        self._pick = _Pick(button, seat, at + self.pick_window)
        return [SeatOffered(button, seat, at)]

    def encoder_step(self, clockwise: bool, at: float) -> list[PanelEvent]:
        self.expire(at)
        if self._pick is not None:
            pick = self._pick
            pick.seat = (pick.seat - 1 + (1 if clockwise else -1)) % self.seats + 1
            pick.expires = at + self.pick_window
            return [SeatOffered(pick.button, pick.seat, at)]
        self.step_shown_until = float("-inf")  # turning brings the amount back at once
        amount = self.amount + (self.step if clockwise else -self.step)
        amount = max(0, min(MAX_AMOUNT // self.chip_unit * self.chip_unit, amount))
        if amount == self.amount:
            return []
        self.amount = amount
        return [AmountKeyed(amount, at)]

    def push_edge(self, pressed: bool, at: float) -> list[PanelEvent]:
        """The encoder's push switch: confirms a seat pick, else short = next step size, long = clear."""
        self.expire(at)
        contact = self._contact(("push",))
        if pressed:
            contact.press(at)
            return []
        held = contact.release(at)
        if held is None:
            return []
        if self._pick is not None:
            return [self._confirm(at)]
        if held >= self.clear_hold:
            self._multiplier = 0
            if self.amount == 0:
                return []
            self.amount = 0
            return [AmountKeyed(0, at)]
        self._multiplier = (self._multiplier + 1) % len(STEP_MULTIPLIERS)
        self.step_shown_until = at + STEP_SHOWN_FOR
        return []

    # -- internals -----------------------------------------------------------------------------------

    def _confirm(self, at: float) -> DealerPressed:
        assert self._pick is not None
        pick, self._pick = self._pick, None
        return DealerPressed(pick.button, pick.seat, at)

    def _contact(self, key: object) -> _Contact:
        contact = self._contacts.get(key)
        if contact is None:
            contact = self._contacts[key] = _Contact(self._bounce)
        return contact

    def _seat(self, seat: int) -> None:
        if not 1 <= seat <= self.seats:
            raise ValueError(f"seat {seat} is not at this table (1..{self.seats})")
