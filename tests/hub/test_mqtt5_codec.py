"""`hub.edge.mqtt5` checked against an independent MQTT 5 codec: paho-mqtt's (Eclipse), its packet
encoders (`Client._send_*`, caught before they reach a socket) and decoders (`paho.mqtt._packet`,
`Properties`). Both directions: what the hub writes, paho reads as meant and writes the same bytes;
what a broker writes (encoded by paho), the hub reads as paho does. Private paho API: pinned by
the `paho-mqtt` version in pyproject; a paho upgrade that moves it fails here, loudly."""

from __future__ import annotations

import struct
from collections.abc import Iterator

import paho.mqtt.client as mqtt
import pytest
from hypothesis import given
from hypothesis import strategies as st
from paho.mqtt import _packet
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.subscribeoptions import SubscribeOptions

from hub.edge import mqtt5

V5 = MQTTProtocolVersion.MQTTv5
topics = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00+#"), min_size=1,
                 max_size=80)
payloads = st.binary(max_size=300)
packet_ids = st.integers(1, 65535)


class _NoSocket:
    def close(self) -> None:
        pass


class PahoWire:
    """A paho client whose packets are kept instead of sent."""

    def __init__(self, client_id: str = "tapis-hub") -> None:
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=V5)
        self.sent: list[bytes] = []
        self.client._packet_queue = self._keep  # type: ignore[method-assign,assignment]
        self.client._sock = _NoSocket()  # type: ignore[assignment]

    def _keep(self, command: int, packet: bytes | bytearray, mid: int, qos: int, info: object = None) -> int:
        self.sent.append(bytes(packet))
        return 0

    def last(self) -> bytes:
        return self.sent[-1]


@pytest.fixture
def paho() -> Iterator[PahoWire]:
    wire = PahoWire()
    yield wire
    wire.client._sock = None


def _split(packet: bytes) -> tuple[int, bytes]:
    """(first byte, body) as our reader cuts it: the whole packet, nothing left over."""
    got, error = mqtt5.Reader(1 << 20).feed(packet)
    assert error is None and len(got) == 1
    return got[0]


# --- what the hub writes ----------------------------------------------------------------------------


@given(topic=topics, payload=payloads, qos=st.sampled_from([0, 1]), retain=st.booleans(), dup=st.booleans(),
       packet_id=packet_ids)
def test_publish_is_paho_s_bytes_and_paho_reads_it(topic: str, payload: bytes, qos: int, retain: bool, dup: bool,
                                                   packet_id: int) -> None:
    wire = PahoWire()
    ours = mqtt5.publish(topic.encode(), payload, qos=qos, retain=retain, packet_id=packet_id if qos else 0,
                         dup=dup and qos == 1)
    wire.client._send_publish(packet_id if qos else 0, topic.encode(), payload, qos, retain, dup and qos == 1)
    assert ours == wire.last()
    first, body = _split(ours)
    read = _packet.decode_publish(first, body, V5)
    assert (read.topic.decode(), read.payload, read.qos, read.retain, read.dup) == (topic, payload, qos, retain,
                                                                                    dup and qos == 1)
    assert read.mid == (packet_id if qos else 0)
    wire.client._sock = None


@pytest.mark.parametrize("clean_start", [True, False])
@pytest.mark.parametrize("credentials", [None, ("hub", "s3cret/é")])
@pytest.mark.parametrize("will", [None, ("tapis/v1/hub/status", b"offline")])
def test_connect_is_paho_s_bytes(paho: PahoWire, clean_start: bool, credentials: tuple[str, str] | None,
                                 will: tuple[str, bytes] | None) -> None:
    client = paho.client
    props = Properties(PacketTypes.CONNECT)
    if not clean_start:
        props.SessionExpiryInterval = 3600
    props.MaximumPacketSize = 256 * 1024
    client._connect_properties = props
    client._clean_start = clean_start
    if credentials:
        client.username_pw_set(*credentials)
    if will:
        client.will_set(will[0], will[1], qos=1, retain=True)
    client._send_connect(15)
    ours = mqtt5.connect("tapis-hub", keepalive=15, clean_start=clean_start, session_expiry=0 if clean_start else 3600,
                         username=credentials[0] if credentials else None,
                         password=credentials[1] if credentials else None, will=will, max_packet=256 * 1024)
    assert ours == paho.last()


