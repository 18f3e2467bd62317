"""TD commands and their refusals: manual elimination, count corrections, manual moves, and the
clock-screen snapshot."""

from __future__ import annotations

import random

import pytest
from floor_helpers import end, start, started

from hub.floor.command_words import in_french
from hub.tournament.errors import FloorError, TournamentError
from hub.tournament.events import MoveLapsed, MoveOrdered, PlayerEliminated, TournamentCreated
from hub.tournament.structure import pouques_2020
from hub.tournament.tournament import Tournament


def test_td_eliminates_between_hands_and_the_books_follow() -> None:
    t = started("cdc-2013", 18, 2)
    name = t.state.tables[1].seats[min(t.state.tables[1].seats)]
    events = t.eliminate(name, 13.0)
    out = [e for e in events if isinstance(e, PlayerEliminated)]
    assert [(e.player, e.place) for e in out] == [(name, 18)]
    assert t.chips_in_play() == t.state.chips_total == 170_000


def test_an_elimination_asked_during_a_hand_is_done_when_it_ends() -> None:
    """Issue #30, point 7: hands come every few seconds; the TD's elimination waits for the hand's end
    (the hand in progress is played as dealt), is stored at once, and can be undone until then."""
    t = started("cdc-2013", 18, 2)
    name = t.state.tables[1].seats[min(t.state.tables[1].seats)]
    start(t, 1, 10.0)
    asked = t.eliminate(name, 11.0)
    assert [type(e).__name__ for e in asked] == ["EliminationAsked"] and t.state.players[name].alive
    with pytest.raises(FloorError, match="already out at the end of this hand"):
        t.eliminate(name, 11.5)
    events = end(t, 1, 12.0)
    out = [e for e in events if isinstance(e, PlayerEliminated)]
    assert [(e.player, e.place) for e in out] == [(name, 18)] and not t.state.players[name].alive
    assert t.chips_in_play() == t.state.chips_total == 170_000
    assert t.state.eliminations_asked == set()
    replayed = Tournament.replay(t.events, rng=random.Random(7))
    assert replayed.state.players[name].alive is False and replayed.state.eliminations_asked == set()


def test_count_correction_changes_the_chips_in_play() -> None:
    t = started("cdc-2013", 18, 2)
    seat = min(t.state.tables[2].seats)
    t.correct_stacks(2, {seat: 9_500}, 5.0)
    assert t.chips_in_play() == t.state.chips_total == 179_500
    with pytest.raises(FloorError):
        t.correct_stacks(2, {99: 1}, 6.0)


def test_td_moves_a_player_to_a_free_seat() -> None:
    t = started("brest-2011", 18, 2)
    name = t.state.tables[1].seats[min(t.state.tables[1].seats)]
    free = min(s for s in range(1, 11) if s not in t.state.tables[2].seats)
    taken = min(t.state.tables[2].seats)
    with pytest.raises(FloorError, match="not free"):
        t.move_player(name, 2, taken, 5.0)
    events = t.move_player(name, 2, free, 6.0)
    move = [e for e in events if isinstance(e, MoveOrdered)][0]
    assert (move.player, move.to_table, move.to_seat, move.article) == (name, 2, free, "TD")
    assert t.state.counts() == {1: 9, 2: 9}  # 8 vs 10 is brest's gap (VI.4): one moves back
    back = [e for e in events if isinstance(e, MoveOrdered)][1]
    assert (back.from_table, back.to_table, back.article) == (2, 1, "brest-2011 VI.6")


def _mover(t: Tournament) -> tuple[str, int]:
    """A player of table 1 and a free seat at table 2, table 1 in a hand."""
    name = t.state.tables[1].seats[min(t.state.tables[1].seats)]
    free = min(s for s in range(1, 11) if s not in t.state.tables[2].seats)
    start(t, 1, 10.0)
    return name, free


def test_a_move_asked_during_a_hand_is_made_when_it_ends() -> None:
    """A TD could not move anyone in a live room: every table is in a hand but for a second between two
    (« Table 1 joue une donne : déplacer Ada quand elle sera finie »). The move now waits for the hand's end,
    as an elimination asked then: the hand in progress is played as dealt, and it can be undone until then."""
    t = started("cdc-2013", 18, 2)
    name, free = _mover(t)
    asked = t.move_player(name, 2, free, 11.0)
    assert [type(e).__name__ for e in asked] == ["MoveAsked"] and t.state.players[name].table == 1
    with pytest.raises(FloorError, match="already moves when this hand ends"):
        t.move_player(name, 2, free, 11.5)
    events = end(t, 1, 12.0)
    move = next(e for e in events if isinstance(e, MoveOrdered) and e.player == name)
    assert (move.from_table, move.to_table, move.to_seat, move.article) == (1, 2, free, "TD")
    assert t.state.players[name].table == 2 and t.state.moves_asked == {}
    replayed = Tournament.replay(t.events, rng=random.Random(7))
    assert replayed.state.players[name].table == 2 and replayed.state.moves_asked == {}


