"""The hub's MQTT link and what passes between it and the broker (issue 29, round two): what CONNECT
asks, what CONNACK and the broker's other packets do to the link, and what the log says of each.
Mostly a link on a clock the test moves (`link_harness`), a broker of the tests' own where the
socket matters."""

from __future__ import annotations

import asyncio
import logging
import struct

import pytest

from hub.edge import mqtt5
from hub.edge.link import HubLink
from tests.hub.fake_broker import Conn, FakeBroker, connack
from tests.hub.link_harness import Clocked, Wire, clocked, links, make_link, said
from tests.support import wait_until

__all__ = ["clocked", "links"]  # fixtures


# --- CONNECT, CONNACK: what the hub asks, what the broker answers ------------------------------------


def test_connect_carries_the_hubs_identity_will_session_and_packet_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """What Mosquitto's ACLs and the tables' presence need: user name and password, the `offline` will,
    the persistent session asked (no clean start) and the most the hub will take (256 kB)."""
    from hub.edge.broker import MAX_PACKET

    clocked = Clocked(monkeypatch, keepalive=7, session_expiry=3600, username="hub", password="pw",
                       will=("room/hub/status", b"offline"))
    try:
        wire = Wire()
        clocked.link._made(wire)  # type: ignore[arg-type]
        assert bytes(wire.written) == mqtt5.connect(
            "tapis-hub", keepalive=7, clean_start=False, session_expiry=3600, username="hub", password="pw",
            will=("room/hub/status", b"offline"), max_packet=MAX_PACKET)
        assert bytes(wire.written)[9] & 0x02 == 0  # clean start off: the broker keeps the session
    finally:
        clocked.close()


