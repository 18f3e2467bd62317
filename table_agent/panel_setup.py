"""The seat and dealer panels of a table, built from the profile's `[panel]` section for `tapis agent`.

On a Pi: gpiozero's default pin factory for the dealer's GPIOs, smbus2's `SMBus(i2c_bus)` under the
MCP23017 driver for the seat panels, the MAX7219 display if the section lists one. Tests and simulated
tables inject the pin factory (gpiozero's MockFactory) and the bus (a simulated MCP23017): only those
two differ from a real table. Opening failures become one plain `PanelError` line.
"""

from __future__ import annotations

import logging
import threading
import warnings
from collections.abc import Callable
from contextlib import ExitStack
from typing import Protocol

from gpiozero import (
    BadPinFactory,
    Device,
    GPIOZeroError,
    PinFactoryFallback,
)
from gpiozero.pins import Factory

from hw.panel import AmountDisplay, EventSink, Panel, PanelError
from hw.panel_display import MAX7219Display
from hw.panel_mcp23017 import ExpanderFactory, I2CBus
from hw.panel_pins import PanelConfig
from hw.ports import Clock, MonotonicClock
from hw.profile import TableProfile

log = logging.getLogger(__name__)


class PanelOwner(Protocol):
    """What of `TableAgent` the setup needs: where presses go, and where the panel is attached."""

    def panel_event(self, event: object) -> None: ...

    def attach_panel(self, panel: Panel) -> None: ...


def build_panel(config: PanelConfig, *, seats: int, clock: Clock, on_event: EventSink,
                pin_factory: Factory | None = None, bus: I2CBus | None = None,
                cleanup: ExitStack | None = None) -> Panel:
    """The table's `Panel` on `pin_factory` (default: the Pi's), seat expanders over `bus` (default:
    `smbus2.SMBus(config.i2c_bus)`). A factory that already serves the expander pins (a
    `MockExpanderFactory`) is used as is. `cleanup` receives what must be closed after the panel."""
    base = pin_factory if pin_factory is not None else _pi_factory()
    factory = base
    poller: _Poller | None = None
    opened = ExitStack()
    try:
        if config.expanders and not _serves_expanders(base, config.expanders):
            i2c = bus if bus is not None else _open_bus(config.i2c_bus)
            if bus is None:
                opened.callback(getattr(i2c, "close", lambda: None))
            try:
                factory = ExpanderFactory(base, i2c, config.expanders, interrupt=config.expander_interrupt)
            except OSError as err:
                raise PanelError(f"panel: the MCP23017 expanders ({_hex(config.expanders)}) do not answer on "
                                 f"I2C bus {config.i2c_bus}: {err} (check the expander board's cable and "
                                 "power; `tapis doctor` names the missing chip)") from err
            opened.callback(factory.close)
            if config.expander_interrupt is None:  # no INT wire: the inputs are read on a timer
                poller = _Poller(factory.poll)
        display: AmountDisplay | None = None
        if config.display is not None:
            try:
                display = MAX7219Display.from_config(config.display, pin_factory=factory)
            except GPIOZeroError as err:
                raise PanelError(f"panel: the display pins ({config.display.din}, {config.display.clk}, "
                                 f"{config.display.cs}): {err}") from err
        try:
            panel = Panel(config, pin_factory=factory, clock=clock, on_event=on_event, seats=seats,
                          display=display)
        except BaseException:
            if display is not None:
                display.close()
            raise
        if poller is not None:
            poller.start()
            opened.callback(poller.stop)  # last in, first out: stopped before the factory closes
    except BaseException:
        opened.close()
        raise
    if cleanup is not None:
        cleanup.push(opened)
    else:
        opened.pop_all()  # the caller keeps the factory open as long as the process
    return panel


def attach_profile_panel(agent: PanelOwner, profile: TableProfile, *, pin_factory: Factory | None = None,
                         bus: I2CBus | None = None, clock: Clock | None = None
                         ) -> tuple[Panel | None, Callable[[], None]]:
    """Build the profile's panel with `on_event=agent.panel_event` and attach it to `agent`; returns the
    panel (None without one: a simulated table's fingers press it) and what releases it (LEDs off, pins
    and bus closed). A profile without `[panel]` runs without one, said once."""
    if profile.panel is None:
        log.warning("table %s: pas de section [panel] dans le profil, table sans boutons ni voyants / "
                    "no [panel] section in the profile: no seat or dealer panel", profile.table)
        return None, lambda: None
    stack = ExitStack()
    panel = build_panel(profile.panel, seats=profile.seats, clock=clock or MonotonicClock(),
                        on_event=agent.panel_event, pin_factory=pin_factory, bus=bus, cleanup=stack)
    stack.callback(panel.close)  # last in, first out: the panel before its factory
    agent.attach_panel(panel)
    log.info("table %s: panel of %d seats attached", profile.table, profile.seats)
    return panel, stack.close


class _Poller:
    """Without the INT wire, reads the expanders' inputs every `period` s (docs/panel-wiring.md: 10-20 ms).
    An I2C error is logged once until the bus answers again; the thread goes on."""

    def __init__(self, poll: Callable[[], object], period: float = 0.015) -> None:
        self._poll = poll
        self._period = period
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="panel-poll", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(1)

    def _run(self) -> None:
        failing = False
        while not self._stop.wait(self._period):
            try:
                self._poll()
                failing = False
            except OSError as err:
                if not failing:
                    log.warning("panel: expanders not read (%s); retrying", err)
                failing = True


def _pi_factory() -> Factory:
    # gpiozero warns once per driver it falls back from: gathered into one line, not four tracebacks
    with warnings.catch_warnings(record=True) as fallbacks:
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            Device.ensure_pin_factory()  # lgpio on Raspberry Pi OS; gpiozero closes it at exit
        except (BadPinFactory, GPIOZeroError, OSError, ImportError) as err:
            tried = "; ".join(str(w.message) for w in fallbacks)
            raise PanelError(f"panel: no GPIO on this machine ({err} {tried}); remove [panel] from the "
                             "profile for a table without panels") from err
    if fallbacks:
        log.warning("panel: GPIO through %s (%s)", type(Device.pin_factory).__name__,
                    "; ".join(str(w.message) for w in fallbacks))
    return Device.pin_factory


def _open_bus(number: int) -> I2CBus:
    try:
        from smbus2 import SMBus
    except ImportError as err:
        raise PanelError("panel: smbus2 is not installed (pip install smbus2)") from err
    try:
        return SMBus(number)
    except OSError as err:
        raise PanelError(f"panel: cannot open I2C bus /dev/i2c-{number}: {err} (I2C on: "
                         "sudo raspi-config nonint do_i2c 0; service user in the i2c group)") from err


def _serves_expanders(factory: Factory, addresses: tuple[int, ...]) -> bool:
    headers = getattr(factory.board_info, "headers", {})
    return all(f"MCP{a:02X}" in headers for a in addresses)


def _hex(addresses: tuple[int, ...]) -> str:
    return ", ".join(f"{a:#04x}" for a in addresses)
