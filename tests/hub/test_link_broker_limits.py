"""`HubLink` against a broker's limits (issue 28): Receive Maximum, Maximum Packet Size, what the link
cannot take (a topic alias it never allowed, an empty topic) and what every publish carries at its edges.
A broker of the tests' own (`fake_broker`) for what Mosquitto cannot be made to do, real Mosquitto for
the rest; each test says the clause. Connections, sessions and subscriptions: `test_link_brokers.py`."""

from __future__ import annotations

import logging
import struct
import time

import pytest

from hub.edge import mqtt5
from hub.edge.broker import EmbeddedBroker
from hub.edge.link import HubLink
from tablewire.mqtt import Message, MqttLink
from tests.hub.fake_broker import Conn, FakeBroker, connack, disconnect, publish_with, serve_after_connack, take_unacked
from tests.hub.link_harness import links, make_link
from tests.support import wait_until

__all__ = ["links"]  # fixtures


# --- 1. Receive Maximum, per connection [MQTT-4.9.0-2] ----------------------------------------------


def test_a_lower_receive_maximum_after_a_reconnect_bounds_the_resend(links: list[HubLink]) -> None:
    """The first broker takes 50 QoS 1 publishes unacknowledged and drops; the next allows 5 in flight
    and hangs up on a sixth (EMQX does; Mosquitto does not check). The resend must respect the 5."""
    limit = 5
    acked: set[str] = set()

    async def script(conn: Conn) -> None:
        await conn.read()
        if conn.index == 0:
            conn.send(connack())
            await take_unacked(conn, 50)
            return
        conn.send(connack(receive_max=limit, session_present=True))
        in_flight: list[mqtt5.Incoming] = []
        while (packet := await conn.read()) is not None:
            if packet[0] >> 4 == mqtt5.PUBLISH:
                in_flight.append(mqtt5.read_publish(*packet))
            if conn.pending():  # acks leave once what arrived together is counted
                continue
            if len(in_flight) > limit:
                conn.send(disconnect(0x93))  # Receive Maximum exceeded
                return
            conn.send(b"".join(mqtt5.puback(m.packet_id) for m in in_flight))
            acked.update(m.topic for m in in_flight)
            in_flight.clear()

    with FakeBroker(script) as broker:
        link = make_link(links, broker.port)
        link.start()
        for k in range(50):
            link.publish(f"room/out/{k}", b"p")
        assert wait_until(lambda: len(broker.connections) > 1)
        started = time.monotonic()
        assert wait_until(lambda: len(acked) == 50, timeout=5), "the broker hung up on a resend over its limit"
        assert time.monotonic() - started < 5
        assert len(broker.connections) == 2


# --- 2. Maximum Packet Size [MQTT-3.2.2-15], on real Mosquitto --------------------------------------


def test_a_publish_over_the_brokers_maximum_packet_size_is_refused_not_resent_forever(
        links: list[HubLink], caplog: pytest.LogCaptureFixture) -> None:
    """Mosquitto with `max_packet_size 1024` says so in CONNACK and hangs up on a bigger packet: the
    link refuses it itself (counted as the broker would say it), and what follows still goes."""
    with EmbeddedBroker(max_packet=1024) as broker:
        got: list[Message] = []
        listener = MqttLink(client_id="listener", host=broker.host, port=broker.port)
        listener.subscribe("room/out/#", got.append)
        listener.start()
        try:
            link = make_link(links, broker.port)
            connects: list[float] = []
            link.on_connect(lambda: connects.append(time.monotonic()))
            link.start()
            link.publish("room/out/big", b"x" * 2000)
            link.publish("room/out/big", b"y" * 2000)
            for k in range(10):  # retained: the listener has them even if its subscription lands after
                link.publish(f"room/out/{k}", str(k).encode(), retain=True)
            assert wait_until(lambda: len(got) == 10, timeout=5)
            assert {m.topic: m.payload for m in got} == {f"room/out/{k}": str(k).encode() for k in range(10)}
            assert link.publish_refused == {("room/out/big", "Packet too large"): 2}
            assert len(connects) == 1 and link.connected
            said = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
            assert said == ["tapis-hub: the broker refused a publish on room/out/big: Packet too large"]  # once
        finally:
            listener.stop()


def test_subscriptions_go_in_packets_the_brokers_maximum_packet_size_allows(links: list[HubLink]) -> None:
    """A worker subscribes to each of its tables: 100 filters were one SUBSCRIBE of 4 kB, which
    Mosquitto with `max_packet_size 1024` hangs up on, at every reconnect."""
    topics = [f"tapis/v1/table/table-{k:03d}/events" for k in range(100)]
    heard: set[str] = set()
    with EmbeddedBroker(max_packet=1024) as broker:
        link = make_link(links, broker.port)
        connects: list[float] = []
        link.on_connect(lambda: connects.append(time.monotonic()))
        for topic in topics:
            link.subscribe(topic, lambda m: heard.add(m.topic))
        huge = "tapis/" + "x" * 1100  # alone over the size: refused as the broker would, said by filter
        link.subscribe(huge, lambda m: heard.add(m.topic))
        link.start()
        assert wait_until(lambda: link.pending_subscriptions == 0 and link.connected, timeout=5)
        table = MqttLink(client_id="table", host=broker.host, port=broker.port)
        table.start()
        try:
            for topic in topics:
                table.publish(topic, b"e")
            assert wait_until(lambda: heard == set(topics), timeout=5)
        finally:
            table.stop()
        assert len(connects) == 1 and link.subscribe_refused == {huge: "Packet too large"}


