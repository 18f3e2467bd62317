"""The PC/SC reader backend: PC/SC readers in, protocol v1 frames on the agent's queue out.

`PcscScanner` turns one poll of a `PcscPort` into the frames a board would send; `PcscReaderWorker`
runs it on a thread with the constructor shape and queue items (`FramesRead`, `LinkChanged`) of `ReaderWorker`.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from firmware_bridge import (
    PROTOCOL_VERSION,
    BoardFrame,
    FaultCode,
    Frame,
    Heartbeat,
    Hello,
    ReaderFault,
    TagGone,
    TagSeen,
)
from firmware_bridge.frames import MAX_TEXT_BYTES, UID_LENGTHS
from hw.errors import ConfigError
from hw.pcsc import CardReadError, PcscPort
from hw.ports import Clock
from hw.reads import FramesRead, LinkChanged
from hw.reconnect import Reconnect

log = logging.getLogger(__name__)

HEARTBEAT_PERIOD = 1.0  # seconds, as a board: the agent's stall detector expects a frame every second


def _short(text: str) -> str:
    """Fault details travel in a frame: at most MAX_TEXT_BYTES of UTF-8."""
    raw = text.encode("utf-8")[:MAX_TEXT_BYTES]
    return raw.decode("utf-8", errors="ignore")


def _tail(prefix: str, name: str) -> str:
    """Prefix and the end of a reader name, which is what tells identical readers apart (`01 00`)."""
    room = MAX_TEXT_BYTES - len(prefix.encode("utf-8"))
    return prefix + (name if len(name.encode("utf-8")) <= room else ".." + name[-(room - 2):])


@dataclass(slots=True)
class _Card:
    uid: bytes | None  # None: present but its UID could not be read yet
    events: int


def check_reader_map(antennas: Mapping[str, int]) -> dict[str, int]:
    """The reader-name -> antenna table, refused with a plain message when it cannot work."""
    if not antennas:
        raise ConfigError("PC/SC backend: no reader is mapped to an antenna")
    numbers = list(antennas.values())
    if len(set(numbers)) != len(numbers):
        raise ConfigError(f"PC/SC backend: two readers on one antenna in {dict(antennas)}")
    for name, antenna in antennas.items():
        if not 0 <= antenna <= 0xFE:
            raise ConfigError(f"PC/SC reader {name!r}: antenna {antenna} not in 0..254")
    return dict(antennas)


class PcscScanner:
    """One table's PC/SC readers as one board whose antenna N is the reader mapped to N.

    Pure but for the port: each `scan()` lists the readers, polls their slots, reads a UID only when
    a reader's event counter moved (a card placed or swapped), and returns the frames in antenna order.
    """

    def __init__(self, *, port: PcscPort, antennas: Mapping[str, int], firmware: str = "pcsc") -> None:
        numbers = list(check_reader_map(antennas).values())
        self._port = port
        self._antennas = dict(sorted(antennas.items(), key=lambda item: item[1]))
        self.hello = Hello(PROTOCOL_VERSION, max(numbers) + 1, _short(f"{firmware} {len(numbers)} readers"))
        self._cards: dict[str, _Card] = {}
        self._absent: set[str] = set()  # mapped readers known to be unplugged (reported once)
        self._faulted: dict[str, int] = {}  # reader -> event count whose read failure was reported
        self.scans = 0
        self.unmapped: set[str] = set()  # readers seen that no antenna is mapped to (shown by `scan`)

    @property
    def antennas(self) -> dict[str, int]:
        return dict(self._antennas)

    def scan(self) -> list[BoardFrame]:
        """One poll; raises `PcscServiceError` (an OSError) when pcscd is gone."""
        self.scans += 1
        listed = self._port.readers()
        self.unmapped = {name for name in listed if name not in self._antennas}
        plugged = [name for name in self._antennas if name in listed]
        states = self._port.states(plugged)
        out: list[BoardFrame] = []
        for name, antenna in self._antennas.items():
            state = states.get(name)
            if state is None:
                out += self._unplugged(name, antenna)
                continue
            self._absent.discard(name)
            card = self._cards.get(name)
            if not state.present:
                if card is not None:
                    del self._cards[name]
                    if card.uid is not None:
                        out.append(TagGone(antenna, card.uid))
                continue
            if card is None or card.events != state.events or card.uid is None:
                out += self._read(name, antenna, state.events, card)
            card = self._cards.get(name)
            if card is not None and card.uid is not None:
                out.append(TagSeen(antenna, card.uid))
        return out

    def _unplugged(self, name: str, antenna: int) -> list[BoardFrame]:
        """An unplugged reader's card is unread, not gone: kept, and read again (its UID compared)
        when the reader is back, which then says `TagSeen`, or `TagGone` if it was taken meanwhile."""
        out: list[BoardFrame] = []
        card = self._cards.get(name)
        if card is not None:
            card.events = -1  # a replugged reader counts from anew: always read it again
        if name not in self._absent:
            self._absent.add(name)
            out.append(ReaderFault(antenna, FaultCode.ANTENNA_OPEN, _tail("unplugged: ", name)))
        return out

    def _read(self, name: str, antenna: int, events: int, old: _Card | None) -> list[BoardFrame]:
        out: list[BoardFrame] = []
        try:
            uid = self._port.read_uid(name)
            if len(uid) not in UID_LENGTHS:
                raise CardReadError(f"UID of {len(uid)} bytes, not 4/7/10")
        except CardReadError as err:
            # retried every scan (a card slid in at the edge reads on the next try); reported once
            if old is not None and old.uid is not None:
                out.append(TagGone(antenna, old.uid))
            self._cards[name] = _Card(None, events)
            if self._faulted.get(name) != events:
                self._faulted[name] = events
                out.append(ReaderFault(antenna, FaultCode.READER_TIMEOUT, _short(str(err).split(": ")[-1])))
            return out
        self._faulted.pop(name, None)
        if old is not None and old.uid is not None and old.uid != uid:
            out.append(TagGone(antenna, old.uid))  # swapped between two polls
        self._cards[name] = _Card(uid, events)
        return out


class PcscReaderWorker:
    """A reader worker over PC/SC: the constructor shape and queue items of `ReaderWorker`, with the
    link factory replaced by a port factory and a reader-name -> antenna table.

    On each (re)connection to pcscd: `LinkChanged(True)` then a `Hello`; every scan period the frames
    of one scan; a `Heartbeat` every second. pcscd stopping or restarting gives `LinkChanged(False)`
    and a fresh context with backoff (contexts do not survive a pcscd restart).
    """

    def __init__(self, *, open_pcsc: Callable[[], PcscPort], readers: Mapping[str, int],
                 out: queue.Queue[object], clock: Clock, scan_period_ms: int = 50, name: str = "pcsc",
                 retry_max: float = 2.0, firmware: str = "pcsc") -> None:
        if not 10 <= scan_period_ms <= 10_000:
            raise ConfigError(f"scan period {scan_period_ms} ms not in 10..10000")
        self._readers = check_reader_map(readers)  # refused now, not later on the thread
        self._open_pcsc = open_pcsc
        self._out = out
        self._clock = clock
        self._period = scan_period_ms / 1000
        self._firmware = firmware
        self._stop = threading.Event()
        self._reconnect = Reconnect(self._stop, retry_max=retry_max)
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._port: PcscPort | None = None
        self.scanner: PcscScanner | None = None
        self.connections = 0

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        self._thread.join(timeout)

    def _close(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except OSError:
                pass

    def _run(self) -> None:
        self._reconnect.run(self._open, self._session, failed=self._failed, close=self._close)

    def _open(self) -> PcscPort:
        self._port = self._open_pcsc()
        return self._port

    def _session(self, port: PcscPort) -> None:
        self.connections += 1
        self.scanner = PcscScanner(port=port, antennas=self._readers, firmware=self._firmware)
        started = self._clock.now()
        self._out.put(LinkChanged(True, f"pcscd: {len(self._readers)} readers mapped", started))
        self._out.put(FramesRead([self.scanner.hello], started))
        self._reconnect.up()
        self._pump(self.scanner, started)

    def _failed(self, port: PcscPort | None, err: OSError) -> None:
        if port is None:  # PcscServiceError: pcscd not there (yet)
            log.debug("PC/SC not available: %s", err)
        else:
            self._out.put(LinkChanged(False, str(err), self._clock.now()))

    def _pump(self, scanner: PcscScanner, started: float) -> None:
        next_heartbeat = started + HEARTBEAT_PERIOD
        while not self._stop.is_set():
            frames = scanner.scan()
            now = self._clock.now()
            if now >= next_heartbeat:
                uptime_ms = int((now - started) * 1000) & 0xFFFF_FFFF
                frames.append(Heartbeat(uptime_ms, scanner.scans & 0xFFFF_FFFF))
                next_heartbeat = max(next_heartbeat + HEARTBEAT_PERIOD, now)
            if frames:
                self._out.put(FramesRead(list[Frame](frames), now))
            self._stop.wait(self._period)


def pcsc_worker_factory(readers: Mapping[str, int], *, open_pcsc: Callable[[], PcscPort] | None = None,
                        retry_max: float = 2.0) -> Callable[..., PcscReaderWorker]:
    """What `tapis agent` passes where it would build a serial `ReaderWorker`: called with the same
    keywords (`out`, `clock`, `scan_period_ms`, `name`), it builds a worker over pcscd (pyscard unless
    `open_pcsc` says otherwise). The reader table is checked now, at configuration time."""
    table = check_reader_map(readers)
    if open_pcsc is None:
        from hw.pcsc import PyscardPort

        opener: Callable[[], PcscPort] = PyscardPort
    else:
        opener = open_pcsc

    def build(*, out: queue.Queue[object], clock: Clock, scan_period_ms: int = 50,
              name: str = "pcsc") -> PcscReaderWorker:
        return PcscReaderWorker(open_pcsc=opener, readers=table, out=out, clock=clock,
                                scan_period_ms=scan_period_ms, name=name, retry_max=retry_max)

    return build
