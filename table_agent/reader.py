"""Reader worker: one thread per reader board, from bytes on the serial link to frames on a queue.

Opens the link through an injected factory (a `hw.serial_link.SerialLink` in the field, a pty for
the simulator), performs the protocol v1 handshake, then feeds every read into the incremental
decoder. A lost link (reader unplugged) is reported and reopened with backoff; the worker never
decides anything about cards, it only timestamps frames with the injected clock and enqueues them.

A board that resets on its own (watchdog, brown-out) boots idle with its default settings while the
USB link stays open: it says `Hello`, then `ReaderFault(REBOOTED)` (an older one only `Hello`). The
worker, which alone writes to the link, sends the settings and `StartScan` again at once when its
`ResetWatch` says so (`table_agent/board_reset.py`), and puts a `BoardRestarted` on the queue between
the frames that said it and the reads after it.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

from firmware_bridge import (
    PROTOCOL_VERSION,
    Decoder,
    Hello,
    HostFrame,
    HostHello,
    Rejected,
    ReportAntennas,
    SetScanPeriod,
    StartScan,
    encode,
)
from hw.ports import ByteLink, Clock
from hw.reads import BoardIdle, BoardRestarted, FrameRejected, FramesRead, LinkChanged
from hw.reconnect import Reconnect
from table_agent.board_reset import RETELLS, ResetWatch

log = logging.getLogger(__name__)


class ReaderWorker:
    def __init__(self, *, open_link: Callable[[], ByteLink], out: queue.Queue[object], clock: Clock,
                 scan_period_ms: int = 50, name: str = "reader", retry_max: float = 2.0) -> None:
        self._open_link = open_link
        self._out = out
        self._clock = clock
        self._scan_period_ms = scan_period_ms
        self._stop = threading.Event()
        self._reconnect = Reconnect(self._stop, retry_max=retry_max)
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._link: ByteLink | None = None
        self._told_down = False  # the reader's loss is said once, not at every retry
        self.resets = ResetWatch()
        self.bytes_read = 0
        self.decoder = Decoder(on_reject=self._rejected)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        self._thread.join(timeout)
        self._close()

    def _rejected(self, rejected: Rejected) -> None:
        self._out.put(FrameRejected(str(rejected.reason), rejected.raw, self._clock.now()))

    def _close(self) -> None:
        link, self._link = self._link, None
        if link is not None:
            try:
                link.close()
            except OSError:
                pass

    def _run(self) -> None:
        self._reconnect.run(self._open, self._session, failed=self._failed, close=self._close)

    def _open(self) -> ByteLink:
        self._link = self._open_link()  # kept so that stop() can close it under a blocking read
        self._told_down = False
        return self._link

    def _settings(self) -> tuple[HostFrame, ...]:
        # ReportAntennas: a board since issue #33's budget says when each antenna's read is over; an
        # older one drops the unknown type, and the scans are found in its reads alone (Presence)
        return SetScanPeriod(self._scan_period_ms), ReportAntennas(), StartScan()

    def _session(self, link: ByteLink) -> None:
        self.decoder.reset()  # a half frame from before the reopen must not glue onto new bytes
        for frame in (HostHello(PROTOCOL_VERSION), *self._settings()):
            link.write(encode(frame))
        self.resets.opened()
        self._out.put(LinkChanged(True, "opened", self._clock.now()))
        self._reconnect.up()
        self._pump(link)

    def _failed(self, link: ByteLink | None, err: OSError) -> None:
        if self._link is not None:  # None: it never opened, or stop() closed it under the read
            self._out.put(LinkChanged(False, str(err), self._clock.now()))
            self._told_down = True
        elif not self._told_down:  # never opened (no such device): the reader is down, said once
            self._out.put(LinkChanged(False, f"cannot open the reader: {err}", self._clock.now()))
            self._told_down = True
        else:
            log.debug("reader link not available: %s", err)

    def _pump(self, link: ByteLink) -> None:
        while not self._stop.is_set():
            data = link.read(4096)
            if not data:
                continue
            self.bytes_read += len(data)
            self.resets.read()
            frames = self.decoder.feed(data)
            at = self._clock.now()
            start = 0
            for i, frame in enumerate(frames):
                answer = self.resets.frame(frame)
                if answer.resend:
                    for setting in self._settings():  # this thread's link: no other thread writes to it
                        link.write(encode(setting))
                    if self.resets.retold and not answer.restarted:
                        log.warning("reader board counts no scan after StartScan: settings and StartScan sent "
                                    "again (%d of %d)", self.resets.retold, RETELLS)
                if answer.idle:  # the agent says it (journal, reader status)
                    self._out.put(FramesRead(frames[start:i + 1], at))
                    start = i + 1
                    self._out.put(BoardIdle(RETELLS, at))
                if answer.restarted:
                    self._out.put(FramesRead(frames[start:i + 1], at))
                    start = i + 1
                    self._out.put(BoardRestarted(answer.restarted, at))
                    log.info("reader board restarted (%s): its settings and StartScan sent again",
                             answer.restarted)
            if frames[start:]:
                self._out.put(FramesRead(frames[start:], at))


def describe_hello(hello: Hello) -> str:
    return f"{hello.firmware} (protocol v{hello.version}, {hello.antennas} antennas)"
