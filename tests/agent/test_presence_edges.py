"""Presence's edges that the flicker tests do not reach (each found by a mutant that survived them,
docs/testing.md): the defaults, the silence threshold to the exact float, a TagGone on the antenna a
tag was about to move to, several batches to confirm a move, unknown UIDs dropped and lifted."""

from __future__ import annotations

import pytest

from table_agent.presence import Presence, TagLifted, TagMoved, TagPlaced


def test_defaults_lift_after_half_a_second_unread() -> None:
    p = Presence()
    assert (p.scan_period, p.gone_after, p.confirm_reads) == (0.05, 0.5, 2)
    p.seen(1, "AA", 0.0)
    assert p.tick(0.45) == []
    assert p.tick(0.55) == [TagLifted(1, "AA", 0.55)]


def test_gone_after_must_outlast_a_scan() -> None:
    with pytest.raises(ValueError, match="^gone_after must be longer than one scan period$"):
        Presence(scan_period=0.5, gone_after=0.5)


def _heard_until(p: Presence, since: float, until: float, step: float) -> None:
    """The reader speaks every `step` seconds (no silence) from `since` to `until`."""
    t = since
    while t < until:
        t = min(t + step, until)
        p.heard(t)


@pytest.mark.parametrize(("scan", "gone", "counted"), [(0.125, 1.0, 0.75), (0.0625, 0.25, 0.125)])
def test_a_gap_between_frames_counts_in_full_up_to_gone_after_less_two_scans_and_no_more(
        scan: float, gone: float, counted: float) -> None:
    """Exact in binary floats: a gap of `gone - 2 scans` counts in full against a tag; one scan longer
    counts no more than that, so the tag goes one scan later, but it goes (never a window renewed)."""
    late = gone + scan / 2
    p = Presence(scan_period=scan, gone_after=gone)
    p.heard(0.0)
    p.seen(1, "AA", 0.0)
    p.settle()
    p.heard(counted)  # exactly the most a gap counts: the tag keeps its last read at 0
    _heard_until(p, counted, late, scan / 2)
    assert p.tick(late) == [TagLifted(1, "AA", late)]

    q = Presence(scan_period=scan, gone_after=gone)
    q.heard(0.0)
    q.seen(1, "AA", 0.0)
    q.settle()
    q.heard(counted + scan)  # one scan longer: that scan does not count
    _heard_until(q, counted + scan, late, scan / 2)
    assert q.tick(late) == []
    _heard_until(q, late, late + scan, scan / 2)
    assert q.tick(late + scan) == [TagLifted(1, "AA", late + scan)]


def test_a_move_read_alongside_needs_confirm_reads_batches_in_a_row() -> None:
    p = Presence(confirm_reads=3)
    p.seen(1, "AA", 0.0)
    for batch in (1, 2):  # read in place and on antenna 2: a card straddling both
        p.seen(1, "AA", batch * 0.05)
        p.seen(2, "AA", batch * 0.05)
        assert p.settle() == []
    p.seen(1, "AA", 0.15)
    p.seen(2, "AA", 0.15)
    assert p.settle() == [TagMoved(1, 2, "AA", 0.15)]


def test_a_tag_gone_from_the_candidate_antenna_cancels_the_move_and_others_still_move() -> None:
    p = Presence()
    p.seen(1, "AA", 0.0)
    p.seen(3, "BB", 0.0)
    p.settle()
    p.seen(2, "AA", 0.05)  # AA read on 2 only: it would move...
    assert p.gone(2, "AA", 0.06) == []  # ...but the board says it left antenna 2 at once
    p.seen(4, "BB", 0.07)  # BB picked up and put down on 4
    assert p.settle() == [TagMoved(3, 4, "BB", 0.07)]
    assert p.where("AA") == 1
    p.seen(1, "AA", 0.1)
    p.seen(2, "AA", 0.1)
    assert p.settle() == []  # the count of reads elsewhere started again


def test_a_tag_gone_from_a_third_antenna_keeps_the_count_toward_a_move() -> None:
    p = Presence()
    p.seen(1, "AA", 0.0)
    p.settle()
    p.seen(1, "AA", 0.05)
    p.seen(2, "AA", 0.05)
    assert p.settle() == []
    assert p.gone(5, "AA", 0.06) == []  # a stale TagGone from elsewhere says nothing of antenna 2
    p.seen(1, "AA", 0.1)
    p.seen(2, "AA", 0.1)
    assert p.settle() == [TagMoved(1, 2, "AA", 0.1)]


