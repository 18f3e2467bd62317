"""The TD's answer on the page comes once his command is on the disk. The tournament hub groups its
commits (a COMMIT reaches the page cache, one fsync per turn of its loop, before its own packets leave);
the dashboard's HTTP answer is not one of those packets, so it syncs the store itself before answering."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.dashboard import Dashboard, hash_password
from hub.floor.service import FloorService
from hub.floor.store import EventStore, StoreError
from simulators.tournament_demo import new_demo
from tests.dashboard.conftest import PASSWORD, RunningClock
from tests.dashboard.helpers import ScriptedRoom


@pytest.fixture
def grouped(tmp_path: Path) -> Iterator[EventStore]:
    with EventStore(tmp_path / "tournament.db") as store:  # durable, as installed
        new_demo(store, players=12, tables=2, ruleset="cdc-2013", seed=1)
        store.group_sync()  # as `tapis hub --db` runs it
        yield store


def test_a_td_command_is_on_the_disk_when_the_page_is_answered(room: ScriptedRoom, grouped: EventStore) -> None:
    dash = Dashboard(room.hub, floor=FloorService(grouped), users={"alice": hash_password(PASSWORD)},
                     clock=RunningClock(), clock_period=0.5)
    before = grouped.syncs
    answer = dash.floor_command({"cmd": "clock", "action": "pause"})
    assert answer["ok"], answer
    assert grouped.syncs == before + 1  # one fsync, before the answer
    assert dash.floor_command({"cmd": "status"})["ok"]
    assert grouped.syncs == before + 1  # a read stores nothing: nothing to sync


def test_a_disk_that_refuses_the_sync_is_said_not_answered_ok(room: ScriptedRoom, grouped: EventStore,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    dash = Dashboard(room.hub, floor=FloorService(grouped), users={"alice": hash_password(PASSWORD)},
                     clock=RunningClock(), clock_period=0.5)

    def refused() -> None:
        raise StoreError("the event store cannot be synced to the disk: [Errno 5] Input/output error")

    monkeypatch.setattr(grouped, "sync", refused)
    answer = dash.floor_command({"cmd": "clock", "action": "pause"})
    assert not answer["ok"] and "non enregistré sur le disque" in answer["error_fr"], answer
