"""What a reader worker hands the table agent on its queue: frames read, the link up or down, a
frame refused.

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


ReaderItem = FramesRead | LinkChanged | FrameRejected
