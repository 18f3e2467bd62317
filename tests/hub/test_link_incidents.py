"""The hub's MQTT link on a bad night (issue 29, round two): what the log says of each incident (the
only account a club's technician gets of it the next morning), how soon and how often the link
knocks again, and the bounds on what it keeps. A broker of the tests' own (`fake_broker`), or the
link's loop driven directly where only its timing is in question."""

from __future__ import annotations

import asyncio
import re
import struct

import pytest

from hub.edge import mqtt5
from hub.edge.link import HubLink
from tests.hub.fake_broker import Conn, FakeBroker, connack
from tests.hub.link_harness import Clocked, Wire, clocked, kinds, links, make_link, said
from tests.support import wait_until

__all__ = ["clocked", "links"]  # fixtures


# --- Refusals and drops: said once, not once per publish ---------------------------------------------


def test_a_refused_publish_is_logged_at_its_first_refusal_and_only_then(
        links: list[HubLink], caplog: pytest.LogCaptureFixture) -> None:
    """A broker whose ACL refuses the hub a topic: the technician reads it the first time, and the log
    does not fill with one line per refusal (they are counted instead)."""
    async def script(conn: Conn) -> None:
        await conn.read()
        conn.send(connack())
        while (packet := await conn.read()) is not None:
            first, body = packet
            if first >> 4 == mqtt5.PUBLISH:
                refused = mqtt5.read_publish(first, body)
                conn.send(b"\x40\x03" + struct.pack("!H", refused.packet_id) + b"\x87")  # Not authorized

    line = "tapis-hub: the broker refused a publish on room/secret: Not authorized"
    with FakeBroker(script) as broker:
        link = make_link(links, broker.port)
        link.start()
        link.publish("room/secret", b"1")
        assert wait_until(lambda: link.publish_refused == {("room/secret", "Not authorized"): 1})
        assert said(caplog) == [line]  # at the first
        link.publish("room/secret", b"2")
        link.publish("room/secret", b"3")
        assert wait_until(lambda: link.publish_refused == {("room/secret", "Not authorized"): 3})
        assert said(caplog) == [line]  # and only then


def test_publishes_dropped_over_the_bound_are_logged_at_the_first_then_every_ten_thousand(
        caplog: pytest.LogCaptureFixture) -> None:
    """A broker down for long: what waits for it is bounded, and the drops are said with their count,
    the bound and the last topic, without a line per drop."""
    link = HubLink(client_id="tapis-hub", host="127.0.0.1", port=1, max_waiting=3)
    try:
        for k in range(3 + 20_001):
            link._publish(f"t/{k}", b"p", 1, False)  # as on the loop's thread, not connected: QoS 1 waits
    finally:
        link.loop.close()
    assert link.dropped == 20_001 and [t for t, *_ in link._waiting] == ["t/0", "t/1", "t/2"]
    assert said(caplog) == [
        "tapis-hub: 1 publish(es) dropped: 3 already wait for the broker (last on t/3)",
        "tapis-hub: 10000 publish(es) dropped: 3 already wait for the broker (last on t/10002)",
        "tapis-hub: 20000 publish(es) dropped: 3 already wait for the broker (last on t/20002)",
    ]


# --- Knocking again: soon at first, then less often --------------------------------------------------


class _Knocks:
    """The link's loop with its TCP connections refused (or left hanging) and its waits recorded, not
    waited: the schedule of a link whose broker is not up."""

    def __init__(self, link: HubLink, monkeypatch: pytest.MonkeyPatch, *, attempts: int,
                 hang_first: bool = False) -> None:
        self.waits: list[float] = []
        self.tried = 0
        real_sleep = asyncio.sleep

        async def sleep(delay: float) -> None:
            self.waits.append(delay)
            await real_sleep(0)

        async def connect(*_args: object, **_kw: object) -> None:
            self.tried += 1
            if self.tried == attempts:
                link._stopping = True  # the last: stop knocking after it
            if hang_first and self.tried == 1:
                await asyncio.Event().wait()  # accepted by nobody, refused by nobody: the timeout decides
            raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 1)")

        monkeypatch.setattr(asyncio, "sleep", sleep)
        monkeypatch.setattr(link.loop, "create_connection", connect)


