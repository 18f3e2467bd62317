"""An independent reference decoder for one piece of the reader board's wire (between two `00`
bytes), written from docs/firmware-protocol.md sections 2 and 3 and sharing no code with
`firmware_bridge.codec`: its own COBS, its own bitwise CRC-16/CCITT-FALSE (the spec's C loop), its
own payload rules. Returns the frame, or the reject reason the spec names. Only the frame
dataclasses are borrowed, to compare results (their constructors must accept every frame this
model accepts: a constructor raising here is a disagreement, not a reject)."""

from __future__ import annotations

from firmware_bridge import (
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
)

LENGTH, ENCODING, CRC, UNKNOWN_TYPE, MALFORMED = "length", "encoding", "crc", "unknown type", "malformed payload"


def crc16_ccitt_false(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def unstuff(piece: bytes) -> bytes | None:
    """COBS decoding: code byte c, then c - 1 data bytes, then an implied 00 unless c is FF or the
    piece ends there. None when a code points past the end."""
    out = bytearray()
    i = 0
    while i < len(piece):
        code = piece[i]
        if i + code > len(piece):
            return None
        out += piece[i + 1:i + code]
        i += code
        if code != 0xFF and i < len(piece):
            out.append(0)
    return bytes(out)


def _text(raw: bytes) -> str | None:
    if len(raw) > 32:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _uid(p: bytes, rssi: bool) -> tuple[int, bytes, int | None] | None:
    if len(p) < 2 or p[1] not in (4, 7, 10) or p[0] == 0xFF:
        return None
    tail = p[2 + p[1]:]
    if len(p) < 2 + p[1] or len(tail) > (1 if rssi else 0):
        return None
    return p[0], p[2:2 + p[1]], (tail[0] - 256 if tail[0] > 127 else tail[0]) if tail else None


def _payload(kind: int, p: bytes) -> Frame | None:
    """Section 3's table: the frame, or None for a malformed payload."""
    if kind == 0x01:  # Hello: version u8, antennas 1..254, firmware text
        text = _text(p[2:])
        ok = len(p) >= 2 and 1 <= p[1] <= 254 and text is not None
        return Hello(p[0], p[1], text) if ok else None  # type: ignore[arg-type]
    if kind in (0x02, 0x03):  # TagSeen (optional rssi i8), TagGone
        uid = _uid(p, rssi=kind == 0x02)
        if uid is None:
            return None
        return TagSeen(*uid) if kind == 0x02 else TagGone(uid[0], uid[1])
    if kind == 0x04:  # Heartbeat: two u32, big-endian
        if len(p) != 8:
            return None
        return Heartbeat(int.from_bytes(p[:4], "big"), int.from_bytes(p[4:], "big"))
    if kind == 0x05:  # ReaderFault: antenna (FF: the board), code 1..7, detail text
        text = _text(p[2:])
        if len(p) < 2 or not 1 <= p[1] <= 7 or text is None:
            return None
        return ReaderFault(None if p[0] == 0xFF else p[0], FaultCode(p[1]), text)
    if kind == 0x81:
        return HostHello(p[0]) if len(p) == 1 else None
    if kind in (0x82, 0x83):
        return None if p else (StartScan() if kind == 0x82 else StopScan())
    if kind == 0x84:  # SetScanPeriod u16; 0 ms is no period (the board's 10..10000 is its own answer)
        period = int.from_bytes(p, "big")
        return SetScanPeriod(period) if len(p) == 2 and period >= 1 else None
    raise AssertionError(kind)


KNOWN_TYPES = frozenset({0x01, 0x02, 0x03, 0x04, 0x05, 0x81, 0x82, 0x83, 0x84})


def reference_decode(piece: bytes) -> Frame | str:
    """Section 2's receiving steps, in order, for a non-empty piece."""
    if len(piece) > 65:
        return LENGTH
    body = unstuff(piece)
    if body is None:
        return ENCODING
    if not 4 <= len(body) <= 64:
        return LENGTH
    if crc16_ccitt_false(body[:-2]) != (body[-2] << 8 | body[-1]):
        return CRC
    if body[0] != len(body) - 4:
        return LENGTH
    if body[1] not in KNOWN_TYPES:
        return UNKNOWN_TYPE
    frame = _payload(body[1], body[2:-2])
    return MALFORMED if frame is None else frame
