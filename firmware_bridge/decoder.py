"""The incremental stream decoder: raw bytes from a serial link in, frames out, never raising.

Sits between a `hw.ports.ByteLink` reader and the table agent: `feed(bytes) -> list[Frame]`. Frames
are 00-delimited COBS, so after any damage the decoder is back in step at the next 00 byte; each
damaged candidate is rejected with a reason, counted in `stats`, and passed to `on_reject`.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_bridge.codec import MAX_ENCODED, decode_chunk
from firmware_bridge.errors import FrameRejected, RejectReason
from firmware_bridge.frames import Frame

_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Rejected:
    """A candidate frame that was thrown away: why, its raw bytes (COBS-stuffed, as on the wire,
    at most `MAX_ENCODED + 1` of them), and a sentence for the log."""

    reason: RejectReason
    raw: bytes
    detail: str = ""


@dataclass(slots=True)
class DecoderStats:
    """Live counters of one decoder (mutated in place by `feed`)."""

    frames: int = 0
    rejected: Counter[RejectReason] = field(default_factory=Counter)
    bytes_in: int = 0
    bytes_skipped: int = 0  # bytes of rejected candidates, and of partial frames dropped by reset()
    callback_errors: int = 0  # on_reject raised; logged and ignored so decoding goes on

    @property
    def rejected_total(self) -> int:
        return sum(self.rejected.values())


class Decoder:
    """Feed it bytes in any split; it returns every whole valid frame, in order."""

    def __init__(self, *, on_reject: Callable[[Rejected], None] | None = None) -> None:
        self._on_reject = on_reject
        self._partial = bytearray()  # bytes since the last delimiter, capped at MAX_ENCODED + 1
        self._partial_len = 0  # true length of that run, cap or not
        self.stats = DecoderStats()

    @property
    def pending(self) -> int:
        """Bytes received since the last delimiter (a frame in transit, or garbage)."""
        return self._partial_len

    def feed(self, data: bytes) -> list[Frame]:
        self.stats.bytes_in += len(data)
        parts = data.split(b"\x00")
        if len(parts) == 1:
            self._extend(data)
            return []
        frames: list[Frame] = []
        self._extend(parts[0])
        self._chunk(bytes(self._partial), self._partial_len, frames)
        for chunk in parts[1:-1]:
            self._chunk(chunk, len(chunk), frames)
        self._partial.clear()
        self._partial_len = 0
        self._extend(parts[-1])
        return frames

    def reset(self) -> None:
        """Drop a partial frame (the link was reopened: its tail will never come)."""
        self.stats.bytes_skipped += self._partial_len
        self._partial.clear()
        self._partial_len = 0

    def _extend(self, data: bytes) -> None:
        # garbage with no 00 in it must not grow memory: keep just enough to reject it as too long
        room = MAX_ENCODED + 1 - len(self._partial)
        if room > 0:
            self._partial += data[:room]
        self._partial_len += len(data)

    def _chunk(self, chunk: bytes, length: int, frames: list[Frame]) -> None:
        if length == 0:
            return  # two delimiters in a row: the normal gap between frames
        try:
            frame = decode_chunk(chunk)
        except FrameRejected as err:
            detail = err.detail
            if length > len(chunk):
                detail = f"{length} bytes between delimiters, at most {MAX_ENCODED}"
            self._reject(Rejected(err.reason, chunk[: MAX_ENCODED + 1], detail), length)
            return
        self.stats.frames += 1
        frames.append(frame)

    def _reject(self, rejected: Rejected, length: int) -> None:
        self.stats.rejected[rejected.reason] += 1
        self.stats.bytes_skipped += length
        if self._on_reject is None:
            return
        try:
            self._on_reject(rejected)
        except Exception:  # a callback never stops decoding (DESIGN: callbacks never kill a loop)
            self.stats.callback_errors += 1
            _log.exception("on_reject callback raised for %s", rejected)
