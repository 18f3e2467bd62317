"""A reader board that resets on its own (watchdog, brown-out) mid-hand, its USB link staying open: the
agent sends its settings and StartScan again, once, and the cards still lying there, reported again,
are not new cards. Through the real reader worker, on a fake serial link that records what it is sent."""

from __future__ import annotations

import queue
import threading

import pytest

from firmware_bridge import (
    Decoder,
    FaultCode,
    Frame,
    Heartbeat,
    Hello,
    HostHello,
    ReaderFault,
    ReportAntennas,
    SetScanPeriod,
    StartScan,
    TagSeen,
    encode,
)
from hw.decks import DeckRegistry
from hw.ports import ManualClock
from hw.profile import TableProfile
from table_agent import reader_words as words
from table_agent.agent import TableAgent
from table_agent.board_reset import RETELLS
from table_agent.reader_words import RESTARTED
from tests.pcsc.agent_fakes import RecordingPublisher
from tests.support import wait_until

HELLO = Hello(1, 13, "tapis-ref 1")
REBOOTED = ReaderFault(None, FaultCode.REBOOTED, "watchdog reset")


class FakeSerial:
    """The board's end of the USB link: the test says what the board sends, and reads what it was sent."""

    def __init__(self) -> None:
        self._incoming: queue.Queue[bytes] = queue.Queue()
        self._decoder = Decoder()
        self._lock = threading.Lock()
        self.received: list[Frame] = []

    def board_says(self, *frames: Frame) -> None:
        self._incoming.put(b"".join(encode(f) for f in frames))

    def read(self, size: int = 4096) -> bytes:
        try:
            return self._incoming.get(timeout=0.02)
        except queue.Empty:
            return b""

    def write(self, data: bytes) -> None:
        with self._lock:
            self.received += self._decoder.feed(data)

    def close(self) -> None: ...

    def sent(self) -> list[Frame]:
        with self._lock:
            return list(self.received)


SETTINGS = [SetScanPeriod(50), ReportAntennas(), StartScan()]


@pytest.fixture
def table():  # type: ignore[no-untyped-def]
    registry = DeckRegistry.generate(["t1"])
    profile = TableProfile.default("t1", seats=9)
    clock = ManualClock(100.0)
    link = FakeSerial()
    publisher = RecordingPublisher("t1")
    agent = TableAgent(profile=profile, registry=registry, open_link=lambda: link, publisher=publisher,
                       clock=clock)
    agent.start()
    try:
        assert wait_until(lambda: link.sent() == [HostHello(1), *SETTINGS], 5)
        link.board_says(HELLO)  # the answer to HostHello
        yield agent, link, publisher, registry, clock
    finally:
        agent.stop()


def _handled(agent: TableAgent, link: FakeSerial, *frames: Frame) -> None:
    """The board says these, and the agent has handled them before the test's clock moves on."""
    before = agent.stats.frames
    link.board_says(*frames)
    assert wait_until(lambda: agent.stats.frames == before + len(frames) and agent.idle(), 5)


def _events(publisher: RecordingPublisher, kind: str) -> list[dict[str, object]]:
    return [e for e in publisher.all() if e["type"] == kind]


def test_a_board_reset_mid_hand_is_set_scanning_again_once_and_its_cards_are_not_dealt_twice(table) -> None:  # type: ignore[no-untyped-def]
    agent, link, publisher, registry, clock = table
    uid = {c: bytes.fromhex(registry.uid_of("t1/A", c)) for c in ("As", "Kd", "Qh")}
    link.board_says(Heartbeat(1000, 20), TagSeen(0, uid["As"]), TagSeen(1, uid["Kd"]), Heartbeat(2000, 40))
    assert wait_until(lambda: [e["card"] for e in _events(publisher, "card_arrived")] == ["As", "Kd"], 5)
    assert wait_until(agent.idle, 5)
    assert link.sent() == [HostHello(1), *SETTINGS]  # the asked Hello changes nothing

    link.board_says(HELLO, REBOOTED)  # watchdog: the board forgot its settings and waits, idle
    # (the board's heartbeats now count from its reset: uptime 1000 ms, no scan yet)
    assert wait_until(lambda: link.sent() == [HostHello(1), *SETTINGS, *SETTINGS], 5)
    assert wait_until(lambda: _events(publisher, "reader_status")[-1]["detail"] == RESTARTED, 5)
    status = _events(publisher, "reader_status")[-1]
    assert status["state"] == "connected" and status["firmware"] == "tapis-ref 1"
    # that StartScan was lost on the line: two heartbeats say the board has not scanned since
    for second in (1, 2):
        clock.advance(1.0)
        _handled(agent, link, Heartbeat(second * 1000, 0))
    assert link.sent() == [HostHello(1), *SETTINGS, *SETTINGS, *SETTINGS]  # so they go again
    assert _events(publisher, "card_left") == []  # unknown while it does not read, not gone
    # it reads again: the cards still lying there, reported again, and one dealt after the reset
    clock.advance(0.05)
    link.board_says(TagSeen(0, uid["As"]), TagSeen(1, uid["Kd"]), TagSeen(2, uid["Qh"]), Heartbeat(3000, 1))
    assert wait_until(lambda: [e["card"] for e in _events(publisher, "card_arrived")] == ["As", "Kd", "Qh"], 5)
    for _ in range(20):
        clock.advance(0.05)
        _handled(agent, link, TagSeen(0, uid["As"]), TagSeen(1, uid["Kd"]), TagSeen(2, uid["Qh"]))
    assert _events(publisher, "card_left") == []
    assert _events(publisher, "fault") == []
    assert agent.stats.restarts == 1
    assert link.sent() == [HostHello(1), *SETTINGS, *SETTINGS, *SETTINGS]  # reading: nothing more
    assert [e["state"] for e in _events(publisher, "reader_status")].count("fault") == 0


