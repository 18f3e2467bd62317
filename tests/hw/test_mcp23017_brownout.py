"""A seat-panel expander browning out (IOCON back to 0: its INT push-pull, driving the shared line
high against the others) on the register model of tests/hw/mcp23017_model.py: the panel's regular
refresh restores it within a second and delivers the press the stuck line hid."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from hw.panel import Panel
from hw.panel_events import PanelEvent, SeatActed, SeatAction
from hw.panel_mcp23017 import IOCON, ExpanderFactory
from hw.panel_pins import PanelConfig
from hw.ports import ManualClock
from tests.hw.mcp23017_model import ExpanderBusModel

CONFIG = PanelConfig.reference(10)


class Table:
    def __init__(self) -> None:
        self.base = MockFactory()
        self.bus = ExpanderBusModel(CONFIG.expanders, interrupt=self.base.pin("GPIO4"))
        self.factory = ExpanderFactory(self.base, self.bus, CONFIG.expanders, interrupt="GPIO4")
        self.clock = ManualClock(50.0)
        self.events: list[PanelEvent] = []
        self.panel = Panel(CONFIG, pin_factory=self.factory, clock=self.clock, on_event=self.events.append)

    def acted(self) -> list[tuple[int, SeatAction]]:
        return [(e.seat, e.action) for e in self.events if isinstance(e, SeatActed)]

    def close(self) -> None:
        self.panel.close()
        self.factory.close()
        self.base.reset()


@pytest.fixture
def table() -> Iterator[Table]:
    made = Table()
    yield made
    made.close()


def test_the_model_shows_a_browned_out_chip_holding_the_line_high(table: Table) -> None:
    table.bus.brown_out(0x20)
    assert table.bus.regs[0x20][IOCON] == 0 and not table.bus.contention
    table.bus.press(CONFIG.seats[5].fold)  # chip 0x22 pulls low, 0x20 pushes high
    assert table.bus.contention
    assert table.acted() == []  # no falling edge reached the Pi


def test_the_panels_refresh_restores_a_browned_out_chip_within_a_second(table: Table) -> None:
    table.bus.brown_out(0x20)
    table.bus.press(CONFIG.seats[5].fold)
    table.clock.advance(0.05)
    table.panel.refresh()  # too soon to check the chips (I2C reads are not free)
    table.clock.advance(1.0)
    table.panel.refresh()
    assert table.bus.regs[0x20][IOCON] == 0x44 and table.bus.regs[0x20][IOCON + 1] == 0x44
    assert not table.bus.contention
    table.bus.release(CONFIG.seats[5].fold)
    table.clock.advance(0.1)
    assert table.acted() == [(5, SeatAction.FOLD)]  # the press the stuck line hid, then its release
    table.bus.press(CONFIG.seats[1].fold)  # and the restored chip interrupts again
    table.bus.release(CONFIG.seats[1].fold)
    assert table.acted()[-1] == (1, SeatAction.FOLD)


def test_refresh_costs_no_i2c_between_checks(table: Table) -> None:
    table.clock.advance(1.0)
    table.panel.refresh()
    before = table.bus.transactions
    table.clock.advance(0.05)
    table.panel.refresh()
    assert table.bus.transactions == before
