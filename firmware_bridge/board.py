"""The reference reader board: what protocol v1 firmware sends, as a pure state machine.

Consumes host frames (`handle`), tag placements (`place`/`remove`) and the time in ms (`advance`);
emits the board -> host frames to write. No IO, no clock, no threads: the pty simulator wraps it, and
the MicroPython firmware ports it line for line. Randomness (missed reads, RSSI) comes from an injected rng.
"""

from __future__ import annotations

import random

from firmware_bridge.errors import BoardStateError
from firmware_bridge.frames import (
    MAX_SCAN_PERIOD_MS,
    MIN_SCAN_PERIOD_MS,
    PROTOCOL_VERSION,
    UID_LENGTHS,
    AntennaDone,
    BoardFrame,
    FaultCode,
    Frame,
    Heartbeat,
    Hello,
    HostHello,
    ReaderFault,
    ReportAntennas,
    SetScanPeriod,
    StartScan,
    StopScan,
    TagGone,
    TagSeen,
)

GONE_AFTER_SCANS = 3  # a tag unread for this many scans in a row is reported gone
HEARTBEAT_PERIOD_MS = 1000
DEFAULT_SCAN_PERIOD_MS = 50
_U32 = 0xFFFF_FFFF


class ReaderBoardLogic:
    """One board's behaviour. Each scan: one `TagSeen` per tag read on each antenna, `TagGone` once a
    reported tag has gone `GONE_AFTER_SCANS` scans unread; a `Heartbeat` every second.

    RFID is imperfect and so is this board, on purpose: with probability `miss_rate` an antenna's
    whole read in a scan fails (anticollision lost), and with `dropout_rate` one tag is not read in a
    scan. A tag lying on an antenna is never unread more than `max_consecutive_misses` scans in a row
    (default 1, must stay below `GONE_AFTER_SCANS`), so transient misses never produce `TagGone`.
    """

    def __init__(
        self,
        *,
        antennas: int,
        rng: random.Random,
        firmware: str = "tapis-sim 1",
        scan_period_ms: int = DEFAULT_SCAN_PERIOD_MS,
        miss_rate: float = 0.0,
        dropout_rate: float = 0.0,
        max_consecutive_misses: int = 1,
        rssi: bool = True,
        autostart: bool = False,
    ) -> None:
        self.hello = Hello(PROTOCOL_VERSION, antennas, firmware)  # validates antennas and firmware
        if not 0.0 <= miss_rate <= 1.0 or not 0.0 <= dropout_rate <= 1.0:
            raise BoardStateError(f"rates are probabilities: miss {miss_rate}, dropout {dropout_rate}")
        if not 0 <= max_consecutive_misses < GONE_AFTER_SCANS:
            raise BoardStateError(
                f"max_consecutive_misses must be in 0..{GONE_AFTER_SCANS - 1}, "
                f"got {max_consecutive_misses}: more would report a tag still lying there as gone"
            )
        self._check_period(scan_period_ms)
        self.antennas = antennas
        self.scan_period_ms = scan_period_ms
        self._boot_period_ms = scan_period_ms
        self.miss_rate = miss_rate
        self.dropout_rate = dropout_rate
        self.max_consecutive_misses = max_consecutive_misses
        self.rssi = rssi
        self._rng = rng
        self._autostart = autostart
        self.scanning = False
        self.scans = 0
        self.report_antennas = False  # the host asked for `AntennaDone` (ReportAntennas), until a reboot
        # dicts, not sets: iteration order must not depend on hash seeds, or a seeded rng would not replay
        self._present: list[dict[bytes, None]] = [{} for _ in range(antennas)]
        self._misses: dict[tuple[int, bytes], int] = {}  # present tags: scans unread in a row
        self._unread: dict[tuple[int, bytes], int] = {}  # reported tags: scans unread since last read
        self._silent: dict[int, bool] = {}  # antenna whose reader chip does not answer -> fault reported
        self._boot_ms = 0
        self._next_scan_ms = 0
        self._next_heartbeat_ms = 0

    @staticmethod
    def _check_period(period_ms: int) -> None:
        if not MIN_SCAN_PERIOD_MS <= period_ms <= MAX_SCAN_PERIOD_MS:
            raise BoardStateError(
                f"scan period {period_ms} ms outside {MIN_SCAN_PERIOD_MS}..{MAX_SCAN_PERIOD_MS}"
            )

    # --- the table ---------------------------------------------------------------------------

    def _check_antenna(self, antenna: int) -> None:
        if not 0 <= antenna < self.antennas:
            raise BoardStateError(f"antenna {antenna} does not exist (0..{self.antennas - 1})")

    def _check_tag(self, antenna: int, uid: bytes) -> None:
        self._check_antenna(antenna)
        if not isinstance(uid, bytes) or len(uid) not in UID_LENGTHS:
            raise BoardStateError(f"uid must be 4, 7 or 10 bytes, got {uid!r}")

    def place(self, antenna: int, uid: bytes) -> None:
        """A tag now lies on this antenna (placing it twice changes nothing)."""
        self._check_tag(antenna, uid)
        self._present[antenna][uid] = None

    def remove(self, antenna: int, uid: bytes) -> None:
        """The tag left this antenna; `TagGone` follows after `GONE_AFTER_SCANS` scans."""
        self._check_tag(antenna, uid)
        if uid not in self._present[antenna]:
            raise BoardStateError(f"tag {uid.hex()} is not on antenna {antenna}")
        del self._present[antenna][uid]
        self._misses.pop((antenna, uid), None)

    def silence(self, antenna: int) -> None:
        """The antenna's reader chip stops answering (a kicked cable): `ReaderFault(READER_TIMEOUT)`
        once at the next scan, then nothing from it; its tags are unread, never reported gone."""
        self._check_antenna(antenna)
        self._silent.setdefault(antenna, False)

    def restore(self, antenna: int) -> None:
        """The chip answers again: its tags are read (or counted unread towards `TagGone`) as before."""
        self._check_antenna(antenna)
        self._silent.pop(antenna, None)

    def is_silent(self, antenna: int) -> bool:
        return antenna in self._silent

    def present(self, antenna: int) -> tuple[bytes, ...]:
        return tuple(self._present[antenna])

    def fault(self, antenna: int | None, code: FaultCode, detail: str = "") -> ReaderFault:
        """The frame reporting a fault (the shell writes it); checks the antenna exists."""
        if antenna is not None and not 0 <= antenna < self.antennas:
            raise BoardStateError(f"antenna {antenna} does not exist (0..{self.antennas - 1})")
        return ReaderFault(antenna, code, detail)

    # --- the host ----------------------------------------------------------------------------

    def boot(self, now_ms: int) -> list[BoardFrame]:
        """Power on: `Hello`; scanning starts only with `StartScan` unless built with autostart."""
        self._boot_ms = now_ms
        self._next_heartbeat_ms = now_ms + HEARTBEAT_PERIOD_MS
        self.scanning = self._autostart
        self._next_scan_ms = now_ms
        return [self.hello]

    def reboot(self, now_ms: int) -> list[BoardFrame]:
        """Watchdog or brown-out reset: settings and counters back to boot values, what was reported
        forgotten (tags still lying there are reported again), `Hello` then `ReaderFault(REBOOTED)`.
        A host seeing a `Hello` it did not ask for sends its settings and `StartScan` again."""
        self.scan_period_ms = self._boot_period_ms
        self.scans = 0
        self.report_antennas = False
        self._misses.clear()
        self._unread.clear()
        self._silent = dict.fromkeys(self._silent, False)  # a chip still silent is reported again
        return self.boot(now_ms) + [ReaderFault(None, FaultCode.REBOOTED, "watchdog reset")]

    def handle(self, frame: Frame, now_ms: int) -> list[BoardFrame]:
        """Obey one host frame; returns what to answer (`Hello`, or a `BAD_COMMAND` fault)."""
        match frame:
            case HostHello():
                # always answer with our own version: the host decides whether it can talk to us
                return [self.hello]
            case StartScan():
                if not self.scanning:
                    self.scanning = True
                    self._next_scan_ms = now_ms
                return []
            case StopScan():
                self.scanning = False
                return []
            case ReportAntennas():
                self.report_antennas = True
                return []
            case SetScanPeriod(period_ms):
                if not MIN_SCAN_PERIOD_MS <= period_ms <= MAX_SCAN_PERIOD_MS:
                    detail = f"period {period_ms} ms not in {MIN_SCAN_PERIOD_MS}..{MAX_SCAN_PERIOD_MS}"
                    return [ReaderFault(None, FaultCode.BAD_COMMAND, detail)]  # <= 32 bytes
                self.scan_period_ms = period_ms
                return []
        return [ReaderFault(None, FaultCode.BAD_COMMAND, f"not a host frame: {type(frame).__name__}"[:32])]

    # --- time ----------------------------------------------------------------------------------

    def next_due_ms(self) -> int:
        """When `advance` next has something to do."""
        if self.scanning:
            return min(self._next_scan_ms, self._next_heartbeat_ms)
        return self._next_heartbeat_ms

    def advance(self, now_ms: int) -> list[BoardFrame]:
        """Run what is due at `now_ms`: at most one scan and one heartbeat (a late board skips
        missed slots rather than bursting, like firmware on a timer)."""
        out: list[BoardFrame] = []
        if self.scan_due(now_ms):
            out += self.scan()
        return out + self.beat(now_ms)

    def scan_due(self, now_ms: int) -> bool:
        """A scan starts at `now_ms` if one is due (and the next is scheduled a period after it, or
        a period after now when the board is late). The shell then reads the antennas: all at once
        (`scan`), or one by one in real time (`begin_scan`, `read_antenna`, as the simulator's
        timing model does)."""
        if not (self.scanning and now_ms >= self._next_scan_ms):
            return False
        self._next_scan_ms += self.scan_period_ms
        if self._next_scan_ms <= now_ms:
            self._next_scan_ms = now_ms + self.scan_period_ms
        return True

    def beat(self, now_ms: int) -> list[BoardFrame]:
        """The heartbeat, if due: uptime and scans since boot (the host derives the real scan period)."""
        if now_ms < self._next_heartbeat_ms:
            return []
        self._next_heartbeat_ms += HEARTBEAT_PERIOD_MS
        if self._next_heartbeat_ms <= now_ms:
            self._next_heartbeat_ms = now_ms + HEARTBEAT_PERIOD_MS
        return [Heartbeat((now_ms - self._boot_ms) & _U32, self.scans & _U32)]

    def scan(self) -> list[BoardFrame]:
        """One scan of every antenna, in antenna order: reads, then tags gone on that antenna."""
        self.begin_scan()
        out: list[BoardFrame] = []
        for antenna in range(self.antennas):
            out += self.read_antenna(antenna)
        return out

    def begin_scan(self) -> None:
        self.scans += 1

    def read_antenna(self, antenna: int) -> list[BoardFrame]:
        """One antenna's inventory in the current scan: its `TagSeen`, then its tags now gone (the
        firmware sends these as soon as the antenna is read), then `AntennaDone` if the host asked."""
        out = self._inventory(antenna)
        if self.report_antennas:
            out.append(AntennaDone(antenna))
        return out

    def _inventory(self, antenna: int) -> list[BoardFrame]:
        out: list[BoardFrame] = []
        if antenna in self._silent:  # unread, not gone: its tags' unread counts stand still
            if not self._silent[antenna]:
                self._silent[antenna] = True
                out.append(ReaderFault(antenna, FaultCode.READER_TIMEOUT, "reader chip silent"))
            return out
        antenna_missed = self._rng.random() < self.miss_rate
        read: set[bytes] = set()
        for uid in self._present[antenna]:
            key = (antenna, uid)
            dropped = self._rng.random() < self.dropout_rate
            misses = self._misses.get(key, 0)
            if (antenna_missed or dropped) and misses < self.max_consecutive_misses:
                self._misses[key] = misses + 1
                continue
            self._misses[key] = 0
            read.add(uid)
            rssi = self._rng.randint(-75, -35) if self.rssi else None
            out.append(TagSeen(antenna, uid, rssi))
            self._unread[key] = 0
        for key in [k for k in self._unread if k[0] == antenna and k[1] not in read]:
            self._unread[key] += 1
            if self._unread[key] >= GONE_AFTER_SCANS:
                del self._unread[key]
                out.append(TagGone(antenna, key[1]))
        return out