def test_a_card_taken_while_the_board_was_resetting_leaves_and_one_moved_is_where_it_lies(table) -> None:  # type: ignore[no-untyped-def]
    """The board forgot what it reported: no TagGone comes for a card taken during the reset."""
    agent, link, publisher, registry, clock = table
    uid = {c: bytes.fromhex(registry.uid_of("t1/A", c)) for c in ("As", "Kd")}
    link.board_says(Heartbeat(1000, 20), TagSeen(0, uid["As"]), TagSeen(9, uid["Kd"]), Heartbeat(2000, 40))
    assert wait_until(lambda: len(_events(publisher, "card_arrived")) == 2, 5)
    link.board_says(HELLO, REBOOTED)
    assert wait_until(lambda: agent.stats.restarts == 1, 5)
    for _ in range(20):  # As taken away meanwhile; Kd moved from the board (antenna 9) to seat 3 (antenna 2)
        clock.advance(0.05)
        _handled(agent, link, TagSeen(2, uid["Kd"]), Heartbeat(0, 1))
    assert wait_until(lambda: [(e["zone"], e["card"]) for e in _events(publisher, "card_left")]
                      == [("board", "Kd"), ("seat:1", "As")], 5)
    assert [(e["zone"], e["card"]) for e in _events(publisher, "card_arrived")][2:] == [("seat:3", "Kd")]


@pytest.mark.parametrize("said", [(HELLO,), (REBOOTED,), (HELLO, REBOOTED)],
                         ids=["older-board-hello-only", "hello-lost", "hello-and-rebooted"])
def test_every_way_a_board_says_it_reset_gets_the_settings_once(table, said: tuple[Frame, ...]) -> None:  # type: ignore[no-untyped-def]
    agent, link, publisher, _registry, _clock = table
    link.board_says(Heartbeat(1000, 20))
    assert wait_until(lambda: agent.stats.frames == 2, 5)
    link.board_says(*said)
    assert wait_until(lambda: agent.stats.restarts == 1, 5)
    link.board_says(Heartbeat(1000, 0), Heartbeat(2000, 20))
    assert wait_until(lambda: agent.stats.frames == 4 + len(said), 5)
    assert link.sent() == [HostHello(1), *SETTINGS, *SETTINGS]
    assert agent.stats.restarts == 1
    assert _events(publisher, "reader_status")[-1]["detail"] == RESTARTED


def test_the_boot_hello_of_a_board_that_came_up_with_the_port_is_no_restart() -> None:
    """pyserial may hand over the boot Hello still waiting on the line, then the answer to HostHello."""
    registry = DeckRegistry.generate(["t1"])
    link = FakeSerial()
    link.board_says(HELLO)  # its boot Hello, already there
    publisher = RecordingPublisher("t1")
    agent = TableAgent(profile=TableProfile.default("t1", seats=9), registry=registry, open_link=lambda: link,
                       publisher=publisher, clock=ManualClock(100.0))
    agent.start()
    try:
        assert wait_until(lambda: agent.stats.frames == 1, 5)
        link.board_says(HELLO, Heartbeat(1000, 20))
        assert wait_until(lambda: agent.stats.frames == 3 and agent.idle(), 5)
        assert agent.stats.restarts == 0
        assert RESTARTED not in [e["detail"] for e in _events(publisher, "reader_status")]
        assert link.sent()[:4] == [HostHello(1), *SETTINGS]
    finally:
        agent.stop()


def test_a_board_that_will_not_scan_however_often_told_is_a_fault_until_it_scans(table) -> None:  # type: ignore[no-untyped-def]
    """A reset board that never takes StartScan (a fault the agent cannot mend by writing to it): after
    three tries the agent stops asking and the reader is « en défaut », with what to do, so that the TD
    knows the table reads no card; once the board scans again, it says so."""
    agent, link, publisher, registry, clock = table
    link.board_says(Heartbeat(1000, 20))
    link.board_says(HELLO, REBOOTED)
    assert wait_until(lambda: link.sent() == [HostHello(1), *SETTINGS, *SETTINGS], 5)
    second = 1
    while not _events(publisher, "reader_status") or _events(publisher, "reader_status")[-1]["state"] != "fault":
        assert second <= 2 * RETELLS + 2, "the board's idleness was never said"
        clock.advance(1.0)
        _handled(agent, link, Heartbeat(second * 1000, 0))
        second += 1
    assert link.sent() == [HostHello(1), *SETTINGS, *SETTINGS] + [*SETTINGS] * RETELLS
    status = _events(publisher, "reader_status")[-1]
    assert status["detail"] == words.board_idle(RETELLS) and status["firmware"] == "tapis-ref 1"
    assert "la débrancher puis la rebrancher" in str(status["detail"])
    for _ in range(3):  # said once, and nothing more written to a board that will not listen
        clock.advance(1.0)
        _handled(agent, link, Heartbeat(second * 1000, 0))
        second += 1
    # (the outbox sends again what the hub has not acknowledged: one status is one seq)
    idle = {e["seq"] for e in _events(publisher, "reader_status") if e["detail"] == words.board_idle(RETELLS)}
    assert len(idle) == 1
    assert len(link.sent()) == 1 + 3 * (2 + RETELLS)
    clock.advance(1.0)
    _handled(agent, link, Heartbeat(second * 1000, 1))  # someone restarted it by hand: it scans
    status = _events(publisher, "reader_status")[-1]
    assert (status["state"], status["detail"]) == ("connected", words.board_scans_again())
