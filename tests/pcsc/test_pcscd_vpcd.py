"""The PC/SC backend against a real pcscd: vsmartcard's vpcd reader driver, our virtual card on its
socket answering FF CA 00 00 00, cards placed and lifted, readers renamed away, pcscd restarted."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence

from firmware_bridge import FaultCode, Hello, ReaderFault, TagGone, TagSeen
from hw.decks import DeckRegistry
from hw.pcsc import CardReadError, CardState, PcscPort, PyscardPort
from hw.pcsc_worker import PcscReaderWorker
from hw.ports import MonotonicClock
from hw.profile import TableProfile
from simulators.vcard import PrivatePcscd, VirtualCard, respond
from table_agent.agent import TableAgent
from table_agent.reader import FramesRead, LinkChanged
from tests.pcsc.agent_fakes import RecordingPublisher

AS = bytes.fromhex("04A1B2C3")
KD = bytes.fromhex("04112233445566")


def eventually(check: Callable[[], bool], timeout: float = 5.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not reached in {timeout} s")
        time.sleep(0.02)


def test_the_virtual_card_answers_like_a_contactless_reader() -> None:
    assert respond(bytes.fromhex("FFCA000000"), AS) == AS + b"\x90\x00"
    assert respond(bytes.fromhex("FFCA000007"), KD) == KD + b"\x90\x00"
    assert respond(bytes.fromhex("FFCA000004"), KD) == b"\x6C\x07"  # Le too short: the right one
    assert respond(bytes.fromhex("FFCA010000"), AS) == b"\x6A\x81"
    assert respond(bytes.fromhex("00A4040000"), AS) == b"\x6E\x00"
    assert respond(bytes.fromhex("FFB0000010"), AS) == b"\x6D\x00"
    assert respond(b"\xff", AS) == b"\x67\x00"


def test_pyscard_port_reads_the_uid_by_get_data(pcscd: PrivatePcscd) -> None:
    port = PyscardPort()
    try:
        assert port.readers() == ["tapis vpcd 00 00", "tapis vpcd 00 01"]
        assert port.states(pcscd.names) == {n: CardState(False, 0) for n in pcscd.names}
        card = VirtualCard(KD, port=pcscd.ports[1]).place()
        eventually(lambda: port.states(pcscd.names)[pcscd.names[1]].present, what="card present")
        assert port.read_uid(pcscd.names[1]) == KD
        assert card.apdus == [bytes.fromhex("FFCA000000")]
        assert 4 in card.controls  # vpcd asked for the ATR to see the card
        events = port.states(pcscd.names)[pcscd.names[1]].events
        card.remove()
        eventually(lambda: not port.states(pcscd.names)[pcscd.names[1]].present, what="card lifted")
        assert port.states(pcscd.names)[pcscd.names[1]].events > events
    finally:
        port.close()


def collect(out: queue.Queue[object], until: Callable[[object], bool], timeout: float = 6.0) -> list[object]:
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
    raise AssertionError(f"timed out; last items {got[-5:]}")


def has(frame: object) -> Callable[[object], bool]:
    return lambda item: isinstance(item, FramesRead) and frame in item.frames


def test_worker_places_lifts_survives_a_pcscd_restart_and_an_unplugged_reader(pcscd: PrivatePcscd) -> None:
    out: queue.Queue[object] = queue.Queue()
    seat, board = pcscd.names
    worker = PcscReaderWorker(open_pcsc=PyscardPort, readers={seat: 0, board: 9}, out=out,
                              clock=MonotonicClock(), scan_period_ms=20)
    cards = [VirtualCard(AS, port=pcscd.ports[0]), VirtualCard(KD, port=pcscd.ports[1])]
    worker.start()
    try:
        opened = collect(out, lambda i: isinstance(i, FramesRead))
        assert isinstance(opened[0], LinkChanged) and opened[0].up
        assert opened[-1].frames == [Hello(1, 10, "pcsc 2 readers")]  # type: ignore[attr-defined]
        cards[0].place()
        collect(out, has(TagSeen(0, AS)))
        cards[1].place()
        collect(out, has(TagSeen(9, KD)))
        cards[0].remove()
        collect(out, has(TagGone(0, AS)))
        assert cards[1].apdus == [bytes.fromhex("FFCA000000")]  # read once, though seen every scan

        pcscd.restart()  # the card on the board stays placed and reconnects to the new pcscd
        lost = collect(out, lambda i: isinstance(i, LinkChanged))[-1]
        assert isinstance(lost, LinkChanged) and not lost.up
        back = collect(out, has(TagSeen(9, KD)), timeout=10)
        assert any(isinstance(i, LinkChanged) and i.up for i in back)
        assert worker.connections == 2

        pcscd.restart(friendly="other reader")  # the mapped readers are gone from PC/SC
        faults = collect(out, lambda i: isinstance(i, FramesRead)
                         and ReaderFault(9, FaultCode.ANTENNA_OPEN, "unplugged: tapis vpcd 00 01") in i.frames,
                         timeout=10)
        assert worker.scanner is not None and worker.scanner.unmapped == {"other reader 00 00", "other reader 00 01"}
        assert not any(isinstance(i, FramesRead) and TagSeen(9, KD) in i.frames
                       for i in faults[faults.index(next(i for i in faults if isinstance(i, LinkChanged) and i.up)):])
    finally:
        worker.stop()
        for card in cards:
            card.remove()


def test_a_card_on_a_pcsc_reader_reaches_the_agent_as_card_arrived(pcscd: PrivatePcscd) -> None:
    registry = DeckRegistry.generate(["t1"])
    ace = bytes.fromhex(registry.uid_of("t1/A", "As"))
    profile = TableProfile.default("t1", seats=2)  # antennas 0, 1 seats; 2 board
    publisher = RecordingPublisher("t1")
    published = publisher.events

    clock = MonotonicClock()
    agent = TableAgent(profile=profile, registry=registry, publisher=publisher, clock=clock,
                       open_link=lambda: (_ for _ in ()).throw(OSError("unused")))
    # the factory the CLI will choose from the profile: same queue, same clock
    agent.reader = PcscReaderWorker(open_pcsc=PyscardPort, readers={pcscd.names[0]: 0, pcscd.names[1]: 2},
                                    out=agent._inbox, clock=clock, scan_period_ms=50)
    card = VirtualCard(ace, port=pcscd.ports[1])
    agent.start()
    try:
        def next_of(kind: str) -> dict[str, object]:
            deadline = time.monotonic() + 8
            while time.monotonic() < deadline:
                try:
                    event = published.get(timeout=0.1)
                except queue.Empty:
                    continue
                if event["type"] == kind:
                    return event
            raise AssertionError(f"no {kind} event")

        reader = next_of("reader_status")
        assert reader["state"] == "connected" and reader["antennas"] == 3
        card.place()
        arrived = next_of("card_arrived")
        assert (arrived["zone"], arrived["card"], arrived["uid"]) == ("board", "As", ace.hex().upper())
        card.remove()
        left = next_of("card_left")
        assert (left["zone"], left["card"]) == ("board", "As")
    finally:
        agent.stop()
        card.remove()


class UsbCables:
    """The USB cables between the Pi and its readers, over the real pcscd: a reader unplugged is no
    longer listed by PC/SC, as pcscd does when its USB device goes (vpcd's readers cannot leave)."""

    def __init__(self) -> None:
        self.unplugged: set[str] = set()
        self._lock = threading.Lock()

    def open(self) -> PcscPort:
        return _CabledPort(PyscardPort(), self)

    def unplug(self, name: str) -> None:
        with self._lock:
            self.unplugged.add(name)

    def plug(self, name: str) -> None:
        with self._lock:
            self.unplugged.discard(name)

    def out(self, name: str) -> bool:
        with self._lock:
            return name in self.unplugged


class _CabledPort:
    def __init__(self, port: PyscardPort, cables: UsbCables) -> None:
        self._port = port
        self._cables = cables

    def readers(self) -> list[str]:
        return [name for name in self._port.readers() if not self._cables.out(name)]

    def states(self, readers: Sequence[str]) -> dict[str, CardState]:
        states = self._port.states([name for name in readers if not self._cables.out(name)])
        return {name: state for name, state in states.items() if not self._cables.out(name)}

    def read_uid(self, reader: str) -> bytes:
        if self._cables.out(reader):
            raise CardReadError(f"{reader}: reader unplugged")
        return self._port.read_uid(reader)

    def close(self) -> None:
        self._port.close()


def test_a_pcsc_reader_unplugged_mid_hand_keeps_its_card_and_gives_it_back(pcscd: PrivatePcscd) -> None:
    """Issue #33: a seat's reader unplugged with a card on it: no card leaves, no fault, the reader
    is reported at fault; plugged back, the card is as it was; one taken while it was out leaves then."""
    registry = DeckRegistry.generate(["t1"])
    ace = bytes.fromhex(registry.uid_of("t1/A", "As"))
    profile = TableProfile.default("t1", seats=2)  # antennas 0, 1 seats; 2 board
    publisher = RecordingPublisher("t1")
    seat = pcscd.names[0]
    cables = UsbCables()
    clock = MonotonicClock()
    agent = TableAgent(profile=profile, registry=registry, publisher=publisher, clock=clock,
                       open_link=lambda: (_ for _ in ()).throw(OSError("unused")))
    worker = PcscReaderWorker(open_pcsc=cables.open, readers={seat: 0, pcscd.names[1]: 2},
                              out=agent._inbox, clock=clock, scan_period_ms=50)
    agent.reader = worker
    card = VirtualCard(ace, port=pcscd.ports[0])
    watcher = PyscardPort()
    agent.start()

    def of(kind: str) -> list[dict[str, object]]:
        return [e for e in publisher.all() if e["type"] == kind]

    def scans_pass(count: int) -> None:
        assert worker.scanner is not None
        start = worker.scanner.scans
        eventually(lambda: worker.scanner is not None and worker.scanner.scans >= start + count,
                   timeout=10, what=f"{count} scans")
        eventually(agent.idle, what="agent idle")

    try:
        card.place()
        eventually(lambda: len(of("card_arrived")) == 1, timeout=8, what="card arrived")
        assert (of("card_arrived")[0]["zone"], of("card_arrived")[0]["card"]) == ("seat:1", "As")

        cables.unplug(seat)
        eventually(lambda: of("reader_status")[-1]["state"] == "fault", what="reader at fault")
        assert "siège 1 (antenne 0)" in str(of("reader_status")[-1]["detail"])
        scans_pass(30)  # 1.5 s: three times the agent's gone window
        assert of("card_left") == [] and agent.zones.zone_of(ace.hex().upper()) is not None

        cables.plug(seat)
        eventually(lambda: of("reader_status")[-1]["state"] == "connected", what="reader back")
        assert "reads again" in str(of("reader_status")[-1]["detail"])
        scans_pass(10)
        assert of("card_left") == [] and len(of("card_arrived")) == 1  # as it was: no movement

        cables.unplug(seat)
        eventually(lambda: of("reader_status")[-1]["state"] == "fault", what="reader at fault again")
        card.remove()  # taken while the reader is out: a real movement
        eventually(lambda: not watcher.states([seat])[seat].present, what="pcscd saw the card go")
        scans_pass(10)
        assert of("card_left") == []
        cables.plug(seat)
        eventually(lambda: len(of("card_left")) == 1, what="card left")
        assert (of("card_left")[0]["zone"], of("card_left")[0]["card"]) == ("seat:1", "As")
        assert of("fault") == [] and agent.stats.faults == 0
    finally:
        agent.stop()
        card.remove()
        watcher.close()
