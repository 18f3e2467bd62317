"""`HubLink` against brokers that misbehave (issue 28): a broker of the tests' own (`fake_broker`) for
what Mosquitto cannot be made to do, real Mosquitto for the rest. Each case stalled the room or broke
MQTT 5.0 before its fix; each test says the clause."""

from __future__ import annotations

import asyncio
import logging
import struct
import threading
import time
from collections import deque
from collections.abc import Iterator

import pytest

from hub.edge import mqtt5
from hub.edge.broker import EmbeddedBroker
from hub.edge.link import HubLink, _matches
from tablewire.mqtt import Message, MqttLink
from tests.hub.fake_broker import Conn, FakeBroker, connack, disconnect, publish_with
from tests.support import wait_until


@pytest.fixture
def links() -> Iterator[list[HubLink]]:
    """Links a test makes; stopped at its end whatever happened."""
    made: list[HubLink] = []
    yield made
    for link in made:
        link.stop()


def _link(links: list[HubLink], port: int, **kw: object) -> HubLink:
    link = HubLink(client_id="tapis-hub", host="127.0.0.1", port=port, **kw)  # type: ignore[arg-type]
    links.append(link)
    return link


async def _take_unacked(conn: Conn, count: int) -> None:
    """Read `count` publishes without acknowledging one, then drop the connection."""
    while len(conn.publishes()) < count:
        if await conn.read() is None:
            return
    conn.abort()


def _topics(conn: Conn) -> list[str]:
    return [m.topic for m in conn.publishes()]


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
            await _take_unacked(conn, 50)
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
        link = _link(links, broker.port)
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
            link = _link(links, broker.port)
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
        link = _link(links, broker.port)
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


# --- 3. CONNACK that never comes --------------------------------------------------------------------


def test_a_broker_that_never_answers_connect_is_left_for_another_try(links: list[HubLink]) -> None:
    async def script(conn: Conn) -> None:
        await conn.read()
        if conn.index == 0:
            await asyncio.Event().wait()  # accepted, then silence: the test's end cancels it
        conn.send(connack())
        await conn.serve()

    with FakeBroker(script) as broker:
        link = _link(links, broker.port, connect_timeout=0.5)
        started = time.monotonic()
        link.start(timeout=5)
        assert link.connected and len(broker.connections) == 2
        assert time.monotonic() - started < 0.5 + 2.0  # the timeout, then at most the longest backoff


def test_start_says_the_broker_never_answered_connect() -> None:
    async def script(conn: Conn) -> None:
        await conn.read()
        await asyncio.Event().wait()

    with FakeBroker(script) as broker:
        link = HubLink(client_id="tapis-hub", host=broker.host, port=broker.port, connect_timeout=0.3)
        with pytest.raises(ConnectionError, match=r"\(no CONNACK within 0.3 s\)"):
            link.start(timeout=1.0)


# --- 4. Server Keep Alive holds for its connection only [MQTT-3.2.2-21] -----------------------------


def test_a_server_keep_alive_of_0_does_not_outlive_its_connection(links: list[HubLink]) -> None:
    """A broker says keepalive 0 once; the next connection it says nothing and goes silent (a half-open
    line): the link asks its own keepalive again, so it notices within 1.5 of them and reconnects."""
    async def script(conn: Conn) -> None:
        await conn.read()
        if conn.index == 0:
            conn.send(connack(keepalive=0))
            await conn.read()  # the SUBSCRIBE: the CONNACK was heard
            conn.abort()
            return
        conn.send(connack())
        if conn.index == 1:
            await conn.serve(pings=False)  # reads, never answers
        else:
            await conn.serve()

    with FakeBroker(script) as broker:
        link = _link(links, broker.port, keepalive=1)
        link.subscribe("room/in", lambda m: None)
        link.start()
        assert wait_until(lambda: len(broker.connections) >= 3, timeout=1.5 * 1 + 3)
        asked = [struct.unpack_from("!H", conn.received[0][1], 8)[0] for conn in broker.connections[:3]]
        assert asked == [1, 1, 1]  # CONNECT's keepalive, after "\0\4MQTT", the version and the flags


# --- 5. and 29.3: QoS 1 publishes in flight go again, as they were ----------------------------------


@pytest.fixture
def dropped_once(links: list[HubLink]) -> Iterator[FakeBroker]:
    """Two QoS 1 publishes (the first retained) taken unacknowledged, then the line drops; the next
    connection, the broker kept the session."""
    async def script(conn: Conn) -> None:
        await conn.read()
        conn.send(connack(session_present=conn.index > 0))
        if conn.index == 0:
            await _take_unacked(conn, 2)
            return
        await conn.serve()

    with FakeBroker(script) as broker:
        link = _link(links, broker.port)
        link.start()
        link.publish("room/hub/status", b"online", retain=True)
        link.publish("room/x", b"1")
        assert wait_until(lambda: len(broker.connections) == 2 and len(broker.connections[1].publishes()) == 2)
        yield broker


