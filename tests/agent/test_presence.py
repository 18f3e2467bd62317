"""Presence: RFID flicker must never turn one physical card into two events."""

import random

import pytest

from table_agent.presence import Presence, PresenceEvent, TagLifted, TagMoved, TagPlaced

P = 0.05


def test_first_read_places_and_repeated_reads_are_silent() -> None:
    p = Presence(scan_period=P)
    assert p.seen(3, "AA", 0.0) == [TagPlaced(3, "AA", 0.0)]
    assert [p.seen(3, "AA", i * P) for i in range(1, 20)] == [[]] * 19


def test_missed_reads_and_one_scan_dropouts_do_not_lift() -> None:
    p = Presence(scan_period=P, gone_after=0.5)
    rng = random.Random(7)
    events = p.seen(1, "AA", 0.0)
    t = 0.0
    for _ in range(2000):  # 100 s of scans, 10 % of reads missed, never 10 in a row
        t += P
        if rng.random() > 0.1:
            events += p.seen(1, "AA", t)
        events += p.tick(t)
    assert events == [TagPlaced(1, "AA", 0.0)]


def test_board_tag_gone_lifts_at_once() -> None:
    p = Presence(scan_period=P)
    p.seen(1, "AA", 0.0)
    assert p.gone(1, "AA", 0.2) == [TagLifted(1, "AA", 0.2)]
    assert p.gone(1, "AA", 0.3) == []  # a repeated TagGone is harmless
    assert len(p) == 0


def test_lost_tag_gone_frame_times_out() -> None:
    p = Presence(scan_period=P, gone_after=0.5)
    p.seen(1, "AA", 0.0)
    assert p.tick(0.5) == []
    assert p.tick(0.51) == [TagLifted(1, "AA", 0.51)]


def test_card_picked_up_and_put_elsewhere_moves_at_the_end_of_the_scan() -> None:
    p = Presence(scan_period=P)
    p.seen(1, "AA", 0.0)
    p.settle()
    # the next scan reads it on the muck antenna and no longer on antenna 1
    assert p.seen(11, "AA", 0.05) == []
    assert p.settle() == [TagMoved(1, 11, "AA", 0.05)]
    assert p.where("AA") == 11
    assert p.gone(1, "AA", 0.2) == []  # the board's late TagGone for the old antenna is stale


def test_cross_talk_needs_confirmation_while_still_read_in_place() -> None:
    p = Presence(scan_period=P, confirm_reads=2)
    p.seen(1, "AA", 0.0)
    p.settle()
    p.seen(2, "AA", 0.05)  # a card sliding past antenna 2, in the same scan as its own antenna
    p.seen(1, "AA", 0.05)
    assert p.settle() == []
    p.seen(1, "AA", 0.10)  # read in place only: the candidate is dropped
    assert p.settle() == []
    for t in (0.15, 0.20):  # straddling: read in both places two scans in a row
        p.seen(1, "AA", t)
        p.seen(2, "AA", t)
        moves = p.settle()
    assert moves == [TagMoved(1, 2, "AA", 0.20)]


def test_moves_in_one_batch_are_independent_of_antenna_order() -> None:
    p = Presence(scan_period=P)
    p.seen(11, "AA", 0.0)  # in the muck (antenna 11)
    p.settle()
    p.seen(0, "AA", 0.05)  # dead card pulled back to seat 1 (antenna 0, scanned first)
    assert p.settle() == [TagMoved(11, 0, "AA", 0.05)]


def test_suspended_link_keeps_cards_then_gives_a_fresh_window() -> None:
    p = Presence(scan_period=P, gone_after=0.5)
    p.seen(1, "AA", 0.0)
    p.suspend()
    assert p.tick(30.0) == []  # reader unplugged for 30 s: the card is unknown, not gone
    p.resume(30.0)
    assert p.tick(30.4) == []
    assert p.seen(1, "AA", 30.45) == []
    assert p.tick(31.0) == [TagLifted(1, "AA", 31.0)]


def test_gone_after_must_exceed_a_scan() -> None:
    with pytest.raises(ValueError):
        Presence(scan_period=0.5, gone_after=0.5)


def unregistered(uid: str) -> bool:
    return uid.startswith("FF")


def batch(p: Presence, reads: list[tuple[int, str]], at: float) -> list[object]:
    out: list[object] = []
    for antenna, uid in reads:
        out += p.seen(antenna, uid, at)
    return out + p.settle()


def test_an_unregistered_uid_read_in_one_batch_only_is_a_line_error() -> None:
    p = Presence(scan_period=P, unknown=unregistered)
    assert batch(p, [(4, "AA"), (5, "FF01")], 0.0) == [TagPlaced(4, "AA", 0.0)]  # a card: at once
    assert batch(p, [(4, "AA")], P) == []
    assert batch(p, [(4, "AA")], 2 * P) == []
    assert p.unconfirmed_dropped == 1 and p.where("FF01") is None