def test_a_refused_connection_is_said_with_the_brokers_reason(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A wrong password in the hub's config: the log and `start()` name the broker's reason; the next
    connection that is accepted clears it."""
    clocked = Clocked(monkeypatch)
    link = clocked.link
    try:
        wire = clocked.connect(b"\x00\x86\x00")  # Bad user name or password
        assert link.refused == "Bad user name or password" and wire.closed and not link.connected
        assert said(caplog) == ["tapis-hub: broker refused the connection: Bad user name or password"]
        assert link._answered.is_set()
        clocked.connect()
        assert link.refused is None and link.connected
        clocked.lose(None)
        clocked.connect(b"\x00\x80\x00")  # Unspecified error: the lowest refusal is a refusal too
        assert link.refused == "Unspecified error" and not link.connected
    finally:
        clocked.close()


def test_a_broker_that_accepts_tcp_but_never_answers_connect_is_hung_up_on(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    clocked = Clocked(monkeypatch, connect_timeout=2.5)
    link = clocked.link
    try:
        stale, wire = Wire(), Wire()
        link._made(stale)  # type: ignore[arg-type]
        link._made(wire)  # type: ignore[arg-type]
        assert link._no_connack is not None and link._no_connack.when() == 102.5
        link._connack_late(stale)  # type: ignore[arg-type]  # a connection already replaced: left alone
        assert not stale.aborted and said(caplog) == []
        link._connack_late(wire)  # type: ignore[arg-type]
        assert wire.aborted and link._last_error == "no CONNACK within 2.5 s"
        assert said(caplog) == ["tapis-hub: the broker accepted the connection but did not answer CONNECT "
                                 "within 2.5 s; connecting again"]
        up = Wire()
        link._made(up)  # type: ignore[arg-type]
        link._packets([(mqtt5.CONNACK << 4, b"\x00\x00\x00")])
        assert link._no_connack is None
        link._connack_late(up)  # type: ignore[arg-type,unused-ignore]  # a timer that fired as CONNACK came
        assert not up.aborted
    finally:
        clocked.close()


# --- What the broker sends: acks, refusals, goodbyes, garbage -----------------------------------------


def test_a_puback_for_nothing_in_flight_changes_nothing(clocked: Clocked) -> None:
    """A broker that acknowledges twice (or an id from before a restart): no error, nothing freed."""
    link = clocked.link
    clocked.connect()
    link._publish("room/a", b"1", 1, False)
    (packet_id,) = link._inflight
    link._packets([(mqtt5.PUBACK << 4, struct.pack("!H", packet_id + 1))])
    assert list(link._inflight) == [packet_id]
    link._packets([(mqtt5.PUBACK << 4, struct.pack("!H", packet_id))] * 2)
    assert link._inflight == {} and link.publish_refused == {} and link.connected


def test_a_broker_saying_goodbye_is_logged_with_its_reason_and_words(
        clocked: Clocked, caplog: pytest.LogCaptureFixture) -> None:
    """DISCONNECT 0x8B with a reason string (EMQX says why): both in the log, and the line closed."""
    wire = clocked.connect()
    words = b"maintenance at 3 am"
    props = bytes((mqtt5.REASON_STRING,)) + struct.pack("!H", len(words)) + words
    clocked.link._packets([(mqtt5.DISCONNECT << 4, bytes((0x8B,)) + mqtt5.varint(len(props)) + props),
                           (mqtt5.PINGRESP << 4, b"")])  # nothing after a goodbye is read
    assert wire.aborted
    assert said(caplog) == ["tapis-hub: the broker disconnected this link: Server shutting down "
                             "(maintenance at 3 am)"]
    clocked.link._packets([(mqtt5.DISCONNECT << 4, bytes((0x8B, 0)))])
    assert said(caplog)[-1] == "tapis-hub: the broker disconnected this link: Server shutting down"


def test_a_takeover_goodbye_is_said_once_by_what_the_link_does_about_it(
        clocked: Clocked, caplog: pytest.LogCaptureFixture) -> None:
    clocked.connect()
    clocked.link._packets([(mqtt5.DISCONNECT << 4, bytes((mqtt5.SESSION_TAKEN_OVER, 0)))])
    assert said(caplog) == []
    clocked.lose(None)
    assert len(said(caplog)) == 1 and "took the session" in said(caplog)[0]


def test_a_packet_a_broker_must_not_send_is_a_protocol_error(clocked: Clocked) -> None:
    clocked.connect()
    with pytest.raises(mqtt5.ProtocolError, match="unexpected packet type 1"):
        clocked.link._packets([(mqtt5.CONNECT << 4, b"")])


def test_garbage_from_the_broker_is_said_answered_and_hung_up_on(
        links: list[HubLink], caplog: pytest.LogCaptureFixture) -> None:
    """A broker (or a middlebox) that sends a CONNECT to the hub: the log says what could not be read,
    the broker is told why (0x81, Malformed Packet) and the link connects again."""
    async def script(conn: Conn) -> None:
        await conn.read()
        conn.send(connack())
        if conn.index == 0:
            conn.send(b"\x10\x00")
            while await conn.read() is not None:
                pass
            return
        await conn.serve()

    with FakeBroker(script) as broker:
        link = make_link(links, broker.port)
        link.start()
        assert wait_until(lambda: len(broker.connections) == 2 and link.connected)
        assert broker.connections[0].received[-1] == (mqtt5.DISCONNECT << 4, b"\x81")
        assert ("tapis-hub: the broker sent what this link cannot read (unexpected packet type 1); connecting "
                "again") in said(caplog, logging.ERROR)


def test_a_suback_refusing_a_filter_is_said_by_filter_from_0x80_up(
        clocked: Clocked, caplog: pytest.LogCaptureFixture) -> None:
    """One SUBACK, three filters: granted (0x01), refused with 0x80 (Unspecified error, the lowest
    failure code), refused by the ACL (0x87); a SUBACK for no SUBSCRIBE changes nothing."""
    link = clocked.link
    for pattern in ("room/a", "room/b", "room/secret/#"):
        link.subscribe(pattern, lambda m: None)
    wire = clocked.connect()
    link._flush()
    (first, body), = [p for p in wire.packets() if p[0] >> 4 == mqtt5.SUBSCRIBE]
    assert link.pending_subscriptions == 1
    link._packets([(mqtt5.SUBACK << 4, body[:2] + b"\x00\x01\x80\x87")])
    assert link.pending_subscriptions == 0
    assert link.subscribe_refused == {"room/b": "Unspecified error", "room/secret/#": "Not authorized"}
    assert said(caplog) == ["tapis-hub: the broker refused the subscription to room/b: Unspecified error",
                             "tapis-hub: the broker refused the subscription to room/secret/#: Not authorized"]
    link._packets([(mqtt5.SUBACK << 4, b"\x7f\x7f\x00\x87")])
    assert len(link.subscribe_refused) == 2


def test_subscriptions_are_split_to_fit_the_brokers_packet_size_exactly(
        clocked: Clocked, caplog: pytest.LogCaptureFixture) -> None:
    """Four filters whose SUBSCRIBE is exactly the broker's Maximum Packet Size go in one packet;
    with one byte less they go in halves, and a filter too big alone is refused and said."""
    link = clocked.link
    filters = [f"tapis/v1/table/t{k}/events" for k in range(4)]
    for pattern in filters:
        link.subscribe(pattern, lambda m: None)
    size = len(mqtt5.subscribe(1, [(p, False) for p in filters]))
    props = bytes((mqtt5.MAXIMUM_PACKET_SIZE,)) + struct.pack("!I", size)
    wire = clocked.connect(b"\x00\x00" + mqtt5.varint(len(props)) + props)
    link._flush()
    assert len([p for p in wire.packets() if p[0] >> 4 == mqtt5.SUBSCRIBE]) == 1
    clocked.lose(None)
    props = bytes((mqtt5.MAXIMUM_PACKET_SIZE,)) + struct.pack("!I", size - 1)
    wire = clocked.connect(b"\x00\x00" + mqtt5.varint(len(props)) + props)
    link._flush()
    subscribes = [body for first, body in wire.packets() if first >> 4 == mqtt5.SUBSCRIBE]
    assert len(subscribes) == 2 and link.pending_subscriptions == 2 and link.subscribe_refused == {}
    clocked.lose(None)
    props = bytes((mqtt5.MAXIMUM_PACKET_SIZE,)) + struct.pack("!I", 20)
    clocked.connect(b"\x00\x00" + mqtt5.varint(len(props)) + props)
    assert link.subscribe_refused == dict.fromkeys(filters, "Packet too large")
    assert said(caplog, logging.ERROR)[0] == ("tapis-hub: the subscription to tapis/v1/table/t0/events is over "
                                              "the broker's packet size (20 bytes)")


@pytest.mark.allow_logged_exceptions
def test_a_failing_handler_is_logged_and_the_others_still_get_the_message(
        clocked: Clocked, caplog: pytest.LogCaptureFixture) -> None:
    """One part of the hub raising on a message must not keep it from the others (nor stop the loop);
    QoS 1 is acknowledged, QoS 0 not."""
    link = clocked.link
    got: list[bytes] = []

    def broken(_message: object) -> None:
        raise RuntimeError("bug")

    link.subscribe("room/+/event", broken)
    link.subscribe("room/#", lambda m: got.append(m.payload))
    wire = clocked.connect()
    link._flush()
    wire.packets()
    for packet in (mqtt5.publish(b"room/t1/event", b"one", qos=1, retain=False, packet_id=7),
                   mqtt5.publish(b"room/t1/event", b"two", qos=0, retain=False)):
        link._packets(mqtt5.Reader(1 << 20).feed(packet)[0])
    link._flush()
    assert got == [b"one", b"two"]
    assert wire.packets() == [(mqtt5.PUBACK << 4, struct.pack("!H", 7))]
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert [r.getMessage() for r in errors] == ["tapis-hub: handler for room/t1/event failed"] * 2
    assert errors[0].exc_info


def test_the_hub_as_installed_asks_keepalive_15_gives_5_s_to_connect_and_keeps_200000_waiting(
        clocked: Clocked) -> None:
    """The figures docs/scale-out.md promises a club for `tapis hub` (which passes none of these): a dead
    broker noticed within 1.5 x 15 s, a silent one left after 5 s, and at most 200,000 publishes wait."""
    link = clocked.link
    wire = Wire()
    link._made(wire)  # type: ignore[arg-type]
    (first, body), = wire.packets()
    assert first >> 4 == mqtt5.CONNECT and struct.unpack_from("!H", body, 8)[0] == 15
    assert body[7] & 0x02  # clean start: no session kept unless asked (`tapis hub` asks an hour)
    assert link._no_connack is not None and link._no_connack.when() == clocked.now + 5.0
    link._lost(None)
    assert link._reconnect is not None
    link._reconnect.cancel()
    link.loop.run_until_complete(asyncio.gather(link._reconnect, return_exceptions=True))
    for _ in range(200_001):
        link._publish("t", b"", 1, False)
    assert len(link._waiting) == 200_000 and link.dropped == 1


@pytest.mark.allow_logged_exceptions
def test_a_failing_on_connect_hook_is_logged_and_the_others_still_run(
        clocked: Clocked, caplog: pytest.LogCaptureFixture) -> None:
    """The hub's birth, then each table's retained state: one failing must not keep the others from
    going out, nor the link from being up."""
    ran: list[str] = []

    def broken() -> None:
        raise RuntimeError("bug")

    clocked.link.on_connect(broken)
    clocked.link.on_connect(lambda: ran.append("birth"))
    clocked.connect()
    assert ran == ["birth"] and clocked.link.connected
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == ["tapis-hub: on-connect hook failed"] and errors[0].exc_info


def test_start_raises_the_brokers_refusal_and_leaves_nothing_running() -> None:
    """`tapis hub` with a wrong password: one clear error naming the broker's reason, and the link's
    thread ended (no reconnect loop behind the error)."""
    async def script(conn: Conn) -> None:
        await conn.read()
        conn.send(connack(code=0x87))  # Not authorized

    with FakeBroker(script) as broker:
        link = HubLink(client_id="tapis-hub", host=broker.host, port=broker.port)
        with pytest.raises(ConnectionError, match=r"^tapis-hub: no connection to mqtt://127\.0\.0\.1:\d+ "
                                                  r"\(Not authorized\)$"):
            link.start(timeout=5)
        assert not link._thread.is_alive()


def test_start_timing_out_before_any_reason_says_no_connection_and_nothing_more() -> None:
    """`start(timeout)` shorter than the broker's silence: nothing has failed yet, so the error names the
    broker and no reason (not "None")."""
    async def script(conn: Conn) -> None:
        await conn.read()
        await asyncio.Event().wait()  # the CONNACK never comes; the test's end cancels this

    with FakeBroker(script) as broker:
        link = HubLink(client_id="tapis-hub", host=broker.host, port=broker.port, connect_timeout=30)
        with pytest.raises(ConnectionError) as raised:
            link.start(timeout=0.3)
        assert str(raised.value) == f"tapis-hub: no connection to mqtt://127.0.0.1:{broker.port}"
