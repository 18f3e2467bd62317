"""Balancing and breaking per ruleset: threshold, play stopping at a short table, who moves, the
seat he takes, the dead-button consequence, confirmation when he is dealt in (RULES.md §1)."""

from __future__ import annotations

import pytest
from floor_helpers import clockwise, end, start, started

from hub.tournament.errors import FloorError
from hub.tournament.events import MoveOrdered, MoveReason, TableBroken
from hub.tournament.policy import floor_policy
from hub.tournament.seating import waits_one_hand
from hub.tournament.tournament import Tournament

ARTICLES = {"cdc-2013": "cdc-2013 3.3", "brest-2011": "brest-2011 VI.6",
            "pouques-2020": "pouques-2020 36-37", "pcpm": "pcpm équilibrage", "cpt87": "cpt87 3.2"}


def three_short_tables(ruleset: str) -> tuple[Tournament, dict[int, list[int]]]:
    """27 players on 3 tables; every table in a hand with known button and big blind; table 3
    then loses three players while tables 1 and 2 are still playing (9, 9, 6)."""
    t = started(ruleset, 27, 3, seed=11)
    seats = {n: sorted(t.state.tables[n].seats) for n in (1, 2, 3)}
    for n in (1, 2, 3):
        start(t, n, 10.0, button=seats[n][0], big_blind=seats[n][2])
    events = end(t, 3, 20.0, busts=seats[3][3:6])
    assert not [e for e in events if isinstance(e, MoveOrdered)]  # the givers are mid-hand
    return t, seats


@pytest.mark.parametrize("ruleset", ["cdc-2013", "cpt87"])
def test_play_stops_at_a_table_three_short(ruleset: str) -> None:
    """cdc 3.3, cpt87 3.2: the short table waits for players."""
    t, _ = three_short_tables(ruleset)
    assert not t.can_start_hand(3, 21.0)
    assert t.snapshot(21.0)["tables"]["3"]["stopped"] is True  # type: ignore[index,call-overload]
    with pytest.raises(FloorError, match="short"):
        t.hand_started(3, 2, 21.0)


@pytest.mark.parametrize("ruleset", ["brest-2011", "pouques-2020", "pcpm"])
def test_play_goes_on_at_the_short_table_elsewhere(ruleset: str) -> None:
    t, _ = three_short_tables(ruleset)
    assert t.can_start_hand(3, 21.0)


@pytest.mark.parametrize("ruleset", list(ARTICLES))
def test_the_future_big_blind_moves_to_the_ruleset_seat(ruleset: str) -> None:
    t, seats = three_short_tables(ruleset)
    target = t.state.tables[3]
    free = [s for s in range(1, 11) if s not in target.seats]
    button3, bb3 = seats[3][0], seats[3][2]
    events = end(t, 1, 30.0)
    moves = [e for e in events if isinstance(e, MoveOrdered)]
    assert len(moves) == 1
    move = moves[0]
    assert (move.from_table, move.to_table, move.reason) == (1, 3, MoveReason.BALANCE)
    # cdc 3.3 / brest VI.6: the future big blind; pouques 36: the player just after the big blind.
    assert move.from_seat == seats[1][3]
    assert move.article == ARTICLES[ruleset]
    if ruleset == "cdc-2013":  # nearest free seat to the left of the button
        expected = [s for s in clockwise(button3) if s in free][0]
    elif ruleset == "brest-2011":  # nearest free seat left of the big blind
        expected = [s for s in clockwise(bb3) if s in free][0]
    elif ruleset == "pouques-2020":  # as far from the button as possible
        expected = max(free, key=lambda s: (min((s - button3) % 10, (button3 - s) % 10), (s - button3) % 10))
    else:  # drawn
        expected = move.to_seat
        assert expected in free
    assert move.to_seat == expected
    counts = t.state.counts()
    if ruleset == "cdc-2013":
        assert counts == {1: 8, 2: 9, 3: 7}  # within 2: no more moves (gap 3)
        assert t.can_start_hand(3, 31.0)  # no longer three short
        assert not [e for e in end(t, 2, 32.0) if isinstance(e, MoveOrdered)]
    else:
        assert counts == {1: 8, 2: 9, 3: 7}  # table 2 is mid-hand: it gives when it ends
        later = [e for e in end(t, 2, 32.0) if isinstance(e, MoveOrdered)]
        assert [(m.from_table, m.to_table) for m in later] == [(2, 3)]
        assert t.state.counts() == {1: 8, 2: 8, 3: 8}


def test_a_move_is_confirmed_when_the_player_is_dealt_in_at_his_new_table() -> None:
    t, _ = three_short_tables("brest-2011")
    move = [e for e in end(t, 1, 30.0) if isinstance(e, MoveOrdered)][0]
    assert t.pending_moves() == [move]
    snap_moves = t.snapshot(30.0)["moves"]
    assert snap_moves[0]["player"] == move.player  # type: ignore[index,call-overload]
    start(t, 3, 31.0)
    with pytest.raises(FloorError):
        t.move_confirmed(move.player, 1, 31.0)
    t.move_confirmed(move.player, 3, 31.0)
    assert t.pending_moves() == []
    assert t.state.players[move.player].status.value == "seated"


@pytest.mark.parametrize(("ruleset", "article"), [("cdc-2013", "cdc-2013 3.4"),
                                                  ("pouques-2020", "pouques-2020 35"),
                                                  ("brest-2011", "brest-2011 VI.11")])
def test_the_last_table_breaks_when_the_others_can_seat_its_players(ruleset: str, article: str) -> None:
    t = started(ruleset, 21, 3, seed=4)
    for n in (1, 2, 3):
        start(t, n, 10.0)
    end(t, 1, 11.0, busts=[sorted(t.state.tables[1].seats)[-1]])  # 20 left: fits 2 tables of 10
    assert set(t.state.tables) == {1, 2, 3}  # table 3 is mid-hand: it breaks when it ends
    end(t, 2, 12.0)
    events = end(t, 3, 13.0)
    broken = [e for e in events if isinstance(e, TableBroken)]
    moves = [e for e in events if isinstance(e, MoveOrdered)]
    assert broken == [TableBroken(3, article, 13.0)]
    assert len(moves) == 7 and {m.reason for m in moves} == {MoveReason.BREAK}
    assert {m.to_table for m in moves} == {1, 2}
    assert t.state.counts() == {1: 10, 2: 10}


def test_dead_button_consequence_of_the_new_seat() -> None:
    cdc, pouques = floor_policy("cdc-2013").arrival_wait, floor_policy("pouques-2020").arrival_wait
    # Between the next button (2) and the small blind: waits one hand (cdc 3.4, brest VI.7).
    assert waits_one_hand(cdc, 3, {1, 2, 3, 4, 5, 6}, 1, 10)
    assert not waits_one_hand(cdc, 4, {1, 2, 3, 4, 5, 6}, 1, 10)
    # pouques 37: dealt in unless the button is just to his right or just to his left.
    assert waits_one_hand(pouques, 5, {1, 3, 5, 6, 7}, 3, 10)
    assert not waits_one_hand(cdc, 5, {1, 3, 5, 6, 7}, 3, 10)
    assert not waits_one_hand(pouques, 3, {1, 3, 4, 6, 7, 9}, 7, 10)
