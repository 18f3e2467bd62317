"""The reader board's real scan period, read from its heartbeats rather than assumed.

A board never bursts: when a scan outlasts the period it was asked for, it skips the missed slots, so
its real period is the longer of the two, and a dealt table's scan (~280 ms on the 14-antenna board,
hw/README.md) is far longer than an empty one's (~90 ms). Every heartbeat carries the board's uptime
and its scans since boot: two of them give the scans of the last second. The agent's presence windows
and its read-order benefit of the doubt follow this figure, and the reader's status says it.

The profile's `scan_period_ms` is the pace asked of the board. At most `AS_FAST_AS_IT_CAN` ms (the
example profile's 50) it asks the board to scan back to back, and a slower pace is the scan's own
time: noted, not a warning. A longer one is a fixed pace the installer chose: a board a quarter slower
than it (more cards than the figure allowed for), or a quarter faster (firmware that ignores
`SetScanPeriod`), disagrees, and the agent warns in its journal.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from firmware_bridge import Heartbeat

TOLERANCE = 0.25  # a pace this much off the one in force is a change worth following and saying
AS_FAST_AS_IT_CAN = 100  # ms: no 14-antenna board scans an empty table faster (~90 ms, hw/README.md)
BEATS = 5  # measured over the last four seconds: one second holds 3 or 4 scans of 280 ms, too coarse
MIN_BEATS = 4  # judged once three seconds are in: 10 or 11 such scans, within 10 %


@dataclass(frozen=True, slots=True)
class PaceChanged:
    """The board's pace moved: windows follow `period_ms`; `configured_ms` is the profile's."""

    period_ms: int
    configured_ms: int

    @property
    def disagrees(self) -> bool:
        if self.period_ms < (1 - TOLERANCE) * self.configured_ms:
            return True  # faster than asked: the board does not keep the period it was sent
        return self.configured_ms > AS_FAST_AS_IT_CAN and self.period_ms > (1 + TOLERANCE) * self.configured_ms

    def describe(self) -> str:
        if not self.disagrees:
            return (f"la carte lit la table toutes les {self.period_ms} ms, délais réglés d'après elle / the "
                    f"board scans every {self.period_ms} ms, windows follow it")
        return (f"la carte lit la table toutes les {self.period_ms} ms, le profil dit {self.configured_ms} ms : "
                f"délais réglés sur {self.period_ms} ms, mettez scan_period_ms = {self.period_ms} / the board "
                f"scans every {self.period_ms} ms, the profile says {self.configured_ms} ms: windows follow "
                f"{self.period_ms} ms, set scan_period_ms = {self.period_ms}")


class ScanPace:
    """Feed it every `Heartbeat`; it answers a `PaceChanged` when the pace in force should change."""

    def __init__(self, *, configured_ms: int) -> None:
        self.configured_ms = configured_ms
        self.period_ms = configured_ms  # in force: the profile's until the board says otherwise
        self.measured_ms: float | None = None
        self._beats: deque[Heartbeat] = deque(maxlen=BEATS)

    def beat(self, beat: Heartbeat) -> PaceChanged | None:
        if self._beats and (beat.uptime_ms <= self._beats[-1].uptime_ms or beat.scans < self._beats[-1].scans):
            self._beats.clear()  # a rebooted board (counters from zero) or a wrapped counter: start again
        if self._beats and beat.scans == self._beats[-1].scans:
            self._beats.clear()  # not scanning (StopScan): measured anew once it scans
        self._beats.append(beat)
        first = self._beats[0]
        scans = beat.scans - first.scans
        if len(self._beats) < MIN_BEATS or scans == 0:
            return None
        self.measured_ms = (beat.uptime_ms - first.uptime_ms) / scans
        period = round(self.measured_ms)
        if abs(period - self.period_ms) <= TOLERANCE * self.period_ms:
            return None
        self.period_ms = period
        return PaceChanged(period, self.configured_ms)
