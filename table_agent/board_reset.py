"""A reader board that reset on its own, told from its frames: when the host must send its settings again.

A watchdog or brown-out reset leaves the USB serial port open: the board comes back idle with its
default settings and says `Hello`, then `ReaderFault(REBOOTED)` (firmware that predates REBOOTED
only `Hello`), and the table is blind until the host sends `SetScanPeriod`, `ReportAntennas` and
`StartScan` again (docs/firmware-protocol.md, "The host's duty after a reset"). `ResetWatch` reads
the frames in order and says, for each, whether to send the settings again and whether the board
restarted. Pure: the reader worker (`table_agent.reader`), which alone writes to the port, acts on it.

- One reset, one answer: the `Hello` and the `REBOOTED` right after it are one reset; a `REBOOTED`
  whose `Hello` was lost on the line says it alone; a `Hello` answering the host's `HostHello` is no
  reset (one is owed per `HostHello`), and one before any other frame since the port opened (the
  boot `Hello` of a board that came up with the port) gets the settings again, unsaid.
- Both lost on the line: the heartbeat's uptime going back says the reset.
- A `StartScan` lost on the line (host frames are dropped silently when damaged, the host repeats
  what it cares about): two heartbeats in a row counting no scan since the settings went, and they go
  again. Only heartbeats read after the read in which the settings went count (`read`): those read
  with the frames that called for the settings were on the line before them and say nothing of them
  (a busy host reads a reset late, with the idle board's heartbeats since: it sent StartScan again
  while the first was on its way). At most `RETELLS` times in a row, then the host stops asking (a
  board that will not scan is no reason to write to it every two seconds for good) and says so once
  (`idle`): the table is blind until someone restarts the board, and the TD must know it.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge import FaultCode, Frame, Heartbeat, Hello, ReaderFault

IDLE_BEATS = 2  # heartbeats in a row with no scan since the settings went: the first may predate them
RETELLS = 3
_HALF_U32 = 1 << 31  # an uptime going back by less than this is a reset; by more, its counter wrapped


@dataclass(frozen=True, slots=True)
class Answer:
    resend: bool = False  # send the settings and StartScan again
    restarted: str = ""  # the board reset: what said it ("" for nothing to tell)
    idle: bool = False  # the settings went `RETELLS` times and it still counts no scan: it will not read


NOTHING = Answer()


class ResetWatch:
    def __init__(self) -> None:
        self.opened()

    def opened(self) -> None:
        """The port (re)opened: `HostHello` and the settings have just been sent."""
        self._hellos_owed = 1
        self._spoken = False  # a frame other than Hello since the port opened
        self._after_hello: str | None = None  # the last frame was a Hello: "asked", "resent" or "said"
        self._uptime: int | None = None
        self._sent()
        self._retold = 0
        self._idle_said = False

    def read(self) -> None:
        """A new read from the line begins: its heartbeats may say what the settings sent before it did."""
        self._sent_in_read = False

    def _sent(self) -> None:
        self._idle_beats = 0
        self._sent_in_read = True  # the rest of this read was on the line before the settings went

    def _restart(self, said: str, *, resend: bool = True) -> Answer:
        self._uptime = None  # the next heartbeat counts from the reset
        self._retold = 0
        self._idle_said = False
        if resend:
            self._sent()
        return Answer(resend, said)

    def frame(self, frame: Frame) -> Answer:
        after, self._after_hello = self._after_hello, None
        if isinstance(frame, Hello):
            if self._hellos_owed:
                self._hellos_owed -= 1
                self._after_hello = "asked"
                return NOTHING
            if not self._spoken:  # the boot Hello of a board that came up with the port
                self._after_hello = "resent"
                self._sent()
                return Answer(resend=True)
            self._after_hello = "said"
            return self._restart("unasked Hello")
        self._spoken = True
        if isinstance(frame, ReaderFault) and frame.code == FaultCode.REBOOTED:
            if after == "said":  # the reset its Hello said
                return NOTHING
            if after == "asked":  # that Hello was the reset's own: the answer to HostHello is still to come
                self._hellos_owed += 1
            return self._restart(f"REBOOTED {frame.detail}".strip(), resend=after != "resent")
        if isinstance(frame, Heartbeat):
            return self._beat(frame)
        return NOTHING

    def _beat(self, beat: Heartbeat) -> Answer:
        last, self._uptime = self._uptime, beat.uptime_ms
        if last is not None and 0 < last - beat.uptime_ms < _HALF_U32:
            answer = self._restart("heartbeat uptime went back")
            self._uptime = beat.uptime_ms
            return answer
        if beat.scans:
            self._idle_beats = self._retold = 0
            self._idle_said = False
            return NOTHING
        if self._sent_in_read:
            return NOTHING
        self._idle_beats += 1
        if self._idle_beats < IDLE_BEATS:
            return NOTHING
        if self._retold >= RETELLS:
            if self._idle_said:
                return NOTHING
            self._idle_said = True
            return Answer(idle=True)
        self._retold += 1
        self._sent()
        return Answer(resend=True)

    @property
    def retold(self) -> int:
        """Settings sent again in a row because the board did not scan."""
        return self._retold
