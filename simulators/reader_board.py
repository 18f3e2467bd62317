"""Reader board simulator: protocol v1 firmware on a real pseudo-terminal, in a background thread.

Stands in for the RFID reader board in tests and demos: the table agent opens `port` (the pty slave)
through `hw.serial_link.SerialLink` exactly as it would open /dev/ttyUSB0. The behaviour (scans,
missed reads, TagGone, heartbeats) is `firmware_bridge.board.ReaderBoardLogic`; this is only its IO shell.
"""

from __future__ import annotations

import errno
import logging
import os
import random
import select
import threading
import time
import tty
from types import TracebackType

from firmware_bridge.board import ReaderBoardLogic
from firmware_bridge.codec import MAX_ENCODED, cobs_encode, decode_chunk, encode, encode_body
from firmware_bridge.decoder import Decoder
from firmware_bridge.errors import FrameRejected
from firmware_bridge.frames import BoardFrame, FaultCode, Frame, ReaderFault, ReportAntennas, TagSeen
from firmware_bridge.timing import AntennaTiming

_log = logging.getLogger(__name__)


def make_noise(rng: random.Random, kind: int) -> bytes:
    """One unit of line noise, delimited so that a decoder rejects exactly one candidate for it.

    kind % 4: 0 a frame with one bit flipped, 1 a truncated frame, 2 a short run of random non-zero
    bytes, 3 a run of non-zero bytes longer than any frame.
    """
    while True:
        uid = bytes(rng.randrange(1, 256) for _ in range(rng.choice((4, 7, 10))))
        stuffed = bytearray(cobs_encode(encode_body(TagSeen(rng.randrange(0, 8), uid, -50))))
        match kind % 4:
            case 0:
                i = rng.randrange(len(stuffed))
                stuffed[i] ^= 1 << rng.randrange(8)
                candidate = bytes(stuffed)
            case 1:
                candidate = bytes(stuffed[: rng.randrange(1, len(stuffed))])
            case 2:
                candidate = bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 24)))
            case _:
                candidate = bytes(rng.randrange(1, 256) for _ in range(MAX_ENCODED + rng.randrange(1, 64)))
        if 0 in candidate:
            continue  # a 00 would split it into two rejections
        try:
            decode_chunk(candidate)
        except FrameRejected:
            return b"\x00" + candidate + b"\x00"
        # 1 in 65,536: the damage produced a valid frame; roll again


