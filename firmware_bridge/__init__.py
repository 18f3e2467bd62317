"""Reader board protocol v1: frames, encoder, incremental decoder, and the reference board logic.

Pure: no serial, no threads, no clock. See docs/firmware-protocol.md for the wire format.
"""

from firmware_bridge.codec import (
    MAX_BODY,
    MAX_ENCODED,
    cobs_decode,
    cobs_encode,
    crc16,
    decode_body,
    decode_chunk,
    encode,
    encode_body,
)
from firmware_bridge.decoder import Decoder, DecoderStats, Rejected
from firmware_bridge.errors import FrameRejected, InvalidFrame, ProtocolError, RejectReason
from firmware_bridge.frames import (
    BOARD_FRAMES,
    HOST_FRAMES,
    PROTOCOL_VERSION,
    BoardFrame,
    FaultCode,
    Frame,
    FrameType,
    Heartbeat,
    Hello,
    HostFrame,
    HostHello,
    ReaderFault,
    SetScanPeriod,
    StartScan,
    StopScan,
    TagGone,
    TagSeen,
)

__all__ = [
    "BOARD_FRAMES",
    "HOST_FRAMES",
    "MAX_BODY",
    "MAX_ENCODED",
    "PROTOCOL_VERSION",
    "BoardFrame",
    "Decoder",
    "DecoderStats",
    "FaultCode",
    "Frame",
    "FrameRejected",
    "FrameType",
    "Heartbeat",
    "Hello",
    "HostFrame",
    "HostHello",
    "InvalidFrame",
    "ProtocolError",
    "ReaderFault",
    "RejectReason",
    "Rejected",
    "SetScanPeriod",
    "StartScan",
    "StopScan",
    "TagGone",
    "TagSeen",
    "cobs_decode",
    "cobs_encode",
    "crc16",
    "decode_body",
    "decode_chunk",
    "encode",
    "encode_body",
]
