"""Bounded memory when the hub falls behind: on `HubLink`, past `max_backlog` messages waiting to be
applied, the link stops reading the broker until half are applied. A flood waits at the broker (and,
in a room, in the tables' outboxes), never in the hub's memory; nothing is lost."""

from __future__ import annotations

import threading

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from hub.edge.broker import EmbeddedBroker
from hub.edge.link import HubLink
from hub.edge.service import HubService
from tablewire import wire
from tests.support import wait_until

EVENTS = 20_000


def _status(seq: int) -> bytes:
    return wire.encode(wire.ReaderStatus(table="t1", boot="b1", seq=seq, at=0.0, state="connected", detail=""))


# The most events one socket read can hand the hub (asyncio reads up to 256 kB at a time)
PER_READ = 256 * 1024 // (len(_status(EVENTS)) + len(wire.table_events("t1")) + 4) + 1


def _flood(broker: EmbeddedBroker) -> None:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="t1-flood", protocol=MQTTProtocolVersion.MQTTv5)
    client.max_inflight_messages_set(1000)
    client.connect(broker.host, broker.port)
    client.loop_start()
    try:
        info = None
        for seq in range(1, EVENTS + 1):
            info = client.publish(wire.table_events("t1"), _status(seq), qos=1)
        assert info is not None
        info.wait_for_publish(60)
    finally:
        client.loop_stop()
        client.disconnect()


def _flooded_while_busy(broker: EmbeddedBroker, max_backlog: int) -> tuple[HubService, HubLink]:
    """A hub whose loop is held busy (a long store write, say) while the flood reaches the broker."""
    link = HubLink(client_id="tapis-hub", host=broker.host, port=broker.port)
    hub = HubService(link=link, max_backlog=max_backlog)
    hub.start()
    link.start()
    busy = threading.Event()
    link.loop.call_soon_threadsafe(lambda: busy.wait(60))
    try:
        _flood(broker)
    finally:
        busy.set()
    return hub, link


def test_a_flood_waits_at_the_broker_not_in_the_hub(broker: EmbeddedBroker) -> None:
    hub, link = _flooded_while_busy(broker, max_backlog=100)
    try:
        assert wait_until(lambda: hub.tables.get("t1") is not None and hub.tables["t1"].last_seq == EVENTS, 60)
        assert hub.stats.received == EVENTS  # all of them, in order, none lost
        print(f"bounded: at most {hub.max_backlog_seen} waited (one read: {PER_READ})")
        assert hub.max_backlog_seen <= 100 + PER_READ, hub.max_backlog_seen
    finally:
        hub.stop()
        link.stop()


def test_without_the_bound_the_same_flood_waits_in_the_hub(broker: EmbeddedBroker) -> None:
    """The control: the bound above is what keeps the backlog small, not the flood's own pace."""
    hub, link = _flooded_while_busy(broker, max_backlog=10**9)
    try:
        assert wait_until(lambda: hub.tables.get("t1") is not None and hub.tables["t1"].last_seq == EVENTS, 60)
        print(f"unbounded: {hub.max_backlog_seen} waited")
        # more than the bound lets wait (seen: 5,666-9,112; how much more depends on how fast the
        # broker refills the socket, not on the hub)
        assert hub.max_backlog_seen > 100 + PER_READ, hub.max_backlog_seen
    finally:
        hub.stop()
        link.stop()
