"""The PC/SC backend on the shipped fake pcscd: what frames a placed, swapped, lifted, refused card
and an unplugged reader give, and a pcscd restart rebuilding the context."""

from __future__ import annotations

import queue
import time

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule

from firmware_bridge import FaultCode, Heartbeat, Hello, ReaderFault, TagGone, TagSeen
from hw.errors import ConfigError, LinkError
from hw.pcsc import CardReadError, FakePcsc, PcscServiceError, parse_uid_response
from hw.pcsc_worker import PcscReaderWorker, PcscScanner, pcsc_worker_factory
from hw.ports import ManualClock, MonotonicClock
from table_agent.reader import FramesRead, LinkChanged

SEAT1, BOARD = "ACS ACR122U PICC Interface 00 00", "ACS ACR122U PICC Interface 01 00"
ANTENNAS = {SEAT1: 0, BOARD: 9}
AS = bytes.fromhex("04A1B2C3")  # 4-byte single-size UID
KD = bytes.fromhex("04112233445566")  # 7-byte double-size UID


def scanner(fake: FakePcsc) -> PcscScanner:
    return PcscScanner(port=fake.open(), antennas=ANTENNAS)


def test_uid_response_is_parsed_and_refusals_are_errors() -> None:
    assert parse_uid_response(AS + b"\x90\x00") == AS
    for bad, why in [(b"\x6A\x81", "6A81"), (b"\x90", "too short"), (b"\x90\x00", "no UID")]:
        with pytest.raises(CardReadError, match=why):
            parse_uid_response(bad)
    assert issubclass(CardReadError, OSError) and issubclass(PcscServiceError, LinkError)


def test_hello_counts_antennas_up_to_the_highest_number() -> None:
    s = scanner(FakePcsc([SEAT1, BOARD]))
    assert s.hello == Hello(1, 10, "pcsc 2 readers")


def test_a_card_is_seen_every_scan_read_once_and_gone_when_lifted() -> None:
    fake = FakePcsc([SEAT1, BOARD])
    s = scanner(fake)
    assert s.scan() == []
    fake.place(SEAT1, AS)
    assert s.scan() == [TagSeen(0, AS)]
    assert s.scan() == [TagSeen(0, AS)]  # repeated at the scan period, as a board does
    assert fake.reads == 1  # the UID command is sent once per placement, not every poll
    fake.place(BOARD, KD)
    assert s.scan() == [TagSeen(0, AS), TagSeen(9, KD)]
    fake.remove(SEAT1)
    assert s.scan() == [TagGone(0, AS), TagSeen(9, KD)]
    assert s.scan() == [TagSeen(9, KD)]
    assert fake.reads == 2


def test_a_card_swapped_between_two_polls_is_gone_then_the_new_one_seen() -> None:
    fake = FakePcsc([SEAT1, BOARD])
    s = scanner(fake)
    fake.place(SEAT1, AS)
    s.scan()
    fake.remove(SEAT1)
    fake.place(SEAT1, KD)  # the event counter moved by two: the slot never looked different
    assert s.scan() == [TagGone(0, AS), TagSeen(0, KD)]


def test_an_unplugged_reader_is_reported_once_and_its_card_unread_never_gone() -> None:
    """Issue #33: a reader's USB cable out says nothing about its card; back, the card is read again
    and compared: the same card is only seen, one taken meanwhile is gone, one swapped is both."""
    fake = FakePcsc([SEAT1, BOARD])
    s = scanner(fake)
    fake.place(BOARD, KD)
    s.scan()
    fake.unplug(BOARD)
    fault = ReaderFault(9, FaultCode.ANTENNA_OPEN, "unplugged: ..ICC Interface 01 00")
    assert s.scan() == [fault]
    assert s.scan() == []
    fake.plug(BOARD)
    assert s.scan() == [TagSeen(9, KD)]
    assert fake.reads == 2  # read again and compared, not assumed
    fake.unplug(BOARD)
    assert s.scan() == [fault]
    fake.remove(BOARD)  # taken while the reader was out
    assert s.scan() == []
    fake.plug(BOARD)
    assert s.scan() == [TagGone(9, KD)]
    fake.place(BOARD, KD)
    s.scan()
    fake.unplug(BOARD)
    s.scan()
    fake.remove(BOARD)
    fake.place(BOARD, AS)  # swapped while the reader was out
    fake.plug(BOARD)
    assert s.scan() == [TagGone(9, KD), TagSeen(9, AS)]


