"""The reader board simulator end to end: its pty read through SerialLink and the Decoder.

Waits poll with a generous bound (a slow CI machine only makes them slower); nothing asserts a duration.
"""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Callable, Iterator

import pytest

from firmware_bridge import (
    AntennaDone,
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
    StopScan,
    TagGone,
    TagSeen,
    decode_chunk,
    encode,
)
from firmware_bridge.errors import BoardStateError, FrameRejected
from firmware_bridge.timing import AntennaTiming
from hw.errors import LinkError
from hw.serial_link import SerialLink
from simulators import reader_board
from simulators.reader_board import ReaderBoardSimulator, make_noise

ACE = bytes.fromhex("04a1b2c3")
KING = bytes.fromhex("04112233445566")


class Host:
    """What the table agent's reader worker does: read the link, feed the decoder, keep the frames."""

    def __init__(self, port: str) -> None:
        self.port = port
        self.link = SerialLink(port)
        self.decoder = Decoder()
        self.frames: list[Frame] = []

    def send(self, *frames: Frame) -> None:
        self.link.write(b"".join(encode(f) for f in frames))

    def until(self, done: Callable[[list[Frame]], bool], what: str) -> list[Frame]:
        for _ in range(400):  # up to 400 link timeouts of 50 ms
            if done(self.frames):
                return self.frames
            self.frames += self.decoder.feed(self.link.read())
        raise AssertionError(f"never saw {what}; got {self.frames[-5:]}")

    def reopen(self) -> None:
        self.link.close()
        self.link = SerialLink(self.port)
        self.decoder.reset()


@pytest.fixture
def sim() -> Iterator[ReaderBoardSimulator]:
    with ReaderBoardSimulator(antennas=8, scan_period=0.01, rng=random.Random(1)) as running:
        yield running


def test_handshake_scan_place_and_remove(sim: ReaderBoardSimulator) -> None:
    host = Host(sim.port)  # pyserial flushes input on open: the boot Hello may be gone, so ask
    host.send(HostHello())
    host.until(lambda fs: Hello(1, 8, "tapis-sim 1") in fs, "Hello")
    host.send(SetScanPeriod(20), StartScan())
    sim.place(5, ACE)
    host.until(lambda fs: any(isinstance(f, TagSeen) and f.uid == ACE for f in fs), "TagSeen")
    seen = [f for f in host.frames if isinstance(f, TagSeen)]
    assert {(f.antenna, f.uid) for f in seen} == {(5, ACE)}
    sim.remove(5, ACE)
    frames = host.until(lambda fs: TagGone(5, ACE) in fs, "TagGone")
    assert not any(isinstance(f, TagSeen) for f in frames[frames.index(TagGone(5, ACE)) :])
    assert sim.host_frames[:3] == [HostHello(1), SetScanPeriod(20), StartScan()]
    host.link.close()


def test_boot_hello_reaches_a_host_that_opened_first() -> None:
    sim = ReaderBoardSimulator(antennas=3, firmware="tapis-ref 0.9", rng=random.Random(2))
    try:
        host = Host(sim.port)
        sim.start()
        frames = host.until(lambda fs: len(fs) >= 1, "boot Hello")
        assert frames[0] == Hello(1, 3, "tapis-ref 0.9")
        host.link.close()
    finally:
        sim.close()


def test_noise_costs_one_rejection_each_and_no_valid_frame() -> None:
    sim = ReaderBoardSimulator(antennas=8, scan_period=0.01, rng=random.Random(1))
    host = Host(sim.port)  # opened before the board boots: every byte it writes reaches the host
    with sim:
        host.send(StartScan())
        sim.place(0, ACE)
        sim.place(7, KING)
        host.until(lambda fs: sum(isinstance(f, TagSeen) for f in fs) >= 10, "reads")
        sim.inject_noise(12)
        sim.inject_fault(3, FaultCode.ANTENNA_SHORT, "metal on antenna 3")
        fault = ReaderFault(3, FaultCode.ANTENNA_SHORT, "metal on antenna 3")
        host.until(lambda fs: fault in fs, "the fault")
        host.send(StopScan())
        host.until(lambda fs: not sim.scanning and host.decoder.stats.frames == sim.frames_written, "quiet")
        assert sim.noise_written == 12
        assert host.decoder.stats.rejected_total == 12
        assert host.frames[0] == Hello(1, 8, "tapis-sim 1")
        assert len(host.frames) == host.decoder.stats.frames
        assert not any(isinstance(f, TagGone) for f in host.frames)
        host.link.close()