def test_an_unregistered_uid_read_in_two_batches_in_a_row_is_placed_when_first_read() -> None:
    p = Presence(scan_period=P, unknown=unregistered)
    assert batch(p, [(5, "FF01"), (5, "FF01")], 0.0) == []  # twice in one batch is still one scan
    assert batch(p, [(5, "FF01")], P) == [TagPlaced(5, "FF01", 0.0)]
    assert batch(p, [(5, "FF01")], 2 * P) == []  # then it is a tag like any other
    assert p.where("FF01") == 5 and p.unconfirmed_dropped == 0


def test_an_unregistered_uid_must_be_confirmed_on_the_same_antenna() -> None:
    p = Presence(scan_period=P, unknown=unregistered)
    assert batch(p, [(5, "FF01")], 0.0) == []
    assert batch(p, [(6, "FF01")], P) == []  # another antenna: counting starts again
    assert batch(p, [(6, "FF01")], 2 * P) == [TagPlaced(6, "FF01", P)]
    assert p.gone(6, "FF01", 3 * P) == [TagLifted(6, "FF01", 3 * P)]


def test_a_silent_reader_lifts_nothing_and_gives_a_fresh_window_when_it_speaks_again() -> None:
    """The board scans all the time (TagSeen each scan, a heartbeat each second): a silence is the
    line or the Pi, not the felt. Before, 0.5 s without a frame lifted every card on the table."""
    p = Presence(scan_period=P, gone_after=0.5)
    p.heard(0.0)
    p.seen(1, "AA", 0.0)
    p.seen(2, "BB", 0.0)
    for t in (0.3, 0.6, 1.2, 2.9):  # nothing read for 2.9 s (the agent suspends at 3 s)
        assert p.tick(t) == []
    p.heard(2.95)  # back: this batch misses AA (one scan), reads BB
    p.seen(2, "BB", 2.95)
    assert p.tick(3.0) == []
    p.heard(3.0)
    p.seen(1, "AA", 3.0)
    p.seen(2, "BB", 3.0)
    assert p.tick(3.05) == [] and len(p) == 2


def test_a_lost_tag_gone_times_out_against_the_readers_last_word() -> None:
    p = Presence(scan_period=P, gone_after=0.5)
    p.heard(0.0)
    p.seen(1, "AA", 0.0)
    p.seen(2, "BB", 0.0)
    t = 0.0
    while t < 0.5:  # AA taken away, its TagGone lost on the line; BB still read every scan
        t = round(t + P, 2)
        p.heard(t)
        p.seen(2, "BB", t)
        assert p.tick(t) == []
    t = round(t + P, 2)
    p.heard(t)
    p.seen(2, "BB", t)
    assert p.tick(t + 0.01) == [TagLifted(1, "AA", t + 0.01)]


def heartbeats_until_lifted(p: Presence, start: float, *, period: float = 1.0, limit: int = 10) -> float | None:
    """The board speaks only once a second (an empty felt: heartbeats); when is the ghost lifted?"""
    t = start
    for _ in range(limit):
        t = round(t + period, 3)
        p.heard(t)
        if p.tick(t + 0.01):
            return t
    return None


@pytest.mark.parametrize("scan", [0.02, 0.05, 0.1])
def test_a_lost_tag_gone_on_an_empty_felt_lifts_within_two_heartbeats(scan: float) -> None:
    """The felt is empty (the board sends only its heartbeat, once a second) and the TagGone of the
    last card was lost on the line. Before, each heartbeat counted as the end of a silence and gave
    the ghost a fresh window: it stayed on the felt forever (the noisy-line test, issue #12)."""
    gone_after = max(0.5, 10 * scan)  # as the agent builds it
    p = Presence(scan_period=scan, gone_after=gone_after)
    p.heard(0.0)
    p.seen(5, "AA", 0.0)  # last read; the card is then taken away and its TagGone lost
    for first_heartbeat in (0.01, 2 * scan + 0.001, 0.5, 0.99):  # wherever the board's heartbeat falls after that read
        q = Presence(scan_period=scan, gone_after=gone_after)
        q.heard(0.0)
        q.seen(5, "AA", 0.0)
        q.heard(first_heartbeat)
        assert q.tick(first_heartbeat) == []
        lifted = heartbeats_until_lifted(q, first_heartbeat)
        assert lifted is not None, "the ghost card was never lifted"
        assert lifted <= Presence.ghost_bound(scan_period=scan, gone_after=gone_after, heartbeat=1.0) + 1e-9
    assert heartbeats_until_lifted(p, 0.0) is not None


