"""Raw reader traffic as timestamped JSON lines: record it (`tapis agent capture`), play it back.

`RecordingLink` wraps the agent's byte link and writes what passes; `CaptureLink` is a `ByteLink` that
replays a capture into the real agent, so a club's bug report becomes a golden test.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from firmware_bridge import (
    PROTOCOL_VERSION,
    Decoder,
    HostHello,
    SetScanPeriod,
    StartScan,
    encode,
)
from hw.errors import LinkError
from hw.ports import ByteLink, Clock, ManualClock, MonotonicClock

CAPTURE_FORMAT = "tapis-capture/1"


# --- capture and replay ----------------------------------------------------------------------------


class RecordingLink:
    """A `ByteLink` that passes everything through and writes it to a capture, one JSON line per
    read or write: `{"t": seconds since the start, "rx"|"tx": hex}`. The first line is a header."""

    def __init__(self, link: ByteLink, sink: IO[str], *, clock: Clock, source: str = "",
                 start: float | None = None) -> None:
        self._link = link
        self._sink = sink
        self._clock = clock
        self.bytes_rx = 0
        if start is None:  # a new capture; a reopened link continues one (`recording_opener`)
            sink.write(json.dumps({"format": CAPTURE_FORMAT, "source": source,
                                   "wall": time.strftime("%Y-%m-%dT%H:%M:%S%z")}) + "\n")
        self._start = clock.now() if start is None else start

    def _record(self, key: str, data: bytes) -> None:
        t = round(self._clock.now() - self._start, 6)
        self._sink.write(json.dumps({"t": t, key: data.hex()}) + "\n")
        self._sink.flush()  # a capture cut short by a crash is still readable up to the crash

    def read(self, size: int = 4096) -> bytes:
        data = self._link.read(size)
        if data:
            self.bytes_rx += len(data)
            self._record("rx", data)
        return data

    def write(self, data: bytes) -> None:
        self._record("tx", data)
        self._link.write(data)

    def close(self) -> None:
        self._link.close()


def recording_opener(open_link: Callable[[], ByteLink], sink: IO[str], *, clock: Clock,
                     source: str = "") -> Callable[[], ByteLink]:
    """Wraps a link factory so everything the running agent reads and writes goes to one capture,
    across reopens (one header, times from the first open): `TableAgent(open_link=recording_opener(
    lambda: SerialLink(url), open(path, "w"), clock=clock), ...)` records a club's session as it plays."""
    start: list[float] = []

    def open_recorded() -> ByteLink:
        link = open_link()
        if not start:
            recorded = RecordingLink(link, sink, clock=clock, source=source)
            start.append(clock.now())
            return recorded
        return RecordingLink(link, sink, clock=clock, start=start[0])

    return open_recorded


def capture(open_link: Callable[[], ByteLink], path: str | Path, seconds: float, *,
            scan_period_ms: int = 50, clock: Clock | None = None) -> int:
    """Open the reader, start it scanning as the agent would, record `seconds` of traffic to `path`.
    Returns the bytes received. Raises `LinkError` if the reader cannot be opened."""
    clock = clock or MonotonicClock()
    with open(path, "w", encoding="utf-8") as sink:
        link = RecordingLink(open_link(), sink, clock=clock, source=str(path))
        try:
            for frame in (HostHello(PROTOCOL_VERSION), SetScanPeriod(scan_period_ms), StartScan()):
                link.write(encode(frame))
            deadline = clock.now() + seconds
            while clock.now() < deadline:
                link.read(4096)
        finally:
            link.close()
    return link.bytes_rx


def replay_capture(path: str | Path) -> Iterator[tuple[float, bytes]]:
    """The received chunks of a capture, in order, as (seconds since start, bytes); sent bytes are skipped."""
    with open(path, encoding="utf-8") as source:
        for number, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as err:
                raise ValueError(f"{path}:{number}: not JSON: {err}") from err
            if number == 1:
                if record.get("format") != CAPTURE_FORMAT:
                    raise ValueError(f"{path}: not a {CAPTURE_FORMAT} file (header {record!r})")
                continue
            if "rx" in record:
                yield float(record["t"]), bytes.fromhex(record["rx"])


class CaptureLink:
    """A `ByteLink` playing a capture back. With a `ManualClock` it sets the clock to each chunk's
    time (start + t) and never sleeps, so a replay through the agent is deterministic; otherwise it
    waits the original gaps divided by `speed` (None: no waiting). Writes are kept in `written`.
    After the last chunk, `read` returns b"" (or raises `LinkError` when `end_as_unplug`).

    `paced_by`, when given, is asked before each chunk and the link waits until it says True (say,
    "the agent's queue is empty"): on a manual clock a replay must not run ahead of its consumer, or
    the consumer would judge early reads at a late time and see every card lifted.
    """

    def __init__(self, path: str | Path, *, clock: ManualClock | None = None, speed: float | None = 1.0,
                 end_as_unplug: bool = False, idle: float = 0.05,
                 paced_by: Callable[[], bool] | None = None) -> None:
        self._chunks = iter(list(replay_capture(path)))
        self._clock = clock
        self._origin = clock.now() if clock is not None else time.monotonic()
        self._speed = speed
        self._end_as_unplug = end_as_unplug
        self._idle = idle
        self._paced_by = paced_by
        self.written: list[bytes] = []
        self.finished = False
        self._closed = False

    def read(self, size: int = 4096) -> bytes:
        if self._closed:
            raise LinkError("capture link closed")
        chunk = next(self._chunks, None)
        if chunk is None:
            self.finished = True
            if self._end_as_unplug:
                raise LinkError("end of capture")
            time.sleep(self._idle)  # like a quiet line: the reader thread must not spin
            return b""
        t, data = chunk
        while self._paced_by is not None and not self._paced_by() and not self._closed:
            time.sleep(0.001)
        if self._clock is not None:
            if self._origin + t > self._clock.now():
                self._clock.set(self._origin + t)
        elif self._speed:
            delay = self._origin + t / self._speed - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        return data  # a chunk is never split: `size` is advisory, as for SerialLink

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def close(self) -> None:
        self._closed = True



def decode_capture(path: str | Path) -> list[object]:
    """Every frame in a capture's received bytes, decoded as the agent would."""
    decoder = Decoder()
    return [frame for _, data in replay_capture(path) for frame in decoder.feed(data)]

