"""The hub's MQTT link carrying the room's traffic (issue 29, round two): what it sends again after a
reconnect and how, what waits and in which order, subscriptions coming and going, and a clean stop.
A link on a clock the test moves (`link_harness`) or a broker of the tests' own (`fake_broker`)."""

from __future__ import annotations

import logging
import os
import socket
import struct
import subprocess
import sys
import time

import pytest

from hub.edge import mqtt5
from hub.edge.link import HubLink
from tests.hub.fake_broker import FakeBroker, serve_after_connack
from tests.hub.link_harness import Clocked, Wire, clocked, links, make_link, said

__all__ = ["clocked", "links"]  # fixtures


def _connack(**props: int) -> bytes:
    raw = b""
    for name, value in props.items():
        kind = getattr(mqtt5, name.upper())
        raw += bytes((kind,)) + (struct.pack("!I", value) if kind == mqtt5.MAXIMUM_PACKET_SIZE
                                 else struct.pack("!H", value))
    return b"\x00\x00" + mqtt5.varint(len(raw)) + raw


def _publishes(wire: Wire) -> list[tuple[int, mqtt5.Incoming]]:
    """(first byte, publish) of each PUBLISH written since the last look."""
    return [(first, mqtt5.read_publish(first, body)) for first, body in wire.packets() if first >> 4 == mqtt5.PUBLISH]


# --- A clean stop --------------------------------------------------------------------------------------


def test_what_was_published_just_before_stop_reaches_the_broker_before_the_disconnect(
        links: list[HubLink]) -> None:
    """The hub's last words at shutdown (its `offline` status, a table's final state) are written
    before the DISCONNECT, in the same turn: none is lost to the close."""
    with FakeBroker(serve_after_connack) as broker:
        link = make_link(links, broker.port)
        link.start()

        link.publish("room/hub/status", b"offline", retain=True, qos=0)
        link.stop()
        assert broker.connections[0].closed.wait(2)
        kinds = [first >> 4 for first, _ in broker.connections[0].received]
        assert kinds[-2:] == [mqtt5.PUBLISH, mqtt5.DISCONNECT]


def test_a_publish_after_the_link_stopped_is_said_in_the_debug_log(
        links: list[HubLink], caplog: pytest.LogCaptureFixture) -> None:
    """The dashboard's thread publishing while the hub shuts down: nothing raised, and the debug log
    says which message did not go."""
    caplog.set_level(logging.DEBUG, logger="hub.edge.link")
    with FakeBroker(serve_after_connack) as broker:
        link = make_link(links, broker.port)
        link.start()
        link.stop()
        link.publish("room/late", b"x")
    assert said(caplog, logging.DEBUG) == ["tapis-hub: stopped; publish on room/late not sent"]


def test_small_packets_leave_at_once_without_waiting_for_more(links: list[HubLink]) -> None:
    """TCP_NODELAY: a table's command is a few bytes; the kernel must not hold it back 40 ms for more."""
    with FakeBroker(serve_after_connack) as broker:
        link = make_link(links, broker.port)
        link.start()
        assert link._transport is not None
        sock = link._transport.get_extra_info("socket")
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0


# --- After a reconnect: what goes again, and how -------------------------------------------------------


def test_a_broker_that_lost_the_session_gets_the_resend_without_dup(clocked: Clocked) -> None:
    """DUP says "you may have seen this": only true when the broker kept our session."""
    link = clocked.link
    wire = clocked.connect()
    link._publish("room/a", b"1", 1, False)
    link._flush()
    (_, first), = _publishes(wire)
    clocked.lose(None)
    wire = clocked.connect(b"\x00\x00\x00")  # session_present 0
    link._flush()
    (flags, again), = _publishes(wire)
    assert not flags & 0x08 and (again.topic, again.payload, again.packet_id) == ("room/a", b"1", first.packet_id)
    clocked.lose(None)
    wire = clocked.connect(b"\x01\x00\x00")  # session_present 1
    link._flush()
    (flags, _), = _publishes(wire)
    assert flags & 0x08


def test_a_resend_over_the_new_brokers_packet_size_is_refused_and_the_rest_goes(clocked: Clocked) -> None:
    """The broker came back with a smaller Maximum Packet Size: the big one is refused (counted, not
    sent, not kept), the others still go, in order."""
    link = clocked.link
    clocked.connect()
    exactly = 200 - len(mqtt5.publish(b"room/fits", b"", qos=1, retain=False, packet_id=1)) - 1  # 2 length bytes
    assert len(mqtt5.publish(b"room/fits", b"x" * exactly, qos=1, retain=False, packet_id=1)) == 200
    for topic, size in (("room/a", 10), ("room/big", 500), ("room/fits", exactly), ("room/b", 10)):
        link._publish(topic, b"x" * size, 1, False)
    clocked.lose(None)
    wire = clocked.connect(_connack(maximum_packet_size=200))
    link._flush()
    assert [m.topic for _, m in _publishes(wire)] == ["room/a", "room/fits", "room/b"]  # exactly 200 goes
    assert link.publish_refused == {("room/big", "Packet too large"): 1}
    assert sorted(t for t, _, _ in link._inflight.values()) == ["room/a", "room/b", "room/fits"]


