"""Panel simulator: a player's or dealer's fingers on gpiozero mock pins.

Drives the `MockPin`s under a `hw.panel.Panel` built on `MockFactory` / `MockExpanderFactory`, so the
real gpiozero callbacks fire; time between edges moves on the shared `ManualClock`. Used by tests and
by scenario replay for the `act`, `away`, `back`, `time` and `new_hand` steps. `SimulatedExpanderBus`
stands in for the MCP23017 chips under `hw.panel_mcp23017.ExpanderFactory`, `SimulatedMAX7219` for the
amount display.
"""

from __future__ import annotations

from collections.abc import Iterable

from gpiozero.pins import Pin
from gpiozero.pins.mock import MockFactory, MockPin, MockSPIDevice

from hw.panel import Panel
from hw.panel_display import DIGIT0, FONT, SHUTDOWN
from hw.panel_events import SEAT_BOUND, DealerButton, SeatAction, SeatButton
from hw.panel_expander import PORTS
from hw.panel_input import STEP_MULTIPLIERS
from hw.panel_mcp23017 import GPINTEN, GPIO, GPPU, INTCAP, INTF, IODIR, OLAT
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

    def __init__(
        self,
        panel: Panel,
        clock: ManualClock,
        *,
        press_s: float = 0.1,
        bounces: int = 0,
        bus: SimulatedExpanderBus | None = None,
    ) -> None:
        self.panel = panel
        self.clock = clock
        self.press_s = press_s
        self.bounces = bounces
        self.chatter_s = 0.001
        self.bus = bus  # when the panel runs on ExpanderFactory: expander contacts are closed on the bus

    # -- the steps of a scenario -----------------------------------------------------------------------

    def press(self, seat: int, action: SeatAction | str, to: int | None = None) -> SeatAction:
        """`act: {seat, action, to}`: key `to` on the dealer's encoder if given, then press the button.

        Returns what the panel reports for that button now: check/call and bet/raise are one button
        each, resolved from `Panel.set_to_call`, so a scenario's `check` facing a bet comes out as
        `call`. A replay that must send the scenario's action verbatim compares and decides.
        """
        action = SeatAction(action)
        if to is not None:
            if action not in (SeatAction.BET, SeatAction.RAISE):
                raise ValueError(f"only bet and raise carry an amount, not {action}")
            self.key_amount(to)
        button = BUTTON_OF[action]
        if seat not in self.panel.seat_buttons:
            raise ValueError(f"seat {seat} is not wired on this panel")
        hold = self.panel.input.allin_hold + self.press_s if action is SeatAction.ALLIN else self.press_s
        reported = self.panel.input.action_of(seat, button)
        self.tap(self.panel.seat_buttons[seat][button].pin, hold)
        return reported

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

    def down(self, pin: Pin) -> None:
        """Close a contact: a mock pin is driven low, an expander input grounded on the simulated bus."""
        if isinstance(pin, MockPin):
            pin.drive_low()
        else:
            self._bus_for(pin).press(_alias(pin))

    def up(self, pin: Pin) -> None:
        if isinstance(pin, MockPin):
            pin.drive_high()
        else:
            self._bus_for(pin).release(_alias(pin))

    def tap(self, pin: Pin, hold: float) -> None:
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

    def _bus_for(self, pin: Pin) -> SimulatedExpanderBus:
        if self.bus is None:
            raise ValueError(f"{pin!r} is not a mock pin and the simulator has no expander bus")
        return self.bus

    def _edge(self, pin: Pin, *, low: bool) -> None:
        settle, chatter = (self.down, self.up) if low else (self.up, self.down)
        settle(pin)
        for _ in range(self.bounces):  # a contact chatters for a millisecond or two before it settles
            self.clock.advance(self.chatter_s)
            chatter(pin)
            self.clock.advance(self.chatter_s)
            settle(pin)


def _alias(pin: Pin) -> str:
    """`MCP20:A3` for an expander pin (its canonical gpiozero name is `MCP:515`)."""
    return next(name for name in pin.info.names if isinstance(name, str) and not name.startswith("MCP:"))


