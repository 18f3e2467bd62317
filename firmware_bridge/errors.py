"""Errors of the reader board protocol: one root, each also the matching built-in.

The decoder never raises on bad input (it reports `Rejected` records instead); these are raised when
code builds an invalid frame, or asks for one body to be decoded strictly (`decode_body`).
"""

from __future__ import annotations

from enum import StrEnum


class ProtocolError(Exception):
    """Root of every error raised by `firmware_bridge`."""


class InvalidFrame(ProtocolError, ValueError):
    """A frame was built with a value the wire format cannot carry (antenna 300, a 5-byte UID...)."""


class RejectReason(StrEnum):
    """Why a candidate frame on the wire was thrown away."""

    CRC = "crc"  # CRC-16 mismatch: bits flipped on the line
    LENGTH = "length"  # too short to hold type + CRC, or longer than any v1 frame
    ENCODING = "encoding"  # COBS structure broken (a block runs past the frame end)
    UNKNOWN_TYPE = "unknown type"  # valid CRC, type byte not in protocol v1
    MALFORMED_PAYLOAD = "malformed payload"  # valid CRC and type, payload the wrong size or out of range


class FrameRejected(ProtocolError, ValueError):
    """One candidate frame is not a valid v1 frame; `reason` says which check failed."""

    def __init__(self, reason: RejectReason, detail: str) -> None:
        super().__init__(f"{reason.value}: {detail}")
        self.reason = reason
        self.detail = detail


class BoardStateError(ProtocolError, ValueError):
    """The reference board logic was asked something impossible (antenna 9 of 8, removing a tag
    that is not there)."""
