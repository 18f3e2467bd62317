"""Presence with a board that sends each antenna's reads as it reads it (issue #33 point 4): the scans
are found in the reads, and moves are still decided on whole scans."""

from __future__ import annotations

from table_agent.presence import Presence, PresenceEvent, TagMoved, TagPlaced


def pieces(p: Presence, *reads: tuple[int, str], at: float) -> list[PresenceEvent]:
    """Each read in a piece of its own, as a board's antenna-by-antenna frames reach the agent."""
    out: list[PresenceEvent] = []
    for antenna, uid in reads:
        out += p.seen(antenna, uid, at)
        out += p.settle_passed()
    return out


def test_a_card_straddling_two_antennas_moves_only_when_confirmed() -> None:
    """Read on both, antenna by antenna: one scan is no move (judged piece by piece, it was: the
    piece with antenna 5 alone did not read it in place), two whole scans are (`confirm_reads`)."""
    p = Presence(split_scans=True)
    assert pieces(p, (3, "AA"), at=0.0) == [TagPlaced(3, "AA", 0.0)]
    assert pieces(p, (3, "AA"), (5, "AA"), at=0.3) == []
    assert pieces(p, (3, "AA"), (5, "AA"), at=0.6) == []
    assert pieces(p, (3, "AA"), at=0.9) == [TagMoved(3, 5, "AA", 0.6)]


def test_a_card_lifted_to_a_later_antenna_moves_when_it_is_read_there() -> None:
    p = Presence(split_scans=True)
    pieces(p, (3, "AA"), (9, "KK"), at=0.0)
    pieces(p, (3, "AA"), (9, "KK"), at=0.3)
    # picked up from 3 and put on 5: antenna 3 has been passed in this scan without it
    assert pieces(p, (5, "AA"), at=0.6) == [TagMoved(3, 5, "AA", 0.6)]


def test_a_card_lifted_to_an_earlier_antenna_moves_at_the_end_of_the_scan() -> None:
    p = Presence(split_scans=True)
    pieces(p, (5, "AA"), at=0.0)
    assert pieces(p, (3, "AA"), at=0.3) == []  # antenna 5 not read yet in this scan: it may still be there
    assert p.end_scan() == [TagMoved(5, 3, "AA", 0.3)]  # the heartbeat after the scan


def test_the_next_scans_first_read_ends_the_scan_before_it() -> None:
    p = Presence(split_scans=True)
    pieces(p, (4, "KK"), (5, "AA"), at=0.0)
    assert pieces(p, (3, "AA"), (4, "KK"), at=0.3) == []
    assert p.seen(4, "KK", 0.6) == [TagMoved(5, 3, "AA", 0.3)]  # KK read twice on 4: a new scan


def test_without_split_scans_a_piece_is_a_whole_scan() -> None:
    p = Presence()
    p.seen(3, "AA", 0.0)
    p.settle()
    p.seen(3, "AA", 0.3)
    p.settle()
    p.seen(5, "AA", 0.6)
    assert p.settle() == [TagMoved(3, 5, "AA", 0.6)]


def test_a_card_whose_antenna_was_passed_without_it_moves_at_its_first_read_elsewhere() -> None:
    """Taken from the muck (antenna 12, read late in a scan) to a seat (antenna 3, read early in the
    next): the muck's last pass did not read it, so the seat's read moves it at once, without waiting
    for the muck to be passed again (issue #33: a dead card in a hand was judged up to a scan late)."""
    p = Presence(split_scans=True)
    pieces(p, (3, "KK"), (12, "AA"), at=0.0)
    pieces(p, (3, "KK"), (12, "AA"), at=0.3)
    assert pieces(p, (3, "KK"), (9, "QQ"), at=0.6) == [TagPlaced(9, "QQ", 0.6)]  # AA off the muck, unread
    p.end_scan()  # the heartbeat: antenna 12 passed without it
    assert pieces(p, (3, "KK"), (3, "AA"), at=0.9) == [TagMoved(12, 3, "AA", 0.9)]


