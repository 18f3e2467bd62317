"""Fixtures for the panel tests: a 10-seat reference panel on gpiozero's MockFactory (with the
MCP23017 headers), a manual clock, the events it delivered, and a simulator's fingers.
Every panel is closed and the factory reset after the test, so no test leaks pins."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hw.panel import Panel
from hw.panel_events import PanelEvent
from hw.panel_expander import MockExpanderFactory
from hw.panel_pins import PanelConfig
from hw.ports import ManualClock
from simulators.panel import PanelSimulator


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(1000.0)


@pytest.fixture
def config() -> PanelConfig:
    return PanelConfig.reference(10)


@pytest.fixture
def factory(config: PanelConfig) -> Iterator[MockExpanderFactory]:
    made = MockExpanderFactory(config.expanders)
    yield made
    made.reset()
    made.close()


@pytest.fixture
def events() -> list[PanelEvent]:
    return []


@pytest.fixture
def panel(
    config: PanelConfig, factory: MockExpanderFactory, clock: ManualClock, events: list[PanelEvent]
) -> Iterator[Panel]:
    with Panel(config, pin_factory=factory, clock=clock, on_event=events.append) as built:
        yield built


@pytest.fixture
def sim(panel: Panel, clock: ManualClock) -> PanelSimulator:
    return PanelSimulator(panel, clock)
