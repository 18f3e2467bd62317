"""Tag presence: raw antenna reads -> a tag placed on, moved between, or lifted from antennas.

Consumes the reader board's `TagSeen`/`TagGone` (as antenna, UID, time) and clock ticks; emits
`TagPlaced`, `TagMoved`, `TagLifted`. RFID flickers: a read is missed now and then, a tag drops out
for a scan, a neighbouring antenna catches a card sliding past. Hysteresis keeps one physical card one
event: a tag is lifted only on the board's `TagGone` or after `gone_after` seconds unread, and a tag
still being read where it lies needs `confirm_reads` reads elsewhere before it counts as moved.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TagPlaced:
    antenna: int
    uid: str
    at: float


@dataclass(frozen=True, slots=True)
class TagMoved:
    source: int
    antenna: int
    uid: str
    at: float


@dataclass(frozen=True, slots=True)
class TagLifted:
    antenna: int
    uid: str
    at: float


PresenceEvent = TagPlaced | TagMoved | TagLifted


@dataclass(slots=True)
class _Track:
    antenna: int
    last_read: float
    candidate: int | None = None
    candidate_reads: int = 0


class Presence:
    """Debounced tag positions for one reader board. Pure: times come with the reads."""

    def __init__(self, *, scan_period: float = 0.05, gone_after: float = 0.5, confirm_reads: int = 2) -> None:
        if gone_after <= scan_period:
            raise ValueError("gone_after must be longer than one scan period")
        self.scan_period = scan_period
        self.gone_after = gone_after
        self.confirm_reads = confirm_reads
        self._tracks: dict[str, _Track] = {}
        self._suspended = False

    def seen(self, antenna: int, uid: str, at: float) -> list[PresenceEvent]:
        track = self._tracks.get(uid)
        if track is None:
            self._tracks[uid] = _Track(antenna, at)
            return [TagPlaced(antenna, uid, at)]
        if track.antenna == antenna:
            track.last_read = at
            track.candidate, track.candidate_reads = None, 0
            return []
        # Read elsewhere. If it is no longer read where it lay, the card was picked up and put down:
        # move at once. If it still is, this may be cross-talk from a card sliding past: confirm first.
        if at - track.last_read > 1.5 * self.scan_period:
            return [self._move(uid, track, antenna, at)]
        if track.candidate == antenna:
            track.candidate_reads += 1
        else:
            track.candidate, track.candidate_reads = antenna, 1
        if track.candidate_reads >= self.confirm_reads:
            return [self._move(uid, track, antenna, at)]
        return []

    def gone(self, antenna: int, uid: str, at: float) -> list[PresenceEvent]:
        track = self._tracks.get(uid)
        if track is None:
            return []
        if track.antenna != antenna:
            if track.candidate == antenna:
                track.candidate, track.candidate_reads = None, 0
            return []
        del self._tracks[uid]
        return [TagLifted(antenna, uid, at)]

    def tick(self, now: float) -> list[PresenceEvent]:
        """Lift tags unread for `gone_after` (a lost `TagGone` frame must not leave a ghost card)."""
        if self._suspended:
            return []
        stale = [uid for uid, t in self._tracks.items() if now - t.last_read > self.gone_after]
        return [TagLifted(self._tracks.pop(uid).antenna, uid, now) for uid in stale]

    def suspend(self) -> None:
        """The reader link is down: what lay on the felt is unknown, not gone. Stop timing out."""
        self._suspended = True

    def resume(self, now: float) -> None:
        """The link is back: give every known tag a fresh window to be read again."""
        self._suspended = False
        for track in self._tracks.values():
            track.last_read = now

    def where(self, uid: str) -> int | None:
        track = self._tracks.get(uid)
        return track.antenna if track is not None else None

    def __len__(self) -> int:
        return len(self._tracks)

    def _move(self, uid: str, track: _Track, antenna: int, at: float) -> TagMoved:
        source = track.antenna
        self._tracks[uid] = _Track(antenna, at)
        return TagMoved(source, antenna, uid, at)
