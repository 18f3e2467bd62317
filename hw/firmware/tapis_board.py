"""The reference board's behaviour in MicroPython: scans, TagGone after 3 unread scans, heartbeats.
A silent reader chip (READER_TIMEOUT) leaves its tags unread, never gone, until it answers again.
Each antenna's frames go out as soon as that antenna is read (`emit`), not at the end of the scan: a
card on antenna 0 would otherwise wait for the 13 antennas after it (~0.3 s on a dealt table). A host
that sends ReportAntennas also gets AntennaDone after each antenna, so it knows at once where the scan is.

Ports `firmware_bridge.board.ReaderBoardLogic` minus its simulated misses. Consumes host bytes, time in
ms and an antenna bank (`count`, `inventory(antenna)`); emits wire bytes. No `machine`: tested on the host.
"""

import tapis_proto as proto

GONE_AFTER_SCANS = 3
HEARTBEAT_PERIOD_MS = 1000
DEFAULT_SCAN_PERIOD_MS = 50
MIN_SCAN_PERIOD_MS, MAX_SCAN_PERIOD_MS = 10, 10000


class Board:
    def __init__(self, bank, firmware: str = "tapis-rp2040 1", scan_period_ms: int = DEFAULT_SCAN_PERIOD_MS,
                 emit=None):
        """`emit(frames)`: called with each antenna's frames as soon as it is read (main.py queues and
        sends them at once); without it a scan's frames are returned together, at its end."""
        self.bank = bank
        self.emit = emit
        self.antennas = bank.count
        self.firmware = firmware
        self.scan_period_ms = scan_period_ms
        self.scanning = False
        self.scans = 0
        self.report_antennas = False  # AntennaDone after each antenna: the host asked (until a reboot)
        self.decoder = proto.HostDecoder()
        self._unread = {}  # (antenna, uid) -> scans unread since last read, for reported tags
        self._faults = {}  # antenna -> fault code reported and not yet cleared (report once)
        self._boot_ms = 0
        self._next_scan_ms = 0
        self._next_heartbeat_ms = 0

    # --- the host -------------------------------------------------------------------------------

    def boot(self, now_ms: int, rebooted: bool = False) -> list:
        """Power on: Hello (then REBOOTED after a watchdog reset); idle until StartScan."""
        self._boot_ms = now_ms
        self._next_heartbeat_ms = now_ms + HEARTBEAT_PERIOD_MS
        self._next_scan_ms = now_ms
        self.scanning = False
        self.report_antennas = False
        out = [proto.hello(self.antennas, self.firmware)]
        if rebooted:
            out.append(proto.reader_fault(None, proto.REBOOTED, "watchdog reset"))
        return out

    def handle(self, kind: int, payload: bytes, now_ms: int) -> list:
        """Obey one host frame (type, payload); returns what to answer."""
        if kind == proto.HOST_HELLO and len(payload) == 1:
            return [proto.hello(self.antennas, self.firmware)]  # our version: the host decides
        if kind == proto.START_SCAN and not payload:
            if not self.scanning:
                self.scanning = True
                self._next_scan_ms = now_ms
            return []
        if kind == proto.STOP_SCAN and not payload:
            self.scanning = False
            return []
        if kind == proto.REPORT_ANTENNAS and not payload:
            self.report_antennas = True
            return []
        if kind == proto.SET_SCAN_PERIOD and len(payload) == 2:
            period = payload[0] << 8 | payload[1]
            if not MIN_SCAN_PERIOD_MS <= period <= MAX_SCAN_PERIOD_MS:
                detail = "period %d ms not in %d..%d" % (period, MIN_SCAN_PERIOD_MS, MAX_SCAN_PERIOD_MS)
                return [proto.reader_fault(None, proto.BAD_COMMAND, detail)]
            self.scan_period_ms = period
            return []
        if kind in proto.FRAME_NAMES:
            return [proto.reader_fault(None, proto.BAD_COMMAND, "not a host frame: " + proto.FRAME_NAMES[kind])]
        return []  # unknown type or malformed payload: dropped, like a damaged frame

    # --- time -----------------------------------------------------------------------------------

    def next_due_ms(self) -> int:
        if self.scanning:
            return min(self._next_scan_ms, self._next_heartbeat_ms)
        return self._next_heartbeat_ms

    def advance(self, now_ms: int) -> list:
        """What is due at now_ms: at most one scan and one heartbeat (a late board skips slots)."""
        out = []
        if self.scanning and now_ms >= self._next_scan_ms:
            out += self.scan()
            self._next_scan_ms += self.scan_period_ms
            if self._next_scan_ms <= now_ms:
                self._next_scan_ms = now_ms + self.scan_period_ms
        if now_ms >= self._next_heartbeat_ms:
            out.append(proto.heartbeat(now_ms - self._boot_ms, self.scans))
            self._next_heartbeat_ms += HEARTBEAT_PERIOD_MS
            if self._next_heartbeat_ms <= now_ms:
                self._next_heartbeat_ms = now_ms + HEARTBEAT_PERIOD_MS
        return out

    def step(self, now_ms: int, incoming: bytes) -> list:
        """One turn of the main loop: host frames handled, then whatever is due."""
        out = []
        for kind, payload in self.decoder.feed(incoming):
            out += self.handle(kind, payload, now_ms)
        return out + self.advance(now_ms)

    # --- the antennas ---------------------------------------------------------------------------

    def _fault_once(self, antenna: int, code: int, detail: str) -> list:
        if self._faults.get(antenna) == code:
            return []
        self._faults[antenna] = code
        return [proto.reader_fault(antenna, code, detail)]

    def scan(self) -> list:
        """Every antenna in order: one TagSeen per tag read, then that antenna's tags now gone. With
        `emit`, each antenna's frames are handed over as it is read and nothing is returned."""
        self.scans += 1
        out = []
        for antenna in range(self.antennas):
            frames = self.read_antenna(antenna)
            if self.emit is None:
                out += frames
            elif frames:
                self.emit(frames)
        return out

    def read_antenna(self, antenna: int) -> list:
        """One antenna's inventory: its TagSeen, TagGone and fault frames, then AntennaDone if asked."""
        out = self._inventory(antenna)
        if self.report_antennas:
            out.append(proto.antenna_done(antenna))
        return out

    def _inventory(self, antenna: int) -> list:
        out = []
        try:
            uids, complete = self.bank.inventory(antenna)
        except OSError:
            # the reader chip did not answer: its tags are unread, not gone. Their unread count
            # stands still until the chip answers again (a kicked cable must not lift a hand).
            return self._fault_once(antenna, proto.READER_TIMEOUT, "reader chip silent")
        else:
            if not complete:
                out += self._fault_once(antenna, proto.COLLISION, "more tags than one scan reads")
            elif antenna in self._faults:
                del self._faults[antenna]  # recovered: a new failure is reported again
        read = set()
        for uid in uids:
            uid = bytes(uid)
            if uid in read or len(uid) not in (4, 7, 10):
                continue
            read.add(uid)
            out.append(proto.tag_seen(antenna, uid))
            self._unread[(antenna, uid)] = 0
        for key in [k for k in self._unread if k[0] == antenna and k[1] not in read]:
            self._unread[key] += 1
            if self._unread[key] >= GONE_AFTER_SCANS:
                del self._unread[key]
                out.append(proto.tag_gone(antenna, key[1]))
        return out