def test_a_resend_held_by_receive_maximum_goes_first_when_acks_come(clocked: Clocked) -> None:
    """Five unacknowledged, a new broker allows two in flight: two go, the other three wait ahead of
    what was published meanwhile, and each ack lets the next one go, in the original order."""
    link = clocked.link
    clocked.connect()
    for k in range(5):
        link._publish(f"room/{k}", b"p", 1, k == 4)
    clocked.lose(None)
    link._publish("room/new", b"n", 1, False)  # while down: waits
    wire = clocked.connect(_connack(receive_maximum=2))
    link._flush()
    sent = [m for _, m in _publishes(wire)]
    assert [m.topic for m in sent] == ["room/0", "room/1"]
    order = []
    while sent:
        order += [m.topic for m in sent]
        link._packets([(mqtt5.PUBACK << 4, struct.pack("!H", m.packet_id)) for m in sent])
        link._flush()
        sent = [m for _, m in _publishes(wire)]
        assert len(sent) <= 2
        assert all(m.retain == (m.topic == "room/4") for m in sent)
    assert order == ["room/0", "room/1", "room/2", "room/3", "room/4", "room/new"]


def test_a_receive_maximum_of_0_reads_as_no_limit(clocked: Clocked) -> None:
    """0 is not a valid Receive Maximum (§3.2.2.3.3): read as the default, not as "send nothing"."""
    link = clocked.link
    wire = clocked.connect(_connack(receive_maximum=0))
    for k in range(3):
        link._publish(f"room/{k}", b"p", 1, False)
    link._flush()
    assert len(_publishes(wire)) == 3


def test_a_brokers_limits_hold_for_its_connection_only(clocked: Clocked) -> None:
    """Receive Maximum 1 and Maximum Packet Size 100 on one connection; the next says nothing: the
    defaults again (65,535 in flight, no size but the protocol's)."""
    link = clocked.link
    wire = clocked.connect(_connack(receive_maximum=1, maximum_packet_size=100))
    link._publish("room/big", b"x" * 1000, 1, False)
    link._publish("room/1", b"x", 1, False)
    link._publish("room/2", b"x", 1, False)
    link._flush()
    assert [m.topic for _, m in _publishes(wire)] == ["room/1"]  # one in flight, the big one refused
    assert link.publish_refused == {("room/big", "Packet too large"): 1}
    clocked.lose(None)
    wire = clocked.connect()
    link._publish("room/big", b"x" * 1000, 1, False)
    link._publish("room/next", b"x", 1, False)
    link._flush()
    assert [m.topic for _, m in _publishes(wire)] == ["room/1", "room/2", "room/big", "room/next"]


# --- What waits while the broker is away or slow -------------------------------------------------------


def test_qos1_published_while_down_goes_in_order_on_connect(clocked: Clocked) -> None:
    link = clocked.link
    for k in range(3):
        link._publish(f"room/{k}", b"p", 1, False)
    link._publish("room/state", b"s", 0, True)  # QoS 0 while down: not kept
    wire = clocked.connect()
    link._flush()
    assert [m.topic for _, m in _publishes(wire)] == ["room/0", "room/1", "room/2"]


def test_qos0_waits_behind_qos1_held_by_the_receive_maximum(clocked: Clocked) -> None:
    """A state at QoS 0 published after events held back by the broker's Receive Maximum: it must not
    overtake them (a table would see the state before the events it follows)."""
    link = clocked.link
    wire = clocked.connect(_connack(receive_maximum=1))
    link._publish("room/event/1", b"e", 1, False)
    link._publish("room/event/2", b"e", 1, False)
    link._publish("room/state", b"s", 0, False)
    link._flush()
    (_, first), = _publishes(wire)
    link._packets([(mqtt5.PUBACK << 4, struct.pack("!H", first.packet_id))])
    link._flush()
    assert [m.topic for _, m in _publishes(wire)] == ["room/event/2", "room/state"]


def test_writes_paused_by_the_socket_hold_publishes_until_resumed(clocked: Clocked) -> None:
    """The kernel's send buffer is full (a slow broker): publishes wait, QoS 0 too, then go in order."""
    link = clocked.link
    wire = clocked.connect()
    link._pause(True)
    link._publish("room/1", b"p", 1, False)
    link._publish("room/2", b"p", 0, False)
    link._flush()
    assert _publishes(wire) == []
    link._pause(False)
    link._flush()
    assert [m.topic for _, m in _publishes(wire)] == ["room/1", "room/2"]