def test_subscribe_unsubscribe_puback_disconnect_are_paho_s_bytes(paho: PahoWire) -> None:
    client = paho.client
    client._send_subscribe(False, [(b"room/+/event", SubscribeOptions(qos=1)),
                                   (b"room/own", SubscribeOptions(qos=1, noLocal=True))])
    packet_id = struct.unpack_from("!H", _split(paho.last())[1])[0]
    assert mqtt5.subscribe(packet_id, [("room/+/event", False), ("room/own", True)]) == paho.last()
    client._send_unsubscribe(False, [b"room/own"])
    packet_id = struct.unpack_from("!H", _split(paho.last())[1])[0]
    assert mqtt5.unsubscribe(packet_id, ["room/own"]) == paho.last()
    client._send_puback(513)
    assert mqtt5.puback(513) == paho.last()
    client._send_disconnect()
    assert mqtt5.DISCONNECT_PACKET == paho.last()
    read = _packet.decode_disconnect(*_split(mqtt5.disconnect(mqtt5.TOPIC_ALIAS_INVALID)), V5)
    assert _code(read.reason) == mqtt5.TOPIC_ALIAS_INVALID


# --- what a broker writes ---------------------------------------------------------------------------


@given(topic=topics, payload=payloads, qos=st.sampled_from([0, 1]), retain=st.booleans(), packet_id=packet_ids,
       expiry=st.none() | st.integers(0, 2**32 - 1), content_type=st.none() | topics)
def test_a_publish_paho_writes_reads_back(topic: str, payload: bytes, qos: int, retain: bool, packet_id: int,
                                          expiry: int | None, content_type: str | None) -> None:
    wire = PahoWire()
    props = Properties(PacketTypes.PUBLISH)
    if expiry is not None:
        props.MessageExpiryInterval = expiry
    if content_type is not None:
        props.ContentType = content_type
    props.UserProperty = ("k", "v")
    wire.client._send_publish(packet_id if qos else 0, topic.encode(), payload, qos, retain, properties=props)
    got = mqtt5.read_publish(*_split(wire.last()))
    assert (got.topic, got.payload, got.qos, got.retain, got.packet_id) == (topic, payload, qos, retain,
                                                                            packet_id if qos else 0)
    wire.client._sock = None


def _prop(props: Properties | None, name: str) -> object:
    return getattr(props, name, None)  # paho sets them as attributes, by name


def _code(reason: object) -> object:
    return getattr(reason, "value", None)


def _connack_properties() -> Properties:
    """One property of each kind a CONNACK may carry: byte, two and four bytes, string, binary, pair."""
    props = Properties(PacketTypes.CONNACK)
    props.ReceiveMaximum = 20
    props.ServerKeepAlive = 30
    props.MaximumPacketSize = 1024
    props.SessionExpiryInterval = 600
    props.MaximumQoS = 1
    props.TopicAliasMaximum = 10
    props.AssignedClientIdentifier = "tapis-hub"
    props.ReasonString = "why not"
    props.AuthenticationData = b"\x00\x01"
    props.UserProperty = ("broker", "fake")
    return props


@pytest.mark.parametrize("code", [0x00, 0x87])
def test_connack_properties_paho_writes_read_as_paho_reads_them(code: int) -> None:
    body = bytes((1, code)) + _connack_properties().pack()
    ours, theirs = mqtt5.read_connack(body), _packet.decode_connack(0x20, body, V5)
    assert (ours.session_present, ours.code) == (bool(theirs.flags & 1), _code(theirs.reason))
    assert ours.properties[mqtt5.RECEIVE_MAXIMUM] == _prop(theirs.properties, "ReceiveMaximum") == 20
    assert ours.properties[mqtt5.SERVER_KEEP_ALIVE] == _prop(theirs.properties, "ServerKeepAlive") == 30
    assert ours.properties[mqtt5.MAXIMUM_PACKET_SIZE] == _prop(theirs.properties, "MaximumPacketSize") == 1024
    assert ours.properties[mqtt5.REASON_STRING] == _prop(theirs.properties, "ReasonString") == "why not"


def test_suback_and_disconnect_paho_writes_read_as_paho_reads_them() -> None:
    props = Properties(PacketTypes.SUBACK)
    props.ReasonString = "partly"
    body = struct.pack("!H", 9) + props.pack() + bytes((1, 0x87, 0))
    theirs = _packet.decode_suback(0x90, body, V5)
    assert mqtt5.read_suback(body) == (theirs.mid, [r.value for r in theirs.reason_codes]) == (9, [1, 0x87, 0])
    props = Properties(PacketTypes.DISCONNECT)
    props.ReasonString = "shutting down"
    body = bytes((0x8B,)) + props.pack()
    read = _packet.decode_disconnect(0xE0, body, V5)
    assert mqtt5.read_disconnect(body) == (_code(read.reason), _prop(read.properties, "ReasonString"))


