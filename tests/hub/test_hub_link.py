"""The hub's own MQTT 5 link (`hub.edge.link.HubLink`, `hub.edge.mqtt5`): its packets alone, then against
a real Mosquitto and paho's `MqttLink` on the other side: both directions at QoS 0 and 1, the will, a
broker that restarts, refusals counted, what a broken broker sends, and the bounds."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.edge import mqtt5
from hub.edge.broker import EmbeddedBroker, free_port
from hub.edge.link import HubLink
from tablewire.mqtt import Message, MqttLink
from tests.support import wait_until

# --- packets alone --------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, 268_435_455])
def test_variable_byte_integers_round_trip(n: int) -> None:
    raw = mqtt5.varint(n)
    assert mqtt5.read_varint(raw, 0) == (n, len(raw))
    assert mqtt5.read_varint(raw[:-1], 0) is None  # cut short: wait for more


def test_a_fifth_length_byte_is_a_protocol_error() -> None:
    with pytest.raises(mqtt5.ProtocolError):
        mqtt5.read_varint(b"\xff\xff\xff\xff\x01", 0)


@pytest.mark.parametrize(("qos", "size"), [(0, 10), (1, 10), (0, 300), (1, 70_000)])
def test_a_publish_reads_back_as_written_even_a_byte_at_a_time(qos: int, size: int) -> None:
    payload = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
    packet = mqtt5.publish(b"tapis/v1/table/t1/event", payload, qos=qos, retain=True, packet_id=513 if qos else 0)
    reader = mqtt5.Reader(1 << 20)
    got: list[tuple[int, bytes]] = []
    for k in range(len(packet)):
        packets, error = reader.feed(packet[k:k + 1])
        assert error is None
        got += packets
    assert len(got) == 1
    incoming = mqtt5.read_publish(*got[0])
    assert (incoming.topic, incoming.payload, incoming.qos, incoming.retain) == ("tapis/v1/table/t1/event",
                                                                                  payload, qos, True)
    assert incoming.packet_id == (513 if qos else 0)


@pytest.mark.parametrize("qos", [2, 3])
def test_a_publish_above_qos_1_is_a_protocol_error(qos: int) -> None:
    with pytest.raises(mqtt5.ProtocolError, match=f"QoS {qos}"):
        mqtt5.read_publish(0x30 | qos << 1, b"\x00\x01t\x00\x01\x00payload")


def test_the_reader_refuses_an_oversized_packet_before_buffering_it() -> None:
    reader = mqtt5.Reader(1024)
    ping = b"\xd0\x00"
    packets, error = reader.feed(ping + b"\x30" + mqtt5.varint(100_000_000))
    assert packets == [(0xD0, b"")]  # what came before the bad one is still read
    assert error is not None and "over the 1024" in str(error)


def test_connack_properties_and_reasons() -> None:
    props = bytes((mqtt5.RECEIVE_MAXIMUM,)) + (20).to_bytes(2, "big") + bytes((mqtt5.REASON_STRING,)) \
        + (3).to_bytes(2, "big") + b"why"
    ack = mqtt5.read_connack(bytes((1, 0)) + mqtt5.varint(len(props)) + props)
    assert ack.session_present and ack.code == 0
    assert ack.properties == {mqtt5.RECEIVE_MAXIMUM: 20, mqtt5.REASON_STRING: "why"}
    assert mqtt5.reason(0x87) == "Not authorized" and mqtt5.reason(0x7E) == "reason code 0x7e"
    with pytest.raises(mqtt5.ProtocolError, match="unknown property"):
        mqtt5.read_connack(b"\x00\x00\x02\x7f\x00")


class _Transport:
    """What the link writes, without a socket."""

    def __init__(self) -> None:
        self.written = bytearray()

    def write(self, data: bytes) -> None:
        self.written += data

    def get_extra_info(self, _name: str) -> None:
        return None

    def close(self) -> None:
        pass

    def packets(self) -> list[tuple[int, bytes]]:
        got, error = mqtt5.Reader(1 << 20).feed(bytes(self.written))
        assert error is None
        self.written.clear()
        return got


def test_the_brokers_receive_maximum_holds_qos1_publishes_back_in_order() -> None:
    link = HubLink(client_id="hub-test", host="127.0.0.1", port=1)
    transport = _Transport()
    link._made(transport)  # type: ignore[arg-type]
    props = bytes((mqtt5.RECEIVE_MAXIMUM,)) + (2).to_bytes(2, "big")
    link._packets([(0x20, b"\x00\x00" + mqtt5.varint(len(props)) + props)])
    transport.packets()  # CONNECT
    for k in range(5):
        link._publish(f"t/{k}", b"p", 1, False)
    link._publish("state", b"s", 0, True)  # behind them: order kept
    link._flush()
    sent = [mqtt5.read_publish(*p) for p in transport.packets()]
    assert [m.topic for m in sent] == ["t/0", "t/1"]
    link._packets([(0x40, sent[0].packet_id.to_bytes(2, "big") + b"\x87\x00")])  # refused: Not authorized
    link._flush()
    assert [mqtt5.read_publish(*p).topic for p in transport.packets()] == ["t/2"]
    assert link.publish_refused == {("t/0", "Not authorized"): 1}
    link.loop.close()


def test_a_refused_subscription_is_said_by_filter() -> None:
    link = HubLink(client_id="hub-test", host="127.0.0.1", port=1)
    transport = _Transport()
    link._made(transport)  # type: ignore[arg-type]
    link.subscribe("room/a", lambda m: None)
    link.subscribe("room/secret/#", lambda m: None)
    link._packets([(0x20, b"\x00\x00\x00")])  # CONNACK: the subscriptions go now, in one SUBSCRIBE
    link._flush()
    first, body = transport.packets()[-1]
    assert first == 0x82
    packet_id = int.from_bytes(body[:2], "big")
    link._packets([(0x90, packet_id.to_bytes(2, "big") + b"\x00\x01\x87")])
    assert link.subscribe_refused == {"room/secret/#": "Not authorized"}
    link.loop.close()


def test_wildcard_handlers_follow_every_subscribe_and_unsubscribe() -> None:
    """A hub without the room's list hears each table through wildcards, matched once per topic and
    remembered: a subscription made or dropped later still counts from the next message on."""
    link = HubLink(client_id="tapis-hub", host="127.0.0.1", port=9)  # never started: handlers only
    heard: list[str] = []

    def deliver() -> None:
        link._deliver(mqtt5.Incoming("room/table/t1/event", b"e", 0, False, 0))  # noqa: SLF001

    drop_events = link.subscribe("room/table/+/event", lambda m: heard.append("events"))
    deliver()
    deliver()
    assert heard == ["events", "events"]
    drop_all = link.subscribe("room/#", lambda m: heard.append("all"))
    heard.clear()
    deliver()
    assert sorted(heard) == ["all", "events"]
    drop_events()
    heard.clear()
    deliver()
    assert heard == ["all"]
    drop_all()
    heard.clear()
    deliver()
    assert heard == []
    link.loop.close()


def test_waiting_publishes_are_bounded_and_qos0_is_not_kept_offline() -> None:
    link = HubLink(client_id="hub-test", host="127.0.0.1", port=1, max_waiting=10)
    for k in range(15):
        link._publish(f"t/{k}", b"p", 1, False)
    link._publish("state", b"s", 0, True)
    assert len(link._waiting) == 10 and link.dropped == 5
    link.loop.close()


# --- against Mosquitto ----------------------------------------------------------------------------


@pytest.fixture
def hub_link(broker: EmbeddedBroker) -> Iterator[HubLink]:
    link = HubLink(client_id="tapis-hub", host=broker.host, port=broker.port, will=("room/hub/status", b"offline"))
    yield link
    link.stop()


@pytest.fixture
def table(broker: EmbeddedBroker) -> Iterator[MqttLink]:
    link = MqttLink(client_id="tapis-table-t1", host=broker.host, port=broker.port)
    yield link
    link.stop()


def test_messages_both_ways_at_qos_0_and_1(hub_link: HubLink, table: MqttLink) -> None:
    heard: list[tuple[str, bytes, bool, str]] = []
    hub_link.subscribe("room/table/+/event", lambda m: heard.append((m.topic, m.payload, m.retain,
                                                                     threading.current_thread().name)))
    hub_link.subscribe("room/hub/own", lambda m: heard.append((m.topic, m.payload, m.retain, "own")), no_local=True)
    at_table: list[Message] = []
    table.subscribe("room/hub/#", at_table.append)
    table.start()
    hub_link.start()
    assert wait_until(lambda: hub_link.pending_subscriptions == 0)  # before that, a publish finds no one
    for k in range(300):
        table.publish(f"room/table/t{k % 3}/event", f"e{k}".encode(), qos=k % 2)
    hub_link.publish("room/hub/own", b"not heard by its own link")
    def from_a_thread() -> None:
        for k in range(1000):
            hub_link.publish("room/hub/x", str(k).encode(), retain=k == 999)

    from_thread = threading.Thread(target=from_a_thread)
    from_thread.start()
    from_thread.join()
    assert wait_until(lambda: len(heard) >= 300 and len(at_table) >= 1001)
    assert [p for _, p, _, _ in heard] == [f"e{k}".encode() for k in range(300)]
    assert {name for *_, name in heard} == {"hub"}  # handlers run on the link's one thread
    assert [m.payload for m in at_table if m.topic == "room/hub/x"] == [str(k).encode() for k in range(1000)]
    assert hub_link.connected and not hub_link.publish_refused and not hub_link.dropped


def test_the_will_on_a_crash_then_reconnect_with_birth_and_subscriptions(broker: EmbeddedBroker,
                                                                        hub_link: HubLink,
                                                                        table: MqttLink) -> None:
    statuses: list[bytes] = []
    table.subscribe("room/hub/status", lambda m: statuses.append(m.payload))
    table.start()
    heard: list[bytes] = []
    hub_link.subscribe("room/table/t1/event", lambda m: heard.append(m.payload))
    hub_link.on_connect(lambda: hub_link.publish("room/hub/status", b"online", retain=True))
    hub_link.start()
    assert wait_until(lambda: statuses[-1:] == [b"online"])
    hub_link.loop.call_soon_threadsafe(lambda: hub_link._transport.abort())  # type: ignore[union-attr]
    assert wait_until(lambda: b"offline" in statuses)  # the broker said it for the dead link
    assert wait_until(lambda: statuses[-1:] == [b"online"] and hub_link.connected)  # back, birth again
    table.publish("room/table/t1/event", b"after")
    assert wait_until(lambda: heard == [b"after"])  # subscriptions replayed


def test_a_broker_restart_loses_no_qos1_publish(tmp_path: Path) -> None:
    port = free_port()
    first = EmbeddedBroker(port=port, data_dir=tmp_path / "a").start()
    link = HubLink(client_id="tapis-hub", host="127.0.0.1", port=port)
    heard: list[bytes] = []
    link.subscribe("room/in", lambda m: heard.append(m.payload))
    try:
        link.start()
        first.kill()
        assert wait_until(lambda: not link.connected)
        for k in range(50):  # while no broker: they wait (retained, so a late listener sees each)
            link.publish(f"room/out/{k}", str(k).encode(), retain=True)
        second = EmbeddedBroker(port=port, data_dir=tmp_path / "b").start()
        try:
            got: dict[str, bytes] = {}
            other = MqttLink(client_id="listener", host="127.0.0.1", port=port)
            other.subscribe("room/out/#", lambda m: got.__setitem__(m.topic, m.payload))
            other.start()
            try:
                assert wait_until(lambda: link.connected, timeout=15)
                assert wait_until(lambda: len(got) == 50)
                assert got == {f"room/out/{k}": str(k).encode() for k in range(50)}
                other.publish("room/in", b"hello")
                assert wait_until(lambda: heard == [b"hello"])  # resubscribed on the new broker
            finally:
                other.stop()
        finally:
            second.stop()
    finally:
        link.stop()
        first.stop()


def test_refusals_are_said_not_raised(broker: EmbeddedBroker) -> None:
    link = HubLink(client_id="tapis-hub", host=broker.host, port=free_port())  # nobody listens there
    with pytest.raises(ConnectionError, match=r"no connection to mqtt://127.0.0.1:\d+ \(\[Errno 111\]"):
        link.start(timeout=0.5)


def test_a_broken_broker_is_dropped_and_connected_again() -> None:
    """A 'broker' that says yes, then sends bytes that are not MQTT: the link hangs up and comes back."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    connections: list[socket.socket] = []

    def serve() -> None:
        while len(connections) < 2:
            conn, _ = server.accept()
            connections.append(conn)
            conn.recv(1024)  # CONNECT
            # CONNACK (success) and a length over four bytes in one segment: the CONNACK still counts
            conn.sendall(b"\x20\x03\x00\x00\x00" + b"\x30\xff\xff\xff\xff\x7f")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    link = HubLink(client_id="tapis-hub", host="127.0.0.1", port=port)
    try:
        link.start()
        assert wait_until(lambda: len(connections) == 2)
    finally:
        link.stop()
        for conn in connections:
            conn.close()
        server.close()


def test_a_stopped_link_takes_publishes_and_subscriptions_quietly(broker: EmbeddedBroker) -> None:
    link = HubLink(client_id="tapis-hub", host=broker.host, port=broker.port)
    link.start()
    link.stop()
    link.publish("room/late", b"from the dashboard's thread, after the hub stopped")  # no RuntimeError
    link.subscribe("room/late", lambda m: None)()


def test_stop_disconnects_cleanly_no_will(broker: EmbeddedBroker, table: MqttLink) -> None:
    statuses: list[bytes] = []
    table.subscribe("room/hub/status", lambda m: statuses.append(m.payload))
    table.start()
    link = HubLink(client_id="tapis-hub", host=broker.host, port=broker.port, will=("room/hub/status", b"offline"))
    link.start()
    link.stop()
    table.publish("room/hub/status", b"marker")
    assert wait_until(lambda: statuses[-1:] == [b"marker"])
    time.sleep(0.1)
    assert b"offline" not in statuses
