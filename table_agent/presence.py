"""Tag presence: raw antenna reads -> a tag placed on, moved between, or lifted from antennas.

Consumes the reader board's `TagSeen`/`TagGone` (as antenna, UID, time) and clock ticks; emits
`TagPlaced`, `TagMoved`, `TagLifted`. RFID flickers: a read is missed now and then, a tag drops out
for a scan, a neighbouring antenna catches a card sliding past. Hysteresis keeps one physical card one
event: a tag is lifted only on the board's `TagGone` or after `gone_after` seconds unread, and a tag
still being read where it lies needs `confirm_reads` scans reading it elsewhere before it moves.
A UID that no registered card carries must also be read in `confirm_reads` batches in a row before it
is placed: a frame corrupted in a way its CRC-16 misses (about one in 65,536 frames hit twice) reads
as a stray UID once, and one such read must not become a foreign card that ends a hand.

Tags time out on the reader's time, not the clock: the time between two frames counts in full up to
`gone_after - 2 scans`, and no more. A silence (a USB hiccup, a busy Pi) thus never lifts a card still
lying there (it is read again at the next scan), and a ghost whose `TagGone` was lost is lifted within
`ghost_bound()`: `gone_after` after its last read on a busy felt, two heartbeats and two scans on an
empty one, where the board only says its heartbeat once a second.

A board that sends each antenna's reads as it reads it (the reference firmware since issue #33) hands
over a scan in pieces: with `split_scans` the scan's end is found in the reads themselves, since a scan
reads antennas in ascending order and each tag once (an antenna number going down, or a tag read twice
on one antenna, starts the next scan; a heartbeat ends one too). A tag read elsewhere moves at once if
the last pass of its own antenna did not read it (earlier in this scan, or late in the scan before: a
card taken from the muck, read late in a scan, to a seat read early in the next waits for no scan end);
otherwise at the scan's end, once its own antenna has been passed (read there too: `confirm_reads`).
With `antennas`, the reads also say how far the board has gone round since a moment: `swept_before` is
the time before which every card then lying on the felt has been read since, each antenna having been
read again once (what the read-order doubt waits for, `table_agent/read_order.py`).

An antenna whose reader is down (`unread`: a silent module, an unplugged PC/SC reader) holds its tags
as they were: unread, never timed out, and moved away only on `confirm_reads` reads elsewhere. The
first frame from that antenna again (`TagSeen` or `TagGone`) says it reads again.

A board that reset (`board_restarted`: a watchdog, a brown-out) forgot what it reported and reads
nothing until the host's `StartScan` reaches it: every tag is unknown, not gone, until it reads again
(any read, or a heartbeat counting scans). Then each gets a fresh window: one still lying there, reported
again, stays as it was with no event; one taken meanwhile (its `TagGone` never comes: the board forgot
it) is lifted `gone_after` later; one moved meanwhile moves.
"""

from __future__ import annotations

from collections.abc import Callable
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
class _Pending:
    antenna: int
    first_read: float
    last_read: float  # reader time
    batches: int = 0
    read_in_batch: bool = False


@dataclass(slots=True)
class _Track:
    antenna: int
    last_read: float
    candidate: int | None = None
    candidate_reads: int = 0
    candidate_at: float = 0.0
    passed_unread: bool = False  # the last pass of its own antenna did not read it (split_scans)