def test_default_misses_and_dropouts_never_report_a_tag_gone() -> None:
    with ReaderBoardSimulator(
        antennas=2, scan_period=0.01, miss_rate=0.1, dropout_rate=0.1, rng=random.Random(3)
    ) as sim:
        host = Host(sim.port)
        sim.place(1, KING)
        host.send(StartScan())
        host.until(lambda fs: sim.scans >= 150, "150 scans")
        host.send(StopScan())
        host.until(lambda fs: not sim.scanning, "stop")
        reads = sum(isinstance(f, TagSeen) for f in host.frames)
        assert not any(isinstance(f, TagGone) for f in host.frames)
        assert sim.scans // 2 <= reads < sim.scans  # some reads missed, never two in a row
        host.link.close()


def test_host_may_close_and_reopen_the_port(sim: ReaderBoardSimulator) -> None:
    host = Host(sim.port)
    host.send(StartScan())
    sim.place(2, ACE)
    host.until(lambda fs: any(isinstance(f, TagSeen) and (f.antenna, f.uid) == (2, ACE) for f in fs), "read")
    for _ in range(3):
        host.reopen()  # the agent restarts; the board scans on regardless
        host.frames.clear()
        host.send(HostHello())
        host.until(lambda fs: Hello(1, 8, "tapis-sim 1") in fs, "Hello after reopen")
        host.until(lambda fs: any(isinstance(f, TagSeen) and f.antenna == 2 for f in fs), "reads")
    host.link.close()


def test_bad_commands_and_damaged_host_frames(sim: ReaderBoardSimulator) -> None:
    host = Host(sim.port)
    host.send(SetScanPeriod(5))
    host.until(
        lambda fs: ReaderFault(None, FaultCode.BAD_COMMAND, "period 5 ms not in 10..10000") in fs, "refusal"
    )
    host.frames.clear()  # the boot Hello, if it beat pyserial's flush, came before the refusal
    host.link.write(b"\x00\x99\x98\x97\x00" + encode(HostHello()))
    host.until(lambda fs: Hello(1, 8, "tapis-sim 1") in fs, "Hello after garbage")
    assert sim.host_rejected == 1
    host.link.close()


def test_heartbeats_flow_while_idle(sim: ReaderBoardSimulator) -> None:
    host = Host(sim.port)
    frames = host.until(lambda fs: sum(isinstance(f, Heartbeat) for f in fs) >= 2, "two heartbeats")
    beats = [f for f in frames if isinstance(f, Heartbeat)]
    assert 1000 <= beats[0].uptime_ms < beats[1].uptime_ms  # one a second, from boot
    assert all(b.scans == 0 for b in beats)  # boots idle
    host.link.close()


def test_close_stops_the_thread_and_frees_every_fd() -> None:
    fds_before = set(os.listdir("/proc/self/fd"))
    threads_before = set(threading.enumerate())
    sim = ReaderBoardSimulator(antennas=4, scan_period=0.01, rng=random.Random(4))
    sim.start()
    host = Host(sim.port)
    host.send(StartScan())
    sim.place(0, ACE)
    host.until(lambda fs: any(isinstance(f, TagSeen) for f in fs), "a read")
    sim.close()
    sim.close()  # idempotent
    assert set(threading.enumerate()) == threads_before
    with pytest.raises(LinkError):
        for _ in range(10):
            host.link.read()
    host.link.close()
    assert set(os.listdir("/proc/self/fd")) == fds_before
    with pytest.raises(RuntimeError, match="closed"):
        sim.start()


def test_unstarted_simulator_closes_cleanly_and_refuses_bad_tags() -> None:
    fds_before = set(os.listdir("/proc/self/fd"))
    sim = ReaderBoardSimulator(antennas=2)
    with pytest.raises(BoardStateError):
        sim.place(2, ACE)
    with pytest.raises(BoardStateError):
        sim.inject_fault(5, FaultCode.ANTENNA_OPEN)
    sim.close()
    assert set(os.listdir("/proc/self/fd")) == fds_before


def test_each_unit_of_noise_is_exactly_one_rejection() -> None:
    rng = random.Random(9)
    for kind in range(400):
        noise = make_noise(rng, kind)
        assert noise[0] == 0 and noise[-1] == 0 and 0 not in noise[1:-1]
        with pytest.raises(FrameRejected):
            decode_chunk(noise[1:-1])
        decoder = Decoder()
        assert decoder.feed(noise) == [] and decoder.stats.rejected_total == 1


