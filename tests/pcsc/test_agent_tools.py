"""`tapis agent scan|capture|replay` and `tapis doctor`: a capture from the reader board simulator
replays through the real ReaderWorker and agent to the same frames and cards; the doctor's verdicts."""

from __future__ import annotations

import io
import json
import os
import queue
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge import (
    FaultCode,
    Hello,
    HostHello,
    ReaderFault,
    ReportAntennas,
    SetScanPeriod,
    StartScan,
    TagGone,
    TagSeen,
    encode,
)
from hub.edge.broker import EmbeddedBroker, free_port
from hw.decks import DeckRegistry
from hw.pcsc import FakePcsc
from hw.pcsc_worker import pcsc_worker_factory
from hw.ports import ManualClock
from hw.profile import TableProfile
from hw.serial_link import SerialLink
from simulators.reader_board import ReaderBoardSimulator
from table_agent.agent import TableAgent
from table_agent.reader import FramesRead, LinkChanged, ReaderWorker
from table_agent.tools import (
    CAPTURE_FORMAT,
    CaptureLink,
    Finding,
    ScanView,
    Status,
    capture,
    check_broker,
    check_clock,
    check_panel,
    check_pcsc,
    check_reader,
    decode_capture,
    doctor,
    doctor_main,
    main_agent_tools,
    parse_pcsc_readers,
    recording_opener,
    replay_capture,
    scan,
)
from tests.pcsc.agent_fakes import RecordingPublisher

REGISTRY = DeckRegistry.generate(["t1"])
ACE = bytes.fromhex(REGISTRY.uid_of("t1/A", "As"))
KING = bytes.fromhex(REGISTRY.uid_of("t1/A", "Kd"))


def profile_text(url: str, seats: int = 2) -> str:
    antennas = {str(i): f"seat:{i + 1}" for i in range(seats)}
    antennas.update({str(seats): "board", str(seats + 1): "burn", str(seats + 2): "muck", str(seats + 3): "tray"})
    lines = ['table = "t1"', f"seats = {seats}", "[reader]", f'url = "{url}"', "[antennas]"]
    lines += [f'"{a}" = "{z}"' for a, z in antennas.items()]
    return "\n".join(lines) + "\n"


@pytest.fixture
def board() -> Iterator[ReaderBoardSimulator]:
    with ReaderBoardSimulator(antennas=6, miss_rate=0.0, dropout_rate=0.0, rng=random.Random(1)) as sim:
        sim.start()
        yield sim


@pytest.fixture
def recorded(board: ReaderBoardSimulator, tmp_path: Path) -> Path:
    board.place(0, ACE)  # seat 1
    board.place(2, KING)  # the board (tableau)
    path = tmp_path / "club.capture"
    received = capture(lambda: SerialLink(board.port), path, 0.6, scan_period_ms=20)
    assert received > 0
    return path


def test_a_capture_is_json_lines_with_a_header_and_both_directions(recorded: Path) -> None:
    lines = [json.loads(line) for line in recorded.read_text().splitlines()]
    assert lines[0]["format"] == CAPTURE_FORMAT
    sent = b"".join(bytes.fromhex(r["tx"]) for r in lines[1:] if "tx" in r)
    assert sent == encode(HostHello(1)) + encode(SetScanPeriod(20)) + encode(StartScan())
    times = [r["t"] for r in lines[1:]]
    assert times == sorted(times) and times[0] >= 0
    frames = decode_capture(recorded)
    assert Hello(1, 6, "tapis-sim 1") in frames
    seen = [f for f in frames if isinstance(f, TagSeen)]
    assert {(f.antenna, f.uid) for f in seen} == {(0, ACE), (2, KING)}


