"""Reader board protocol v1, board side, in MicroPython: CRC-16, COBS, frames to bytes, host frames in.

Mirrors `firmware_bridge.codec` (docs/firmware-protocol.md): LEN | TYPE | PAYLOAD | CRC16, COBS, 00
around. Frames are built straight to wire bytes; runs unchanged under CPython for the host tests.
"""

PROTOCOL_VERSION = 1
HELLO, TAG_SEEN, TAG_GONE, HEARTBEAT, READER_FAULT, ANTENNA_DONE = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06
HOST_HELLO, START_SCAN, STOP_SCAN, SET_SCAN_PERIOD, REPORT_ANTENNAS = 0x81, 0x82, 0x83, 0x84, 0x85
FRAME_NAMES = {HELLO: "Hello", TAG_SEEN: "TagSeen", TAG_GONE: "TagGone", HEARTBEAT: "Heartbeat",
               READER_FAULT: "ReaderFault", ANTENNA_DONE: "AntennaDone"}  # for "not a host frame: <name>"
ANTENNA_OPEN, ANTENNA_SHORT, READER_TIMEOUT, COLLISION, TX_OVERFLOW, BAD_COMMAND, REBOOTED = 1, 2, 3, 4, 5, 6, 7
NO_ANTENNA = 0xFF
MAX_TEXT = 32
MIN_BODY, MAX_BODY = 4, 64
MAX_ENCODED = MAX_BODY + 1


def _crc_table() -> list:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC = _crc_table()  # 256 entries: a byte per lookup instead of 8 shifts (the MCU CRCs every frame)


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, not reflected, no final xor ("123456789" -> 0x29B1)."""
    crc = 0xFFFF
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC[((crc >> 8) ^ byte) & 0xFF]
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Canonical COBS, as the host's: no 00 in the result; a full 254-byte last block has no trailing 01."""
    out = bytearray()
    start = 0
    n = len(data)
    while True:
        end = start
        while end < n and data[end] != 0 and end - start < 0xFE:
            end += 1
        out.append(end - start + 1)
        out += data[start:end]
        if end - start == 0xFE:
            start = end
            if start == n:
                return bytes(out)
            continue  # a full block implies no 00
        if end == n:
            return bytes(out)
        start = end + 1  # skip the 00 the code byte stands for


def cobs_decode(data: bytes):
    """Inverse of `cobs_encode`, or None when the block structure is broken (reject, don't raise)."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            return None
        block = data[i + 1:end]
        if 0 in block:
            return None
        out += block
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def frame(kind: int, payload: bytes) -> bytes:
    """One frame's bytes on the wire, delimiters included."""
    body = bytes((len(payload), kind)) + payload
    crc = crc16(body)
    return b"\x00" + cobs_encode(body + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def _text(text: str) -> bytes:
    """UTF-8, cut to MAX_TEXT bytes without splitting a character."""
    raw = text.encode("utf-8")
    if len(raw) <= MAX_TEXT:
        return raw
    cut = MAX_TEXT
    start = cut - 1
    while start > 0 and (raw[start] & 0xC0) == 0x80:
        start -= 1  # back to the lead byte of the last character
    lead = raw[start]
    size = 1 if lead < 0x80 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
    return raw[:cut] if start + size <= cut else raw[:start]


def hello(antennas: int, firmware: str) -> bytes:
    return frame(HELLO, bytes((PROTOCOL_VERSION, antennas)) + _text(firmware))


def tag_seen(antenna: int, uid: bytes, rssi=None) -> bytes:
    tail = b"" if rssi is None else bytes((rssi & 0xFF,))
    return frame(TAG_SEEN, bytes((antenna, len(uid))) + uid + tail)


def tag_gone(antenna: int, uid: bytes) -> bytes:
    return frame(TAG_GONE, bytes((antenna, len(uid))) + uid)


def heartbeat(uptime_ms: int, scans: int) -> bytes:
    u, s = uptime_ms & 0xFFFFFFFF, scans & 0xFFFFFFFF
    return frame(HEARTBEAT, bytes((u >> 24, (u >> 16) & 0xFF, (u >> 8) & 0xFF, u & 0xFF,
                                   s >> 24, (s >> 16) & 0xFF, (s >> 8) & 0xFF, s & 0xFF)))


def antenna_done(antenna: int) -> bytes:
    """The antenna's read in this scan is over (sent only to a host that asked: REPORT_ANTENNAS)."""
    return frame(ANTENNA_DONE, bytes((antenna,)))


def reader_fault(antenna, code: int, detail: str = "") -> bytes:
    """`antenna` None means the whole board."""
    return frame(READER_FAULT, bytes((NO_ANTENNA if antenna is None else antenna, code)) + _text(detail))


class HostDecoder:
    """Bytes from the host in, `(type, payload)` of every valid frame out; damaged frames are dropped
    silently and counted (the host repeats what it cares about). Never raises, never grows past a frame."""

    def __init__(self) -> None:
        self._partial = bytearray()
        self._overlong = False
        self.rejected = 0

    def feed(self, data: bytes) -> list:
        frames = []
        for byte in data:  # a few bytes per command: byte by byte is cheap and needs no split()
            if byte != 0:
                if len(self._partial) < MAX_ENCODED:
                    self._partial.append(byte)
                else:
                    self._overlong = True
                continue
            if self._partial or self._overlong:
                parsed = None if self._overlong else self._parse(bytes(self._partial))
                if parsed is None:
                    self.rejected += 1
                else:
                    frames.append(parsed)
            self._partial = bytearray()
            self._overlong = False
        return frames

    @staticmethod
    def _parse(chunk: bytes):
        body = cobs_decode(chunk)
        if body is None or not MIN_BODY <= len(body) <= MAX_BODY:
            return None
        if crc16(body[:-2]) != (body[-2] << 8 | body[-1]):
            return None
        if body[0] != len(body) - MIN_BODY:
            return None
        return body[1], bytes(body[2:-2])