class SimulatedExpanderBus:
    """An I2C bus carrying MCP23017 chips, for `hw.panel_mcp23017.ExpanderFactory` in tests.

    Models what the driver relies on: IODIR, GPPU, GPINTEN (compare with previous value), IOCON
    MIRROR/ODR, OLAT; INTF and INTCAP as the datasheet has them (3.6.4-3.6.6): the first change on a
    port with no interrupt pending sets its INTF bit and copies the port into INTCAP; later changes
    leave both alone until INTCAP or GPIO is read, which releases the interrupt. All chips pull one
    shared INT line, a mock pin of the Pi's factory. Buttons are pressed with `press("MCP20:A0")`
    (the contact to ground).
    """

    def __init__(self, addresses: Iterable[int], *, interrupt: MockPin | None = None) -> None:
        self.interrupt = interrupt
        self.regs: dict[int, bytearray] = {a: bytearray(0x16) for a in addresses}
        for regs in self.regs.values():
            regs[IODIR], regs[IODIR + 1] = 0xFF, 0xFF
        self.grounded: dict[int, list[int]] = {a: [0, 0] for a in self.regs}  # contacts closed to ground
        self.pending: dict[int, list[int]] = {a: [0, 0] for a in self.regs}  # INTF
        self.transactions = 0
        self.failing = False

    def read_byte_data(self, i2c_addr: int, register: int) -> int:
        regs = self._chip(i2c_addr)
        self.transactions += 1
        if register in (GPIO, GPIO + 1):
            port = register - GPIO
            self.pending[i2c_addr][port] = 0  # reading GPIO clears the interrupt condition
            value = self._levels(i2c_addr, port)
            self._drive_interrupt()
            return value
        if register in (INTF, INTF + 1):
            return self.pending[i2c_addr][register - INTF]
        if register in (INTCAP, INTCAP + 1):
            port = register - INTCAP
            self.pending[i2c_addr][port] = 0  # reading INTCAP clears the interrupt condition too
            self._drive_interrupt()
            return regs[register]
        return regs[register]

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int) -> list[int]:
        """A sequential read: the register pointer increments (IOCON.SEQOP = 0), one transaction."""
        data = [self.read_byte_data(i2c_addr, register + i) for i in range(length)]
        self.transactions -= length - 1
        return data

    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None:
        regs = self._chip(i2c_addr)
        self.transactions += 1
        if register in (GPIO, GPIO + 1):
            register += OLAT - GPIO  # writing GPIO writes the latch
        regs[register] = value & 0xFF

    def press(self, pin: str, pressed: bool = True) -> None:
        """Close (or open) the contact on an expander input; raises the interrupt if enabled."""
        address, port, bit = self._locate(pin)
        before = self._levels(address, port)
        grounded = self.grounded[address]
        grounded[port] = grounded[port] | (1 << bit) if pressed else grounded[port] & ~(1 << bit)
        changed = (before ^ self._levels(address, port)) & self.regs[address][GPINTEN + port]
        changed &= self.regs[address][IODIR + port]
        if changed and not self.pending[address][port]:  # INTCAP holds the first change until cleared
            self.pending[address][port] = changed
            self.regs[address][INTCAP + port] = self._levels(address, port)
        self._drive_interrupt()

    def release(self, pin: str) -> None:
        self.press(pin, False)

    def output(self, pin: str) -> bool:
        """Is this expander output driven high (LED lit)?"""
        address, port, bit = self._locate(pin)
        regs = self.regs[address]
        return not regs[IODIR + port] & (1 << bit) and bool(regs[OLAT + port] & (1 << bit))

    def _levels(self, address: int, port: int) -> int:
        regs = self.regs[address]
        inputs = regs[IODIR + port]
        # an open input floats: read as high only through its pull-up (a button's contact pulls it to 0)
        input_levels = regs[GPPU + port] & ~self.grounded[address][port]
        return (input_levels & inputs | regs[OLAT + port] & ~inputs) & 0xFF

    def _drive_interrupt(self) -> None:
        if self.interrupt is None:
            return
        if any(any(p) for p in self.pending.values()):
            self.interrupt.drive_low()
        else:
            self.interrupt.drive_high()

    def _chip(self, address: int) -> bytearray:
        if self.failing:
            raise OSError(121, "Remote I/O error")  # what the Pi's I2C driver says for an absent chip
        if address not in self.regs:
            raise OSError(121, f"no device at {address:#04x}")
        return self.regs[address]

    @staticmethod
    def _locate(pin: str) -> tuple[int, int, int]:
        label, _, place = pin.partition(":")
        return int(label[3:], 16), PORTS.index(place[0]), int(place[1])


class SimulatedMAX7219(MockSPIDevice):
    """A MAX7219 listening on mock pins (create it before the display takes the pins): keeps its
    registers and reads the digits back as text, so tests check what the dealer would see."""

    def __init__(self, *, din: str, clk: str, cs: str, pin_factory: MockFactory) -> None:
        super().__init__(clk, din, None, cs, pin_factory=pin_factory)
        self.registers: dict[int, int] = {}
        self.frames = 0

    def on_bit(self) -> None:
        if self.rx_bit == 16:
            register, value = divmod(int(self.rx_word()), 256)
            self.registers[register] = value
            self.frames += 1

    @property
    def text(self) -> str:
        """The eight digits as shown, leftmost first ('' while shut down)."""
        if not self.registers.get(SHUTDOWN):
            return ""
        glyphs = {code: char for char, code in reversed(FONT.items())}
        return "".join(glyphs.get(self.registers.get(DIGIT0 + 7 - i, 0) & 0x7F, "?") for i in range(8))
