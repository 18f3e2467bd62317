"""Encoder and single-frame decoding: round trips, golden bytes, and every rejection reason."""

from __future__ import annotations

import ast
import pathlib

import pytest

from firmware_bridge import (
    PROTOCOL_VERSION,
    AntennaDone,
    FaultCode,
    Frame,
    FrameRejected,
    Heartbeat,
    Hello,
    HostHello,
    InvalidFrame,
    ProtocolError,
    ReaderFault,
    RejectReason,
    ReportAntennas,
    SetScanPeriod,
    StartScan,
    StopScan,
    TagGone,
    TagSeen,
    cobs_decode,
    cobs_encode,
    crc16,
    decode_body,
    decode_chunk,
    encode,
)

UID4 = bytes.fromhex("04a1b2c3")
UID7 = bytes.fromhex("04112233445566")
UID10 = bytes.fromhex("0400112233445566778899")[:10]

EVERY_FRAME: list[Frame] = [
    Hello(PROTOCOL_VERSION, 20, "tapis-ref 1.0.3"),
    Hello(1, 1, ""),
    Hello(255, 254, "é" * 16),  # 32 UTF-8 bytes, the most allowed
    TagSeen(0, UID4),
    TagSeen(19, UID7, -58),
    TagSeen(254, UID10, 127),
    TagSeen(3, bytes(4), -128),  # a UID of zeros: COBS must carry 00 bytes
    TagGone(0, UID4),
    TagGone(7, UID10),
    Heartbeat(0, 0),
    Heartbeat(0xFFFF_FFFF, 0xFFFF_FFFF),
    Heartbeat(86_400_000, 1_728_000),
    ReaderFault(None, FaultCode.READER_TIMEOUT),
    ReaderFault(5, FaultCode.ANTENNA_OPEN, "no field on antenna 5"),
    ReaderFault(0, FaultCode.BAD_COMMAND, "x" * 32),
    HostHello(),
    HostHello(2),
    StartScan(),
    StopScan(),
    SetScanPeriod(50),
    SetScanPeriod(65535),
]


@pytest.mark.parametrize("frame", EVERY_FRAME, ids=repr)
def test_every_frame_round_trips(frame: Frame) -> None:
    wire = encode(frame)
    assert wire[0] == 0 and wire[-1] == 0 and 0 not in wire[1:-1]
    assert decode_chunk(wire[1:-1]) == frame