# --- 7. A topic alias the link never allowed, an empty topic ----------------------------------------


@pytest.mark.parametrize(("topic", "props", "code"), [("room/in", b"\x23\x00\x01", 0x94), ("", b"", 0x82)],
                         ids=["topic-alias", "empty-topic"])
def test_a_publish_the_link_cannot_take_is_a_protocol_error_not_acknowledged(
        links: list[HubLink], topic: str, props: bytes, code: int) -> None:
    async def script(conn: Conn) -> None:
        await conn.read()
        conn.send(connack())
        if conn.index == 0:
            await conn.read()  # SUBSCRIBE
            conn.send(publish_with(topic, b"p", packet_id=7, props=props))
            while await conn.read() is not None:
                pass
            return
        await conn.serve()

    heard: list[Message] = []
    with FakeBroker(script) as broker:
        link = make_link(links, broker.port)
        link.subscribe("room/#", heard.append)
        link.start()
        assert wait_until(lambda: broker.connections[0].closed.is_set(), timeout=2)
        said = broker.connections[0].received
        assert all(first >> 4 != mqtt5.PUBACK for first, _ in said)
        assert said[-1] == (mqtt5.DISCONNECT << 4, bytes((code,)))
        assert wait_until(lambda: len(broker.connections) == 2 and link.connected)
        assert heard == []


# --- What every publish carries, and the limits at their edges ----------------------------------


def test_what_the_broker_is_told_and_answers_at_the_edges(links: list[HubLink]) -> None:
    """RETAIN from the loop's thread (a birth in an on-connect hook) and from another; a packet of
    exactly the broker's Maximum Packet Size goes, one byte more is refused; a PUBACK of 0x80
    (Unspecified error) is a refusal."""
    async def script(conn: Conn) -> None:
        await conn.read()
        conn.send(connack(max_packet=100))
        while (packet := await conn.read()) is not None:
            first, body = packet
            if first >> 4 == mqtt5.PUBLISH and first & 0x06:
                incoming = mqtt5.read_publish(first, body)
                code = 0x80 if incoming.topic == "room/no" else 0x00
                conn.send(b"\x40\x03" + struct.pack("!H", incoming.packet_id) + bytes((code,)))

    with FakeBroker(script) as broker:
        link = make_link(links, broker.port)
        link.on_connect(lambda: link.publish("room/birth", b"online", retain=True, qos=0))
        link.start()
        link.publish("room/state", b"s", retain=True)
        exactly = 100 - len(mqtt5.publish(b"room/fits", b"", qos=1, retain=False, packet_id=1))
        link.publish("room/fits", b"x" * exactly)
        link.publish("room/over", b"x" * (exactly + 1))
        link.publish("room/no", b"refused by the broker")
        assert wait_until(lambda: len(broker.connections[0].publishes()) == 4)
        assert [(m.topic, m.retain) for m in broker.connections[0].publishes()] == [
            ("room/birth", True), ("room/state", True), ("room/fits", False), ("room/no", False)]
        assert wait_until(lambda: len(link.publish_refused) == 2)
        assert link.publish_refused == {("room/over", "Packet too large"): 1, ("room/no", "Unspecified error"): 1}


def test_a_broker_that_answers_pings_is_kept_past_its_keepalives(links: list[HubLink]) -> None:
    """And once such a connection (up past the longest backoff) drops, the link is back at once."""
    with FakeBroker(serve_after_connack) as broker:
        link = make_link(links, broker.port, keepalive=2)
        link.start()
        assert wait_until(lambda: sum(f >> 4 == mqtt5.PINGREQ for f, _ in broker.connections[0].received) >= 4,
                          timeout=6)
        assert len(broker.connections) == 1 and link.connected
        dropped = time.monotonic()
        link.loop.call_soon_threadsafe(lambda: link._transport.abort())  # type: ignore[union-attr]
        assert wait_until(lambda: len(broker.connections) == 2 and link.connected)
        assert time.monotonic() - dropped < 1.0  # the first retry, 0.05 s: not the longest wait, 2 s


def test_stop_says_disconnect_and_closes_the_connection(links: list[HubLink]) -> None:
    """A normal DISCONNECT (the broker drops the will), then the line closed, and no reconnect."""
    with FakeBroker(serve_after_connack) as broker:
        link = make_link(links, broker.port)
        link.start()
        link.stop()
        assert broker.connections[0].closed.wait(2)
        assert broker.connections[0].received[-1] == (mqtt5.DISCONNECT << 4, b"")
        assert not link._thread.is_alive() and len(broker.connections) == 1


def test_packet_identifiers_skip_those_in_use_and_wrap(links: list[HubLink]) -> None:
    link = make_link(links, 1)
    link._pending_ids[1] = ["room/#"]  # a SUBSCRIBE not yet acknowledged
    link._inflight[3] = ("t", b"", False)  # a QoS 1 publish not yet acknowledged
    assert [link._new_id() for _ in range(2)] == [2, 4]
    link._next_id = 65_534
    assert [link._new_id() for _ in range(3)] == [65_535, 2, 4]  # 16 bits, 0 never used
