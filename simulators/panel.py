"""Panel simulator: a player's or dealer's fingers on gpiozero mock pins.

Drives the `MockPin`s under a `hw.panel.Panel` built on `MockFactory` / `MockExpanderFactory`, so the
real gpiozero callbacks fire; time between edges moves on the shared `ManualClock`. Used by tests and
by scenario replay for the `act`, `away`, `back`, `time` and `new_hand` steps.
"""

from __future__ import annotations

from gpiozero.pins.mock import MockPin

from hw.panel import Panel
from hw.panel_events import SEAT_BOUND, DealerButton, SeatAction, SeatButton
from hw.panel_input import STEP_MULTIPLIERS
from hw.ports import ManualClock

BUTTON_OF = {
    SeatAction.FOLD: SeatButton.FOLD,
    SeatAction.CHECK: SeatButton.CHECK_CALL,
    SeatAction.CALL: SeatButton.CHECK_CALL,
    SeatAction.BET: SeatButton.BET_RAISE,
    SeatAction.RAISE: SeatButton.BET_RAISE,
    SeatAction.ALLIN: SeatButton.ALLIN,
}


class PanelSimulator:
    """Presses and turns the panel's controls. Each press holds `press_s` of simulated time (long
    presses a little more than the configured hold) and `bounces` extra contact chatters per edge."""

    def __init__(self, panel: Panel, clock: ManualClock, *, press_s: float = 0.1, bounces: int = 0) -> None:
        self.panel = panel
        self.clock = clock
        self.press_s = press_s
        self.bounces = bounces
        self.chatter_s = 0.001

    # -- the steps of a scenario -----------------------------------------------------------------------

    def press(self, seat: int, action: SeatAction | str, to: int | None = None) -> None:
        """`act: {seat, action, to}`: key `to` on the dealer's encoder if given, then press the button."""
        action = SeatAction(action)
        if to is not None:
            if action not in (SeatAction.BET, SeatAction.RAISE):
                raise ValueError(f"only bet and raise carry an amount, not {action}")
            self.key_amount(to)
        button = BUTTON_OF[action]
        if seat not in self.panel.seat_buttons:
            raise ValueError(f"seat {seat} is not wired on this panel")
        hold = self.panel.input.allin_hold + self.press_s if action is SeatAction.ALLIN else self.press_s
        self.tap(self.panel.seat_buttons[seat][button].pin, hold)

    def dealer(self, button: DealerButton | str, seat: int | None = None) -> None:
        """`new_hand`, or `away`/`back`/`time` on `seat`: press, turn the encoder to the seat, press again."""
        button = DealerButton(button)
        pin = self.panel.dealer_buttons[button].pin
        if button not in SEAT_BOUND:
            if seat is not None:
                raise ValueError(f"{button} takes no seat")
            self.tap(pin, self.panel.input.new_hand_hold + self.press_s)
            return
        self.tap(pin, self.press_s)
        offered = self.panel.input.picked_seat
        if offered is None:
            raise RuntimeError(f"the panel did not start a seat pick for {button}")
        if seat is not None:
            seats = self.panel.seats
            forward = (seat - offered) % seats
            if forward <= seats - forward:
                self.turn(forward)
            else:
                self.turn(-(seats - forward))
        self.tap(pin, self.press_s)  # the same button again confirms

    def key_amount(self, amount: int) -> None:
        """Clear the display, then dial `amount` digit by digit with the 1x, 10x and 100x steps."""
        pad = self.panel.input
        unit = pad.chip_unit
        if amount <= 0 or amount % unit:
            raise ValueError(f"{amount} cannot be keyed: amounts are positive multiples of the chip unit {unit}")
        self.tap(self.panel.push.pin, pad.clear_hold + self.press_s)  # long press: 0, step back to 1x
        units = amount // unit
        last = len(STEP_MULTIPLIERS) - 1
        for index, multiplier in enumerate(STEP_MULTIPLIERS):
            count = units // multiplier if index == last else units // multiplier % 10
            self.turn(count)
            self.tap(self.panel.push.pin, self.press_s)  # short press: next step size (back to 1x at the end)

    # -- raw gestures ------------------------------------------------------------------------------------

    def tap(self, pin: MockPin, hold: float) -> None:
        """Press (drive low), hold `hold` seconds of simulated time, release, with contact bounce."""
        self._edge(pin, low=True)
        self.clock.advance(hold)
        self._edge(pin, low=False)
        self.clock.advance(self.press_s)

    def turn(self, detents: int) -> None:
        """Turn the encoder: positive clockwise (A leads B), one full quadrature cycle per detent."""
        a, b = self.panel.encoder.a.pin, self.panel.encoder.b.pin
        first, second = (a, b) if detents > 0 else (b, a)
        for _ in range(abs(detents)):
            first.drive_low()
            second.drive_low()
            first.drive_high()
            second.drive_high()
            self.clock.advance(0.01)

    def _edge(self, pin: MockPin, *, low: bool) -> None:
        settle, chatter = (pin.drive_low, pin.drive_high) if low else (pin.drive_high, pin.drive_low)
        settle()
        for _ in range(self.bounces):  # a contact chatters for a millisecond or two before it settles
            self.clock.advance(self.chatter_s)
            chatter()
            self.clock.advance(self.chatter_s)
            settle()
