"""Panel benchmark (not a test): prints what a press and an LED refresh cost through gpiozero.

Run: `cd /work/main && python -m tests.panel.bench_panel`. Figures are wall-clock on this machine,
through the real gpiozero code on MockFactory (Pi pins and MCP23017 headers) and through the
MCP23017 pin factory on the simulated I2C bus (which counts transactions).
"""

from __future__ import annotations

import time

from gpiozero.pins.mock import MockFactory

from hw.panel import Panel
from hw.panel_events import PanelEvent, SeatButton
from hw.panel_expander import MockExpanderFactory
from hw.panel_leds import TableLights
from hw.panel_mcp23017 import ExpanderFactory
from hw.panel_pins import PanelConfig
from hw.ports import ManualClock
from simulators.panel import SimulatedExpanderBus

PRESSES = 5000


def bench_mock() -> None:
    config = PanelConfig.reference(10)
    factory = MockExpanderFactory(config.expanders)
    clock = ManualClock()
    events: list[PanelEvent] = []
    started = time.perf_counter()
    panel = Panel(config, pin_factory=factory, clock=clock, on_event=events.append)
    built = time.perf_counter() - started
    pins = [panel.seat_buttons[s][SeatButton.FOLD].pin for s in range(1, 11)]
    started = time.perf_counter()
    for i in range(PRESSES):
        pin = pins[i % 10]
        pin.drive_low()
        clock.advance(0.05)
        pin.drive_high()
        clock.advance(0.05)
    pressed = time.perf_counter() - started
    assert len(events) == PRESSES
    panel.show(TableLights(to_act=3, faults=frozenset({7}), time_seat=3, time_ends_at=clock.now() + 70))
    started = time.perf_counter()
    for _ in range(PRESSES):
        clock.advance(0.05)
        panel.refresh()
    refreshed = time.perf_counter() - started
    panel.close()
    factory.reset()
    print(f"MockFactory, 10 seats: panel built in {built * 1e3:.1f} ms ({len(list(panel.devices()))} devices)")
    print(f"  press + release -> SeatActed: {pressed / PRESSES * 1e6:.1f} us per press")
    print(f"  refresh() during a Time countdown: {refreshed / PRESSES * 1e6:.1f} us per call")


def bench_expander() -> None:
    config = PanelConfig.reference(10)
    base = MockFactory()
    bus = SimulatedExpanderBus(config.expanders, interrupt=base.pin("GPIO4"))
    factory = ExpanderFactory(base, bus, config.expanders, interrupt="GPIO4")
    clock = ManualClock()
    events: list[PanelEvent] = []
    before = bus.transactions
    panel = Panel(config, pin_factory=factory, clock=clock, on_event=events.append)
    setup = bus.transactions - before
    names = [config.seats[s].fold for s in range(1, 11)]
    before = bus.transactions
    started = time.perf_counter()
    for i in range(PRESSES):
        bus.press(names[i % 10])
        clock.advance(0.05)
        bus.release(names[i % 10])
        clock.advance(0.05)
    pressed = time.perf_counter() - started
    per_press = (bus.transactions - before) / PRESSES
    assert len(events) == PRESSES
    before = bus.transactions
    panel.show(TableLights(to_act=5))
    panel.show(TableLights(to_act=6))
    move = (bus.transactions - before) / 2
    panel.close()
    factory.close()
    base.reset()
    print(f"MCP23017 factory on the simulated bus: {setup} I2C transactions to set up 5 chips")
    print(f"  press + release: {per_press:.0f} I2C transactions, {pressed / PRESSES * 1e6:.1f} us per press "
          f"(Python only; on the wire at 400 kHz a 6-byte INTF..GPIO read is ~0.22 ms)")
    print(f"  moving the to-act LED to the next seat: {move:.0f} I2C writes")


if __name__ == "__main__":
    bench_mock()
    bench_expander()