# --- 8. a property cut short is a malformed packet, never an exception out of the parser ----------


def test_every_property_cut_short_is_a_protocol_error() -> None:
    """The block's length rewritten to end inside each property in turn (the packet ends there too), in
    each packet that carries one: `ProtocolError`, never `struct.error` or `IndexError`. A cut between
    two properties is a shorter whole block: it must read as paho reads it."""
    block = _connack_properties().pack()
    length, start = mqtt5.read_varint(block, 0) or (0, 0)
    inner = block[start:]
    assert len(inner) == length
    cut_inside = 0
    for cut in range(1, length):
        props = mqtt5.varint(cut) + inner[:cut]
        try:
            read = mqtt5.read_connack(bytes((0, 0)) + props)
        except mqtt5.ProtocolError:
            cut_inside += 1
        else:
            theirs = _packet.decode_connack(0x20, bytes((0, 0)) + props, V5).properties
            assert read.properties.get(mqtt5.RECEIVE_MAXIMUM) == getattr(theirs, "ReceiveMaximum", None)
        for reader, head in ((lambda body: mqtt5.read_publish(0x32, body), b"\x00\x01t\x00\x07"),
                             (mqtt5.read_suback, b"\x00\x07"), (mqtt5.read_disconnect, b"\x00")):
            try:
                reader(head + props)
            except mqtt5.ProtocolError:
                pass
    assert cut_inside > length // 2


# --- edges: lengths at their limits, defaults, and what each refusal says --------------------------


@pytest.mark.parametrize("size", [122, 123, 124, 16_376, 16_377])
def test_a_publish_whose_length_crosses_a_length_byte_is_paho_s_bytes(paho: PahoWire, size: int) -> None:
    """Remaining length 127, 128, 129 and 16,383, 16,384: one length byte more at 128 and 16,384."""
    ours = mqtt5.publish(b"t", b"p" * size, qos=0, retain=False)
    paho.client._send_publish(0, b"t", b"p" * size, 0, False)
    assert ours == paho.last()
    assert _split(ours) == (0x30, b"\x00\x01t\x00" + b"p" * size)


def test_the_defaults_are_paho_s_defaults(paho: PahoWire) -> None:
    """What the link leaves out: no DUP, no session expiry, no will or credentials."""
    paho.client._send_publish(5, b"t", b"p", 1, False)
    assert mqtt5.publish(b"t", b"p", qos=1, retain=False, packet_id=5) == paho.last()
    paho.client._send_connect(15)
    assert mqtt5.connect("tapis-hub", keepalive=15, clean_start=True) == paho.last()
    paho.client._send_unsubscribe(False, [b"a", b"b/#"])
    packet_id = struct.unpack_from("!H", _split(paho.last())[1])[0]
    assert mqtt5.unsubscribe(packet_id, ["a", "b/#"]) == paho.last()
    assert _split(mqtt5.disconnect(mqtt5.PROTOCOL_ERROR)) == (0xE0, b"\x82")


def test_each_property_kind_reads_as_paho_wrote_it() -> None:
    """Byte, two and four bytes, variable byte integer, string (bad UTF-8 replaced, not raised),
    binary and string pair, in the block paho packs."""
    props = Properties(PacketTypes.PUBLISH)
    props.PayloadFormatIndicator = 1
    props.TopicAlias = 3
    props.MessageExpiryInterval = 70_000
    props.SubscriptionIdentifier = [300]
    props.ContentType = "application/json"
    props.CorrelationData = b"\xff\x00"
    props.UserProperty = ("k", "v")
    block = props.pack()
    found, end = mqtt5.properties(block, 0)
    assert end == len(block)
    assert found == {0x01: 1, mqtt5.TOPIC_ALIAS: 3, 0x02: 70_000, 0x0B: 300, 0x03: "application/json",
                     0x09: b"\xff\x00", 0x26: None}
    bad = bytes((mqtt5.REASON_STRING,)) + b"\x00\x02\xff\xfe"
    assert mqtt5.properties(mqtt5.varint(len(bad)) + bad, 0)[0] == {mqtt5.REASON_STRING: "\ufffd\ufffd"}
    at_end = bytes((mqtt5.REASON_STRING,)) + b"\x00\x00"  # an empty string, its length the block's last bytes
    assert mqtt5.properties(mqtt5.varint(len(at_end)) + at_end, 0)[0] == {mqtt5.REASON_STRING: ""}
    assert mqtt5.properties(b"\x02\x0b\x05", 0)[0] == {0x0B: 5}  # a variable byte integer, last in its block


