"""The reference board logic, without a pty: scans, misses, dropouts, TagGone, heartbeats, commands."""

from __future__ import annotations

import random

import pytest

from firmware_bridge import (
    FaultCode,
    Frame,
    Heartbeat,
    Hello,
    HostHello,
    ProtocolError,
    ReaderFault,
    SetScanPeriod,
    StartScan,
    StopScan,
    TagGone,
    TagSeen,
)
from firmware_bridge.board import GONE_AFTER_SCANS, ReaderBoardLogic
from firmware_bridge.errors import BoardStateError

ACE = bytes.fromhex("04a1b2c3")  # as de pique
KING = bytes.fromhex("04112233445566")


def board(**kw: object) -> ReaderBoardLogic:
    options: dict[str, object] = {"antennas": 4, "rng": random.Random(42), "rssi": False}
    options.update(kw)
    return ReaderBoardLogic(**options)  # type: ignore[arg-type]


def run(b: ReaderBoardLogic, start: int, stop: int, step: int = 10) -> list[tuple[int, Frame]]:
    return [(t, f) for t in range(start, stop, step) for f in b.advance(t)]


def test_boot_says_hello_and_stays_idle_until_start_scan() -> None:
    b = board(firmware="tapis-ref 1")
    assert b.boot(0) == [Hello(1, 4, "tapis-ref 1")]
    b.place(0, ACE)
    assert run(b, 0, 1001) == [(1000, Heartbeat(1000, 0))]
    assert b.handle(StartScan(), 1001) == []
    assert run(b, 1001, 1102) == [(1001, TagSeen(0, ACE)), (1051, TagSeen(0, ACE)), (1101, TagSeen(0, ACE))]


def test_autostart_scans_from_boot() -> None:
    b = board(autostart=True)
    b.boot(0)
    b.place(2, KING)
    assert run(b, 0, 101) == [(0, TagSeen(2, KING)), (50, TagSeen(2, KING)), (100, TagSeen(2, KING))]


def test_tag_gone_exactly_three_scans_after_removal() -> None:
    b = board()
    b.boot(0)
    b.handle(StartScan(), 0)
    b.place(1, ACE)
    b.place(1, KING)
    assert [f for _, f in run(b, 0, 100)] == [TagSeen(1, ACE), TagSeen(1, KING)] * 2
    b.remove(1, ACE)
    frames = run(b, 100, 300)
    assert frames == [
        (100, TagSeen(1, KING)),
        (150, TagSeen(1, KING)),
        (200, TagSeen(1, KING)),
        (200, TagGone(1, ACE)),  # unread at 100, 150, 200: gone on the third
        (250, TagSeen(1, KING)),
    ]
    assert GONE_AFTER_SCANS == 3


def test_a_tag_placed_and_lifted_between_scans_is_never_reported() -> None:
    b = board()
    b.boot(0)
    b.handle(StartScan(), 0)
    assert b.advance(0) == []
    b.place(0, ACE)
    b.remove(0, ACE)
    assert run(b, 10, 400) == []


def test_every_antenna_read_missed_gives_read_miss_read_and_never_gone() -> None:
    b = board(miss_rate=1.0)
    b.boot(0)
    b.handle(StartScan(), 0)
    b.place(3, ACE)
    frames = [f for t in range(0, 500, 50) for f in b.advance(t)]
    assert frames == [TagSeen(3, ACE)] * 5  # scans 0..450: missed, read, missed, read...
    b2 = board(dropout_rate=1.0, max_consecutive_misses=2)
    b2.boot(0)
    b2.handle(StartScan(), 0)
    b2.place(0, ACE)
    assert [t for t in range(0, 600, 50) for _ in b2.advance(t)] == [100, 250, 400, 550]


def test_seeded_dropouts_never_make_a_present_tag_gone_and_replay_exactly() -> None:
    def session(seed: int) -> list[tuple[int, Frame]]:
        b = board(rng=random.Random(seed), miss_rate=0.2, dropout_rate=0.3, rssi=True)
        b.boot(0)
        b.handle(StartScan(), 0)
        b.place(0, ACE)
        b.place(0, KING)
        b.place(2, KING)  # a tag read by two antennas (overlapping fields)
        return run(b, 0, 20_000, 50)

    frames = session(5)
    assert frames == session(5)  # a seed replays
    assert not any(isinstance(f, TagGone) for _, f in frames)
    seen = [f for _, f in frames if isinstance(f, TagSeen)]
    scans = 20_000 // 50
    assert scans * 3 // 2 < len(seen) < scans * 3  # some misses, never two in a row per tag
    assert all(f.rssi is not None and -75 <= f.rssi <= -35 for f in seen)
    # with max_consecutive_misses=1 a tag is read at least every other scan
    for antenna, uid in ((0, ACE), (0, KING), (2, KING)):
        times = [t for t, f in frames if isinstance(f, TagSeen) and (f.antenna, f.uid) == (antenna, uid)]
        assert max(b - a for a, b in zip(times, times[1:])) == 100


def test_heartbeat_every_second_carries_uptime_and_scans() -> None:
    b = board()
    b.boot(5_000)  # the board's own zero is its boot
    b.handle(StartScan(), 5_000)
    beats = [f for _, f in run(b, 5_000, 8_001) if isinstance(f, Heartbeat)]
    assert beats == [Heartbeat(1000, 21), Heartbeat(2000, 41), Heartbeat(3000, 61)]


