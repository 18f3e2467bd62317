"""Fixtures for the dashboard: a scripted hub, a started demo tournament, a running dashboard."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.dashboard import Dashboard, hash_password
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from simulators.tournament_demo import new_demo
from tests.dashboard.helpers import ScriptedRoom

PASSWORD = "tapis-td-2026"


class RunningClock:
    """The floor's clock: starts at 1.0 s (the demo tournament starts at 0.5 s) and runs for real."""

    def __init__(self) -> None:
        self._start = time.monotonic()

    def now(self) -> float:
        return 1.0 + time.monotonic() - self._start


@pytest.fixture
def room() -> Iterator[ScriptedRoom]:
    scripted = ScriptedRoom()
    scripted.hub.start()
    yield scripted
    scripted.hub.stop()


@pytest.fixture
def floor(tmp_path: Path) -> Iterator[FloorService]:
    with EventStore(tmp_path / "tournament.db", durable=False) as store:
        new_demo(store, players=60, tables=6, ruleset="cdc-2013", seed=1)
        yield FloorService.open(store)


@pytest.fixture
def dashboard(room: ScriptedRoom, floor: FloorService) -> Iterator[Dashboard]:
    dash = Dashboard(room.hub, floor=floor, users={"alice": hash_password(PASSWORD)}, clock=RunningClock(),
                     clock_period=0.5).start()
    yield dash
    dash.stop()