def test_unacknowledged_qos1_publishes_go_again_after_a_reconnect(dropped_once: FakeBroker) -> None:
    """Published while connected, never acknowledged, then the line drops (issue 29.3): the same
    packets again on the next connection, DUP set since the broker kept the session."""
    first, again = (conn.publishes() for conn in dropped_once.connections[:2])
    assert [(m.topic, m.payload, m.packet_id) for m in again] == [(m.topic, m.payload, m.packet_id) for m in first]
    assert all(first >> 3 & 1 for first, _ in dropped_once.connections[1].received[1:3])  # DUP


def test_a_retained_qos1_publish_goes_again_retained(dropped_once: FakeBroker) -> None:
    assert [(m.topic, m.retain) for m in dropped_once.connections[1].publishes()] == [("room/hub/status", True),
                                                                                     ("room/x", False)]


# --- 6. DISCONNECT from the broker ------------------------------------------------------------------


def test_a_disconnect_from_the_broker_closes_the_connection(links: list[HubLink]) -> None:
    async def script(conn: Conn) -> None:
        await conn.read()
        conn.send(connack())
        if conn.index == 0:
            conn.send(disconnect(0x8B))  # Server shutting down; then waits for the client to hang up
            while await conn.read() is not None:
                pass
            return
        await conn.serve()

    with FakeBroker(script) as broker:
        link = _link(links, broker.port, keepalive=60)
        link.start()
        assert wait_until(lambda: broker.connections[0].closed.is_set(), timeout=2)  # not 90 s of pings
        assert wait_until(lambda: len(broker.connections) == 2 and link.connected)
        assert all(first >> 4 != mqtt5.PINGREQ for first, _ in broker.connections[0].received)


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
        link = _link(links, broker.port)
        link.subscribe("room/#", heard.append)
        link.start()
        assert wait_until(lambda: broker.connections[0].closed.is_set(), timeout=2)
        said = broker.connections[0].received
        assert all(first >> 4 != mqtt5.PUBACK for first, _ in said)
        assert said[-1] == (mqtt5.DISCONNECT << 4, bytes((code,)))
        assert wait_until(lambda: len(broker.connections) == 2 and link.connected)
        assert heard == []


# --- 9. The hub's own pause on reading is not a silent broker --------------------------------------


def test_pausing_reads_longer_than_the_keepalive_is_not_a_dead_broker(links: list[HubLink]) -> None:
    """The hub stops reading (its backlog bound) for 2.5 keepalives: what the broker sends meanwhile
    waits unread, and the link neither hangs up nor stops pinging, then and after."""
    paused = threading.Event()

    async def script(conn: Conn) -> None:
        await conn.read()  # CONNECT
        conn.send(connack())
        await conn.read()  # SUBSCRIBE
        await asyncio.to_thread(paused.wait)
        conn.send(publish_with("room/in", b"while paused", packet_id=9, props=b""))
        await conn.serve()

    def pings() -> int:
        return sum(first >> 4 == mqtt5.PINGREQ for first, _ in broker.connections[0].received)

    heard: list[Message] = []
    with FakeBroker(script) as broker:
        link = _link(links, broker.port, keepalive=1)
        link.subscribe("room/in", heard.append)
        link.start()
        link.loop.call_soon_threadsafe(link.pause_reading, True)
        assert wait_until(lambda: link._reading_paused)
        paused.set()
        try:
            assert wait_until(lambda: pings() >= 5, timeout=5)  # 2.5 keepalives with nothing read
            assert heard == [] and len(broker.connections) == 1
        finally:
            link.loop.call_soon_threadsafe(link.pause_reading, False)
        assert wait_until(lambda: [m.payload for m in heard] == [b"while paused"])
        seen = pings()
        assert wait_until(lambda: pings() >= seen + 2, timeout=3)  # and the pings go on
        assert len(broker.connections) == 1


# --- "Session taken over" (0x8E): two processes, one client id --------------------------------------


