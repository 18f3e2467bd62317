"""Reader worker: one thread per reader board, from bytes on the serial link to frames on a queue.

Opens the link through an injected factory (a `hw.serial_link.SerialLink` in the field, a pty for
the simulator), performs the protocol v1 handshake, then feeds every read into the incremental
decoder. A lost link (reader unplugged) is reported and reopened with backoff; the worker never
decides anything about cards, it only timestamps frames with the injected clock and enqueues them.
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
    HostHello,
    Rejected,
    ReportAntennas,
    SetScanPeriod,
    StartScan,
    encode,
)
from hw.ports import ByteLink, Clock
from hw.reads import FrameRejected, FramesRead, LinkChanged
from hw.reconnect import Reconnect

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

    def _session(self, link: ByteLink) -> None:
        self.decoder.reset()  # a half frame from before the reopen must not glue onto new bytes
        # ReportAntennas: a board since issue #33's budget says when each antenna's read is over; an
        # older one drops the unknown type, and the scans are found in its reads alone (Presence)
        for frame in (HostHello(PROTOCOL_VERSION), SetScanPeriod(self._scan_period_ms), ReportAntennas(),
                      StartScan()):
            link.write(encode(frame))
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
            frames = self.decoder.feed(data)
            if frames:
                self._out.put(FramesRead(frames, self._clock.now()))


def describe_hello(hello: Hello) -> str:
    return f"{hello.firmware} (protocol v{hello.version}, {hello.antennas} antennas)"
