"""The firmware's board logic against `firmware_bridge.board.ReaderBoardLogic`, in lockstep: the same
host commands, placements and times give the same frames on the wire. Then what only real boards do:
a silent reader chip, a stack too deep, a watchdog reboot."""

from __future__ import annotations

import random

import pytest
from tapis_board import Board

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
    encode,
)
from firmware_bridge.board import ReaderBoardLogic


class FakeBank:
    """Antennas with tags lying on them, as the MFRC522 bank reports them (placement order)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.tags: list[dict[bytes, None]] = [{} for _ in range(count)]
        self.silent: set[int] = set()
        self.incomplete: set[int] = set()

    def inventory(self, antenna: int) -> tuple[list[bytes], bool]:
        if antenna in self.silent:
            raise OSError("chip silent")
        return list(self.tags[antenna]), antenna not in self.incomplete


def decode(chunks: list[bytes]) -> list[Frame]:
    decoder = Decoder()
    frames = decoder.feed(b"".join(chunks))
    assert decoder.stats.rejected_total == 0
    return frames


def uid(rng: random.Random) -> bytes:
    return bytes(rng.randrange(256) for _ in range(rng.choice((4, 7, 10))))


@pytest.mark.parametrize("seed", range(8))
def test_firmware_and_reference_logic_agree_frame_for_frame(seed: int) -> None:
    rng = random.Random(seed)
    bank = FakeBank(6)
    board = Board(bank, firmware="tapis-sim 1")
    logic = ReaderBoardLogic(antennas=6, rng=random.Random(0), rssi=False)
    assert decode(board.boot(0)) == logic.boot(0)
    commands: list[Frame] = [HostHello(1), SetScanPeriod(rng.choice((20, 50, 100))), StartScan()]
    if seed % 2:
        commands.insert(2, ReportAntennas())  # an agent since issue #33's budget
    now = 0
    wire: list[Frame] = []
    reference: list[Frame] = []
    for step in range(400):
        now += rng.choice((5, 10, 20, 35))
        if step % 97 == 50:
            later: list[Frame] = [StopScan(), StartScan(), SetScanPeriod(rng.choice((5, 30, 20000)))]
            commands.append(rng.choice(later))
        incoming = b""
        while commands:
            command = commands.pop(0)
            incoming += encode(command)
            reference += logic.handle(command, now)
        if rng.random() < 0.2:
            antenna = rng.randrange(6)
            on = list(bank.tags[antenna])
            if on and rng.random() < 0.5:
                tag = rng.choice(on)
                del bank.tags[antenna][tag]
                logic.remove(antenna, tag)
            else:
                tag = uid(rng)
                bank.tags[antenna][tag] = None
                logic.place(antenna, tag)
        wire += decode(board.step(now, incoming))
        reference += logic.advance(now)
    assert wire == reference
    kinds = {type(f) for f in wire}
    assert {Hello, TagSeen, TagGone, Heartbeat} <= kinds  # the walk exercised each behaviour
    assert (AntennaDone in kinds) == bool(seed % 2)


def test_bad_commands_are_refused_in_the_documented_words() -> None:
    board = Board(FakeBank(2))
    board.boot(0)
    assert decode(board.step(5, encode(SetScanPeriod(5)))) == [
        ReaderFault(None, FaultCode.BAD_COMMAND, "period 5 ms not in 10..10000")]
    assert board.scan_period_ms == 50
    assert decode(board.step(6, encode(TagSeen(0, b"\x01\x02\x03\x04")))) == [
        ReaderFault(None, FaultCode.BAD_COMMAND, "not a host frame: TagSeen")]


def test_a_watchdog_reboot_says_so_after_hello() -> None:
    board = Board(FakeBank(13))
    assert decode(board.boot(0, rebooted=True)) == [
        Hello(1, 13, "tapis-rp2040 1"), ReaderFault(None, FaultCode.REBOOTED, "watchdog reset")]


def test_a_silent_chip_is_reported_once_and_its_tags_stay_unread_never_gone() -> None:
    """A kicked cable: the chip's tags are unread, not gone (issue #33). Once it answers again, a tag
    still there is read as before and one taken meanwhile goes after three scans read without it."""
    bank = FakeBank(2)
    board = Board(bank)
    ace = bytes.fromhex("04A1B2C3")
    bank.tags[1][ace] = None
    assert decode(board.scan()) == [TagSeen(1, ace)]
    bank.silent.add(1)
    assert decode(board.scan()) == [ReaderFault(1, FaultCode.READER_TIMEOUT, "reader chip silent")]
    for _ in range(6):
        assert decode(board.scan()) == []
    bank.silent.clear()
    assert decode(board.scan()) == [TagSeen(1, ace)]
    bank.silent.add(1)
    assert decode(board.scan()) == [ReaderFault(1, FaultCode.READER_TIMEOUT, "reader chip silent")]
    del bank.tags[1][ace]  # taken while the chip was silent
    for _ in range(4):
        assert decode(board.scan()) == []
    bank.silent.clear()
    assert decode(board.scan()) == []
    assert decode(board.scan()) == []
    assert decode(board.scan()) == [TagGone(1, ace)]


def test_a_stack_too_deep_is_a_collision_fault_once() -> None:
    bank = FakeBank(1)
    board = Board(bank)
    cards = [bytes((4, i, 2, 3)) for i in range(8)]
    bank.tags[0] = dict.fromkeys(cards)
    bank.incomplete.add(0)
    first = decode(board.scan())
    assert first[0] == ReaderFault(0, FaultCode.COLLISION, "more tags than one scan reads")
    assert first[1:] == [TagSeen(0, c) for c in cards]
    assert decode(board.scan()) == [TagSeen(0, c) for c in cards]


def test_each_antennas_frames_go_out_as_it_is_read_not_at_the_end_of_the_scan() -> None:
    """Issue #33 point 4: a card on antenna 0 must not wait for the 13 antennas after it."""
    log: list[object] = []

    class LoggingBank(FakeBank):
        def inventory(self, antenna: int) -> tuple[list[bytes], bool]:
            log.append(("inventory", antenna))
            return super().inventory(antenna)

    bank = LoggingBank(14)
    ace, king = bytes.fromhex("04A1B2C3"), bytes.fromhex("04D1E2F3")
    bank.tags[0][ace] = None
    bank.tags[13][king] = None
    board = Board(bank, emit=lambda frames: log.append(decode(frames)))
    assert board.scan() == []
    assert log.index([TagSeen(0, ace)]) == log.index(("inventory", 0)) + 1  # before antenna 1 is read
    assert log[-1] == [TagSeen(13, king)]
    assert sum(isinstance(entry, list) for entry in log) == 2  # empty antennas send nothing


def test_a_host_that_asks_is_told_when_each_antenna_is_done() -> None:
    """ReportAntennas: AntennaDone closes every antenna's frames, empty ones too; a reboot forgets it."""
    bank = FakeBank(3)
    ace = bytes.fromhex("04A1B2C3")
    bank.tags[1][ace] = None
    board = Board(bank)
    board.boot(0)
    assert decode(board.scan()) == [TagSeen(1, ace)]
    board.step(0, encode(ReportAntennas()))
    assert decode(board.scan()) == [AntennaDone(0), TagSeen(1, ace), AntennaDone(1), AntennaDone(2)]
    board.boot(10, rebooted=True)
    assert decode(board.scan()) == [TagSeen(1, ace)]
