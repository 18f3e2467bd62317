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