def test_a_broker_not_up_yet_is_tried_again_at_once_then_less_and_less_often(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A hub started before its broker: the first retry after 0.05 s, doubling up to 2 s between tries
    (back within 2 s of the broker, without knocking 20 times a second); the log says it once."""
    link = HubLink(client_id="tapis-hub", host="127.0.0.1", port=1)
    knocks = _Knocks(link, monkeypatch, attempts=9)
    try:
        link.loop.run_until_complete(link._connect_until_up(first=True))
    finally:
        link.loop.close()
    assert knocks.waits == [0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 2.0, 2.0, 2.0]
    assert said(caplog) == ["tapis-hub: no connection to mqtt://127.0.0.1:1 yet: "
                             "[Errno 111] Connect call failed ('127.0.0.1', 1)"]
    assert link._last_error == "[Errno 111] Connect call failed ('127.0.0.1', 1)"


def test_after_a_lost_connection_the_first_knock_waits_the_links_backoff(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Reconnecting (not the first start): wait the backoff `_lost` chose before the first try, then
    double from there; said by `_lost`, not once more per try."""
    link = HubLink(client_id="tapis-hub", host="127.0.0.1", port=1)
    link._retry = 0.4
    knocks = _Knocks(link, monkeypatch, attempts=4)
    try:
        link.loop.run_until_complete(link._connect_until_up())
    finally:
        link.loop.close()
    assert knocks.waits == [0.4, 0.4, 0.8, 1.6, 2.0]
    assert said(caplog) == []


def test_start_says_the_broker_never_accepted_the_tcp_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    """A broker host that drops SYNs (a firewall): the try is cut at `connect_timeout` and the reason
    says so, rather than an empty error."""
    link = HubLink(client_id="tapis-hub", host="127.0.0.1", port=1, connect_timeout=0.05)
    _Knocks(link, monkeypatch, attempts=1, hang_first=True)
    try:
        link.loop.run_until_complete(link._connect_until_up(first=True))
    finally:
        link.loop.close()
    assert link._last_error == "no TCP connection within 0.05 s"


# --- A lost connection: what is said, and how soon the link is back -----------------------------------


def test_a_connection_lost_after_a_long_while_is_said_and_knocked_again_at_once(
        clocked: Clocked, caplog: pytest.LogCaptureFixture) -> None:
    """Up for minutes, then the broker restarts: the log says the loss and why, and the first knock
    is the shortest wait (0.05 s), whatever backoff came before."""
    link = clocked.link
    clocked.connect()
    clocked.lose(None)  # at once: backs off (0.1 s)
    clocked.connect()
    clocked.now += 120.0
    clocked.lose(ConnectionResetError("Connection reset by peer"))
    assert said(caplog)[-1] == ("tapis-hub: connection to the broker lost (Connection reset by peer); "
                                 "connecting again")
    assert link._retry == 0.05 and not link.connected
    clocked.connect()
    clocked.lose(None)  # at once: backs off again
    clocked.connect()
    clocked.now += 2.0  # held exactly the longest wait between tries: long enough
    clocked.lose(None)  # closed cleanly by the broker: no reason to give
    assert link._retry == 0.05
    assert said(caplog)[-1] == "tapis-hub: connection to the broker lost; connecting again"


def test_a_connection_lost_right_after_it_was_made_is_said_with_its_age_and_backed_off(
        clocked: Clocked, caplog: pytest.LogCaptureFixture) -> None:
    """A broker that drops the hub as soon as it said yes (an ACL, another process on our client id):
    said with how long it lasted, and each loss in a row doubles the wait, up to 2 s."""
    link = clocked.link
    clocked.connect()
    clocked.now += 0.5
    clocked.lose(ConnectionResetError("Connection reset by peer"))
    clocked.connect()
    clocked.now += 1.94
    clocked.lose(None)
    assert said(caplog) == [
        "tapis-hub: connection to the broker lost 0.5 s after it was made (Connection reset by peer); "
        "connecting again",
        "tapis-hub: connection to the broker lost 1.9 s after it was made; connecting again"]
    assert link._retry == 0.2
    for _ in range(6):
        clocked.connect()
        clocked.lose(None)
    assert link._retry == 2.0


def test_a_connection_closed_before_the_broker_said_yes_is_backed_off_quietly(
        clocked: Clocked, caplog: pytest.LogCaptureFixture) -> None:
    link = clocked.link
    link._made(Wire())  # type: ignore[arg-type]
    clocked.now += 30.0
    clocked.lose(ConnectionResetError("Connection reset by peer"))
    assert said(caplog) == [] and link._retry == 0.1


def test_a_takeover_after_a_long_quiet_connection_backs_off_from_one_second_again(
        clocked: Clocked, caplog: pytest.LogCaptureFixture) -> None:
    """Two hubs on one client id back off 1, 2, 4 s...; once the other is gone and the connection held,
    a takeover weeks later starts at 1 s again, not where the last fight ended."""
    link = clocked.link
    for _ in range(3):
        clocked.connect()
        link._packets([(mqtt5.DISCONNECT << 4, bytes((mqtt5.SESSION_TAKEN_OVER, 0)))])
        clocked.lose(None)
    assert link._retry == 4.0
    clocked.connect()
    clocked.now += 3600.0
    clocked.lose(None)  # a broker restart, long after
    clocked.connect()
    link._packets([(mqtt5.DISCONNECT << 4, bytes((mqtt5.SESSION_TAKEN_OVER, 0)))])
    clocked.lose(None)
    assert link._retry == 1.0
    assert said(caplog)[-1] == ("tapis-hub: another client connected with this client id and took the session "
                                 "(1 time(s) in a row): two processes share the id; connecting again in 1 s")


def test_takeovers_in_a_row_wait_at_most_a_minute(clocked: Clocked) -> None:
    link = clocked.link
    waits = []
    for _ in range(9):
        clocked.connect()
        link._packets([(mqtt5.DISCONNECT << 4, bytes((mqtt5.SESSION_TAKEN_OVER, 0)))])
        clocked.lose(None)
        waits.append(link._retry)
    assert waits == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0, 60.0]


