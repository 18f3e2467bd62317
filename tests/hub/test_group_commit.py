"""The tournament hub's group commit: its store syncs once per turn of the hub's loop, before any packet of
the turn (the tables' acknowledgements) leaves (`EventStore.group_sync`, `HubLink.before_write`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.cli import build_hub
from hub.edge.broker import EmbeddedBroker
from hub.edge.link import HubLink
from hub.floor.store import EventStore, StoreError
from tablewire.mqtt import Message, MqttLink
from tests.support import wait_until


@pytest.fixture
def hub_link(broker: EmbeddedBroker) -> Iterator[HubLink]:
    link = HubLink(client_id="tapis-hub", host=broker.host, port=broker.port)
    yield link
    link.stop()


def test_no_packet_leaves_until_the_barrier_passes(broker: EmbeddedBroker, hub_link: HubLink) -> None:
    synced = [False]
    tries: list[bool] = []

    def barrier() -> None:
        tries.append(synced[0])
        if not synced[0]:
            raise StoreError("disk I/O error")

    hub_link.before_write(barrier)
    heard: list[Message] = []
    table = MqttLink(client_id="tapis-table-t1", host=broker.host, port=broker.port)
    table.subscribe("room/hub/#", heard.append)
    table.start()
    try:
        hub_link.start()
        hub_link.publish("room/hub/ack/t1", b"seq 1", retain=True)
        assert wait_until(lambda: len(tries) >= 3)  # tried again on a timer, the packets held meanwhile
        assert heard == []
        synced[0] = True
        assert wait_until(lambda: [m.payload for m in heard] == [b"seq 1"])
        assert tries[-1] is True
    finally:
        table.stop()


def test_the_barrier_runs_before_each_write(broker: EmbeddedBroker, hub_link: HubLink) -> None:
    order: list[str] = []
    hub_link.before_write(lambda: order.append("sync"))
    table = MqttLink(client_id="tapis-table-t1", host=broker.host, port=broker.port)
    table.subscribe("room/hub/#", lambda m: order.append(m.payload.decode()))
    table.start()
    try:
        hub_link.start()
        hub_link.publish("room/hub/ack/t1", b"ack")
        assert wait_until(lambda: "ack" in order)
        assert order.index("sync") < order.index("ack")
    finally:
        table.stop()


def test_grouped_commits_wait_for_one_sync(tmp_path: Path) -> None:
    with EventStore(tmp_path / "hub.db") as store:
        sync = store.group_sync()
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # noqa: SLF001 - NORMAL: no fsync per COMMIT
        sync()
        assert store.syncs == 0  # nothing committed: no disk wait
        for seq in range(1, 4):
            store.append_table_event("t1", "b", seq, b"e", 0.0)
        sync()
        sync()
        assert store.syncs == 1  # the three commits in one fsync, and not again


def test_a_store_that_is_not_durable_never_syncs(tmp_path: Path) -> None:
    for store in (EventStore(tmp_path / "demo.db", durable=False), EventStore(":memory:")):
        with store:
            sync = store.group_sync()
            store.append_table_event("t1", "b", 1, b"e", 0.0)
            sync()
            assert store.syncs == 0


def test_a_store_that_syncs_every_commit_has_nothing_to_sync(tmp_path: Path) -> None:
    with EventStore(tmp_path / "hub.db") as store:  # the TD's command line, and a hub without group_sync
        store.append_table_event("t1", "b", 1, b"e", 0.0)
        store.sync()
        assert store.syncs == 0
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # noqa: SLF001 - FULL


def test_the_tournament_hub_syncs_its_store_before_it_writes(tmp_path: Path) -> None:
    parts = build_hub("127.0.0.1", 9, str(tmp_path / "hub.db"))  # port 9: nothing connected before start()
    assert parts.store is not None
    with parts.store:
        assert parts.link._before_write == [parts.store.sync]  # noqa: SLF001 - the wiring is the point
