"""The MAX7219 amount display on gpiozero mock pins, read back by a simulated MAX7219."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from hw.panel import Panel
from hw.panel_display import MAX7219Display, segments
from hw.panel_events import DealerButton, PanelEvent
from hw.panel_expander import MockExpanderFactory
from hw.panel_leds import TableLights
from hw.panel_pins import DisplayPins, PanelConfig
from hw.ports import ManualClock
from simulators.panel import PanelSimulator, SimulatedMAX7219
from tests.panel.conftest import screen


def test_font_right_aligns_and_lights_the_decimal_point() -> None:
    assert segments("600") == [0, 0, 0, 0, 0, 0x5F, 0x7E, 0x7E]
    assert segments("12.5") == [0, 0, 0, 0, 0, 0x30, 0x6D | 0x80, 0x5B]
    assert segments("") == [0] * 8
    with pytest.raises(ValueError, match="cannot show 'Q'"):
        segments("Q")
    with pytest.raises(ValueError, match="does not fit"):
        segments("123456789")


@pytest.fixture
def rig() -> Iterator[tuple[MockFactory, SimulatedMAX7219, MAX7219Display]]:
    factory = MockFactory()
    chip = SimulatedMAX7219(din="GPIO24", clk="GPIO25", cs="GPIO26", pin_factory=factory)
    display = MAX7219Display.from_config(DisplayPins(), pin_factory=factory, intensity=5)
    yield factory, chip, display
    display.close()
    chip.close()
    factory.reset()


def test_start_up_configures_the_chip(rig: tuple[MockFactory, SimulatedMAX7219, MAX7219Display]) -> None:
    _, chip, _ = rig
    # display test off, no BCD decode, scan 8 digits, intensity 5, running; then 8 blank digits
    assert {r: chip.registers[r] for r in (0x0F, 0x09, 0x0B, 0x0A, 0x0C)} == {
        0x0F: 0, 0x09: 0, 0x0B: 7, 0x0A: 5, 0x0C: 1
    }
    assert chip.frames == 13
    assert chip.text == " " * 8


def test_only_changed_digits_are_sent(rig: tuple[MockFactory, SimulatedMAX7219, MAX7219Display]) -> None:
    _, chip, display = rig
    display.show("     600")
    assert chip.text == "     600"
    before = chip.frames
    display.show("     650")
    assert chip.frames - before == 1
    assert chip.text == "     650"


def test_close_shuts_the_display_down(rig: tuple[MockFactory, SimulatedMAX7219, MAX7219Display]) -> None:
    _, chip, display = rig
    display.show("1")
    display.close()
    assert chip.registers[0x0C] == 0
    assert chip.text == ""


def test_the_dealer_sees_the_amount_and_the_seat_pick() -> None:
    config = PanelConfig.reference(10)
    assert config.display is not None
    factory = MockExpanderFactory(config.expanders)
    chip = SimulatedMAX7219(din=config.display.din, clk=config.display.clk, cs=config.display.cs,
                            pin_factory=factory)
    clock = ManualClock()
    events: list[PanelEvent] = []
    display = MAX7219Display.from_config(config.display, pin_factory=factory)
    try:
        with Panel(config, pin_factory=factory, clock=clock, on_event=events.append, display=display) as panel:
            sim = PanelSimulator(panel, clock)
            panel.set_chip_unit(100)
            sim.turn(12)
            assert chip.text == "    1200"
            panel.show(TableLights(to_act=6))
            sim.tap(panel.dealer_buttons[DealerButton.AWAY].pin, 0.1)
            assert chip.text == "AWAY   6"
            sim.turn(-2)
            assert chip.text == "AWAY   4"
            sim.tap(panel.dealer_buttons[DealerButton.AWAY].pin, 0.1)
            assert chip.text == "    1200"  # back to the amount once the pick is confirmed
        assert chip.text == ""  # closing the panel closed the display
    finally:
        chip.close()
        factory.reset()


def test_a_short_push_shows_the_new_step_for_a_moment() -> None:
    config = PanelConfig.reference(2)
    factory = MockExpanderFactory(config.expanders)
    clock = ManualClock()
    try:
        with Panel(config, pin_factory=factory, clock=clock, on_event=lambda e: None) as panel:
            sim = PanelSimulator(panel, clock, press_s=0.1)
            panel.set_chip_unit(25)
            sim.turn(2)
            sim.tap(panel.push.pin, 0.1)  # x10
            assert screen(panel).text == "STEP 250"
            clock.advance(1.5)
            panel.refresh()
            assert screen(panel).text == "      50"
            sim.tap(panel.push.pin, 0.1)  # x100
            assert screen(panel).text == "STEP2500"
            sim.turn(1)  # turning shows the amount at once
            assert screen(panel).text == "    2550"
    finally:
        factory.reset()


def test_the_td_wait_reads_on_the_real_chip(rig: tuple[MockFactory, SimulatedMAX7219, MAX7219Display]) -> None:
    """What the dealer reads while the table waits for the TD (issue #26), on the segments."""
    _, chip, display = rig
    display.show("APPEL DT")
    assert chip.text == "APPEL DT"
