"""Ports: the small interfaces hardware sits behind, injected at construction.

Core code (presence, zones, dealing monitor, rules engine, clock) receives a `Clock` and never reads
time itself; IO adapters implement `ByteLink`. `ManualClock` ships here so tests and replays share it.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol, runtime_checkable


@runtime_checkable
class Clock(Protocol):
    """Monotonic seconds. Real tables use `MonotonicClock`; tests and replays `ManualClock`."""

    def now(self) -> float: ...


class MonotonicClock:
    def now(self) -> float:
        return time.monotonic()


class ManualClock:
    """A clock that only moves when told to (tests, simulated replays)."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError(f"time does not go backwards ({seconds} s)")
        with self._lock:
            self._now += seconds
            return self._now

    def set(self, when: float) -> None:
        if when < self._now:
            raise ValueError(f"time does not go backwards ({when} < {self._now})")
        with self._lock:
            self._now = when


@runtime_checkable
class ByteLink(Protocol):
    """A byte stream to a reader board (serial device, pty, socket, loop://).

    `read` returns what is available within the link's timeout (possibly b"") and raises
    `hw.errors.LinkError` (also an OSError) when the link is gone.
    """

    def read(self, size: int = 4096) -> bytes: ...

    def write(self, data: bytes) -> None: ...

    def close(self) -> None: ...