def test_a_card_read_where_it_lay_in_the_last_pass_still_waits_for_its_antenna() -> None:
    """Read on the muck in the scan before, then on a seat: it may lie on both (cross-talk) until the
    muck is passed again."""
    p = Presence(split_scans=True)
    pieces(p, (3, "KK"), (12, "AA"), at=0.0)
    assert pieces(p, (3, "KK"), (3, "AA"), at=0.3) == []
    assert pieces(p, (3, "KK"), at=0.6) == [TagMoved(12, 3, "AA", 0.3)]  # a new scan: 12 was passed without it


def test_swept_before_says_when_every_antenna_was_read_again_since_a_read() -> None:
    p = Presence(split_scans=True, antennas=6)
    assert p.swept_before == float("-inf")
    pieces(p, (1, "AA"), at=1.0)
    pieces(p, (4, "BB"), at=1.1)
    assert p.swept_before == float("-inf")  # antenna 0 not yet passed after anything
    p.end_scan()
    assert p.swept_before == float("-inf")  # antenna 0's pass began before the first frame
    pieces(p, (1, "AA"), at=1.3)  # the next scan: antenna 0 passed after 1.1, antenna 1 being read
    assert p.swept_before == float("-inf")
    pieces(p, (4, "BB"), at=1.4)  # antennas 1-3 passed after 1.1: only 4 still has its pass from before
    assert p.swept_before == 1.0
    p.end_scan()
    assert p.swept_before == 1.1  # read again since AA's 1.0; since BB's 1.1 too, said at the next frame


def test_without_antennas_nothing_is_said_swept() -> None:
    p = Presence(split_scans=True)
    pieces(p, (1, "AA"), at=1.0)
    p.end_scan()
    assert p.swept_before is None


def test_a_tag_of_no_deck_is_placed_at_its_confirming_read_not_at_the_scans_end() -> None:
    p = Presence(split_scans=True, unknown=lambda uid: uid == "FF01")
    assert pieces(p, (3, "FF01"), (9, "KK"), at=0.0) == [TagPlaced(9, "KK", 0.0)]
    assert pieces(p, (3, "FF01"), at=0.3) == [TagPlaced(3, "FF01", 0.0)]  # read in a second scan: confirmed


def test_antenna_done_decides_a_move_as_soon_as_the_old_antenna_is_read_without_it() -> None:
    """A board that says when each antenna is done (`AntennaDone`): the muck, passed empty, sends no
    read, and the move is decided at its `AntennaDone` rather than at the next scan's first read."""
    p = Presence(split_scans=True)
    pieces(p, (3, "KK"), (12, "AA"), at=0.0)
    pieces(p, (3, "KK"), (12, "AA"), at=0.3)
    assert pieces(p, (3, "KK"), (3, "AA"), at=0.6) == []  # the muck not passed yet in this scan
    assert p.antenna_done(11, 0.65) == [] and p.settle_passed() == []
    assert p.antenna_done(12, 0.7) == [] and p.settle_passed() == [TagMoved(12, 3, "AA", 0.6)]


def test_antenna_done_sweeps_to_the_antenna_and_starts_the_next_scan_after_it() -> None:
    p = Presence(split_scans=True, antennas=3)
    for antenna in range(3):
        p.antenna_done(antenna, 1.0 + antenna / 10)
    assert p.swept_before == float("-inf")  # antenna 0's pass began before any frame
    pieces(p, (0, "AA"), at=1.3)  # a new scan: antenna 0 was said done at 1.0
    p.antenna_done(0, 1.31)
    assert p.swept_before == 1.0  # 0 passed after 1.2, 1 after 1.0, 2 after 1.1
    p.antenna_done(1, 1.4)
    p.antenna_done(2, 1.5)
    assert p.swept_before == 1.2  # 0's pass began after the frame at 1.2, 1 after 1.31, 2 after 1.4
    assert pieces(p, (0, "AA"), at=1.6) == []  # read again in a scan of its own, no move