class Presence:
    """Debounced tag positions for one reader board. Pure: times come with the reads.

    Feed one batch of reads (what arrived together from the board: about one scan) with `seen` and
    `gone`, then call `settle`: a tag read on a new antenna and not where it lay in that batch was
    picked up and put down, and moves at once; one read in both places (a card sliding past, or
    straddling two antennas) moves only after `confirm_reads` batches in a row read it elsewhere.
    """

    def __init__(self, *, scan_period: float = 0.05, gone_after: float = 0.5, confirm_reads: int = 2,
                 unknown: Callable[[str], bool] | None = None, split_scans: bool = False,
                 antennas: int | None = None, across_scans: bool = True) -> None:
        """`unknown(uid)`: no registered card carries this UID (it waits for confirmation).
        `split_scans`: reads come antenna by antenna, the scans are found in them (`settle_passed`).
        `antennas` (with split_scans): how many the board reads, for `swept_before`. `across_scans`
        (with split_scans): a pass of a tag's own antenna that did not read it counts for a read
        elsewhere in the next scan too (False: only within one scan, as before issue #33's budget)."""
        if gone_after <= scan_period:
            raise ValueError("gone_after must be longer than one scan period")
        self.scan_period = scan_period
        self.gone_after = gone_after
        self.confirm_reads = confirm_reads
        self.split_scans = split_scans
        self._scan_at = -1  # the highest antenna read in the current scan (split_scans)
        self._done = -1  # the highest antenna the board said done (`AntennaDone`) in the current scan
        self._scan_reads: set[tuple[int, str]] = set()
        self.across_scans = across_scans
        # Per antenna, the arrival time of the last frame before its latest whole pass: that pass began
        # after it. `_last_at`: the last frame's; `_before_at`: the last before the current antenna's.
        self._pass_after: list[float] | None = [float("-inf")] * antennas if antennas and split_scans else None
        self._last_at = float("-inf")
        self._before_at = float("-inf")
        self._unknown = unknown
        self._tracks: dict[str, _Track] = {}
        self._unconfirmed: dict[str, _Pending] = {}  # unknown UIDs read, not yet placed
        self.unconfirmed_dropped = 0  # unknown UIDs read once and never again: line errors
        self._in_place: set[str] = set()  # read where it lies, in this batch
        self._elsewhere: dict[str, None] = {}  # read on its candidate antenna, in this batch (in order)
        self._suspended = False
        self._restarted = False  # the board reset and has not read since (`board_restarted`)
        self._unread: set[int] = set()  # antennas whose reader is down: their tags are unknown, not gone
        self._heard_at: float | None = None  # the reader's last frame (None: judge by the clock alone)
        # Reader time = clock time - `_skipped`: what gaps between frames had beyond `_gap_counts`.
        # One gap never counts for a whole `gone_after` (a card read just before it survives one missed
        # scan just after it), yet it counts: a ghost's window closes whatever the board's pace.
        self._gap_counts = max(gone_after - 2 * scan_period, scan_period)
        self._skipped = 0.0

    def set_scan_period(self, scan_period: float, gone_after: float) -> None:
        """The board's real pace (from its heartbeats): the windows follow it."""
        if gone_after <= scan_period:
            raise ValueError("gone_after must be longer than one scan period")
        self.scan_period, self.gone_after = scan_period, gone_after
        self._gap_counts = max(gone_after - 2 * scan_period, scan_period)

    @staticmethod
    def ghost_bound(*, scan_period: float, gone_after: float, heartbeat: float = 1.0) -> float:
        """At most how long after its last read a card whose `TagGone` was lost is lifted, if the board
        speaks at least every `heartbeat` seconds (its heartbeat; every scan while it reads a card)."""
        gap_counts = max(gone_after - 2 * scan_period, scan_period)
        if heartbeat <= gap_counts:  # every gap counts in full: lifted at the first word past gone_after
            return gone_after + heartbeat
        if 2 * gap_counts > gone_after:  # the agent's settings: the first gap, then two heartbeats at most
            return 2 * heartbeat + gone_after - gap_counts
        return (int(gone_after // gap_counts) + 2) * heartbeat

    def heard(self, at: float) -> None:
        """The reader spoke at `at` (any frame: reads, a heartbeat, a frame the line damaged). Call it
        once per batch, before its reads. A tag is timed out on the reader's time, not the clock: a
        board never stops scanning on its own, so a silence says little about the felt (see the module
        docstring for how much it counts)."""
        if self._heard_at is not None and at - self._heard_at > self._gap_counts:
            self._skipped += at - self._heard_at - self._gap_counts
        if self._heard_at is None or at > self._heard_at:
            self._heard_at = at

    def _reader_time(self, at: float) -> float:
        return at - self._skipped

    def seen(self, antenna: int, uid: str, at: float) -> list[PresenceEvent]:
        self.reading(at)
        ended = self._scan_read(antenna, uid, at)
        return ended + self._seen(antenna, uid, at) if ended else self._seen(antenna, uid, at)

    def _scan_read(self, antenna: int, uid: str | None, at: float) -> list[PresenceEvent]:
        """With `split_scans`: a read that cannot belong to the current scan ends it first; the
        antennas before it in its scan have been passed."""
        if not self.split_scans:
            return []
        ended: list[PresenceEvent] = []
        if antenna < self._scan_at or antenna <= self._done or (antenna, uid) in self._scan_reads:
            ended = self.end_scan()
        if antenna > self._scan_at:
            if self._scan_at > self._done:  # (said done already: marked then)
                self._passed(self._scan_at, self._scan_at + 1, self._before_at)
            self._passed(self._scan_at + 1, antenna, self._last_at)  # read empty, or not at all (no frame)
            self._before_at = self._last_at
        self._scan_at = antenna
        self._last_at = max(self._last_at, at)
        if uid is not None:
            self._scan_reads.add((antenna, uid))
        return ended

    def antenna_done(self, antenna: int, at: float) -> list[PresenceEvent]:
        """The board says that antenna's read in this scan is over (`AntennaDone`, split_scans): a tag
        of it not read is not there, and a move waiting on it is decided now (`settle_passed`)."""
        self.reading(at)
        if not self.split_scans:
            return []
        ended = self._scan_read(antenna, None, at)
        self._passed(antenna, antenna + 1, self._before_at)
        self._done = antenna
        return ended

    def _passed(self, first: int, end: int, after: float) -> None:
        """Antennas first..end-1 have been read, in a pass that began after the frame at `after`: a
        tag of theirs that pass did not read was not there (or missed once, which a read elsewhere
        says is not the case: it moves, as within one scan)."""
        if first >= end:
            return
        if self._pass_after is not None:
            for antenna in range(first, min(end, len(self._pass_after))):
                self._pass_after[antenna] = max(self._pass_after[antenna], after)
        if self.across_scans:
            for uid, track in self._tracks.items():
                if first <= track.antenna < end and uid not in self._in_place and track.antenna not in self._unread:
                    track.passed_unread = True

    @property
    def swept_before(self) -> float | None:
        """Every antenna has been read once since any frame that arrived before this time: a card
        then on the felt has been read since, unless it was missed (None: not known, no `antennas`)."""
        return None if self._pass_after is None else min(self._pass_after)

    def end_scan(self) -> list[PresenceEvent]:
        """The current scan is over (split_scans; a heartbeat says so too): its moves are decided."""
        if self._scan_at >= 0:
            if self._scan_at > self._done:
                self._passed(self._scan_at, self._scan_at + 1, self._before_at)
            self._passed(self._scan_at + 1, 1 << 16, self._last_at)
        self._scan_at = -1
        self._done = -1
        self._scan_reads.clear()
        return self.settle()

    def settle_passed(self) -> list[PresenceEvent]:
        """After a piece of a scan (split_scans): a tag read elsewhere whose own antenna this scan has
        already passed without reading it was picked up, and moves now; the rest waits for the scan's end."""
        moves: list[PresenceEvent] = []
        for uid in list(self._elsewhere):
            track = self._tracks.get(uid)
            if track is None or track.candidate is None or uid in self._in_place:
                continue
            if (track.antenna < self._scan_at or track.passed_unread) and track.antenna not in self._unread:
                del self._elsewhere[uid]
                moves.append(self._move(uid, track, track.candidate, track.candidate_at))
        return moves

    def _seen(self, antenna: int, uid: str, at: float) -> list[PresenceEvent]:
        self._reads_again(antenna, at)
        track = self._tracks.get(uid)
        if track is None:
            if self._unknown is not None and self._unknown(uid):
                return self._unconfirmed_read(antenna, uid, at)
            self._tracks[uid] = _Track(antenna, self._reader_time(at))
            self._in_place.add(uid)  # read where it lies, for this pass of its antenna
            return [TagPlaced(antenna, uid, at)]
        if track.antenna == antenna:
            track.last_read = self._reader_time(at)
            track.passed_unread = False
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
        moves: list[PresenceEvent] = self._settle_unconfirmed()
        for uid in self._elsewhere:
            track = self._tracks.get(uid)
            if track is None or track.candidate is None:
                continue
            picked_up = uid not in self._in_place and track.antenna not in self._unread
            if picked_up or track.candidate_reads >= self.confirm_reads:
                moves.append(self._move(uid, track, track.candidate, track.candidate_at))
        for uid in self._in_place - self._elsewhere.keys():  # read in place only: the candidate was a passer-by
            track = self._tracks.get(uid)
            if track is not None:
                track.candidate, track.candidate_reads = None, 0
        self._in_place.clear()
        self._elsewhere.clear()
        return moves

    def _unconfirmed_read(self, antenna: int, uid: str, at: float) -> list[PresenceEvent]:
        pending = self._unconfirmed.get(uid)
        if pending is None or pending.antenna != antenna:
            pending = self._unconfirmed[uid] = _Pending(antenna, at, self._reader_time(at))
        pending.last_read = self._reader_time(at)
        if not pending.read_in_batch:
            pending.read_in_batch = True
            pending.batches += 1
        if self.split_scans and pending.batches >= self.confirm_reads:  # placed now, not at the scan's end
            del self._unconfirmed[uid]
            self._tracks[uid] = _Track(pending.antenna, pending.last_read)
            self._in_place.add(uid)
            return [TagPlaced(pending.antenna, uid, pending.first_read)]
        return []

    def _settle_unconfirmed(self) -> list[PresenceEvent]:
        placed: list[PresenceEvent] = []
        for uid, pending in list(self._unconfirmed.items()):
            if not pending.read_in_batch:  # read in one batch, not in the next: a line error
                del self._unconfirmed[uid]
                self.unconfirmed_dropped += 1
            elif pending.batches >= self.confirm_reads:
                del self._unconfirmed[uid]
                self._tracks[uid] = _Track(pending.antenna, pending.last_read)
                placed.append(TagPlaced(pending.antenna, uid, pending.first_read))
            else:
                pending.read_in_batch = False
        return placed

    def gone(self, antenna: int, uid: str, at: float) -> list[PresenceEvent]:
        self.reading(at)
        ended = self._scan_read(antenna, uid, at)
        return ended + self._gone(antenna, uid, at) if ended else self._gone(antenna, uid, at)

    def _gone(self, antenna: int, uid: str, at: float) -> list[PresenceEvent]:
        self._reads_again(antenna, at)
        self._unconfirmed.pop(uid, None)
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
        """Lift tags unread for `gone_after` while the reader spoke (a lost `TagGone` frame must not
        leave a ghost card; a silent reader lifts nothing: see `heard`)."""
        if self._suspended or self._restarted:
            return []
        spoke = self._reader_time(now if self._heard_at is None else min(now, self._heard_at))
        stale = [uid for uid, t in self._tracks.items()
                 if spoke - t.last_read > self.gone_after and t.antenna not in self._unread]
        return [TagLifted(self._tracks.pop(uid).antenna, uid, now) for uid in stale]

    def suspend(self) -> None:
        """The reader link is down: what lay on the felt is unknown, not gone. Stop timing out."""
        self._suspended = True
        self._unconfirmed.clear()

    def resume(self, now: float) -> None:
        """The link is back: every known tag gets a fresh window to be read again (what the reader did
        not say meanwhile is unknown, not gone); the outage counts as one gap of the reader's time."""
        self._suspended = False
        if self._heard_at is not None:  # (judged by the clock alone, there is no reader's time to move on)
            self.heard(now)
        for track in self._tracks.values():
            track.last_read = self._reader_time(now)

    def board_restarted(self) -> None:
        """The board reset: what it reported is forgotten and it reads nothing until told to scan again.
        No tag is timed out until it reads again (`reading`); the scan it broke off decides nothing."""
        self._restarted = True
        self._unconfirmed.clear()
        self._scan_at = self._done = -1
        self._scan_reads.clear()
        self._in_place.clear()
        self._elsewhere.clear()
        for track in self._tracks.values():
            track.passed_unread = False
            track.candidate, track.candidate_reads = None, 0

    def reading(self, at: float) -> None:
        """The board reads (a read, or a heartbeat counting scans): after a reset, every tag gets a fresh
        window to be read again from now."""
        if not self._restarted:
            return
        self._restarted = False
        for track in self._tracks.values():
            track.last_read = max(track.last_read, self._reader_time(at))

    def unread(self, antenna: int) -> None:
        """That antenna's reader is down: its tags are unknown, not gone (kept, never timed out)."""
        self._unread.add(antenna)

    @property
    def unread_antennas(self) -> frozenset[int]:
        return frozenset(self._unread)

    def _reads_again(self, antenna: int, at: float) -> None:
        if antenna in self._unread:
            self.reads_again(antenna, at)

    def reads_again(self, antenna: int, at: float) -> bool:
        """The antenna's reader answers again: its tags get a fresh window to be read (the board says
        `TagGone` for those taken meanwhile). False if it was not unread."""
        if antenna not in self._unread:
            return False
        self._unread.discard(antenna)
        for track in self._tracks.values():
            if track.antenna == antenna:
                track.last_read = max(track.last_read, self._reader_time(at))
                track.passed_unread = False  # not read while down says nothing: its next pass will
        return True

    def where(self, uid: str) -> int | None:
        track = self._tracks.get(uid)
        return track.antenna if track is not None else None

    def __len__(self) -> int:
        return len(self._tracks)

    def _move(self, uid: str, track: _Track, antenna: int, at: float) -> TagMoved:
        source = track.antenna
        self._tracks[uid] = _Track(antenna, self._reader_time(at))
        self._in_place.add(uid)  # read there in this scan
        return TagMoved(source, antenna, uid, at)