def test_a_lost_tag_gone_lifts_while_the_board_talks_in_rejected_frames_and_other_tags() -> None:
    """Whatever the board says (reads of other cards, heartbeats, frames the line damaged), it counts
    as the board speaking: the ghost is lifted `gone_after` after its last read on a busy felt."""
    p = Presence(scan_period=P, gone_after=0.5)
    p.heard(0.0)
    p.seen(1, "AA", 0.0)
    p.seen(2, "BB", 0.0)
    t, lifted_at = 0.0, None
    for i in range(40):
        t = round(t + P, 3)
        p.heard(t)  # a read of BB, or a frame rejected on the line: either way the board spoke
        if i % 3:
            p.seen(2, "BB", t)
        p.settle()
        if p.tick(t):
            lifted_at = t
            break
    assert lifted_at is not None and 0.5 < lifted_at <= 0.5 + 2 * P
    assert p.where("BB") == 2


def test_a_silence_counts_for_little_against_a_tag_but_is_never_renewed_forever() -> None:
    """A real silence (the line or the Pi) counts for at most `gone_after - 2 scans`: a card still lying
    there and read again at the next scan is never lifted, however long the silence; yet a ghost is
    lifted by the board's later heartbeats, however many silences came before."""
    p = Presence(scan_period=P, gone_after=0.5)
    p.heard(0.0)
    p.seen(1, "AA", 0.0)
    p.seen(2, "BB", 0.0)
    p.heard(2.9)  # 2.9 s of nothing, then a batch that misses AA; BB read
    p.seen(2, "BB", 2.9)
    assert p.tick(2.95) == []
    p.heard(2.95)
    p.seen(2, "BB", 2.95)  # AA never read again: its TagGone was lost
    lifted: list[PresenceEvent] = []
    t = 2.95
    while not lifted and t < 10:
        t = round(t + 1.0, 3)  # BB taken too, TagGone arrived; only heartbeats now
        p.gone(2, "BB", t - 0.9)
        p.heard(t)
        lifted = [e for e in p.tick(t) if e.uid == "AA"]
    assert lifted and t <= 2.95 + 2.0 + 2 * P


def test_after_a_long_outage_a_card_taken_meanwhile_is_lifted_by_the_heartbeats() -> None:
    """The link is down a minute; the card is taken meanwhile (its TagGone never sent: the board had
    nobody to tell). Back, it gets its fresh window, then the heartbeats of an empty felt lift it: the
    minute of outage must not count against it, nor push its window a minute away."""
    p = Presence(scan_period=P, gone_after=0.5)
    p.heard(0.0)
    p.seen(1, "AA", 0.0)
    p.suspend()
    assert p.tick(60.0) == []
    p.resume(60.0)
    assert p.tick(60.05) == []
    lifted = heartbeats_until_lifted(p, 60.0)
    assert lifted is not None and lifted <= 60.0 + Presence.ghost_bound(scan_period=P, gone_after=0.5)


@pytest.mark.parametrize(("scan", "gone", "heartbeat", "bound"), [
    (0.05, 0.5, 1.0, 2.1),   # the agent at 50 ms scans: the first gap, then two heartbeats
    (0.02, 0.5, 1.0, 2.04),  # at 20 ms
    (0.3, 3.0, 1.0, 4.0),    # a gap counts in full past a heartbeat: gone_after and one heartbeat
    (0.2, 0.5, 1.0, 4.0),    # gaps count for less than half gone_after: (0.5 // 0.2 + 2) heartbeats
    (0.125, 0.5, 1.0, 4.0),  # exactly half: three gaps may be needed, so the loose bound, not 2.25
    (0.05, 0.5, 2.0, 4.1),   # a slower heartbeat scales the bound
    (0.2, 0.5, 2.0, 8.0),
])
def test_the_ghost_bound_is_exact(scan: float, gone: float, heartbeat: float, bound: float) -> None:
    assert Presence.ghost_bound(scan_period=scan, gone_after=gone, heartbeat=heartbeat) == pytest.approx(bound)


@pytest.mark.parametrize("scan", [0.02, 0.05])
def test_the_ghost_bound_is_reached_on_an_empty_felt(scan: float) -> None:
    """The bound is the worst case, not a guess: the first heartbeat falling just over two scans after
    the ghost's last read, it is lifted at the bound (within a millisecond)."""
    bound = Presence.ghost_bound(scan_period=scan, gone_after=0.5)
    worst = 0.0
    for k in range(1, 1000):
        first = k / 1000
        p = Presence(scan_period=scan, gone_after=0.5)
        p.heard(0.0)
        p.seen(5, "AA", 0.0)
        p.heard(first)
        lifted = first if p.tick(first) else heartbeats_until_lifted(p, first)
        assert lifted is not None
        worst = max(worst, lifted)
    assert bound - 0.002 <= worst <= bound + 1e-9


def test_two_silences_in_a_row_each_count_only_their_part() -> None:
    """A card read between two long silences, and missed by the first scan after the second, is still
    there: the second silence adds to what the first skipped, it does not replace it."""
    p = Presence(scan_period=P, gone_after=0.5)
    p.heard(0.0)
    p.seen(1, "AA", 0.0)
    p.heard(10.0)
    p.seen(1, "AA", 10.0)
    p.heard(20.0)  # this batch misses AA
    assert p.tick(20.0) == []