def test_short_acknowledgements_read_at_their_limits() -> None:
    assert mqtt5.read_connack(b"\x00\x00") == mqtt5.Connack(False, 0, {})
    assert mqtt5.read_connack(b"\x00\x87\x00").code == 0x87
    assert mqtt5.read_ack(b"\x00\x07") == (7, 0)  # PUBACK, success: reason left out
    assert mqtt5.read_ack(b"\x00\x07\x87") == (7, 0x87)
    assert mqtt5.read_suback(b"\x00\x07\x00") == (7, [])
    assert mqtt5.read_disconnect(b"") == (0, None)
    assert mqtt5.read_disconnect(b"\x8b") == (0x8B, None)


@pytest.mark.parametrize(("read", "message", "code"), [
    (lambda: mqtt5.read_varint(b"\xff\xff\xff\xff\x01", 0), "a variable byte integer longer than 4 bytes",
     mqtt5.MALFORMED),
    (lambda: mqtt5.read_connack(b"\x00"), "CONNACK too short", mqtt5.MALFORMED),
    (lambda: mqtt5.read_connack(b"\x00\x00\x80"), "properties cut short", mqtt5.MALFORMED),
    (lambda: mqtt5.read_connack(b"\x00\x00\x05\x21"), "properties longer than their packet", mqtt5.MALFORMED),
    (lambda: mqtt5.read_connack(b"\x00\x00\x02\x21\x00"), "property 0x21 cut short", mqtt5.MALFORMED),
    (lambda: mqtt5.read_connack(b"\x00\x00\x02\x0b\x80"), "property 0x0b cut short", mqtt5.MALFORMED),
    (lambda: mqtt5.read_connack(b"\x00\x00\x03\x1f\x00\x01"), "property 0x1f cut short", mqtt5.MALFORMED),
    (lambda: mqtt5.read_connack(b"\x00\x00\x02\x7f\x00"), "unknown property 0x7f", mqtt5.MALFORMED),
    (lambda: mqtt5.read_publish(0x30, b"\x00\x05ab"), "a PUBLISH's topic runs past its packet", mqtt5.MALFORMED),
    (lambda: mqtt5.read_publish(0x30, b"\x00\x02ab"), "properties cut short", mqtt5.MALFORMED),
    (lambda: mqtt5.read_publish(0x30, b"\x00\x02\xff\xfe\x00"), "a PUBLISH that does not parse", mqtt5.MALFORMED),
    (lambda: mqtt5.read_publish(0x32, b"\x00\x01t\x00"), "a PUBLISH that does not parse", mqtt5.MALFORMED),
    (lambda: mqtt5.read_publish(0x30, b"\x00\x01t\x03\x23\x00\x01"),
     "a PUBLISH with a topic alias this link never allowed", mqtt5.TOPIC_ALIAS_INVALID),
    (lambda: mqtt5.read_publish(0x30, b"\x00\x00\x00p"), "a PUBLISH with an empty topic", mqtt5.PROTOCOL_ERROR),
    (lambda: mqtt5.read_ack(b"\x00"), "an acknowledgement shorter than its packet identifier", mqtt5.MALFORMED),
    (lambda: mqtt5.read_suback(b"\x00\x07"), "SUBACK too short", mqtt5.MALFORMED),
], ids=["varint", "connack", "props-varint", "props-long", "two-bytes", "varint-prop", "string", "unknown",
        "topic-long", "publish-props", "topic-utf8", "packet-id", "topic-alias", "empty-topic", "ack", "suback"])
def test_each_refusal_says_what_is_wrong_and_the_reason_to_send(read: object, message: str, code: int) -> None:
    """The message goes to the log line that says why the link hung up; the code, in its DISCONNECT."""
    with pytest.raises(mqtt5.ProtocolError) as refused:
        read()  # type: ignore[operator]
    assert str(refused.value).startswith(message)
    assert refused.value.code == code


def test_the_reader_cuts_packets_at_their_limits() -> None:
    reader = mqtt5.Reader(6)
    assert reader.feed(b"\xd0\x00") == ([(0xD0, b"")], None)  # a lone 2-byte packet: read at once
    exactly = b"\x40\x04\x00\x07\x00\x00"  # 6 bytes: the limit itself is accepted, after another packet
    assert reader.feed(b"\xd0\x00" + exactly) == ([(0xD0, b""), (0x40, b"\x00\x07\x00\x00")], None)
    packets, error = reader.feed(b"\xd0\x00\x40\x05\x00\x07\x00\x00\x00")
    assert packets == [(0xD0, b"")] and error is not None and "of 5 bytes, over the 6" in str(error)