class ReaderBoardSimulator:
    """Reader firmware on a real pty (os.openpty, raw mode via tty/termios), in a background thread.

    Boots with `Hello` when started and scans only after the host sends `StartScan` (unless
    `autostart`). It keeps its own handle on the pty slave, so a host may close and reopen `port` at
    will; what the board writes meanwhile waits in the pty buffer, and is dropped when that is full,
    as a UART with nobody listening would, followed by `ReaderFault(None, TX_OVERFLOW)` once there
    is room again. Thread-safe: `place`, `remove` and the injections may be
    called from any thread while it runs.
    """

    def __init__(
        self,
        *,
        antennas: int,
        scan_period: float = 0.05,
        miss_rate: float = 0.02,
        dropout_rate: float = 0.01,
        rng: random.Random | None = None,
        firmware: str = "tapis-sim 1",
        autostart: bool = False,
        max_consecutive_misses: int = 1,
        corrupt_rate: float = 0.0,
        timing: AntennaTiming | None = None,
        whole_scans: bool = False,
        report_antennas: bool = True,
    ) -> None:
        """`corrupt_rate`: the chance that each byte the board writes reaches the host changed (a noisy
        line: 0.01 hits about one frame in seven). `timing`: read the antennas one by one in real time,
        as the firmware does (`firmware_bridge.timing.REFERENCE`): a card is read if it lies there when
        its antenna's inventory starts, and the antenna's frames are written when it ends. Without it a
        whole scan takes no time. `whole_scans` (with `timing`): the firmware before issue #33, which
        wrote a scan's frames at its end (`benchmarks/bench_felt_to_ruling.py --modes whole-scans`).
        `report_antennas` False (and with `whole_scans`): firmware that predates `ReportAntennas` and
        drops it as an unknown type, so it never sends `AntennaDone`."""
        if not 0.0 <= corrupt_rate < 1.0:
            raise ValueError(f"corrupt_rate must be in [0, 1), got {corrupt_rate}")
        self._rng = rng if rng is not None else random.Random()
        self._corrupt_rate = corrupt_rate
        self._timing = timing
        self._whole_scans = whole_scans
        self._report_antennas = report_antennas and not whole_scans
        self._line_rng = random.Random(self._rng.random())  # the board thread's only: no lock
        self.bytes_corrupted = 0
        self._logic = ReaderBoardLogic(
            antennas=antennas,
            rng=self._rng,
            firmware=firmware,
            scan_period_ms=round(scan_period * 1000),
            miss_rate=miss_rate,
            dropout_rate=dropout_rate,
            max_consecutive_misses=max_consecutive_misses,
            autostart=autostart,
        )
        self._lock = threading.Lock()
        self._outbox: list[tuple[bytes, bool]] = []  # (bytes, is a valid frame) from injections
        self._noise_kind = 0
        self._reboot_requested = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no CR/LF translation, no ^C: bytes are bytes
        os.set_blocking(self._master, False)
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self.port: str = os.ttyname(self._slave)
        self.frames_written = 0
        self.noise_written = 0  # units of noise from inject_noise
        self.bytes_dropped = 0  # the pty buffer was full (nobody reading)
        self._unreported_drop = 0  # bytes dropped since the last TX_OVERFLOW fault got through
        self.host_frames: list[Frame] = []  # host frames received, in order (for tests)
        self.host_rejected = 0  # damaged host frames

    # --- lifecycle ---------------------------------------------------------------------------

    def start(self) -> None:
        if self._closed:
            raise RuntimeError("simulator closed; build a new one")
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name=f"reader-board {self.port}", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the thread (within one loop turn) and release the pty; hosts then read EOF/errors."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=5)
        for fd in (self._master, self._slave, self._wake_r, self._wake_w):
            os.close(fd)

    def __enter__(self) -> ReaderBoardSimulator:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def scanning(self) -> bool:
        with self._lock:
            return self._logic.scanning

    @property
    def scans(self) -> int:
        with self._lock:
            return self._logic.scans

    # --- the table and the faults ------------------------------------------------------------

    def place(self, antenna: int, uid: bytes) -> None:
        """A tag now lies on that antenna."""
        with self._lock:
            self._logic.place(antenna, uid)

    def remove(self, antenna: int, uid: bytes) -> None:
        """The tag left that antenna; TagGone follows after 3 scans."""
        with self._lock:
            self._logic.remove(antenna, uid)

    def inject_noise(self, frames: int = 1) -> None:
        """Write `frames` units of line noise (see `make_noise`): each costs the host one rejection."""
        with self._lock:
            for _ in range(frames):
                self._outbox.append((make_noise(self._rng, self._noise_kind), False))
                self._noise_kind += 1
        self._wake()

    def inject_fault(self, antenna: int | None, code: FaultCode, detail: str = "") -> None:
        """Report a `ReaderFault` (reads go on: the fault is only reported)."""
        with self._lock:
            self._outbox.append((encode(self._logic.fault(antenna, code, detail)), True))
        self._wake()

    def silence(self, antenna: int) -> None:
        """That antenna's reader module goes silent (a kicked cable): `READER_TIMEOUT` once, then
        nothing from it, and its tags never reported gone (`ReaderBoardLogic.silence`)."""
        with self._lock:
            self._logic.silence(antenna)

    def restore(self, antenna: int) -> None:
        """The module's cable is back: its antenna is read again."""
        with self._lock:
            self._logic.restore(antenna)

    # --- the thread ----------------------------------------------------------------------------

    def reboot(self) -> None:
        """The board resets (watchdog): it says `Hello` and `ReaderFault(REBOOTED)` and waits, idle,
        for the host to send its settings and `StartScan` again."""
        with self._lock:
            self._reboot_requested = True
        self._wake()

    def _wake(self) -> None:
        if self._closed:
            return  # the pipe's fd number may already belong to someone else
        try:
            os.write(self._wake_w, b"x")
        except (BlockingIOError, OSError):
            pass  # already awake, or closing

    def _run(self) -> None:
        try:
            self._loop()
        except Exception:  # logged, so the test guard fails the test instead of the board going quiet
            _log.exception("reader board simulator on %s stopped", self.port)

    def _loop(self) -> None:
        t0 = time.monotonic()

        def now_ms() -> int:
            return int((time.monotonic() - t0) * 1000)

        decoder = Decoder(on_reject=lambda _: self._count_host_reject())
        with self._lock:
            self._emit(self._logic.boot(now_ms()))
        while not self._stop.is_set():
            with self._lock:
                due = self._logic.next_due_ms()
            timeout = max(0.0, (due - now_ms()) / 1000)
            ready, _, _ = select.select([self._master, self._wake_r], [], [], timeout)
            if self._stop.is_set():
                break
            if self._wake_r in ready:
                try:
                    os.read(self._wake_r, 4096)
                except BlockingIOError:
                    pass
            received = b""
            if self._master in ready:
                try:
                    received = os.read(self._master, 4096)
                except BlockingIOError:
                    pass
                except OSError as err:
                    if err.errno != errno.EIO:
                        raise
                    time.sleep(0.01)  # EIO: no slave open; cannot happen while we hold one, but never spin
            frames = decoder.feed(received) if received else []
            with self._lock:
                if self._reboot_requested:
                    self._reboot_requested = False
                    self._outbox.clear()  # lost with the RAM
                    self._unreported_drop = 0
                    self._emit(self._logic.reboot(now_ms()))
                if self._unreported_drop:
                    # as firmware does: say so once the line has room again, before anything new
                    detail = f"dropped {self._unreported_drop} bytes"
                    overflow = ReaderFault(None, FaultCode.TX_OVERFLOW, detail)
                    if self._write(encode(overflow)):
                        self.frames_written += 1
                        self._unreported_drop = 0
                for frame in frames:
                    self.host_frames.append(frame)
                    if isinstance(frame, ReportAntennas) and not self._report_antennas:
                        continue  # an older firmware: a type it does not know, dropped
                    self._emit(self._logic.handle(frame, now_ms()))
                if self._timing is None:
                    self._emit(self._logic.advance(now_ms()))
                    timed_scan = False
                else:
                    timed_scan = self._logic.scan_due(now_ms())
                    if timed_scan:
                        self._logic.begin_scan()
                outbox, self._outbox = self._outbox, []
            for data, valid in outbox:
                if self._write(data):
                    if valid:
                        self.frames_written += 1
                    else:
                        self.noise_written += 1
            if self._timing is not None:
                if timed_scan:
                    self._timed_scan(self._timing)
                with self._lock:
                    self._emit(self._logic.beat(now_ms()))

    def _timed_scan(self, timing: AntennaTiming) -> None:
        """The antennas one by one: what lies on each when its inventory starts is read, and its frames
        go out when it ends (`timing`). Placements and host frames wait between antennas."""
        end = time.monotonic()
        held: list[BoardFrame] = []
        for antenna in range(self._logic.antennas):
            with self._lock:
                silent = self._logic.is_silent(antenna)
                cards = len(self._logic.present(antenna))
                frames = self._logic.read_antenna(antenna)
            end += (timing.silent_ms if silent else timing.antenna_ms(cards)) / 1000
            if self._stop.wait(max(0.0, end - time.monotonic())):
                return
            if self._whole_scans:
                held += frames
                continue
            with self._lock:
                self._emit(frames)
        if held:
            with self._lock:
                self._emit(held)

    def _corrupt(self, data: bytes) -> bytes:
        out = bytearray(data)
        for i in range(len(out)):
            if self._line_rng.random() < self._corrupt_rate:
                out[i] ^= self._line_rng.randrange(1, 256)  # never the same byte: always a real error
                self.bytes_corrupted += 1
        return bytes(out)

    def _count_host_reject(self) -> None:
        self.host_rejected += 1

    def _emit(self, frames: list[BoardFrame]) -> None:
        """What the firmware sends at one time (a scan's reads, an antenna's, a heartbeat) in one write,
        back to back as a UART sends it. A write per frame gave the other threads the GIL at each
        frame: under load a scan reached the host in pieces hundreds of ms apart, its first antennas
        read and the others not, for longer than a card's window (no board does that); the host then
        lifted cards that lay there."""
        if not frames:
            return
        encoded = [encode(frame) for frame in frames]
        sent = self._write_some(b"".join(encoded))
        for data in encoded:  # the frames that went whole
            if sent < len(data):
                break
            sent -= len(data)
            self.frames_written += 1

    def _write(self, data: bytes) -> bool:
        """All or nothing from the board's view; a partial write leaves a truncated frame on the line."""
        return self._write_some(data) == len(data)

    def _write_some(self, data: bytes) -> int:
        """The bytes the line took; the rest is dropped (the pty's buffer is full: nobody reads)."""
        if self._corrupt_rate:
            data = self._corrupt(data)
        view = memoryview(data)
        while view:
            try:
                written = os.write(self._master, view)
            except BlockingIOError:
                self.bytes_dropped += len(view)
                self._unreported_drop += len(view)
                return len(data) - len(view)
            view = view[written:]
        return len(data)
