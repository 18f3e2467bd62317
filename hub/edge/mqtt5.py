"""MQTT 5 packets as the hub's link sends and reads them (OASIS MQTT 5.0, sections 2-3): pure bytes in
and out, no socket, so each packet can be checked alone.

Only what a client that publishes at QoS 0/1 and subscribes at QoS 1 needs: CONNECT, PUBLISH, PUBACK,
SUBSCRIBE, UNSUBSCRIBE, PINGREQ and DISCONNECT out; CONNACK, PUBLISH, PUBACK, SUBACK, UNSUBACK,
PINGRESP and DISCONNECT in. Anything else from a broker is a `ProtocolError` (the link drops the
connection and connects again).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

CONNECT, CONNACK, PUBLISH, PUBACK, PUBREC, PUBREL, PUBCOMP = 1, 2, 3, 4, 5, 6, 7
SUBSCRIBE, SUBACK, UNSUBSCRIBE, UNSUBACK, PINGREQ, PINGRESP, DISCONNECT, AUTH = 8, 9, 10, 11, 12, 13, 14, 15

PINGREQ_PACKET = b"\xc0\x00"
DISCONNECT_PACKET = b"\xe0\x00"  # normal disconnection: the broker drops the will
MALFORMED, PROTOCOL_ERROR, SESSION_TAKEN_OVER, TOPIC_ALIAS_INVALID, PACKET_TOO_LARGE = 0x81, 0x82, 0x8E, 0x94, 0x95

# Reason codes a broker sends in CONNACK, PUBACK, SUBACK and DISCONNECT (MQTT 5.0 §2.4), named as paho
# names them, so a refusal reads the same whichever link met it.
REASONS = {
    0x00: "Success", 0x01: "Granted QoS 1", 0x02: "Granted QoS 2", 0x04: "Disconnect with will message",
    0x10: "No matching subscribers", 0x11: "No subscription found", 0x80: "Unspecified error",
    0x81: "Malformed packet", 0x82: "Protocol error", 0x83: "Implementation specific error",
    0x84: "Unsupported protocol version", 0x85: "Client identifier not valid",
    0x86: "Bad user name or password", 0x87: "Not authorized", 0x88: "Server unavailable",
    0x89: "Server busy", 0x8A: "Banned", 0x8B: "Server shutting down", 0x8C: "Bad authentication method",
    0x8D: "Keep alive timeout", 0x8E: "Session taken over", 0x8F: "Topic filter invalid",
    0x90: "Topic name invalid", 0x91: "Packet identifier in use", 0x92: "Packet identifier not found",
    0x93: "Receive maximum exceeded", 0x94: "Topic alias invalid", 0x95: "Packet too large",
    0x96: "Message rate too high", 0x97: "Quota exceeded", 0x98: "Administrative action",
    0x99: "Payload format invalid", 0x9A: "Retain not supported", 0x9B: "QoS not supported",
    0x9C: "Use another server", 0x9D: "Server moved", 0x9E: "Shared subscriptions not supported",
    0x9F: "Connection rate exceeded", 0xA0: "Maximum connect time",
    0xA1: "Subscription identifiers not supported", 0xA2: "Wildcard subscriptions not supported"}

# Property identifiers (§2.2.2.2) -> how their value is written: b byte, h two bytes, i four bytes,
# v variable byte integer, s UTF-8 string, d binary data, p string pair
_PROPERTY_KINDS = {
    0x01: "b", 0x02: "i", 0x03: "s", 0x08: "s", 0x09: "d", 0x0B: "v", 0x11: "i", 0x12: "s", 0x13: "h",
    0x15: "s", 0x16: "d", 0x17: "b", 0x18: "i", 0x19: "b", 0x1A: "s", 0x1C: "s", 0x1F: "s", 0x21: "h",
    0x22: "h", 0x23: "h", 0x24: "b", 0x25: "b", 0x26: "p", 0x27: "i", 0x28: "b", 0x29: "b", 0x2A: "b"}
SESSION_EXPIRY, SERVER_KEEP_ALIVE, RECEIVE_MAXIMUM, MAXIMUM_PACKET_SIZE, REASON_STRING = 0x11, 0x13, 0x21, 0x27, 0x1F
TOPIC_ALIAS = 0x23
_FIXED_SIZES = {"b": 1, "h": 2, "i": 4}

_H = struct.Struct("!H")
_I = struct.Struct("!I")


class ProtocolError(ValueError):
    """What a broker sent is not MQTT 5 as this client speaks it; `code` is the reason the link gives in
    the DISCONNECT it sends before hanging up (§4.13)."""

    def __init__(self, message: str, code: int = MALFORMED) -> None:
        super().__init__(message)
        self.code = code


def reason(code: int) -> str:
    return REASONS.get(code, f"reason code 0x{code:02x}")


def varint(n: int) -> bytes:
    """A variable byte integer (§1.5.5): 7 bits a byte, least significant first."""
    if n < 128:
        return bytes((n,))
    out = bytearray()
    while True:
        n, digit = n >> 7, n & 0x7F
        out.append(digit | (0x80 if n else 0))
        if not n:
            return bytes(out)


def read_varint(data: bytes | bytearray | memoryview, at: int) -> tuple[int, int] | None:
    """(value, index after it) from `data[at:]`; None if `data` ends before it does."""
    value = shift = 0
    for k in range(4):
        if at + k >= len(data):
            return None
        byte = data[at + k]
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, at + k + 1
        shift += 7
    raise ProtocolError("a variable byte integer longer than 4 bytes")


def _str(text: str) -> bytes:
    raw = text.encode()
    return _H.pack(len(raw)) + raw


def _bin(raw: bytes) -> bytes:
    return _H.pack(len(raw)) + raw


def _packet(first: int, body: bytes) -> bytes:
    return bytes((first,)) + varint(len(body)) + body


def connect(client_id: str, *, keepalive: int, clean_start: bool, session_expiry: int = 0,
            username: str | None = None, password: str | None = None, will: tuple[str, bytes] | None = None,
            max_packet: int | None = None) -> bytes:
    """CONNECT (§3.1); the will, if any, at QoS 1 and retained (a table's or the hub's `offline`)."""
    flags = (0x02 if clean_start else 0) | (0x80 if username is not None else 0) \
        | (0x40 if password is not None else 0) | (0x04 | 0x08 | 0x20 if will is not None else 0)
    props = b""
    if session_expiry:
        props += bytes((SESSION_EXPIRY,)) + _I.pack(session_expiry)
    if max_packet:
        props += bytes((MAXIMUM_PACKET_SIZE,)) + _I.pack(max_packet)
    body = _str("MQTT") + bytes((5, flags)) + _H.pack(keepalive) + varint(len(props)) + props + _str(client_id)
    if will is not None:
        body += b"\x00" + _str(will[0]) + _bin(will[1])  # no will properties
    if username is not None:
        body += _str(username)
    if password is not None:
        body += _bin(password.encode())
    return _packet(CONNECT << 4, body)


def publish(topic: bytes, payload: bytes, *, qos: int, retain: bool, packet_id: int = 0, dup: bool = False) -> bytes:
    """PUBLISH (§3.3), no properties; `topic` already UTF-8. The hot path: a few concatenations."""
    first = 0x30 | (0x08 if dup else 0) | (qos << 1) | (1 if retain else 0)
    if qos:
        head = _H.pack(len(topic)) + topic + _H.pack(packet_id) + b"\x00"
    else:
        head = _H.pack(len(topic)) + topic + b"\x00"
    length = len(head) + len(payload)
    if length < 128:
        return bytes((first, length)) + head + payload
    return bytes((first,)) + varint(length) + head + payload


def disconnect(code: int) -> bytes:
    """DISCONNECT with a reason code and no properties (§3.14.2.2: the property length may be left out)."""
    return bytes((DISCONNECT << 4, 1, code))


def puback(packet_id: int) -> bytes:
    """PUBACK, success: the short form (§3.4.2.1: reason and properties left out)."""
    return b"\x40\x02" + _H.pack(packet_id)


def subscribe(packet_id: int, filters: list[tuple[str, bool]]) -> bytes:
    """SUBSCRIBE (§3.8) of (filter, no_local) pairs, each at QoS 1, retained messages sent at subscribe."""
    body = _H.pack(packet_id) + b"\x00"
    for pattern, no_local in filters:
        body += _str(pattern) + bytes((0x01 | (0x04 if no_local else 0),))
    return _packet(SUBSCRIBE << 4 | 0x02, body)


def unsubscribe(packet_id: int, filters: list[str]) -> bytes:
    body = _H.pack(packet_id) + b"\x00" + b"".join(_str(p) for p in filters)
    return _packet(UNSUBSCRIBE << 4 | 0x02, body)


@dataclass(frozen=True, slots=True)
class Connack:
    session_present: bool
    code: int
    properties: dict[int, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Incoming:
    """A PUBLISH from the broker."""

    topic: str
    payload: bytes
    qos: int
    retain: bool
    packet_id: int


def properties(data: bytes, at: int) -> tuple[dict[int, object], int]:
    """The property block at `data[at:]` (§2.2.2): ({identifier: value}, index after it)."""
    got = read_varint(data, at)
    if got is None:
        raise ProtocolError("properties cut short")
    length, at = got
    end = at + length
    if end > len(data):
        raise ProtocolError("properties longer than their packet")
    found: dict[int, object] = {}
    while at < end:
        ident = data[at]
        kind = _PROPERTY_KINDS.get(ident)
        at += 1
        value: object
        if kind is None:
            raise ProtocolError(f"unknown property 0x{ident:02x}")
        # Every read is checked against the block's end: a property cut short is a malformed packet,
        # never an IndexError or a struct.error out of the parser
        if kind in _FIXED_SIZES:
            size = _FIXED_SIZES[kind]
            if at + size > end:
                raise ProtocolError(f"property 0x{ident:02x} cut short")
            value, at = int.from_bytes(data[at:at + size], "big"), at + size
        elif kind == "v":
            got = read_varint(data, at)
            if got is None or got[1] > end:
                raise ProtocolError(f"property 0x{ident:02x} cut short")
            value, at = got
        else:
            raw, at = _length_prefixed(data, at, end, ident)
            value = raw.decode("utf-8", "replace") if kind == "s" else raw
            if kind == "p":  # user property: a second string; not used by the hub
                value, at = None, _length_prefixed(data, at, end, ident)[1]
        found[ident] = value
    return found, end


def _length_prefixed(data: bytes, at: int, end: int, ident: int) -> tuple[bytes, int]:
    size = _H.unpack_from(data, at)[0] if at + 2 <= end else end
    if at + 2 + size > end:
        raise ProtocolError(f"property 0x{ident:02x} cut short")
    return bytes(data[at + 2:at + 2 + size]), at + 2 + size


def read_connack(body: bytes) -> Connack:
    if len(body) < 2:
        raise ProtocolError("CONNACK too short")
    props = properties(body, 2)[0] if len(body) > 2 else {}
    return Connack(bool(body[0] & 0x01), body[1], props)


def read_publish(first: int, body: bytes) -> Incoming:
    qos = (first >> 1) & 0x03
    if qos > 1:  # this client subscribes at QoS 1: a broker downgrades what it sends to that
        raise ProtocolError(f"PUBLISH at QoS {qos}")
    try:
        size = _H.unpack_from(body, 0)[0]
        if 2 + size > len(body):
            raise ProtocolError("a PUBLISH's topic runs past its packet")
        topic = body[2:2 + size].decode()
        at = 2 + size
        packet_id = 0
        if qos:
            packet_id = _H.unpack_from(body, at)[0]
            at += 2
    except (struct.error, UnicodeDecodeError) as err:
        raise ProtocolError(f"a PUBLISH that does not parse: {err}") from None
    props, at = properties(body, at)
    # CONNECT allows no topic alias (its Topic Alias Maximum is left at 0): one is a protocol error
    # (§3.3.2.3.4), and so is a topic with no alias to stand for it
    if TOPIC_ALIAS in props:
        raise ProtocolError("a PUBLISH with a topic alias this link never allowed", TOPIC_ALIAS_INVALID)
    if not topic:
        raise ProtocolError("a PUBLISH with an empty topic", PROTOCOL_ERROR)
    return Incoming(topic, body[at:], qos, bool(first & 0x01), packet_id)


def read_ack(body: bytes) -> tuple[int, int]:
    """PUBACK, UNSUBACK-like short acks: (packet id, reason code; 0 when left out)."""
    if len(body) < 2:
        raise ProtocolError("an acknowledgement shorter than its packet identifier")
    return _H.unpack_from(body, 0)[0], body[2] if len(body) > 2 else 0


def read_suback(body: bytes) -> tuple[int, list[int]]:
    """SUBACK or UNSUBACK: (packet id, a reason code per filter, in order)."""
    if len(body) < 3:
        raise ProtocolError("SUBACK too short")
    packet_id = _H.unpack_from(body, 0)[0]
    at = properties(body, 2)[1]
    return packet_id, list(body[at:])


def read_disconnect(body: bytes) -> tuple[int, str | None]:
    """DISCONNECT from the broker: (reason code, its reason string if any)."""
    if not body:
        return 0, None
    said = properties(body, 1)[0].get(REASON_STRING) if len(body) > 1 else None
    return body[0], said if isinstance(said, str) else None


class Reader:
    """Cuts a byte stream into whole packets; refuses one longer than `max_packet` before buffering it."""

    def __init__(self, max_packet: int) -> None:
        self._buffer = bytearray()
        self._max = max_packet

    def feed(self, data: bytes) -> tuple[list[tuple[int, bytes]], ProtocolError | None]:
        """The whole packets now available, (first byte, body) each, and the error that stopped the
        stream after them, if any: the packets before a bad one are still the broker's to act on."""
        buffer = self._buffer
        buffer += data
        packets = []
        at = 0
        end = len(buffer)
        error = None
        try:
            while end - at >= 2:
                got = read_varint(buffer, at + 1)
                if got is None:
                    break
                length, start = got
                if length + start - at > self._max:
                    raise ProtocolError(f"a packet of {length} bytes, over the {self._max} this link accepts")
                if start + length > end:
                    break
                packets.append((buffer[at], bytes(buffer[start:start + length])))
                at = start + length
        except ProtocolError as err:
            error = err
            at = end  # nothing after it can be trusted
        del buffer[:at]
        return packets, error