class _EndedCapture(CaptureLink):
    """A capture link that says when its last chunk has been read (the reader asked once more)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ended = threading.Event()

    def read(self, size: int = 4096) -> bytes:
        data = super().read(size)
        if self.finished:
            self.ended.set()
        return data


def test_replaying_a_capture_through_the_reader_worker_gives_the_same_frames_at_their_times(recorded: Path) -> None:
    clock = ManualClock(100.0)
    items: queue.Queue[object] = queue.Queue()
    links: list[CaptureLink] = []

    def open_link() -> CaptureLink:
        links.append(CaptureLink(recorded, clock=clock))
        return links[-1]

    worker = ReaderWorker(open_link=open_link, out=items, clock=clock, scan_period_ms=20)
    worker.start()
    expected = decode_capture(recorded)
    got: list[FramesRead] = []
    try:
        while sum(len(i.frames) for i in got) < len(expected):  # each item as the worker puts it
            item = items.get(timeout=10)
            if isinstance(item, FramesRead):
                got.append(item)
    finally:
        worker.stop()
    assert [f for i in got for f in i.frames] == expected
    stamps = {round(100.0 + t, 6) for t, _ in replay_capture(recorded)}
    assert all(round(i.at, 6) in stamps for i in got)  # stamped with the capture's time, not now
    assert b"".join(links[0].written) == (encode(HostHello(1)) + encode(SetScanPeriod(20)) + encode(ReportAntennas())
                                          + encode(StartScan()))


def test_a_capture_replayed_through_the_agent_puts_the_cards_in_their_zones(recorded: Path) -> None:
    profile = TableProfile.model_validate_json(json.dumps(
        {"table": "t1", "seats": 2, "reader": {"url": "loop://", "scan_period_ms": 20},
         "antennas": {"0": "seat:1", "1": "seat:2", "2": "board", "3": "burn", "4": "muck", "5": "tray"}}))
    publisher = RecordingPublisher("t1")
    clock = ManualClock(0.0)
    agent: TableAgent | None = None
    # one chunk at a time: the agent's queue must be empty before the clock moves on
    link = _EndedCapture(recorded, clock=clock, paced_by=lambda: agent is not None and agent._inbox.empty())
    agent = TableAgent(profile=profile, registry=REGISTRY, publisher=publisher, clock=clock,
                       open_link=lambda: link)
    agent.start()
    try:
        # the capture's last chunk was read, so the reader put its frames in the agent's queue before
        # asking again; a press queued behind them comes out once the agent has handled them all
        assert link.ended.wait(10)
        agent.player_action(2, "fold")
        events = []
        while (event := publisher.events.get(timeout=10))["type"] != "action":
            events.append(event)
    finally:
        agent.stop()
    arrived = sorted((e["zone"], e["card"]) for e in events if e["type"] == "card_arrived")
    assert arrived == [("board", "Kd"), ("seat:1", "As")]
    assert not [e for e in events if e["type"] == "card_left"]
    assert [e["state"] for e in events if e["type"] == "reader_status"][:1] == ["connected"]


def test_scan_view_prints_arrivals_departures_faults_and_a_summary() -> None:
    profile = TableProfile.default("t1", seats=2)
    view = ScanView(profile)
    assert view.feed(LinkChanged(True, "opened", 10.0)) == ["   0.00s  reader connected: opened"]
    assert view.feed(FramesRead([Hello(1, 6, "tapis-rp2040 1")], 10.0)) == \
        ["   0.00s  board: tapis-rp2040 1 (protocol v1, 6 antennas)"]
    assert view.feed(FramesRead([TagSeen(0, ACE, -48)], 10.5)) == \
        [f"   0.50s  + antenna  0 (seat:1)  {ACE.hex().upper()}  -48 dBm"]
    assert view.feed(FramesRead([TagSeen(0, ACE, -50)], 11.0)) == []
    assert view.feed(FramesRead([TagSeen(9, KING)], 11.0)) == \
        [f"   1.00s  + antenna  9 (NOT IN PROFILE)  {KING.hex().upper()}"]
    assert view.feed(FramesRead([ReaderFault(3, FaultCode.ANTENNA_OPEN, "")], 11.5)) == \
        ["   1.50s  ! antenna  3 (burn): antenna_open"]
    assert view.feed(FramesRead([TagGone(0, ACE)], 12.0)) == [f"   2.00s  - antenna  0 (seat:1)  {ACE.hex().upper()}"]
    summary = view.summary()
    assert summary[1] == "      0  seat:1      1      1.0    -49  -"
    assert summary[4] == "      3  burn        0      0.0      -  antenna_open"
    assert summary[-1] == "no read yet on antennas 1, 2, 3, 4, 5: put a card on each to test it"


def test_scan_shows_live_reads_from_the_board(board: ReaderBoardSimulator) -> None:
    profile = TableProfile.default("t1", seats=2, url=board.port)
    board.place(1, ACE)
    out = io.StringIO()
    view = scan(profile, lambda: SerialLink(board.port), out, 0.8)
    text = out.getvalue()
    assert "board: tapis-sim 1 (protocol v1, 6 antennas)" in text
    assert f"+ antenna  1 (seat:2)  {ACE.hex().upper()}" in text
    assert view.antennas[1].tags == {ACE} and view.antennas[1].reads > 3


# --- doctor -----------------------------------------------------------------------------------------


def test_doctor_finds_a_good_reader_and_a_missing_one(board: ReaderBoardSimulator, tmp_path: Path) -> None:
    good = TableProfile.default("t1", seats=2, url=board.port)
    assert check_reader(good, lambda: SerialLink(board.port)) == [
        Finding("reader", Status.OK, f"tapis-sim 1 (protocol v1, 6 antennas) on {board.port}")]
    missing = "/dev/serial/by-id/usb-tapis-reader-nowhere"
    [finding] = check_reader(TableProfile.default("t1", seats=2, url=missing), lambda: SerialLink(missing))
    assert finding.status is Status.FAIL and finding.message.startswith(f"no device at {missing}: is the reader")
    too_many = TableProfile.default("t1", seats=9, url=board.port)  # antennas up to 12 on a 6-antenna board
    [finding] = check_reader(too_many, lambda: SerialLink(board.port))
    assert finding.message == "the board has 6 antennas but the profile uses antennas up to 12"


def test_doctor_says_a_silent_reader_did_not_answer() -> None:
    master, slave = os.openpty()  # a serial line with nothing behind it
    try:
        path = os.ttyname(slave)
        [finding] = check_reader(TableProfile.default("t1", seats=2, url=path), lambda: SerialLink(path), timeout=0.3)
        assert finding == Finding("reader", Status.FAIL, f"{path} opened but did not answer in 0.3 s: check it is "
                                  "powered and runs tapis reader firmware")
    finally:
        os.close(master)
        os.close(slave)


def test_doctor_reaches_the_broker_or_says_nothing_listens(broker: EmbeddedBroker) -> None:
    assert check_broker(broker.url) == [Finding("broker", Status.OK,
                                                f"MQTT broker at 127.0.0.1:{broker.port} accepts connections")]
    port = free_port()
    [finding] = check_broker(f"mqtt://127.0.0.1:{port}")
    assert finding.message.startswith(f"nothing listens on 127.0.0.1:{port}: is the hub")
    assert check_broker("not a url")[0].status is Status.FAIL


def test_doctor_clock_and_panel_verdicts(tmp_path: Path) -> None:
    assert check_clock(lambda: True) == [Finding("clock", Status.OK, "synchronised by NTP")]
    assert check_clock(lambda: False)[0].status is Status.FAIL
    assert "set-ntp true" in check_clock(lambda: False)[0].message
    assert check_clock(lambda: None)[0].status is Status.WARN
    chip = tmp_path / "gpiochip0"
    assert check_panel([chip])[0].status is Status.WARN
    chip.write_bytes(b"")
    assert check_panel([chip]) == [Finding("panel", Status.OK, f"GPIO {chip} accessible")]
    bus = tmp_path / "i2c-1"
    [_, missing] = check_panel([chip], [bus])
    assert missing.status is Status.WARN and "do_i2c 0" in missing.message
    bus.write_bytes(b"")
    assert check_panel([chip], [bus])[1] == Finding("panel", Status.OK, f"I2C {bus} accessible")


def test_doctor_main_reports_each_finding_and_fails_on_a_bad_config(tmp_path: Path) -> None:
    out = io.StringIO()
    code = doctor_main(["--profile", str(tmp_path / "nope.toml"), "--decks", ""], out=out)
    assert code == 1
    first = out.getvalue().splitlines()[0]
    assert first.startswith("[FAIL] config: table profile ") and "nope.toml" in first


def test_doctor_all_good_on_a_working_table(board: ReaderBoardSimulator, broker: EmbeddedBroker,
                                            tmp_path: Path) -> None:
    profile = tmp_path / "table.toml"
    profile.write_text(profile_text(board.port))
    decks = tmp_path / "decks.toml"
    decks.write_text(REGISTRY.dump())
    chip = tmp_path / "gpiochip0"
    chip.write_bytes(b"")
    bus = tmp_path / "i2c-1"
    bus.write_bytes(b"")
    findings = doctor(profile_path=profile, decks_path=decks, broker=broker.url, gpio_chips=[chip],
                      i2c_buses=[bus], clock_probe=lambda: True)
    assert [(f.check, f.status) for f in findings] == [
        ("config", Status.OK), ("decks", Status.OK), ("reader", Status.OK), ("panel", Status.OK),
        ("panel", Status.OK), ("panel", Status.WARN), ("broker", Status.OK), ("clock", Status.OK)]
    assert "no [panel] section" in findings[5].message  # a warning, not a failure: a table may run without


def test_agent_tools_replay_prints_the_frames(recorded: Path) -> None:
    out = io.StringIO()
    assert main_agent_tools(["replay", str(recorded)], out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[-1].endswith("frames, 0 rejected")
    assert any("TagSeen(antenna=2" in line for line in lines)


# --- PC/SC readers in the tools --------------------------------------------------------------------

SEAT1 = "ACS ACR122U PICC Interface 00 00"
BOARD = "ACS ACR122U PICC Interface 01 00"


def test_doctor_checks_pcsc_readers() -> None:
    fake = FakePcsc([SEAT1, "Other Reader 00 00"])
    assert check_pcsc(fake.open, {SEAT1: 0}) == [
        Finding("reader", Status.OK, "1 PC/SC readers present; pcscd sees 'Other Reader 00 00'")]
    [missing] = check_pcsc(fake.open, {SEAT1: 0, BOARD: 2})
    assert missing == Finding("reader", Status.FAIL, f"PC/SC reader not plugged in: {BOARD!r} (antenna 2); "
                              "pcscd sees 'Other Reader 00 00'")
    fake.stop()
    [down] = check_pcsc(fake.open, {SEAT1: 0})
    assert down.status is Status.FAIL and "pcscd is not running" in down.message and "pcscd.socket" in down.message


def test_pcsc_reader_arguments() -> None:
    assert parse_pcsc_readers([f"{SEAT1}=0", f"{BOARD} = 9"]) == {SEAT1: 0, BOARD: 9}
    with pytest.raises(ValueError, match="READER NAME=ANTENNA"):
        parse_pcsc_readers([SEAT1])


def test_scan_shows_pcsc_reads() -> None:
    fake = FakePcsc([SEAT1, BOARD])
    fake.place(BOARD, ACE)
    out = io.StringIO()
    profile = TableProfile.default("t1", seats=2)
    view = scan(profile, None, out, 0.5, reader=pcsc_worker_factory({SEAT1: 0, BOARD: 2}, open_pcsc=fake.open))
    assert f"+ antenna  2 (board)  {ACE.hex().upper()}" in out.getvalue()
    assert "board: pcsc 2 readers (protocol v1, 3 antennas)" in out.getvalue()
    assert view.antennas[2].tags == {ACE}


def test_recording_the_agents_own_link_survives_a_reopen(board: ReaderBoardSimulator, tmp_path: Path) -> None:
    board.place(0, ACE)
    path = tmp_path / "live.capture"
    clock = ManualClock(5.0)
    with open(path, "w", encoding="utf-8") as sink:
        opener = recording_opener(lambda: SerialLink(board.port), sink, clock=clock, source="t1")
        for _ in range(2):  # the worker reopens the link after a loss
            link = opener()
            link.write(encode(HostHello(1)) + encode(StartScan()))
            for _ in range(10):
                clock.advance(0.05)
                link.read()
            link.close()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r.get("format") for r in lines].count(CAPTURE_FORMAT) == 1
    times = [r["t"] for r in lines[1:]]
    assert times == sorted(times) and times[-1] > 0.5  # one time line across both opens
    assert TagSeen(0, ACE, None) in [TagSeen(f.antenna, f.uid) for f in decode_capture(path)
                                     if isinstance(f, TagSeen)]