def test_two_links_sharing_a_client_id_say_so_and_back_off(links: list[HubLink],
                                                          caplog: pytest.LogCaptureFixture) -> None:
    """As EMQX and Mosquitto 2.0.12+ do, the broker tells the older connection 0x8E when a newer one takes
    its client id (the Mosquitto 2.0.11 here closes it without a word: a fake broker then)."""
    caplog.set_level(logging.WARNING, logger="hub.edge.link")
    live: list[Conn] = []

    async def script(conn: Conn) -> None:
        await conn.read()
        for older in live:
            older.send(disconnect(mqtt5.SESSION_TAKEN_OVER))
        live[:] = [conn]
        conn.send(connack())
        await conn.serve()

    def takeovers() -> list[logging.LogRecord]:
        return [r for r in caplog.records if "took the session" in r.getMessage()]

    with FakeBroker(script) as broker:
        first, second = _link(links, broker.port), _link(links, broker.port)
        first.start()
        second.start()
        assert wait_until(lambda: len(takeovers()) >= 3, timeout=10)
        at = [r.created for r in takeovers()]
        assert at[2] - at[0] >= 1.0  # was 20 takeovers a second
        said = [r.getMessage() for r in takeovers()]
        assert "two processes share the id" in said[0]
        assert "(1 time(s) in a row)" in said[0] and said[0].endswith("connecting again in 1 s")
        assert any("(2 time(s) in a row)" in m and m.endswith("connecting again in 2 s") for m in said)


def test_two_links_sharing_a_client_id_on_mosquitto_back_off(broker: EmbeddedBroker, links: list[HubLink],
                                                             caplog: pytest.LogCaptureFixture) -> None:
    """Mosquitto 2.0.11 closes the older connection without a 0x8E: each link sees its connection lost
    right after it was made, and backs off as from a refusal (was: 20 takeovers a second)."""
    caplog.set_level(logging.WARNING, logger="hub.edge.link")

    def losses() -> list[float]:
        return [r.created for r in caplog.records if "connection to the broker lost" in r.getMessage()]

    first, second = _link(links, broker.port), _link(links, broker.port)
    first.start()
    second.start()
    assert wait_until(lambda: len(losses()) >= 8, timeout=15)
    assert losses()[7] - losses()[0] >= 1.0
    assert "after it was made" in caplog.text


# --- Subscriptions while connected, and the filters that route what comes ------------------------


def test_subscribing_and_unsubscribing_while_connected(links: list[HubLink]) -> None:
    async def script(conn: Conn) -> None:
        await conn.read()
        conn.send(connack())
        subscribed = 0
        while (packet := await conn.read()) is not None:
            first, body = packet
            if first >> 4 == mqtt5.SUBSCRIBE:
                conn.send(bytes((0x90, 4)) + body[:2] + b"\x00\x01")
                subscribed += 1
                if subscribed < 2:
                    continue
                conn.send(publish_with("room/t1/event", b"one", packet_id=1, props=b""))
                conn.send(b"\x31" + publish_with("room/t2/state", b"two", packet_id=2, props=b"")[1:])  # retained
            elif first >> 4 == mqtt5.UNSUBSCRIBE:
                conn.send(bytes((0xB0, 4)) + body[:2] + b"\x00\x00")
                conn.send(publish_with("room/t1/event", b"after", packet_id=3, props=b""))
                conn.send(publish_with("room/t2/state", b"after", packet_id=4, props=b""))

    events: list[Message] = []
    states: list[Message] = []
    with FakeBroker(script) as broker:
        link = _link(links, broker.port)
        link.start()
        stop_events = link.subscribe("room/+/event", events.append)
        link.subscribe("room/#", states.append)
        assert wait_until(lambda: len(states) == 2 and len(events) == 1)
        assert [(m.topic, m.retain) for m in events] == [("room/t1/event", False)]
        assert [(m.topic, m.retain) for m in states] == [("room/t1/event", False), ("room/t2/state", True)]
        stop_events()
        assert wait_until(lambda: len(states) == 4)
        assert [m.payload for m in events] == [b"one"]  # no longer routed there
        said = broker.connections[0].received
        subscribes = [body for first, body in said if first >> 4 == mqtt5.SUBSCRIBE]
        assert [sub[-1] for sub in subscribes] == [0x01, 0x01]  # QoS 1, no_local left off by default
        unsubscribes = [body for first, body in said if first >> 4 == mqtt5.UNSUBSCRIBE]
        assert [body[3:] for body in unsubscribes] == [b"\x00\x0croom/+/event"]


@pytest.mark.parametrize(("pattern", "topic", "matches"), [
    ("room/+/event", "room/t1/event", True), ("room/+/event", "room/t1/state", False),
    ("room/+/event", "room/t1/event/x", False), ("room/+/event", "room/t1", False),
    ("room/#", "room/t1/event", True), ("room/#", "room", True), ("room/#", "other", False), ("#", "room/t1", True),
    ("room/t1/+", "room/t1/", True), ("+/+", "room", False), ("room/t1", "room/t1", True),
])
def test_topic_filters_match_as_mqtt_says(pattern: str, topic: str, matches: bool) -> None:
    """§4.7: `+` one level, `#` the rest, the parent level included (`room/#` matches `room`)."""
    assert _matches(pattern.split("/"), topic.split("/")) is matches


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
        link = _link(links, broker.port)
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
    async def script(conn: Conn) -> None:
        await conn.read()
        conn.send(connack())
        await conn.serve()

    with FakeBroker(script) as broker:
        link = _link(links, broker.port, keepalive=2)
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
    async def script(conn: Conn) -> None:
        await conn.read()
        conn.send(connack())
        await conn.serve()

    with FakeBroker(script) as broker:
        link = _link(links, broker.port)
        link.start()
        link.stop()
        assert broker.connections[0].closed.wait(2)
        assert broker.connections[0].received[-1] == (mqtt5.DISCONNECT << 4, b"")
        assert not link._thread.is_alive() and len(broker.connections) == 1


