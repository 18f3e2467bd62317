"""Firmware protocol code (MicroPython, run here on CPython) against the host's `firmware_bridge`:
same CRC, same COBS, frames the firmware sends decode on the host, host frames decode on the board."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import tapis_proto as fw  # on sys.path by this directory's conftest, as on the board
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import (
    Decoder,
    FaultCode,
    Frame,
    Heartbeat,
    Hello,
    HostHello,
    ReaderFault,
    SetScanPeriod,
    StartScan,
    StopScan,
    TagGone,
    TagSeen,
    cobs_decode,
    cobs_encode,
    crc16,
    encode,
)

FIRMWARE = Path(__file__).resolve().parents[2] / "hw" / "firmware"
uids = st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n))
texts = st.text(max_size=40)


def host_decode(data: bytes) -> list[Frame]:
    decoder = Decoder()
    frames = decoder.feed(data)
    assert decoder.stats.rejected_total == 0
    return frames


def test_crc_check_value_and_the_documented_wire_bytes() -> None:
    assert fw.crc16(b"123456789") == 0x29B1
    # docs/firmware-protocol.md section 6
    assert fw.tag_seen(0, bytes.fromhex("01020304")) == bytes.fromhex("00 03 06 02 08 04 01 02 03 04 55 13 00")
    assert fw.tag_seen(3, bytes.fromhex("01020304"), -60) == \
        bytes.fromhex("00 0c 07 02 03 04 01 02 03 04 c4 b3 39 00")
    assert fw.reader_fault(None, fw.READER_TIMEOUT, "x") == bytes.fromhex("00 08 03 05 ff 03 78 26 34 00")
    assert fw.heartbeat(1000, 20) == bytes.fromhex("00 03 08 04 01 03 03 e8 01 01 04 14 92 e9 00")


@given(st.binary(max_size=300))
def test_crc_and_cobs_match_the_host(data: bytes) -> None:
    assert fw.crc16(data) == crc16(data)
    assert fw.cobs_encode(data) == cobs_encode(data)
    assert fw.cobs_decode(cobs_encode(data)) == data == cobs_decode(fw.cobs_encode(data))


@pytest.mark.parametrize("size", [253, 254, 255, 508, 509])
def test_cobs_full_blocks_are_canonical(size: int) -> None:
    data = bytes(range(1, 255)) * 3
    assert fw.cobs_encode(data[:size]) == cobs_encode(data[:size])


@given(st.integers(0, 254), uids, st.none() | st.integers(-128, 127))
def test_tag_frames_from_the_firmware_decode_on_the_host(antenna: int, uid: bytes, rssi: int | None) -> None:
    assert host_decode(fw.tag_seen(antenna, uid, rssi) + fw.tag_gone(antenna, uid)) == \
        [TagSeen(antenna, uid, rssi), TagGone(antenna, uid)]


@given(st.integers(1, 254), texts, st.none() | st.integers(0, 254), st.sampled_from(list(FaultCode)), texts)
def test_text_frames_are_cut_to_32_bytes_on_a_character_boundary(antennas: int, name: str, antenna: int | None,
                                                                 code: FaultCode, detail: str) -> None:
    hello, fault = host_decode(fw.hello(antennas, name) + fw.reader_fault(antenna, int(code), detail))
    assert isinstance(hello, Hello) and isinstance(fault, ReaderFault)
    assert (hello.version, hello.antennas, fault.antenna, fault.code) == (1, antennas, antenna, code)
    for sent, got in ((name, hello.firmware), (detail, fault.detail)):
        assert sent.startswith(got) and len(got.encode()) <= 32
        assert got == sent or len(got.encode()) > 28  # cut only when it had to be


@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_heartbeat_from_the_firmware(uptime: int, scans: int) -> None:
    assert host_decode(fw.heartbeat(uptime, scans)) == [Heartbeat(uptime, scans)]


HOST_STREAM: list[Frame] = [HostHello(1), SetScanPeriod(50), StartScan(), StopScan(), SetScanPeriod(10000)]
EXPECTED = [(0x81, b"\x01"), (0x84, b"\x00\x32"), (0x82, b""), (0x83, b""), (0x84, b"\x27\x10")]


def test_host_frames_decode_on_the_board_split_at_every_offset() -> None:
    wire = b"".join(encode(f) for f in HOST_STREAM)
    for cut in range(len(wire) + 1):
        decoder = fw.HostDecoder()
        assert decoder.feed(wire[:cut]) + decoder.feed(wire[cut:]) == EXPECTED
        assert decoder.rejected == 0


def test_a_damaged_host_frame_is_dropped_and_the_rest_survive() -> None:
    wire = bytearray(b"".join(encode(f) for f in HOST_STREAM))
    first = len(encode(HOST_STREAM[0]))
    for index in range(1, first - 1):  # every byte of the first frame but its delimiters
        for bit in range(8):
            damaged = bytearray(wire)
            damaged[index] ^= 1 << bit
            decoder = fw.HostDecoder()
            got = decoder.feed(bytes(damaged))
            assert got[-4:] == EXPECTED[1:], (index, bit)
            assert got[:-4] == []  # CRC-16 catches every single-bit error


def test_garbage_longer_than_any_frame_is_one_rejection_and_no_memory() -> None:
    decoder = fw.HostDecoder()
    assert decoder.feed(b"\x00" + b"\x55" * 5000 + encode(StartScan())) == [(0x82, b"")]
    assert decoder.rejected == 1 and len(decoder._partial) == 0


ALLOWED = {"machine", "micropython", "select", "sys", "time", "tapis_proto", "tapis_board", "tapis_iso14443",
           "tapis_mfrc522", "tapis_tx"}


@pytest.mark.parametrize("path", sorted(FIRMWARE.glob("*.py")), ids=lambda p: p.name)
def test_firmware_imports_only_what_micropython_has(path) -> None:  # type: ignore[no-untyped-def]
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names = {node.module or ""}
        else:
            assert not isinstance(node, ast.JoinedStr), f"{path.name}: f-strings are optional in MicroPython"
            continue
        assert names <= ALLOWED, f"{path.name} imports {names - ALLOWED}"