def test_a_late_board_skips_missed_slots_instead_of_bursting() -> None:
    b = board()
    b.boot(0)
    b.handle(StartScan(), 0)
    b.place(0, ACE)
    assert b.advance(0) == [TagSeen(0, ACE)]
    assert b.advance(3_500) == [TagSeen(0, ACE), Heartbeat(3500, 2)]
    assert b.next_due_ms() == 3_550
    assert b.advance(3_549) == []


def test_scan_period_command_and_refusal() -> None:
    b = board()
    b.boot(0)
    assert b.handle(SetScanPeriod(20), 0) == []
    b.handle(StartScan(), 0)
    b.place(0, ACE)
    assert [t for t, _ in run(b, 0, 100, 5)] == [0, 20, 40, 60, 80]
    refused = b.handle(SetScanPeriod(5), 100)
    assert refused == [ReaderFault(None, FaultCode.BAD_COMMAND, "period 5 ms not in 10..10000")]
    assert b.scan_period_ms == 20
    assert b.handle(SetScanPeriod(65535), 100) == [
        ReaderFault(None, FaultCode.BAD_COMMAND, "period 65535 ms not in 10..10000")  # 32 bytes: fits
    ]


def test_stop_scan_stops_reads_but_not_heartbeats() -> None:
    b = board()
    b.boot(0)
    b.handle(StartScan(), 0)
    b.place(0, ACE)
    b.advance(0)
    assert b.handle(StopScan(), 10) == []
    assert run(b, 10, 1001) == [(1000, Heartbeat(1000, 1))]
    assert b.handle(StartScan(), 1001) == []
    assert b.advance(1001) == [TagSeen(0, ACE)]


def test_host_hello_of_any_version_gets_our_hello() -> None:
    b = board()
    b.boot(0)
    assert b.handle(HostHello(1), 3) == [Hello(1, 4, "tapis-sim 1")]
    assert b.handle(HostHello(2), 4) == [Hello(1, 4, "tapis-sim 1")]  # the host decides
    refusal = ReaderFault(None, FaultCode.BAD_COMMAND, "not a host frame: Heartbeat")
    assert b.handle(Heartbeat(0, 0), 5) == [refusal]


def test_impossible_requests_are_refused_clearly() -> None:
    b = board()
    with pytest.raises(BoardStateError, match="antenna 4 does not exist"):
        b.place(4, ACE)
    with pytest.raises(BoardStateError, match="uid must be 4, 7 or 10 bytes"):
        b.place(0, b"\x01")
    with pytest.raises(BoardStateError, match="is not on antenna 0"):
        b.remove(0, ACE)
    with pytest.raises(BoardStateError, match="antenna 9 does not exist"):
        b.fault(9, FaultCode.ANTENNA_OPEN)
    with pytest.raises(BoardStateError, match="would report a tag still lying there as gone"):
        board(max_consecutive_misses=3)
    with pytest.raises(ProtocolError):
        board(scan_period_ms=5)
    assert isinstance(BoardStateError("x"), ValueError)


def test_reboot_forgets_settings_and_reports_and_waits_for_the_host() -> None:
    b = board()
    b.boot(0)
    b.handle(SetScanPeriod(20), 0)
    b.handle(StartScan(), 0)
    b.place(0, ACE)
    b.place(1, KING)
    assert len(run(b, 0, 100)) == 10
    assert b.reboot(100) == [
        Hello(1, 4, "tapis-sim 1"),
        ReaderFault(None, FaultCode.REBOOTED, "watchdog reset"),
    ]
    assert (b.scanning, b.scans, b.scan_period_ms) == (False, 0, 50)
    assert run(b, 100, 1101) == [(1100, Heartbeat(1000, 0))]  # idle: no TagGone for forgotten tags
    b.handle(StartScan(), 1101)
    assert [f for _, f in run(b, 1101, 1152)] == [TagSeen(0, ACE), TagSeen(1, KING)] * 2


def test_a_silent_antenna_says_so_once_and_its_tags_are_unread_never_gone() -> None:
    """Issue #33: as the firmware (`hw/firmware/tapis_board.py`): a reader chip that stops answering
    is `READER_TIMEOUT` once; its tags' unread count stands still; back, a tag still there is read,
    one taken meanwhile goes three scans later. A reboot reports a still silent chip again."""
    b = board()
    b.boot(0)
    b.handle(StartScan(), 0)
    b.place(1, ACE)
    b.place(1, KING)
    b.scan()
    b.silence(1)
    assert b.scan() == [ReaderFault(1, FaultCode.READER_TIMEOUT, "reader chip silent")]
    b.remove(1, ACE)
    for _ in range(GONE_AFTER_SCANS * 3):
        assert b.scan() == []
    b.restore(1)
    assert b.scan() == [TagSeen(1, KING)]
    assert b.scan() == [TagSeen(1, KING)]
    assert b.scan() == [TagSeen(1, KING), TagGone(1, ACE)]
    b.silence(2)
    assert b.scan() == [TagSeen(1, KING), ReaderFault(2, FaultCode.READER_TIMEOUT, "reader chip silent")]
    b.reboot(1000)
    b.handle(StartScan(), 1000)
    assert b.scan() == [TagSeen(1, KING), ReaderFault(2, FaultCode.READER_TIMEOUT, "reader chip silent")]
    with pytest.raises(BoardStateError):
        b.silence(4)