def test_a_reader_absent_at_start_is_a_fault_and_unmapped_readers_are_listed() -> None:
    fake = FakePcsc([SEAT1, "Some Other Reader 00 00"])
    s = scanner(fake)
    assert s.scan() == [ReaderFault(9, FaultCode.ANTENNA_OPEN, "unplugged: ..ICC Interface 01 00")]
    assert s.unmapped == {"Some Other Reader 00 00"}


def test_a_refused_uid_is_one_fault_and_is_retried_next_scan() -> None:
    fake = FakePcsc([SEAT1, BOARD])
    s = scanner(fake)
    fake.place(SEAT1, AS)
    fake.refuse(SEAT1, 0x6A81)
    assert s.scan() == [ReaderFault(0, FaultCode.READER_TIMEOUT, "GET UID refused, status 6A81")]
    assert s.scan() == [TagSeen(0, AS)]


def test_a_uid_of_a_length_protocol_v1_cannot_carry_is_a_fault() -> None:
    fake = FakePcsc([SEAT1, BOARD])
    s = scanner(fake)
    fake.place(SEAT1, bytes(8))  # an ISO 15693 tag's 8-byte UID
    assert s.scan() == [ReaderFault(0, FaultCode.READER_TIMEOUT, "UID of 8 bytes, not 4/7/10")]
    assert s.scan() == []  # same placement: not reported again


def test_a_stopped_pcscd_kills_the_context() -> None:
    fake = FakePcsc([SEAT1])
    s = PcscScanner(port=fake.open(), antennas={SEAT1: 0})
    fake.stop()
    with pytest.raises(PcscServiceError, match="not running"):
        s.scan()
    with pytest.raises(PcscServiceError):
        fake.open()
    fake.start()
    with pytest.raises(PcscServiceError, match="no longer valid"):
        s.scan()  # a context from before the restart stays dead
    assert PcscScanner(port=fake.open(), antennas={SEAT1: 0}).scan() == []


@pytest.mark.parametrize("table, why", [({}, "no reader"), ({"a": 1, "b": 1}, "two readers"),
                                        ({"a": 255}, "not in 0..254")])
def test_a_wrong_reader_table_is_refused(table: dict[str, int], why: str) -> None:
    with pytest.raises(ConfigError, match=why):
        PcscReaderWorker(open_pcsc=FakePcsc().open, readers=table, out=queue.Queue(), clock=ManualClock())


def drain(out: queue.Queue[object], until, timeout: float = 5.0) -> list[object]:  # type: ignore[no-untyped-def]
    got: list[object] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            item = out.get(timeout=0.05)
        except queue.Empty:
            continue
        got.append(item)
        if until(item):
            return got
    raise AssertionError(f"timed out after {got[-10:]}")


def frames_of(items: list[object]) -> list[object]:
    return [f for i in items if isinstance(i, FramesRead) for f in i.frames]