def test_a_move_asked_during_a_hand_is_checked_at_once_and_lapses_if_it_cannot_be_made_at_its_end() -> None:
    t = started("cdc-2013", 27, 3)
    name, free = _mover(t)
    with pytest.raises(FloorError, match="is not free"):
        t.move_player(name, 2, min(t.state.tables[2].seats), 11.0)
    with pytest.raises(FloorError, match="cannot move to Table 1"):
        t.move_player(name, 1, 10, 11.0)
    t.move_player(name, 2, free, 11.0)
    # meanwhile the TD seats a player of table 3 (between hands) there
    other = t.state.tables[3].seats[min(t.state.tables[3].seats)]
    assert any(isinstance(e, MoveOrdered) for e in t.move_player(other, 2, free, 11.5))
    events = end(t, 1, 12.0)
    lapsed = [e for e in events if isinstance(e, MoveLapsed)]
    assert [(e.player, e.why) for e in lapsed] == [(name, f"seat {free} at Table 2 is not free")]
    assert in_french(lapsed[0].why) == f"le siège {free} de la Table 2 n'est pas libre"
    assert t.state.players[name].table == 1 and t.state.moves_asked == {}


def test_a_move_asked_for_a_player_who_busts_in_that_hand_lapses() -> None:
    t = started("cdc-2013", 18, 2)
    name, free = _mover(t)
    t.move_player(name, 2, free, 11.0)
    events = end(t, 1, 12.0, busts=[t.state.players[name].seat or 0])
    assert [(e.player, e.why) for e in events if isinstance(e, MoveLapsed)] == [(name, f"{name} is out")]
    assert in_french(f"{name} is out") == f"{name} est éliminé"
    assert not [e for e in events if isinstance(e, MoveOrdered) and e.player == name]


def test_a_move_asked_and_undone_before_the_hand_ends_is_not_made() -> None:
    t = started("cdc-2013", 18, 2)
    name, free = _mover(t)
    t.move_player(name, 2, free, 11.0)
    position = len(t.events) - 1
    t.undo(position, position, 11.5)
    assert t.state.moves_asked == {}
    events = end(t, 1, 12.0)
    assert not [e for e in events if isinstance(e, (MoveOrdered, MoveLapsed)) and e.player == name]
    assert t.state.players[name].table == 1


def test_snapshot_for_the_clock_screen() -> None:
    t = Tournament(name="Pouques", ruleset="pouques-2020", structure=pouques_2020(), now=0.0,
                   rng=random.Random(2), buy_in_cents=35_000)
    for i in range(30):
        t.register(f"p{i:02d}", 0.0)
    t.draw_seats(0.0)
    t.start(0.0)
    snap = t.snapshot(15 * 60.0)
    assert snap["schema"] == 1 and snap["level"] == 1 and snap["time_left"] == 25 * 60.0
    assert (snap["small_blind"], snap["big_blind"], snap["ante"]) == (50, 100, 0)
    assert snap["next_level"] == {"level": 2, "small_blind": 100, "big_blind": 200, "ante": 0}
    assert snap["next_break_in"] == 25 * 60.0 + 5 * 40 * 60.0  # dinner after level 6
    assert snap["players_left"] == 30 and snap["entries"] == 30 and snap["average_stack"] == 50_000
    assert snap["prize_pool_cents"] == 30 * 35_000 * 96 // 100
    later = t.snapshot(2 * 40 * 60.0 + 1)
    assert (later["level"], later["ante"], later["ante_kind"]) == (3, 25, "per_player")
    assert t.state.clock.index == 0  # a snapshot never changes the state
    assert len(t.snapshot(1e6)["tables"]) == 3  # type: ignore[arg-type]


def test_replay_needs_the_creation_record_first() -> None:
    t = started("cdc-2013", 18, 2)
    with pytest.raises(TournamentError):
        Tournament.replay(t.events[1:])
    assert isinstance(t.events[0], TournamentCreated)