# --- Subscriptions --------------------------------------------------------------------------------------


def test_a_subscription_made_while_down_goes_on_connect_and_one_made_while_up_at_once(clocked: Clocked) -> None:
    link = clocked.link
    link.subscribe("room/a", lambda m: None, no_local=True)
    clocked.turn()  # while down: nothing to send yet
    wire = clocked.connect()
    link._flush()
    subscribes = [body for first, body in wire.packets() if first >> 4 == mqtt5.SUBSCRIBE]
    assert [body[3:] for body in subscribes] == [b"\x00\x06room/a\x05"]  # no_local kept
    stop = link.subscribe("room/b", lambda m: None)
    clocked.turn()
    subscribes = [body for first, body in wire.packets() if first >> 4 == mqtt5.SUBSCRIBE]
    assert [body[3:] for body in subscribes] == [b"\x00\x06room/b\x01"]
    stop()
    clocked.turn()
    assert [(first >> 4, body[3:]) for first, body in wire.packets()] == [(mqtt5.UNSUBSCRIBE, b"\x00\x06room/b")]


def test_unsubscribing_while_down_sends_nothing_and_is_not_replayed(clocked: Clocked) -> None:
    link = clocked.link
    stop = link.subscribe("room/a", lambda m: None)
    link.subscribe("room/b", lambda m: None)
    stop()
    clocked.turn()  # the unsubscribe's turn: nothing to say while down
    connecting = Wire()
    link._made(connecting)  # type: ignore[arg-type]
    link.subscribe("room/c", lambda m: None)()
    clocked.turn()  # nor while connecting: the broker has not said yes yet
    assert [first >> 4 for first, _ in connecting.packets()] == [mqtt5.CONNECT]
    clocked.lose(None)
    wire = clocked.connect()
    link._flush()
    said_ = [(first >> 4, body[3:]) for first, body in wire.packets() if first >> 4 != mqtt5.CONNECT]
    assert said_ == [(mqtt5.SUBSCRIBE, b"\x00\x06room/b\x01")]


def test_an_exact_topic_is_delivered_to_each_of_its_handlers(clocked: Clocked) -> None:
    """Two parts of the hub on one table's topic: both get each message; after one leaves, the other
    still does."""
    link = clocked.link
    first: list[bytes] = []
    second: list[bytes] = []
    link.subscribe("room/t1/event", lambda m: first.append(m.payload))
    link.subscribe("room/t1/event", lambda m: second.append(m.payload))
    clocked.connect()
    link._packets(mqtt5.Reader(1 << 20).feed(mqtt5.publish(b"room/t1/event", b"1", qos=0, retain=False))[0])
    assert first == second == [b"1"]


def test_subscriptions_replayed_on_connect_go_two_hundred_filters_a_packet(clocked: Clocked) -> None:
    """A worker of a big room subscribes to thousands of tables: replayed in SUBSCRIBEs of 200."""
    link = clocked.link
    for k in range(450):
        link.subscribe(f"t/{k}", lambda m: None)
    wire = clocked.connect()
    link._flush()
    subscribes = [body for first, body in wire.packets() if first >> 4 == mqtt5.SUBSCRIBE]
    counts = [body.count(b"t/") for body in subscribes]
    assert counts == [200, 200, 50] and link.pending_subscriptions == 3


def test_a_subscription_removed_twice_leaves_the_others(clocked: Clocked) -> None:
    """A table taken out of the room twice (the TD's command repeated): no error, the other tables'
    subscriptions stay and are the only ones replayed."""
    link = clocked.link
    gone = link.subscribe("room/t1/#", lambda m: None)
    link.subscribe("room/t2/#", lambda m: None)
    gone()
    gone()
    clocked.turn()
    wire = clocked.connect()
    link._flush()
    assert [body[3:] for first, body in wire.packets() if first >> 4 == mqtt5.SUBSCRIBE] == [b"\x00\x09room/t2/#\x01"]


# --- The hub's own pause on reading -----------------------------------------------------------------------


def test_a_pause_on_reading_holds_across_a_reconnect_until_lifted(clocked: Clocked) -> None:
    """The hub stops reading while it catches up; a reconnect meanwhile must not start reading again
    behind its back (the backlog bound would not hold)."""
    link = clocked.link
    wire = clocked.connect()
    link.pause_reading(True)
    assert not wire.reading
    clocked.lose(None)
    wire = clocked.connect()
    assert not wire.reading
    link.pause_reading(False)
    assert wire.reading
    clocked.lose(None)
    assert clocked.connect().reading


