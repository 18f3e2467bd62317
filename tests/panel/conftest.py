"""Fixtures for the panel tests: a 10-seat reference panel on each backend, a manual clock, the events
it delivered, and a simulator's fingers.

Backends (the behaviour tests run on both): `mock`, gpiozero's MockFactory with the MCP23017 headers,
pins driven low/high directly; `mcp23017`, the real `ExpanderFactory` over a simulated I2C bus, whose
shared interrupt is a MockFactory pin. Every panel is closed and every factory reset after the test.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from hw.panel import Panel
from hw.panel_events import PanelEvent
from hw.panel_expander import MockExpanderFactory
from hw.panel_mcp23017 import ExpanderFactory
from hw.panel_pins import PanelConfig
from hw.ports import ManualClock
from simulators.panel import PanelSimulator, SimulatedExpanderBus


@dataclass
class Backend:
    name: str
    factory: Factory
    bus: SimulatedExpanderBus | None = None


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(1000.0)


@pytest.fixture
def config() -> PanelConfig:
    return PanelConfig.reference(10)


@pytest.fixture(params=["mock", "mcp23017"])
def backend(request: pytest.FixtureRequest, config: PanelConfig) -> Iterator[Backend]:
    if request.param == "mock":
        mock = MockExpanderFactory(config.expanders)
        yield Backend("mock", mock)
        mock.reset()
        mock.close()
        return
    base = MockFactory()
    bus = SimulatedExpanderBus(config.expanders, interrupt=base.pin(config.expander_interrupt))
    expanders = ExpanderFactory(base, bus, config.expanders, interrupt=config.expander_interrupt)
    yield Backend("mcp23017", expanders, bus)
    expanders.close()
    base.reset()
    base.close()


@pytest.fixture
def factory(backend: Backend) -> Factory:
    return backend.factory


@pytest.fixture
def events() -> list[PanelEvent]:
    return []


@pytest.fixture
def panel(config: PanelConfig, factory: Factory, clock: ManualClock, events: list[PanelEvent]) -> Iterator[Panel]:
    with Panel(config, pin_factory=factory, clock=clock, on_event=events.append) as built:
        yield built


@pytest.fixture
def sim(panel: Panel, clock: ManualClock, backend: Backend) -> PanelSimulator:
    return PanelSimulator(panel, clock, bus=backend.bus)


def screen(panel: Panel) -> Any:
    """The panel's display as the test built it (a simulator's `.text`, a recorder's `.shown`)."""
    return panel.display