def test_a_moved_tag_and_a_confirmed_unknown_tag_time_out_like_any_other() -> None:
    p = Presence(unknown=lambda uid: uid.startswith("FF"))
    p.seen(1, "AA", 0.0)
    p.settle()
    p.seen(2, "AA", 0.05)
    assert p.settle() == [TagMoved(1, 2, "AA", 0.05)]
    p.seen(3, "FF01", 0.05)
    p.settle()
    p.seen(3, "FF01", 0.1)
    assert p.settle() == [TagPlaced(3, "FF01", 0.05)]
    assert p.tick(0.5) == []
    assert sorted(p.tick(0.7), key=lambda e: e.uid) == [TagLifted(2, "AA", 0.7), TagLifted(3, "FF01", 0.7)]


def test_unknown_uids_read_once_are_counted_and_a_tag_gone_forgets_a_pending_one() -> None:
    p = Presence(unknown=lambda uid: uid.startswith("FF"))
    p.seen(1, "FF01", 0.0)
    p.seen(1, "FF02", 0.0)
    p.settle()
    assert p.settle() == [] and p.unconfirmed_dropped == 2  # not read again: two line errors
    p.seen(1, "FF03", 0.1)
    p.settle()
    p.gone(1, "FF03", 0.12)  # the board says it left: the one batch that read it no longer counts
    p.seen(1, "FF03", 0.15)
    assert p.settle() == []
    p.seen(1, "FF03", 0.2)
    assert p.settle() == [TagPlaced(1, "FF03", 0.15)]


def test_an_unread_antenna_keeps_its_tags_until_it_reads_again() -> None:
    """Issue #33: a silent module or an unplugged reader: its tags are unknown, not gone. The first
    frame from it again gives them a fresh window; one still unread then times out as usual."""
    p = Presence(scan_period=0.05, gone_after=0.5)
    p.heard(0.0)
    p.seen(1, "AA", 0.0)
    p.seen(1, "BB", 0.0)
    p.seen(2, "CC", 0.0)
    p.settle()
    p.unread(1)
    for step in range(1, 61):  # 3 s of the board reading antenna 2 only
        t = step * 0.05
        p.heard(t)
        p.seen(2, "CC", t)
        p.settle()
        assert p.tick(t) == []
    assert p.unread_antennas == {1} and len(p) == 3
    p.heard(3.05)
    p.seen(1, "AA", 3.05)  # it reads again: AA is there, BB was taken meanwhile
    assert p.settle() == [] and p.unread_antennas == frozenset()
    lifted = []
    for step in range(1, 13):  # the board reads AA and CC; BB, taken, is not read
        t = 3.05 + step * 0.05
        p.heard(t)
        p.seen(1, "AA", t)
        p.seen(2, "CC", t)
        p.settle()
        lifted += p.tick(t)
    assert [(e.antenna, e.uid) for e in lifted] == [(1, "BB")]
    assert lifted[0].at > 3.05 + 0.5


def test_a_tag_on_an_unread_antenna_moves_only_when_confirmed_elsewhere() -> None:
    """Not read where it lay (the reader is down) is not "picked up": a neighbour's cross-talk must be
    read `confirm_reads` batches in a row before the card moves."""
    p = Presence(scan_period=0.05, gone_after=0.5)
    p.seen(1, "AA", 0.0)
    p.settle()
    p.unread(1)
    p.seen(2, "AA", 0.05)
    assert p.settle() == []
    p.seen(2, "AA", 0.10)
    assert p.settle() == [TagMoved(1, 2, "AA", 0.10)]


def test_a_tag_gone_on_an_unread_antenna_says_it_reads_again() -> None:
    p = Presence(scan_period=0.05, gone_after=0.5)
    p.seen(1, "AA", 0.0)
    p.unread(1)
    assert p.gone(1, "AA", 1.0) == [TagLifted(1, "AA", 1.0)]
    assert p.unread_antennas == frozenset()
    assert p.reads_again(1, 1.0) is False
