"""Reader board protocol v1: the frames themselves, as frozen dataclasses.

Board -> host frames (`Hello`, `TagSeen`, `TagGone`, `Heartbeat`, `ReaderFault`, `AntennaDone`) are
what the table agent's reader worker consumes; host -> board frames (`HostHello`, `StartScan`,
`StopScan`, `SetScanPeriod`, `ReportAntennas`) are what it sends. `codec` turns them into bytes and
back. Values are checked on construction so an invalid frame can never reach the wire.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar, TypeAlias

from firmware_bridge.errors import InvalidFrame

PROTOCOL_VERSION: int = 1
UID_LENGTHS: tuple[int, ...] = (4, 7, 10)  # ISO 14443-A single, double and triple size UIDs
MAX_TEXT_BYTES = 32  # firmware name, fault detail: UTF-8, at most this many bytes
NO_ANTENNA = 0xFF  # ReaderFault antenna byte meaning "the whole board"


class FrameType(IntEnum):
    """The type byte. 0x01-0x7F travel board -> host, 0x81-0xFF host -> board."""

    HELLO = 0x01
    TAG_SEEN = 0x02
    TAG_GONE = 0x03
    HEARTBEAT = 0x04
    READER_FAULT = 0x05
    ANTENNA_DONE = 0x06
    HOST_HELLO = 0x81
    START_SCAN = 0x82
    STOP_SCAN = 0x83
    SET_SCAN_PERIOD = 0x84
    REPORT_ANTENNAS = 0x85


class FaultCode(IntEnum):
    """What the board reports in `ReaderFault`; the wire carries the number."""

    ANTENNA_OPEN = 1  # antenna not connected (no field detected)
    ANTENNA_SHORT = 2  # antenna shorted or detuned (a metal object on it)
    READER_TIMEOUT = 3  # the reader chip did not answer the board's MCU
    COLLISION = 4  # too many tags on one antenna to resolve in a scan period
    TX_OVERFLOW = 5  # the board dropped frames: its UART buffer was full
    BAD_COMMAND = 6  # a host frame was refused (value out of range); detail says why
    REBOOTED = 7  # watchdog or brown-out reset; sent after Hello


def _check_byte(name: str, value: int, low: int = 0, high: int = 0xFF) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidFrame(f"{name} must be an integer in {low}..{high}, got {value!r}")


def _check_uid(uid: bytes) -> None:
    if not isinstance(uid, bytes):
        raise InvalidFrame(f"uid must be bytes, got {type(uid).__name__}")
    if len(uid) not in UID_LENGTHS:
        raise InvalidFrame(f"uid must be 4, 7 or 10 bytes, got {len(uid)} ({uid.hex()})")


def _check_text(name: str, text: str) -> None:
    if not isinstance(text, str):
        raise InvalidFrame(f"{name} must be a str, got {type(text).__name__}")
    size = len(text.encode("utf-8"))
    if size > MAX_TEXT_BYTES:
        raise InvalidFrame(f"{name} must be at most {MAX_TEXT_BYTES} UTF-8 bytes, got {size}")


# --- board -> host -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """Sent at boot and in answer to `HostHello`: protocol version, antenna count, firmware name."""

    TYPE: ClassVar[FrameType] = FrameType.HELLO
    version: int
    antennas: int
    firmware: str

    def __post_init__(self) -> None:
        _check_byte("version", self.version)
        _check_byte("antennas", self.antennas, 1, 0xFE)
        _check_text("firmware", self.firmware)


@dataclass(frozen=True, slots=True)
class TagSeen:
    """A tag was read on an antenna (numbered from 0) during this scan; rssi in dBm when known."""

    TYPE: ClassVar[FrameType] = FrameType.TAG_SEEN
    antenna: int
    uid: bytes
    rssi: int | None = None

    def __post_init__(self) -> None:
        _check_byte("antenna", self.antenna, 0, 0xFE)
        _check_uid(self.uid)
        if self.rssi is not None:
            _check_byte("rssi", self.rssi, -128, 127)


@dataclass(frozen=True, slots=True)
class TagGone:
    """A tag reported on this antenna has not been read for `GONE_AFTER_SCANS` scans in a row."""

    TYPE: ClassVar[FrameType] = FrameType.TAG_GONE
    antenna: int
    uid: bytes

    def __post_init__(self) -> None:
        _check_byte("antenna", self.antenna, 0, 0xFE)
        _check_uid(self.uid)


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """Every second, scanning or not: milliseconds since boot and scans since boot (both wrap at 2**32)."""

    TYPE: ClassVar[FrameType] = FrameType.HEARTBEAT
    uptime_ms: int
    scans: int

    def __post_init__(self) -> None:
        _check_byte("uptime_ms", self.uptime_ms, 0, 0xFFFF_FFFF)
        _check_byte("scans", self.scans, 0, 0xFFFF_FFFF)


@dataclass(frozen=True, slots=True)
class ReaderFault:
    """Something is wrong with one antenna, or with the whole board when `antenna` is None."""

    TYPE: ClassVar[FrameType] = FrameType.READER_FAULT
    antenna: int | None
    code: FaultCode
    detail: str = ""

    def __post_init__(self) -> None:
        if self.antenna is not None:
            _check_byte("antenna", self.antenna, 0, 0xFE)
        if not isinstance(self.code, FaultCode):
            try:
                object.__setattr__(self, "code", FaultCode(self.code))
            except ValueError as err:
                raise InvalidFrame(f"unknown fault code {self.code!r}") from err
        _check_text("detail", self.detail)


@dataclass(frozen=True, slots=True)
class AntennaDone:
    """An antenna's read in this scan is over: its `TagSeen`, `TagGone` and fault frames, if any, came
    before. Sent only to a host that asked (`ReportAntennas`): the host then knows at once that a card
    is not on an antenna, rather than when a later antenna's frames or the next scan's arrive."""

    TYPE: ClassVar[FrameType] = FrameType.ANTENNA_DONE
    antenna: int

    def __post_init__(self) -> None:
        _check_byte("antenna", self.antenna, 0, 0xFE)


# --- host -> board -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HostHello:
    """Handshake: the host states its protocol version; the board answers with `Hello`."""

    TYPE: ClassVar[FrameType] = FrameType.HOST_HELLO
    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        _check_byte("version", self.version)


@dataclass(frozen=True, slots=True)
class StartScan:
    """Start scanning every scan period (boards boot idle)."""

    TYPE: ClassVar[FrameType] = FrameType.START_SCAN


@dataclass(frozen=True, slots=True)
class StopScan:
    """Stop scanning; heartbeats continue. Tags reported present stay so until the next scan."""

    TYPE: ClassVar[FrameType] = FrameType.STOP_SCAN


MIN_SCAN_PERIOD_MS = 10
MAX_SCAN_PERIOD_MS = 10_000


@dataclass(frozen=True, slots=True)
class SetScanPeriod:
    """Time between the starts of two scans, in ms (wire: 1..65535). Boards accept 10..10000 and
    refuse other values with `ReaderFault(None, BAD_COMMAND)`; they boot with 50 ms."""

    TYPE: ClassVar[FrameType] = FrameType.SET_SCAN_PERIOD
    period_ms: int

    def __post_init__(self) -> None:
        _check_byte("period_ms", self.period_ms, 1, 0xFFFF)


@dataclass(frozen=True, slots=True)
class ReportAntennas:
    """Send `AntennaDone` after each antenna's read, from now until the board reboots. A board that
    predates it drops the frame (an unknown type) and the host finds the scans in the reads alone."""

    TYPE: ClassVar[FrameType] = FrameType.REPORT_ANTENNAS


BoardFrame: TypeAlias = Hello | TagSeen | TagGone | Heartbeat | ReaderFault | AntennaDone
HostFrame: TypeAlias = HostHello | StartScan | StopScan | SetScanPeriod | ReportAntennas
Frame: TypeAlias = BoardFrame | HostFrame

BOARD_FRAMES: tuple[type[BoardFrame], ...] = (Hello, TagSeen, TagGone, Heartbeat, ReaderFault, AntennaDone)
HOST_FRAMES: tuple[type[HostFrame], ...] = (HostHello, StartScan, StopScan, SetScanPeriod, ReportAntennas)
