"""The MCP23017 pin factory over a simulated I2C bus: seat panels as gpiozero devices on expander
pins, inputs through the shared interrupt line (a MockFactory pin) or by polling, LEDs by the latch."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Button, PinInvalidPull
from gpiozero.pins.mock import MockFactory

from hw.errors import LinkError
from hw.panel import Panel
from hw.panel_events import PanelEvent, SeatActed, SeatAction, SeatButton
from hw.panel_leds import TableLights
from hw.panel_mcp23017 import GPINTEN, GPPU, IOCON, IODIR, ExpanderFactory
from hw.panel_pins import PanelConfig
from hw.ports import ManualClock
from simulators.panel import SimulatedExpanderBus

CONFIG = PanelConfig.reference(10)


class Rig:
    def __init__(self, *, interrupt: bool) -> None:
        self.base = MockFactory()
        self.bus = SimulatedExpanderBus(CONFIG.expanders, interrupt=self.base.pin("GPIO4") if interrupt else None)
        self.factory = ExpanderFactory(self.base, self.bus, CONFIG.expanders,
                                       interrupt="GPIO4" if interrupt else None)
        self.clock = ManualClock(50.0)
        self.events: list[PanelEvent] = []
        self.panel = Panel(CONFIG, pin_factory=self.factory, clock=self.clock, on_event=self.events.append)

    def tap(self, pin: str, hold: float = 0.1) -> None:
        self.bus.press(pin)
        self.clock.advance(hold)
        self.bus.release(pin)
        self.clock.advance(0.1)

    def close(self) -> None:
        self.panel.close()
        self.factory.close()
        self.base.reset()


@pytest.fixture
def rig() -> Iterator[Rig]:
    made = Rig(interrupt=True)
    yield made
    made.close()


def test_chips_are_configured_for_the_seat_panels(rig: Rig) -> None:
    for address in CONFIG.expanders:
        regs = rig.bus.regs[address]
        assert regs[IOCON] == regs[IOCON + 1] == 0x44  # MIRROR | ODR: one shared open-drain INT line
        assert regs[IODIR] == regs[IODIR + 1] == 0b1100_1111  # bits 4, 5 drive the LEDs
        assert regs[GPPU] == regs[GPPU + 1] == 0b0000_1111  # pull-ups on the four buttons
        assert regs[GPINTEN] == regs[GPINTEN + 1] == 0b0000_1111  # interrupt on change


@pytest.mark.parametrize("seat", range(1, 11))
def test_every_seat_button_reaches_the_panel_through_the_interrupt(seat: int, rig: Rig) -> None:
    pins = CONFIG.seats[seat]
    rig.tap(pins.fold)
    rig.tap(pins.check_call)
    rig.tap(pins.bet_raise)
    rig.tap(pins.allin, hold=1.0)
    assert [(e.seat, e.action) for e in rig.events if isinstance(e, SeatActed)] == [
        (seat, SeatAction.FOLD), (seat, SeatAction.CHECK), (seat, SeatAction.BET), (seat, SeatAction.ALLIN)
    ]
    assert rig.base.pin("GPIO4").state  # interrupt released after every read


def test_presses_on_two_chips_at_once_are_both_delivered(rig: Rig) -> None:
    # both chips hold the shared line low: the factory drains until it goes high again
    rig.bus.interrupt = None
    rig.bus.press(CONFIG.seats[1].fold)
    rig.bus.press(CONFIG.seats[9].fold)
    rig.bus.interrupt = rig.base.pin("GPIO4")
    rig.bus.interrupt.drive_low()
    assert [e.seat for e in rig.events if isinstance(e, SeatActed)] == [1, 9]
    assert rig.bus.interrupt.state


def test_leds_are_driven_through_the_output_latch(rig: Rig) -> None:
    rig.panel.show(TableLights(to_act=7, faults=frozenset({2})))
    lit = {pin for seat in CONFIG.seats.values() for pin in (seat.to_act_led, seat.fault_led)
           if rig.bus.output(pin)}
    assert lit == {CONFIG.seats[7].to_act_led, CONFIG.seats[2].fault_led}
    before = rig.bus.transactions
    rig.panel.refresh()  # nothing changed: no I2C traffic
    assert rig.bus.transactions == before


def test_without_an_interrupt_line_inputs_are_polled() -> None:
    rig = Rig(interrupt=False)
    try:
        rig.bus.press(CONFIG.seats[4].check_call)
        assert rig.events == []
        assert rig.factory.poll() == 1
        assert rig.events == [SeatActed(4, SeatAction.CHECK, None, 50.0)]
        assert rig.factory.poll() == 0
    finally:
        rig.close()


def test_a_quick_tap_released_before_the_chip_is_read_is_still_a_press() -> None:
    """Issue #33, point 7: the Pi reads the chip after the player let go (polled, or its interrupt
    served late): GPIO shows the button up again, INTCAP shows it down when the interrupt fired."""
    rig = Rig(interrupt=False)
    try:
        rig.bus.press(CONFIG.seats[4].fold)
        rig.bus.release(CONFIG.seats[4].fold)
        assert rig.factory.poll() == 2  # down (INTCAP) then up (GPIO)
        assert rig.events == [SeatActed(4, SeatAction.FOLD, None, 50.0)]
        assert rig.factory.poll() == 0
    finally:
        rig.close()


def test_a_quick_tap_is_delivered_when_the_interrupt_is_served_late(rig: Rig) -> None:
    line = rig.bus.interrupt
    rig.bus.interrupt = None  # the Pi is busy: the falling edge waits
    rig.bus.press(CONFIG.seats[2].check_call)
    rig.bus.release(CONFIG.seats[2].check_call)
    rig.bus.interrupt = line
    assert line is not None
    line.drive_low()
    assert [(e.seat, e.action) for e in rig.events if isinstance(e, SeatActed)] == [(2, SeatAction.CHECK)]
    assert line.state  # released


def test_expander_pins_have_pull_ups_only(rig: Rig) -> None:
    rig.panel.close()
    with pytest.raises(PinInvalidPull, match="pull-ups only"):
        Button(CONFIG.seats[1].fold, pull_up=False, pin_factory=rig.factory)


def test_an_i2c_failure_is_a_link_error(rig: Rig) -> None:
    rig.bus.failing = True
    with pytest.raises(LinkError, match="MCP23017 0x20"):
        rig.panel.to_act_leds[1].on()
    rig.bus.failing = False  # the chip answers again, so the teardown can release it


def test_pi_pins_still_come_from_the_base_factory(rig: Rig) -> None:
    button = rig.panel.dealer_buttons
    assert all(b.pin is rig.base.pin(getattr(CONFIG.dealer, k.value)) for k, b in button.items())
    assert rig.panel.seat_buttons[1][SeatButton.FOLD].pin is rig.factory.pin("MCP20:A0")


def test_reading_a_pin_does_not_swallow_a_pending_change(rig: Rig) -> None:
    # a press on seat 3's fold is waiting while something reads seat 3's check/call level
    rig.bus.interrupt = None
    rig.bus.press(CONFIG.seats[3].fold)
    assert rig.panel.seat_buttons[3][SeatButton.CHECK_CALL].value == 0
    assert rig.factory.poll() == 1
    assert [(e.seat, e.action) for e in rig.events if isinstance(e, SeatActed)] == [(3, SeatAction.FOLD)]


def test_a_chip_that_lost_its_configuration_is_restored(rig: Rig) -> None:
    rig.panel.show(TableLights(to_act=5))  # seat 5: chip 0x22 port A, LED on bit 4
    assert rig.factory.restore() == []
    regs = rig.bus.regs[0x22]
    regs[:] = bytes(len(regs))  # power glitch: the chip is back at its power-on state
    regs[IODIR] = regs[IODIR + 1] = 0xFF
    assert not rig.bus.output(CONFIG.seats[5].to_act_led)
    assert rig.factory.restore() == [0x22]
    assert regs[IOCON] == 0x44 and regs[IODIR] == 0b1100_1111 and regs[GPINTEN] == 0b0000_1111
    assert rig.bus.output(CONFIG.seats[5].to_act_led)
    rig.tap(CONFIG.seats[5].fold)
    assert rig.events[-1] == SeatActed(5, SeatAction.FOLD, None, rig.events[-1].at)


@pytest.mark.allow_logged_exceptions
def test_an_i2c_failure_during_an_interrupt_is_logged(rig: Rig, caplog: pytest.LogCaptureFixture) -> None:
    rig.bus.press(CONFIG.seats[1].fold)  # served normally
    rig.bus.failing = True
    with caplog.at_level("ERROR"):
        rig.base.pin("GPIO4").drive_high()
        rig.base.pin("GPIO4").drive_low()  # an edge while the bus is down
    assert "expander interrupt not served" in caplog.text
    rig.bus.failing = False