# --- Keepalive: pings while the broker answers, a silent one left -----------------------------------


def test_pings_go_every_half_keepalive_and_a_silent_broker_is_left_after_one_and_a_half(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Keepalive 10 s: a PINGREQ every 5 s; a broker that answers nothing for more than 15 s (a
    half-open line after a switch reboot) is hung up on and said; exactly 15 s is not yet silence."""
    clocked = Clocked(monkeypatch, keepalive=10)
    link = clocked.link
    try:
        wire = clocked.connect()
        wire.packets()
        assert link._ping is not None and link._ping.when() == 105.0
        clocked.now = 105.0
        link._pinger()
        link._flush()
        assert kinds(wire) == [mqtt5.PINGREQ] and link._ping.when() == 110.0
        clocked.now = 115.0  # 15 s since CONNACK, the last word heard
        link._pinger()
        link._flush()
        assert kinds(wire) == [mqtt5.PINGREQ] and not wire.aborted
        clocked.now = 115.6
        link._pinger()
        assert wire.aborted
        assert said(caplog) == ["tapis-hub: no answer from the broker for 16 s; connecting again"]
    finally:
        clocked.close()


def test_what_the_broker_says_postpones_silence(monkeypatch: pytest.MonkeyPatch) -> None:
    clocked = Clocked(monkeypatch, keepalive=10)
    link = clocked.link
    try:
        wire = clocked.connect()
        clocked.now = 112.0
        link._packets([(mqtt5.PINGRESP << 4, b"")])
        clocked.now = 126.0  # 26 s after CONNACK, 14 after the PINGRESP
        link._pinger()
        assert not wire.aborted
    finally:
        clocked.close()


def test_the_brokers_server_keep_alive_sets_the_pings_of_that_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    """A broker that says Server Keep Alive 4 (EMQX can): pings every 2 s on that connection, not every
    30 s from the hub's 60, which would get it dropped."""
    clocked = Clocked(monkeypatch, keepalive=60)
    link = clocked.link
    try:
        props = bytes((mqtt5.SERVER_KEEP_ALIVE,)) + struct.pack("!H", 4)
        clocked.connect(b"\x00\x00" + mqtt5.varint(len(props)) + props)
        assert link._ping is not None and link._ping.when() == 102.0
    finally:
        clocked.close()


def test_a_keepalive_of_0_sends_no_pings(monkeypatch: pytest.MonkeyPatch) -> None:
    clocked = Clocked(monkeypatch, keepalive=0)
    try:
        clocked.connect()
        assert clocked.link._ping is None
    finally:
        clocked.close()


def test_while_the_hub_does_not_read_the_link_pings_and_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hub paused reading (its backlog): the broker's answers wait unread, which is not silence."""
    clocked = Clocked(monkeypatch, keepalive=10)
    link = clocked.link
    try:
        wire = clocked.connect()
        wire.packets()
        link.pause_reading(True)
        for now in (105.0, 110.0, 115.0, 120.0, 125.0, 130.0):
            clocked.now = now
            link._pinger()
        link._flush()
        assert kinds(wire) == [mqtt5.PINGREQ] * 6 and not wire.aborted
        link.pause_reading(False)
        clocked.now = 145.0  # 15 s after the last ping while paused
        link._pinger()
        assert not wire.aborted
    finally:
        clocked.close()


def test_a_connection_the_broker_resets_is_logged_with_the_sockets_reason(
        links: list[HubLink], caplog: pytest.LogCaptureFixture) -> None:
    """The broker's host drops the hub with a reset (a crash, a firewall): the log line carries the
    socket's own reason, which tells a technician a reset from a clean close."""
    async def script(conn: Conn) -> None:
        await conn.read()
        conn.send(connack())
        if conn.index == 0:
            await conn.read()  # the SUBSCRIBE: CONNACK was heard
            conn.reset()
            return
        await conn.serve()

    with FakeBroker(script) as broker:
        link = make_link(links, broker.port)
        link.subscribe("room/in", lambda m: None)
        link.start()
        assert wait_until(lambda: len(broker.connections) == 2 and link.connected)
        lost = [m for m in said(caplog) if "connection to the broker lost" in m]
    assert len(lost) == 1 and re.fullmatch(r"tapis-hub: connection to the broker lost \d+\.\d s after it was made "
                                           r"\(.*[Rr]eset.*\); connecting again", lost[0]), lost


def test_a_hub_started_before_its_broker_says_so_in_the_log_at_once(caplog: pytest.LogCaptureFixture) -> None:
    """`tapis hub` started while Mosquitto is still coming up: the first failed try is in the log at once
    (not after a backoff), naming the broker and why."""
    with FakeBroker(lambda conn: asyncio.sleep(0)) as broker:
        port = broker.port
    link = HubLink(client_id="tapis-hub", host="127.0.0.1", port=port)  # nobody listens there any more
    with pytest.raises(ConnectionError):
        link.start(timeout=0.5)
    first = [m for m in said(caplog) if "yet:" in m]
    assert len(first) == 1 and first[0].startswith(f"tapis-hub: no connection to mqtt://127.0.0.1:{port} yet: ")