def _crc_bitwise(data: bytes) -> int:
    """CRC-16/CCITT-FALSE the way a firmware author would write it, bit by bit."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def test_golden_bytes_pin_the_wire_format() -> None:
    # CRC-16/CCITT-FALSE check value from the CRC catalogue
    assert crc16(b"123456789") == 0x29B1 == _crc_bitwise(b"123456789")
    assert encode(StartScan()) == bytes.fromhex("00 01 04 82 ac c5 00")
    assert encode(SetScanPeriod(50)) == bytes.fromhex("00 03 02 84 04 32 98 23 00")
    # CRCs below computed by the bitwise reference in `_crc_bitwise`, not by the code under test
    assert _crc_bitwise(bytes.fromhex("06 02 00 04 01020304")) == 0x5513
    assert encode(TagSeen(0, bytes.fromhex("01020304"))) == bytes.fromhex(
        "00 03 06 02 08 04 01 02 03 04 55 13 00"
    )
    assert _crc_bitwise(bytes.fromhex("07 02 03 04 01020304 c4")) == 0xB339
    assert encode(TagSeen(3, bytes.fromhex("01020304"), -60)) == bytes.fromhex(
        "00 0c 07 02 03 04 01 02 03 04 c4 b3 39 00"
    )
    assert _crc_bitwise(bytes.fromhex("03 05 ff 03 78")) == 0x2634
    assert encode(ReaderFault(None, FaultCode.READER_TIMEOUT, "x")) == bytes.fromhex(
        "00 08 03 05 ff 03 78 26 34 00"
    )
    assert _crc_bitwise(bytes.fromhex("08 04 000003e8 00000014")) == 0x92E9
    assert encode(Heartbeat(1000, 20)) == bytes.fromhex("00 03 08 04 01 03 03 e8 01 01 04 14 92 e9 00")
    assert _crc_bitwise(bytes.fromhex("01 06 03")) == 0x6169
    assert encode(AntennaDone(3)) == bytes.fromhex("00 06 01 06 03 61 69 00")
    assert _crc_bitwise(bytes.fromhex("00 85")) == 0xDC22
    assert encode(ReportAntennas()) == bytes.fromhex("00 01 04 85 dc 22 00")


@pytest.mark.parametrize(
    ("raw", "stuffed"),
    [  # the examples of Cheshire and Baker's COBS paper, as listed on Wikipedia
        ("00", "01 01"),
        ("00 00", "01 01 01"),
        ("00 11 00", "01 02 11 01"),
        ("11 22 00 33", "03 11 22 02 33"),
        ("11 22 33 44", "05 11 22 33 44"),
        ("11 00 00 00", "02 11 01 01 01"),
        (bytes(range(1, 255)).hex(), "ff" + bytes(range(1, 255)).hex()),
        (bytes(range(0, 255)).hex(), "01 ff" + bytes(range(1, 255)).hex()),
        (bytes(range(1, 256)).hex(), "ff" + bytes(range(1, 255)).hex() + "02 ff"),
        (bytes(range(2, 256)).hex() + "00", "ff" + bytes(range(2, 256)).hex() + "01 01"),
        (bytes(range(3, 256)).hex() + "00 01", "fe" + bytes(range(3, 256)).hex() + "02 01"),
    ],
)
def test_cobs_matches_the_reference_examples(raw: str, stuffed: str) -> None:
    assert cobs_encode(bytes.fromhex(raw)) == bytes.fromhex(stuffed)
    assert cobs_decode(bytes.fromhex(stuffed)) == bytes.fromhex(raw)


@pytest.mark.parametrize(
    "build",
    [
        lambda: TagSeen(0, bytes(5)),
        lambda: TagSeen(0, bytearray(4)),  # type: ignore[arg-type]
        lambda: TagSeen(255, UID4),  # 0xFF means "no antenna" on the wire
        lambda: TagSeen(-1, UID4),
        lambda: TagSeen(0, UID4, 128),
        lambda: TagSeen(True, UID4),  # bool is an int to Python, not an antenna
        lambda: TagGone(0, b""),
        lambda: Hello(1, 0, "no antennas"),
        lambda: Hello(1, 4, "x" * 33),
        lambda: Hello(256, 4, ""),
        lambda: Heartbeat(2**32, 0),
        lambda: Heartbeat(0, -1),
        lambda: ReaderFault(None, 99),  # type: ignore[arg-type]
        lambda: ReaderFault(None, FaultCode.COLLISION, "é" * 17),
        lambda: SetScanPeriod(0),
        lambda: SetScanPeriod(65536),
        lambda: HostHello(-1),
    ],
)
def test_a_frame_the_wire_cannot_carry_is_refused_at_construction(build: object) -> None:
    with pytest.raises(InvalidFrame) as info:
        build()  # type: ignore[operator]
    assert isinstance(info.value, ValueError) and isinstance(info.value, ProtocolError)


def test_fault_code_given_as_a_number_becomes_the_enum() -> None:
    assert ReaderFault(2, 5).code is FaultCode.TX_OVERFLOW  # type: ignore[arg-type]


def _body(frame_type: str, payload: str = "", declared: int | None = None) -> bytes:
    """A body with a good CRC; `declared` overrides the length byte."""
    data = bytes.fromhex(payload)
    raw = bytes((len(data) if declared is None else declared,)) + bytes.fromhex(frame_type) + data
    return raw + crc16(raw).to_bytes(2, "big")


@pytest.mark.parametrize(
    ("body", "reason", "words"),
    [
        (bytes.fromhex("00 82 ac"), RejectReason.LENGTH, "3 bytes"),
        (_body("02", "00" * 61), RejectReason.LENGTH, "65 bytes"),
        (bytes.fromhex("00 82 ac c6"), RejectReason.CRC, "CRC ACC6, computed ACC5"),
        (_body("82", "", declared=1), RejectReason.LENGTH, "declares 1 payload bytes, carries 0"),
        (_body("42"), RejectReason.UNKNOWN_TYPE, "0x42"),
        (_body("00"), RejectReason.UNKNOWN_TYPE, "0x00"),
        (_body("02", "00 05 0102030405"), RejectReason.MALFORMED_PAYLOAD, "UID length"),
        (_body("02", "00 04 010203"), RejectReason.MALFORMED_PAYLOAD, "TagSeen payload of 5 bytes"),
        (_body("03", "00 04 01020304 c4"), RejectReason.MALFORMED_PAYLOAD, "TagGone"),
        (_body("02", "ff 04 01020304"), RejectReason.MALFORMED_PAYLOAD, "antenna must be"),
        (_body("04", "00000001"), RejectReason.MALFORMED_PAYLOAD, "expected 8 bytes"),
        (_body("05", "ff 63"), RejectReason.MALFORMED_PAYLOAD, "unknown fault code 99"),
        (_body("01", "01 08 ff fe"), RejectReason.MALFORMED_PAYLOAD, "not UTF-8"),
        (_body("01", "01 00"), RejectReason.MALFORMED_PAYLOAD, "antennas must be"),
        (_body("82", "00"), RejectReason.MALFORMED_PAYLOAD, "StartScan payload of 1 bytes"),
        (_body("84", "0000"), RejectReason.MALFORMED_PAYLOAD, "period_ms"),
        (_body("81"), RejectReason.MALFORMED_PAYLOAD, "HostHello"),
    ],
)
def test_decode_body_says_why_it_rejects(body: bytes, reason: RejectReason, words: str) -> None:
    with pytest.raises(FrameRejected) as info:
        decode_body(body)
    assert info.value.reason is reason
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)


def test_decode_chunk_rejects_broken_cobs_and_overlong_runs() -> None:
    with pytest.raises(FrameRejected) as info:
        decode_chunk(bytes.fromhex("01 05 82 ac c5"))  # block claims 4 bytes, 3 follow
    assert info.value.reason is RejectReason.ENCODING
    with pytest.raises(FrameRejected) as info:
        decode_chunk(b"\x01" * 66)
    assert info.value.reason is RejectReason.LENGTH


@pytest.mark.parametrize("frame", [Hello(1, 8, "tapis-ref 1"), ReaderFault(2, FaultCode.COLLISION, "x")])
def test_a_frame_merged_with_a_zero_by_a_damaged_delimiter_is_rejected(frame: Frame) -> None:
    """A CRC without final xor passes `message + CRC[0]` with `CRC[1] 00` as check: a damaged
    trailing delimiter (00 -> 01) appends exactly that 00. The length byte catches it, so a
    variable-length text never comes out one character longer."""
    stuffed = encode(frame)[1:-1] + b"\x01"
    assert crc16(cobs_decode(stuffed)[:-2]) == int.from_bytes(cobs_decode(stuffed)[-2:], "big")
    with pytest.raises(FrameRejected) as info:
        decode_chunk(stuffed)
    assert info.value.reason is RejectReason.LENGTH


def test_the_protocol_package_stays_pure() -> None:
    """DESIGN: firmware_bridge imports no serial, paho, gpiozero, and does no IO or threading."""
    forbidden = {"serial", "paho", "gpiozero", "socket", "threading", "time", "os", "select"}
    package = pathlib.Path(__file__).resolve().parents[2] / "firmware_bridge"
    for module in package.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in forbidden, f"{module.name} imports {name}"


from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@given(st.binary(max_size=80))
def test_crc16_agrees_with_the_bitwise_reference(data: bytes) -> None:
    assert crc16(data) == _crc_bitwise(data)


@given(st.binary(max_size=700))
def test_cobs_round_trips_and_never_emits_the_delimiter(data: bytes) -> None:
    stuffed = cobs_encode(data)
    assert 0 not in stuffed
    assert len(stuffed) <= len(data) + 1 + len(data) // 254
    assert cobs_decode(stuffed) == data
