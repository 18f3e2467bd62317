"""What a reader worker hands the table agent on its queue: frames read, the link up or down, a
frame refused, the board restarted, the board that will not scan.

Both workers put these: the serial reader board's (`table_agent.reader`) and the PC/SC reader's
(`hw.pcsc_worker`); here, under both, so `hw` needs nothing of the table agent. Pure data.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge import Frame


@dataclass(frozen=True, slots=True)
class FramesRead:
    frames: list[Frame]
    at: float


@dataclass(frozen=True, slots=True)
class LinkChanged:
    up: bool
    detail: str
    at: float


@dataclass(frozen=True, slots=True)
class FrameRejected:
    reason: str
    raw: bytes
    at: float


@dataclass(frozen=True, slots=True)
class BoardRestarted:
    """The board reset on its own (watchdog, brown-out: its `ReaderFault(REBOOTED)`, or a `Hello` the
    host did not ask for) and forgot its settings; the worker has sent them and `StartScan` again.
    Put after the frames that said it, before any read after it."""

    detail: str
    at: float


@dataclass(frozen=True, slots=True)
class BoardIdle:
    """The board has counted no scan since its settings and `StartScan` went `tries` times: it will not
    read (a fault the host cannot mend by writing to it). Said once, until it scans again."""

    tries: int
    at: float


ReaderItem = FramesRead | LinkChanged | FrameRejected | BoardRestarted | BoardIdle
