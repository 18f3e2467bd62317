"""Reader board protocol v1 on the wire: frames to bytes and one frame's bytes back to a frame.

Consumes and emits the dataclasses of `frames`. A frame on the wire is
`00 | COBS(length | type | payload | CRC-16/CCITT-FALSE big-endian) | 00`, where length counts the
payload bytes (see docs/firmware-protocol.md).
The incremental, resynchronising stream decoder built on `decode_chunk` lives in `decoder`.
"""

from __future__ import annotations

import struct
from binascii import crc_hqx
from collections.abc import Callable

from firmware_bridge.errors import FrameRejected, InvalidFrame, RejectReason
from firmware_bridge.frames import (
    NO_ANTENNA,
    UID_LENGTHS,
    AntennaDone,
    FaultCode,
    Frame,
    FrameType,
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
)

DELIMITER = b"\x00"
MIN_BODY = 4  # length, type, CRC
MAX_BODY = 64  # no v1 frame is longer (the longest, Hello or ReaderFault, is 38 bytes)
MAX_ENCODED = MAX_BODY + 1  # COBS adds one byte per 254: one for bodies this short


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor; "123456789" -> 0x29B1."""
    return crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result holds no 00 byte, so 00 can delimit frames."""
    out = bytearray()
    blocks = data.split(b"\x00")
    for index, block in enumerate(blocks):
        while len(block) >= 0xFE:
            out.append(0xFF)  # 254 bytes and no implied 00
            out += block[:0xFE]
            block = block[0xFE:]
            if not block and index == len(blocks) - 1:
                return bytes(out)  # canonical: no trailing 01 after a full last block
        out.append(len(block) + 1)
        out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Inverse of `cobs_encode`; raises `FrameRejected(ENCODING)` when a block overruns or holds 00."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            raise FrameRejected(
                RejectReason.ENCODING, f"COBS block at offset {i} (code {code}) runs past {n} bytes"
            )
        block = data[i + 1 : end]
        if 0 in block:
            raise FrameRejected(RejectReason.ENCODING, f"00 inside COBS block at offset {i}")
        out += block
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def _text(raw: bytes, what: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise FrameRejected(RejectReason.MALFORMED_PAYLOAD, f"{what} is not UTF-8: {raw!r}") from err


def _payload(frame: Frame) -> bytes:
    match frame:
        case Hello(version, antennas, firmware):
            return bytes((version, antennas)) + firmware.encode("utf-8")
        case TagSeen(antenna, uid, rssi):
            tail = b"" if rssi is None else struct.pack(">b", rssi)
            return bytes((antenna, len(uid))) + uid + tail
        case TagGone(antenna, uid):
            return bytes((antenna, len(uid))) + uid
        case Heartbeat(uptime_ms, scans):
            return struct.pack(">II", uptime_ms, scans)
        case ReaderFault(antenna, code, detail):
            board = NO_ANTENNA if antenna is None else antenna
            return bytes((board, int(code))) + detail.encode("utf-8")
        case AntennaDone(antenna):
            return bytes((antenna,))
        case HostHello(version):
            return bytes((version,))
        case StartScan() | StopScan() | ReportAntennas():
            return b""
        case SetScanPeriod(period_ms):
            return struct.pack(">H", period_ms)
    raise InvalidFrame(f"not a protocol v1 frame: {frame!r}")


def encode_body(frame: Frame) -> bytes:
    """Length, type, payload and CRC: what COBS wraps. Raises `InvalidFrame` for a non-frame."""
    payload = _payload(frame)
    unstuffed = bytes((len(payload), frame.TYPE)) + payload
    return unstuffed + crc16(unstuffed).to_bytes(2, "big")


def encode(frame: Frame) -> bytes:
    """The bytes to put on the line for one frame, delimiters included."""
    return DELIMITER + cobs_encode(encode_body(frame)) + DELIMITER


# --- decoding one body ---------------------------------------------------------------------------


def _malformed(kind: str, payload: bytes, expected: str) -> FrameRejected:
    return FrameRejected(
        RejectReason.MALFORMED_PAYLOAD,
        f"{kind} payload of {len(payload)} bytes ({payload.hex()}), expected {expected}",
    )


def _uid_frame(kind: str, payload: bytes, rssi_allowed: bool) -> tuple[int, bytes, int | None]:
    if len(payload) < 2 or payload[1] not in UID_LENGTHS:
        raise _malformed(kind, payload, "antenna, UID length 4/7/10, UID")
    size = payload[1]
    rest = len(payload) - 2 - size
    if rest == 0:
        return payload[0], payload[2 : 2 + size], None
    if rest == 1 and rssi_allowed:
        return payload[0], payload[2 : 2 + size], struct.unpack_from(">b", payload, 2 + size)[0]
    raise _malformed(kind, payload, f"2 + {size} bytes" + (" (+1 RSSI)" if rssi_allowed else ""))


def _hello(p: bytes) -> Frame:
    if len(p) < 2:
        raise _malformed("Hello", p, "version, antennas, firmware name")
    return Hello(p[0], p[1], _text(p[2:], "firmware name"))


def _tag_seen(p: bytes) -> Frame:
    antenna, uid, rssi = _uid_frame("TagSeen", p, rssi_allowed=True)
    return TagSeen(antenna, uid, rssi)


def _tag_gone(p: bytes) -> Frame:
    antenna, uid, _ = _uid_frame("TagGone", p, rssi_allowed=False)
    return TagGone(antenna, uid)


def _heartbeat(p: bytes) -> Frame:
    if len(p) != 8:
        raise _malformed("Heartbeat", p, "8 bytes")
    uptime_ms, scans = struct.unpack(">II", p)
    return Heartbeat(uptime_ms, scans)


def _reader_fault(p: bytes) -> Frame:
    if len(p) < 2:
        raise _malformed("ReaderFault", p, "antenna, code, detail")
    try:
        code = FaultCode(p[1])
    except ValueError as err:
        raise FrameRejected(RejectReason.MALFORMED_PAYLOAD, f"unknown fault code {p[1]}") from err
    antenna = None if p[0] == NO_ANTENNA else p[0]
    return ReaderFault(antenna, code, _text(p[2:], "fault detail"))


def _antenna_done(p: bytes) -> Frame:
    if len(p) != 1:
        raise _malformed("AntennaDone", p, "1 byte")
    return AntennaDone(p[0])


def _host_hello(p: bytes) -> Frame:
    if len(p) != 1:
        raise _malformed("HostHello", p, "1 byte")
    return HostHello(p[0])


def _empty(kind: str, frame: Frame) -> Callable[[bytes], Frame]:
    def parse(p: bytes) -> Frame:
        if p:
            raise _malformed(kind, p, "0 bytes")
        return frame

    return parse


def _set_scan_period(p: bytes) -> Frame:
    if len(p) != 2:
        raise _malformed("SetScanPeriod", p, "2 bytes")
    return SetScanPeriod(struct.unpack(">H", p)[0])


_PARSERS: dict[int, Callable[[bytes], Frame]] = {
    FrameType.HELLO: _hello,
    FrameType.TAG_SEEN: _tag_seen,
    FrameType.TAG_GONE: _tag_gone,
    FrameType.HEARTBEAT: _heartbeat,
    FrameType.READER_FAULT: _reader_fault,
    FrameType.ANTENNA_DONE: _antenna_done,
    FrameType.HOST_HELLO: _host_hello,
    FrameType.START_SCAN: _empty("StartScan", StartScan()),
    FrameType.STOP_SCAN: _empty("StopScan", StopScan()),
    FrameType.SET_SCAN_PERIOD: _set_scan_period,
    FrameType.REPORT_ANTENNAS: _empty("ReportAntennas", ReportAntennas()),
}


def decode_body(body: bytes) -> Frame:
    """One unstuffed body (length | type | payload | CRC) to a frame; raises `FrameRejected` saying
    why not. The length byte is checked after the CRC: without it, two frames merged by a damaged
    delimiter can pass the CRC (a CRC without final xor over `message + CRC[0]` is `CRC[1] 00`)."""
    if not MIN_BODY <= len(body) <= MAX_BODY:
        raise FrameRejected(
            RejectReason.LENGTH, f"{len(body)} bytes, a v1 frame has {MIN_BODY}..{MAX_BODY}"
        )
    expected = crc16(body[:-2])
    got = int.from_bytes(body[-2:], "big")
    if got != expected:
        raise FrameRejected(RejectReason.CRC, f"CRC {got:04X}, computed {expected:04X}")
    if body[0] != len(body) - MIN_BODY:
        raise FrameRejected(
            RejectReason.LENGTH,
            f"declares {body[0]} payload bytes, carries {len(body) - MIN_BODY}",
        )
    parser = _PARSERS.get(body[1])
    if parser is None:
        raise FrameRejected(RejectReason.UNKNOWN_TYPE, f"type 0x{body[1]:02X} is not in protocol v1")
    try:
        return parser(body[2:-2])
    except InvalidFrame as err:
        raise FrameRejected(RejectReason.MALFORMED_PAYLOAD, str(err)) from err


def decode_chunk(chunk: bytes) -> Frame:
    """The bytes between two delimiters (still COBS-stuffed) to a frame; raises `FrameRejected`."""
    if len(chunk) > MAX_ENCODED:
        raise FrameRejected(
            RejectReason.LENGTH, f"{len(chunk)} bytes between delimiters, at most {MAX_ENCODED}"
        )
    return decode_body(cobs_decode(chunk))
