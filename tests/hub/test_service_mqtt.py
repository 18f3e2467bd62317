"""The hub over a real Mosquitto: malformed payloads are logged, counted and ignored, never fatal."""

import json
import logging
import queue

import pytest

from hub.edge.broker import EmbeddedBroker
from hub.edge.service import HubService
from tablewire import wire
from tablewire.mqtt import Message, MqttLink


def wait_for(q: "queue.Queue[dict]", kind: str, timeout: float = 5.0) -> dict:
    while True:
        event = q.get(timeout=timeout)
        if event["type"] == kind:
            return event


def test_malformed_payloads_do_not_stop_the_hub(broker: EmbeddedBroker, caplog: pytest.LogCaptureFixture) -> None:
    hub_link = MqttLink(client_id="hub", host=broker.host, port=broker.port)
    hub = HubService(link=hub_link)
    events: queue.Queue[dict] = queue.Queue()
    hub.add_listener(events.put)
    hub.start()
    hub_link.start()
    table = MqttLink(client_id="t1", host=broker.host, port=broker.port, will=(wire.table_status("t1"), wire.OFFLINE))
    table.on_connect(lambda: None if table.publish(wire.table_status("t1"), wire.ONLINE, retain=True) else None)
    table.start()
    seen: queue.Queue[Message] = queue.Queue()
    viewer = MqttLink(client_id="viewer", host=broker.host, port=broker.port)
    viewer.subscribe(wire.hub_table_state("t1"), seen.put)
    viewer.start()
    try:
        assert wait_for(events, "table_status")["online"] is True
        caplog.set_level(logging.WARNING, logger="hub.edge.service")
        topic = wire.table_events("t1")
        for junk in (b"not json", b'{"v":1,"type":"card_arrived"}', b"\x00" * 300):
            table.publish(topic, junk)
        table.publish(wire.table_status("t1"), b"maybe")
        good = wire.DealerPressed(table="t1", boot="b", seq=1, at=0.0, button="new_hand")
        table.publish(topic, wire.encode(good))
        assert wait_for(events, "hand_start")["hand"] == 1  # after the junk: nothing was lost
        assert hub.stats.malformed == 4
        assert sum("malformed" in r.getMessage() for r in caplog.records) == 4
        state = json.loads(seen.get(timeout=5).payload)
        while state["hand"] != 1:
            state = json.loads(seen.get(timeout=5).payload)
        assert state["online"] is True and state["table"] == "t1"
    finally:
        for link in (viewer, table, hub_link):
            link.stop()
        hub.stop()


def test_table_goes_offline_through_its_will(broker: EmbeddedBroker) -> None:
    hub_link = MqttLink(client_id="hub", host=broker.host, port=broker.port)
    hub = HubService(link=hub_link)
    events: queue.Queue[dict] = queue.Queue()
    hub.add_listener(events.put)
    hub.start()
    hub_link.start()
    table = MqttLink(client_id="t9", host=broker.host, port=broker.port, will=(wire.table_status("t9"), wire.OFFLINE),
                     keepalive=1)
    table.on_connect(lambda: None if table.publish(wire.table_status("t9"), wire.ONLINE, retain=True) else None)
    table.start()
    try:
        assert wait_for(events, "table_status")["online"] is True
        sock = table._client.socket()  # noqa: SLF001 - a power cut: no DISCONNECT, the will fires
        assert sock is not None
        sock.close()
        table._client.loop_stop()  # noqa: SLF001
        assert wait_for(events, "table_status", timeout=10)["online"] is False
    finally:
        hub_link.stop()
        hub.stop()