def test_the_worker_feeds_the_agent_queue_and_survives_a_pcscd_restart() -> None:
    fake = FakePcsc([SEAT1, BOARD])
    out: queue.Queue[object] = queue.Queue()
    worker = PcscReaderWorker(open_pcsc=fake.open, readers=ANTENNAS, out=out, clock=MonotonicClock(),
                              scan_period_ms=10)
    worker.start()
    try:
        first = drain(out, lambda i: isinstance(i, FramesRead))
        assert isinstance(first[0], LinkChanged) and first[0].up
        assert first[1].frames == [Hello(1, 10, "pcsc 2 readers")]  # type: ignore[attr-defined]
        fake.place(SEAT1, AS)
        drain(out, lambda i: isinstance(i, FramesRead) and TagSeen(0, AS) in i.frames)
        items = drain(out, lambda i: isinstance(i, FramesRead) and any(isinstance(f, Heartbeat) for f in i.frames))
        assert all(f == TagSeen(0, AS) or isinstance(f, Heartbeat) for f in frames_of(items))
        fake.stop()
        lost = drain(out, lambda i: isinstance(i, LinkChanged))[-1]
        assert isinstance(lost, LinkChanged) and not lost.up and "pcscd is not running" in lost.detail
        fake.start()
        back = drain(out, lambda i: isinstance(i, FramesRead) and TagSeen(0, AS) in i.frames)
        assert any(isinstance(i, LinkChanged) and i.up for i in back)
        assert worker.connections == 2
    finally:
        worker.stop()


def test_the_factory_builds_a_worker_from_the_agents_keywords() -> None:
    fake = FakePcsc([SEAT1])
    build = pcsc_worker_factory({SEAT1: 0}, open_pcsc=fake.open)
    out: queue.Queue[object] = queue.Queue()
    worker = build(out=out, clock=MonotonicClock(), scan_period_ms=10, name="reader-t1")
    fake.place(SEAT1, AS)
    worker.start()
    try:
        drain(out, lambda i: isinstance(i, FramesRead) and TagSeen(0, AS) in i.frames)
    finally:
        worker.stop()
    with pytest.raises(ConfigError):
        pcsc_worker_factory({})


class FakeTable(RuleBasedStateMachine):
    """Any sequence of placements, lifts, swaps, unplugs and replugs: after every scan the frames say
    exactly what changed, and a card lying on a plugged reader is seen on every scan."""

    def __init__(self) -> None:
        super().__init__()
        self.names = ["r0", "r1", "r2"]
        self.fake = FakePcsc(self.names)
        self.scanner = PcscScanner(port=self.fake.open(), antennas={n: i for i, n in enumerate(self.names)})
        self.cards: dict[str, bytes | None] = dict.fromkeys(self.names)
        self.plugged = set(self.names)
        self.reported: dict[int, bytes] = {}

    @rule(reader=st.integers(0, 2), uid=st.sampled_from([AS, KD, bytes.fromhex("04000001")]))
    def place(self, reader: int, uid: bytes) -> None:
        name = self.names[reader]  # plugged or not: cards move on the felt whatever the cables do
        self.fake.place(name, uid)
        self.cards[name] = uid

    @rule(reader=st.integers(0, 2))
    def lift(self, reader: int) -> None:
        name = self.names[reader]
        self.fake.remove(name)
        self.cards[name] = None

    @rule(reader=st.integers(0, 2))
    def unplug_or_replug(self, reader: int) -> None:
        name = self.names[reader]
        if name in self.plugged:
            self.fake.unplug(name)
            self.plugged.discard(name)
        else:
            self.fake.plug(name)
            self.plugged.add(name)

    @rule()
    def scan(self) -> None:
        frames = self.scanner.scan()
        seen = {f.antenna: f.uid for f in frames if isinstance(f, TagSeen)}
        gone = {(f.antenna, f.uid) for f in frames if isinstance(f, TagGone)}
        expected = {i: self.cards[n] for i, n in enumerate(self.names) if n in self.plugged and self.cards[n]}
        assert seen == expected
        unread = {i for i, n in enumerate(self.names) if n not in self.plugged}
        for antenna, uid in self.reported.items():  # an unplugged reader's card is unread, never gone
            assert ((antenna, uid) in gone) == (antenna not in unread and expected.get(antenna) != uid)
        assert all((a, u) in self.reported.items() for a, u in gone)  # never gone without being seen
        self.reported = {a: u for a, u in self.reported.items() if a in unread}
        self.reported.update(expected)  # type: ignore[arg-type]


TestFakeTable = FakeTable.TestCase