def test_a_board_nobody_reads_drops_frames_without_blocking_then_recovers() -> None:
    with ReaderBoardSimulator(antennas=20, scan_period=0.01, autostart=True, rng=random.Random(6)) as sim:
        for antenna in range(20):
            for card in range(10):
                sim.place(antenna, bytes([4, antenna, card, 0x5A]))
        for _ in range(400):  # poll, no timing assertion: until the pty buffer has overflowed
            if sim.bytes_dropped:
                break
            threading.Event().wait(0.05)
        assert sim.bytes_dropped > 0
        scans = sim.scans
        host = Host(sim.port)
        host.send(HostHello())
        host.until(lambda fs: Hello(1, 20, "tapis-sim 1") in fs, "Hello from a board that kept scanning")
        host.until(lambda fs: sum(isinstance(f, TagSeen) for f in fs) >= 400, "two scans' worth of reads")
        assert sim.scans > scans  # the board thread never blocked on the full buffer
        host.send(StopScan())  # let the host catch up: the overflow report goes out when there is room
        host.until(
            lambda fs: any(isinstance(f, ReaderFault) and f.code is FaultCode.TX_OVERFLOW for f in fs),
            "the TX_OVERFLOW report",
        )
        report = next(f for f in host.frames if isinstance(f, ReaderFault))
        assert report.antenna is None and report.detail.startswith("dropped ")
        host.link.close()


def test_a_rebooted_board_says_so_and_waits_for_the_host(sim: ReaderBoardSimulator) -> None:
    host = Host(sim.port)
    host.send(SetScanPeriod(20), StartScan())
    sim.place(4, KING)
    host.until(lambda fs: any(isinstance(f, TagSeen) for f in fs), "reads")
    sim.reboot()
    rebooted = ReaderFault(None, FaultCode.REBOOTED, "watchdog reset")
    host.until(lambda fs: rebooted in fs, "the reboot report")
    assert host.frames[host.frames.index(rebooted) - 1] == Hello(1, 8, "tapis-sim 1")
    host.until(lambda fs: not sim.scanning, "idle after reboot")
    host.frames.clear()
    host.send(StartScan())  # what the agent does on a Hello it did not ask for
    host.until(lambda fs: any(isinstance(f, TagSeen) and f.uid == KING for f in fs), "reads again")
    host.link.close()


def test_with_the_firmwares_timing_each_antenna_is_written_as_it_is_read() -> None:
    """Issue #33 point 4: antenna 0's card reaches the host while the board still reads the others
    (each empty antenna takes a second here, so the scan's end is 12 s away)."""
    slow_when_empty = AntennaTiming(by_cards=(1000.0, 1.0, 2.0))
    sim = ReaderBoardSimulator(antennas=14, scan_period=0.01, miss_rate=0, dropout_rate=0,
                               rng=random.Random(3), timing=slow_when_empty)
    with sim:
        host = Host(sim.port)
        sim.place(0, ACE)  # before the scan starts: antenna 0 is read first
        host.send(HostHello(), StartScan())
        host.until(lambda fs: TagSeen(0, ACE) in [TagSeen(f.antenna, f.uid) for f in fs if isinstance(f, TagSeen)],
                   "antenna 0's card")
        assert sim.scans == 1
        sim.place(13, KING)  # antennas 1..12 still to read: about 12 s
        assert not any(isinstance(f, TagSeen) and f.antenna == 13 for f in host.frames)
        assert sim.scans == 1
        host.link.close()


def test_a_scan_goes_on_the_line_in_one_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the firmware sends at one time goes out back to back, as a UART sends it: a write per frame
    let the host's other threads (the GIL) cut a scan into pieces hundreds of ms apart under load, its
    first antennas read and the last not for longer than a card's window (CI: the agent lifted cards
    still lying there, then dealt them again)."""
    writes: list[bytes] = []

    class Os:  # the simulator's os, its writes kept
        def __getattr__(self, name: str) -> object:
            return getattr(os, name)

        def write(self, fd: int, data: bytes) -> int:
            writes.append(bytes(data))
            return os.write(fd, data)

    monkeypatch.setattr(reader_board, "os", Os())
    with ReaderBoardSimulator(antennas=4, scan_period=0.01, miss_rate=0, dropout_rate=0,
                              rng=random.Random(4)) as sim:
        sim.place(0, ACE)
        sim.place(3, KING)
        host = Host(sim.port)
        host.send(ReportAntennas(), StartScan())
        host.until(lambda fs: fs.count(AntennaDone(3)) >= 5, "five scans")
        host.link.close()
    scans = [[(type(f).__name__, f.antenna) for f in frames if isinstance(f, TagSeen | AntennaDone)]
             for frames in (Decoder().feed(w) for w in list(writes))]
    scans = [scan for scan in scans if scan]
    assert len(scans) >= 5
    whole = [("TagSeen", 0), ("AntennaDone", 0), ("AntennaDone", 1), ("AntennaDone", 2), ("TagSeen", 3),
             ("AntennaDone", 3)]
    assert all(scan == whole for scan in scans), scans[:6]
