"""`HubLink` against brokers that misbehave (issue 28): a broker of the tests' own (`fake_broker`) for
what Mosquitto cannot be made to do, real Mosquitto for the rest. Each case stalled the room or broke
MQTT 5.0 before its fix; each test says the clause. Here: connections and sessions (CONNACK, keep-alive,
resent publishes, DISCONNECT, a client id taken over, a stalled broker) and subscriptions; a broker's
limits: `test_link_broker_limits.py`; topic filters: `test_routes.py`."""

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
from hub.edge.link import HubLink
from tablewire.mqtt import Message
from tests.hub.fake_broker import Conn, FakeBroker, connack, disconnect, publish_with, take_unacked, topics
from tests.hub.link_harness import links, make_link
from tests.support import wait_until

__all__ = ["links"]  # fixtures


# --- 3. CONNACK that never comes --------------------------------------------------------------------


def test_a_broker_that_never_answers_connect_is_left_for_another_try(links: list[HubLink]) -> None:
    async def script(conn: Conn) -> None:
        await conn.read()
        if conn.index == 0:
            await asyncio.Event().wait()  # accepted, then silence: the test's end cancels it
        conn.send(connack())
        await conn.serve()

    with FakeBroker(script) as broker:
        link = make_link(links, broker.port, connect_timeout=0.5)
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
        link = make_link(links, broker.port, keepalive=1)
        link.subscribe("room/in", lambda m: None)
        link.start()
        # a connection is counted when accepted, before its CONNECT is read: wait for the CONNECTs
        assert wait_until(lambda: len(broker.connections) >= 3
                          and all(conn.received for conn in broker.connections[:3]), timeout=1.5 * 1 + 3)
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
            await take_unacked(conn, 2)
            return
        await conn.serve()

    with FakeBroker(script) as broker:
        link = make_link(links, broker.port)
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
        link = make_link(links, broker.port, keepalive=60)
        link.start()
        assert wait_until(lambda: broker.connections[0].closed.is_set(), timeout=2)  # not 90 s of pings
        assert wait_until(lambda: len(broker.connections) == 2 and link.connected)
        assert all(first >> 4 != mqtt5.PINGREQ for first, _ in broker.connections[0].received)


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
        link = make_link(links, broker.port, keepalive=1)
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
        first, second = make_link(links, broker.port), make_link(links, broker.port)
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

    first, second = make_link(links, broker.port), make_link(links, broker.port)
    first.start()
    second.start()
    assert wait_until(lambda: len(losses()) >= 8, timeout=15)
    assert losses()[7] - losses()[0] >= 1.0
    assert "after it was made" in caplog.text


# --- Subscriptions while connected, and what comes routed by them --------------------------------------


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
        link = make_link(links, broker.port)
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
        link = make_link(links, broker.port)
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
            t for t in topics(broker.connections[1]) if t.startswith("room/after/")
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
        link = make_link(links, broker.port)
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
        assert wait_until(lambda: [t for t in topics(broker.connections[0]) if t.startswith("room/after/")]
                          == [f"room/after/{k}" for k in range(100)], timeout=10)
        assert len(broker.connections) == 1


# --- 29.10: a publish from another thread never misses its wake-up ---------------------------------


def test_a_publish_from_a_thread_just_after_the_loop_emptied_its_queue_is_taken(links: list[HubLink]) -> None:
    """The worst moment: the loop has found the hand-over queue empty and not yet gone back to sleep
    when another thread publishes. That publish must schedule a wake-up of its own."""
    link = make_link(links, 1)

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
