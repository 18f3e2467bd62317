"""The tables' and tools' link (`tablewire.mqtt.MqttLink`, on paho) against the brokers of
`test_link_brokers`: issue 28's cases 1, 2 and 4 stalled it as they stalled `HubLink`."""

from __future__ import annotations

import asyncio
import struct
import threading
import time
from collections.abc import Iterator

import pytest

from hub.edge import mqtt5
from hub.edge.broker import EmbeddedBroker
from tablewire.mqtt import Message, MqttLink
from tests.hub.fake_broker import Conn, FakeBroker, connack, disconnect
from tests.support import wait_until


@pytest.fixture
def links() -> Iterator[list[MqttLink]]:
    made: list[MqttLink] = []
    yield made
    for link in made:
        link.stop()


def _link(links: list[MqttLink], port: int, client_id: str = "tapis-table-t1", **kw: object) -> MqttLink:
    link = MqttLink(client_id=client_id, host="127.0.0.1", port=port, **kw)  # type: ignore[arg-type]
    links.append(link)
    return link


def test_a_lower_receive_maximum_after_a_reconnect_bounds_paho_s_resend(links: list[MqttLink]) -> None:
    """[MQTT-4.9.0-2]: 50 QoS 1 publishes unacknowledged when the line drops; the next broker allows 5
    in flight and hangs up on a sixth. paho resent all 50 at once, forever."""
    limit = 5
    acked: set[str] = set()

    async def script(conn: Conn) -> None:
        await conn.read()
        if conn.index == 0:
            conn.send(connack())
            while len(conn.publishes()) < 50:
                if await conn.read() is None:
                    return
            conn.abort()
            return
        conn.send(connack(receive_max=limit))
        in_flight: list[mqtt5.Incoming] = []
        while (packet := await conn.read()) is not None:
            if packet[0] >> 4 == mqtt5.PUBLISH:
                in_flight.append(mqtt5.read_publish(*packet))
            if conn.pending():
                continue
            if len(in_flight) > limit:
                conn.send(disconnect(0x93))
                return
            conn.send(b"".join(mqtt5.puback(m.packet_id) for m in in_flight))
            acked.update(m.topic for m in in_flight)
            in_flight.clear()

    with FakeBroker(script) as broker:
        link = _link(links, broker.port)
        link.start()
        for k in range(50):
            link.publish(f"room/out/{k}", b"p")
        assert wait_until(lambda: len(acked) == 50, timeout=5), "the broker hung up on a resend over its limit"
        assert len(broker.connections) == 2


def test_a_publish_over_the_brokers_maximum_packet_size_is_refused_by_paho_s_link(links: list[MqttLink]) -> None:
    """[MQTT-3.2.2-15] on Mosquitto with `max_packet_size 1024`: one kept from before the connection and
    one published on it are refused by the link; the rest goes, on one connection."""
    with EmbeddedBroker(max_packet=1024) as broker:
        got: list[Message] = []
        listener = _link(links, broker.port, "listener")
        listener.subscribe("room/out/#", got.append)
        listener.start()
        link = _link(links, broker.port)
        connects: list[float] = []
        link.on_connect(lambda: connects.append(time.monotonic()))
        link.publish("room/out/kept", b"x" * 2000)  # before any connection: paho keeps it
        link.start()
        link.publish("room/out/big", b"x" * 2000)
        for k in range(10):  # retained: the listener has them even if its subscription lands after
            link.publish(f"room/out/{k}", str(k).encode(), retain=True)
        assert wait_until(lambda: len(got) == 10, timeout=5)
        assert {m.topic: m.payload for m in got} == {f"room/out/{k}": str(k).encode() for k in range(10)}
        assert link.publish_refused == {("room/out/kept", "Packet too large"): 1,
                                        ("room/out/big", "Packet too large"): 1}
        assert len(connects) == 1 and link.connected


def test_a_server_keep_alive_of_0_does_not_outlive_paho_s_connection(links: list[MqttLink]) -> None:
    """[MQTT-3.2.2-21]: a broker says keepalive 0 once, then on the next connection nothing, and goes
    silent: each CONNECT asks the link's own keepalive, so the silence is noticed and left."""
    started = threading.Event()  # MqttLink.start() fails if the line drops before it returns

    async def script(conn: Conn) -> None:
        await conn.read()
        if conn.index == 0:
            conn.send(connack(keepalive=0))
            await asyncio.to_thread(started.wait)
            conn.abort()
            return
        conn.send(connack())
        await conn.serve(pings=conn.index > 1)

    with FakeBroker(script) as broker:
        link = _link(links, broker.port, keepalive=1)
        link.subscribe("room/in", lambda m: None)
        try:
            link.start()
        finally:
            started.set()
        # A connection is counted when accepted, before its CONNECT is read: wait for the CONNECTs
        assert wait_until(lambda: len(broker.connections) >= 3
                          and all(conn.received for conn in broker.connections[:3]), timeout=1.5 * 1 + 4)
        asked = [struct.unpack_from("!H", conn.received[0][1], 8)[0] for conn in broker.connections[:3]]
        assert asked == [1, 1, 1]
