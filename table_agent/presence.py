"""Tag presence: raw antenna reads -> a tag placed on, moved between, or lifted from antennas.

Consumes the reader board's `TagSeen`/`TagGone` (as antenna, UID, time) and clock ticks; emits
`TagPlaced`, `TagMoved`, `TagLifted`. RFID flickers: a read is missed now and then, a tag drops out
for a scan, a neighbouring antenna catches a card sliding past. Hysteresis keeps one physical card one
event: a tag is lifted only on the board's `TagGone` or after `gone_after` seconds unread, and a tag
still being read where it lies needs `confirm_reads` scans reading it elsewhere before it moves.
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
    candidate_at: float = 0.0


class Presence:
    """Debounced tag positions for one reader board. Pure: times come with the reads.

    Feed one batch of reads (what arrived together from the board: about one scan) with `seen` and
    `gone`, then call `settle`: a tag read on a new antenna and not where it lay in that batch was
    picked up and put down, and moves at once; one read in both places (a card sliding past, or
    straddling two antennas) moves only after `confirm_reads` batches in a row read it elsewhere.
    """

    def __init__(self, *, scan_period: float = 0.05, gone_after: float = 0.5, confirm_reads: int = 2) -> None:
        if gone_after <= scan_period:
            raise ValueError("gone_after must be longer than one scan period")
        self.scan_period = scan_period
        self.gone_after = gone_after
        self.confirm_reads = confirm_reads
        self._tracks: dict[str, _Track] = {}
        self._in_place: set[str] = set()  # read where it lies, in this batch
        self._elsewhere: dict[str, None] = {}  # read on its candidate antenna, in this batch (in order)
        self._suspended = False

    def seen(self, antenna: int, uid: str, at: float) -> list[PresenceEvent]:
        track = self._tracks.get(uid)
        if track is None:
            self._tracks[uid] = _Track(antenna, at)
            return [TagPlaced(antenna, uid, at)]
        if track.antenna == antenna:
            track.last_read = at
            self._in_place.add(uid)
            return []
        if uid not in self._elsewhere:
            if track.candidate == antenna:
                track.candidate_reads += 1
            else:
                track.candidate, track.candidate_reads = antenna, 1
            track.candidate_at = at
            self._elsewhere[uid] = None
        return []

    def settle(self) -> list[PresenceEvent]:
        """End of a batch of reads: decide the moves (see the class docstring)."""
        moves: list[PresenceEvent] = []
        for uid in self._elsewhere:
            track = self._tracks.get(uid)
            if track is None or track.candidate is None:
                continue
            if uid not in self._in_place or track.candidate_reads >= self.confirm_reads:
                moves.append(self._move(uid, track, track.candidate, track.candidate_at))
        for uid in self._in_place - self._elsewhere.keys():  # read in place only: the candidate was a passer-by
            track = self._tracks.get(uid)
            if track is not None:
                track.candidate, track.candidate_reads = None, 0
        self._in_place.clear()
        self._elsewhere.clear()
        return moves

    def gone(self, antenna: int, uid: str, at: float) -> list[PresenceEvent]:
        track = self._tracks.get(uid)
        if track is None:
            return []
        if track.antenna != antenna:
            if track.candidate == antenna:
                track.candidate, track.candidate_reads = None, 0
            return []
        del self._tracks[uid]
        self._in_place.discard(uid)
        self._elsewhere.pop(uid, None)
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