def test_stop_returns_promptly_once_the_close_is_written(links: list[HubLink]) -> None:
    """`tapis hub` shutting down (systemd's stop, a TD's Ctrl-C): the link lets the close reach the socket
    (a twentieth of a second), not a second or more, before its loop ends."""
    with FakeBroker(serve_after_connack) as broker:
        link = make_link(links, broker.port)
        link.start()
        started = time.monotonic()
        link.stop()
        assert time.monotonic() - started < 0.9 and not link._thread.is_alive()


def test_a_burst_of_publishes_from_another_thread_costs_one_wake_up_of_the_loop(links: list[HubLink]) -> None:
    """The dashboard or the floor publishing 100 messages at once: the hub's loop is woken once for the
    burst, not 100 times (each wake-up is a write to the loop's self-pipe and a turn of the loop)."""
    link = make_link(links, 1)
    wake_ups: list[object] = []
    link.loop.call_soon_threadsafe = wake_ups.append  # type: ignore[method-assign,assignment]
    for k in range(100):
        link.publish(f"room/{k}", b"p")
    assert wake_ups == [link._take_from_threads] and len(link._from_threads) == 100


def test_an_unsubscribed_table_topic_reaches_its_handler_no_more(clocked: Clocked) -> None:
    """A table leaves the room: its exact topic's handler is gone, what the broker still sends for it
    (already on its way) goes nowhere."""
    link = clocked.link
    got: list[bytes] = []
    stop = link.subscribe("room/t1/event", lambda m: got.append(m.payload))
    clocked.connect()
    stop()
    link._packets(mqtt5.Reader(1 << 20).feed(mqtt5.publish(b"room/t1/event", b"late", qos=0, retain=False))[0])
    assert got == []


def test_the_packets_of_one_turn_leave_in_one_write(clocked: Clocked) -> None:
    """What makes the hub cheap per table event (docs/scale-out.md): the answers of one turn of the
    loop go to the socket together, one system call, not one per packet."""
    link = clocked.link
    wire = clocked.connect()
    link._flush()
    before = wire.writes
    for k in range(5):
        link._publish(f"room/{k}", b"p", 1, False)
    clocked.turn()
    assert wire.writes == before + 1 and len(_publishes(wire)) == 5
    link._publish("room/next", b"p", 1, False)
    clocked.turn()
    assert wire.writes == before + 2


def test_a_packet_identifier_in_use_is_never_given_again_even_when_all_are_taken(clocked: Clocked) -> None:
    """65,535 QoS 1 publishes in flight (a broker allowing that many, never acknowledging): asking one
    more identifier is an error that says so, never an identifier the broker would take for another
    message."""
    link = clocked.link
    link._inflight = {k: ("t", b"", False) for k in range(1, 65_536)}
    with pytest.raises(RuntimeError, match="^no MQTT packet identifier free$"):
        link._new_id()


def test_a_hub_whose_own_code_dies_exits_without_waiting_for_its_link() -> None:
    """A crash in the hub's own code (or a Ctrl-C) once its link's thread runs: the process ends, so
    systemd restarts it, instead of hanging on a loop nobody will stop."""
    code = ("from hub.edge.link import HubLink\n"
            "link = HubLink(client_id='tapis-hub', host='127.0.0.1', port=1)\n"
            "link._thread.start()\n"
            "raise SystemExit(7)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}  # the code this test process imports
    done = subprocess.run([sys.executable, "-c", code], timeout=20, capture_output=True, env=env)
    assert done.returncode == 7, done.stderr


def test_a_broker_that_acknowledges_nothing_makes_the_65536th_publish_wait_not_fail(clocked: Clocked) -> None:
    """No Receive Maximum said (65,535 by the protocol) and no PUBACK coming: 65,535 are in flight,
    each with its own identifier; the next waits for one to be freed, it does not run out of them."""
    link = clocked.link
    clocked.connect()
    for _ in range(65_536):
        link._publish("room/x", b"", 1, False)
    assert len(link._inflight) == 65_535 and len(link._waiting) == 1


def test_a_message_on_a_topic_never_subscribed_is_ignored(clocked: Clocked) -> None:
    """A broker's stray delivery (a retained leftover, a bridge's mistake) on a topic the hub never asked
    for: dropped quietly (acknowledged at QoS 1), the link stays up."""
    link = clocked.link
    wire = clocked.connect()
    link._packets(mqtt5.Reader(1 << 20).feed(mqtt5.publish(b"room/stray", b"x", qos=1, retain=True,
                                                           packet_id=5))[0])
    link._flush()
    assert [p for p in wire.packets() if p[0] >> 4 == mqtt5.PUBACK] == [(mqtt5.PUBACK << 4, struct.pack("!H", 5))]
    assert link.connected and not wire.aborted