def test_packet_identifiers_skip_those_in_use_and_wrap(links: list[HubLink]) -> None:
    link = _link(links, 1)
    link._pending_ids[1] = ["room/#"]  # a SUBSCRIBE not yet acknowledged
    link._inflight[3] = ("t", b"", False)  # a QoS 1 publish not yet acknowledged
    assert [link._new_id() for _ in range(2)] == [2, 4]
    link._next_id = 65_534
    assert [link._new_id() for _ in range(3)] == [65_535, 2, 4]  # 16 bits, 0 never used


# --- 29.1: a link paused by a stalled broker writes again after a reconnect ------------------------


def test_a_link_paused_by_a_stalled_broker_sends_again_after_a_reconnect(links: list[HubLink]) -> None:
    drop = threading.Event()

    async def script(conn: Conn) -> None:
        await conn.read()
        conn.send(connack())
        if conn.index == 0:  # reads nothing more: the link's socket buffer fills, its writes pause
            await asyncio.to_thread(drop.wait)
            conn.abort()
            return
        await conn.serve()

    payload = b"x" * 50_000
    with FakeBroker(script) as broker:
        link = _link(links, broker.port)
        link.start()
        sent = 0
        try:
            # QoS 0 fills the line and is not kept: nothing in flight for the next connection to resend
            # (a resend big enough to pause and resume the new connection would hide a stale pause)
            while not link._paused and sent < 4_000:  # private: the state the issue is about
                for _ in range(100):
                    link.publish(f"room/flood/{sent}", payload, qos=0)
                    sent += 1
                assert wait_until(lambda: not link._from_threads)
            assert link._paused
            for k in range(100):  # these wait behind the pause
                link.publish(f"room/after/{k}", str(k).encode())
        finally:
            drop.set()
        assert wait_until(lambda: len(broker.connections) == 2 and [
            t for t in _topics(broker.connections[1]) if t.startswith("room/after/")
        ] == [f"room/after/{k}" for k in range(100)], timeout=10)


def test_a_link_paused_by_a_slow_broker_sends_again_when_it_reads(links: list[HubLink]) -> None:
    """The same pause without a reconnect: the broker reads again and what waited goes, in order."""
    reading = threading.Event()

    async def script(conn: Conn) -> None:
        await conn.read()
        conn.send(connack())
        await asyncio.to_thread(reading.wait)
        await conn.serve()

    payload = b"x" * 50_000
    with FakeBroker(script) as broker:
        link = _link(links, broker.port)
        link.start()
        sent = 0
        try:
            while not link._paused and sent < 4_000:
                for _ in range(100):
                    link.publish(f"room/flood/{sent}", payload, qos=0)
                    sent += 1
                assert wait_until(lambda: not link._from_threads)
            assert link._paused
            for k in range(100):
                link.publish(f"room/after/{k}", str(k).encode())
        finally:
            reading.set()
        assert wait_until(lambda: [t for t in _topics(broker.connections[0]) if t.startswith("room/after/")]
                          == [f"room/after/{k}" for k in range(100)], timeout=10)
        assert len(broker.connections) == 1


# --- 29.10: a publish from another thread never misses its wake-up ---------------------------------


def test_a_publish_from_a_thread_just_after_the_loop_emptied_its_queue_is_taken(links: list[HubLink]) -> None:
    """The worst moment: the loop has found the hand-over queue empty and not yet gone back to sleep
    when another thread publishes. That publish must schedule a wake-up of its own."""
    link = _link(links, 1)

    class JustLate(deque[tuple[str, bytes, int, bool]]):
        raced = False

        def __len__(self) -> int:
            n = super().__len__()
            if n == 0 and not self.raced and threading.current_thread() is link._thread:
                self.raced = True  # the loop saw it empty: now another thread publishes, and returns
                late = threading.Thread(target=link.publish, args=("room/late", b"2"))
                late.start()
                late.join()
            return n

    link._from_threads = JustLate()
    link._thread.start()
    link.publish("room/first", b"1")  # not connected: QoS 1 waits for the broker
    assert wait_until(lambda: [t for t, *_ in link._waiting] == ["room/first", "room/late"], timeout=2)
