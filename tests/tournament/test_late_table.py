"""A table the hub cannot hear (cut off from it) deals on; the floor plays its backlog when it is heard
again: its busts ranked by when they happened at the table (`Tournament.hand_ended(..., as_of=)`)."""

from __future__ import annotations

import dataclasses
import random

from floor_helpers import STRUCTURE, end, start, started

from hub.tournament.events import (
    ButtonDrawn,
    FinalTableDrawn,
    MoveOrdered,
    PlacesCorrected,
    PlayerEliminated,
    TableBroken,
    event_from_dict,
)
from hub.tournament.penalties import PenaltyKind
from hub.tournament.results import POUQUES_PAYOUTS, Standing
from hub.tournament.tournament import Tournament


def _place(t: Tournament, name: str) -> Standing:
    return next(s for s in t.standings() if s.player == name)


def _late_end(t: Tournament, table: int, now: float, as_of: float, busts: list[int]) -> list[object]:
    """`end` for a hand that ended at the table at `as_of`, heard at `now`."""
    tb = t.state.tables[table]
    chips = {seat: t.state.players[name].chips for seat, name in tb.seats.items() if seat in tb.start_stacks}
    for seat in busts:
        winner = min(s for s in chips if s not in busts)
        chips[winner] += chips[seat]
        chips[seat] = 0
    return list(t.hand_ended(table, tb.hand_no, chips, now, as_of=as_of))


def _busts_at_2_with_1_cut(t: Tournament, busts: int) -> list[object]:
    """Table 1 plays a hand and is cut off between hands (10-20 s); table 2 then ends a hand with its first
    `busts` seats out (30-40 s): what that hand's end made the floor do."""
    start(t, 1, 10.0)
    end(t, 1, 20.0)
    t.table_unreachable(1)
    start(t, 2, 30.0)
    return end(t, 2, 40.0, busts=sorted(t.state.tables[2].seats)[:busts])


def test_a_bust_heard_late_takes_the_place_it_had_when_it_happened() -> None:
    """14 entries, 12 paid. Table 1 is cut off from 100 s to 500 s: its bust at 200 s reaches the floor at
    500 s, after a bust at table 2 at 300 s. The first out is 13th (no prize), the second 12th (paid),
    whatever the order the floor heard them in; the records stay as stored, a correcting one added."""
    t = started("cdc-2013", 14, 2, buy_in_cents=10_000)
    t.state.policy = dataclasses.replace(t.state.policy, payouts=POUQUES_PAYOUTS)  # a club's paying table
    start(t, 2, 10.0)
    end(t, 2, 20.0, busts=[min(t.state.tables[2].seats)])  # 14th, heard live
    start(t, 1, 100.0)
    start(t, 2, 100.0)
    early = t.state.tables[1].seats[min(t.state.tables[1].seats)]  # out at table 1 at 200 s
    later = t.state.tables[2].seats[min(t.state.tables[2].seats)]  # out at table 2 at 300 s
    end(t, 2, 300.0, busts=[min(t.state.tables[2].seats)])
    stored = [e.to_dict() for e in t.events]
    out = _late_end(t, 1, 500.0, 200.0, busts=[min(t.state.tables[1].seats)])
    assert _place(t, early).place == 13 and _place(t, later).place == 12
    prizes = t.prizes()
    assert early not in prizes and prizes[later] > 0
    eliminated = [e for e in out if isinstance(e, PlayerEliminated)]
    assert [(e.player, e.place, e.happened, e.at) for e in eliminated] == [(early, 13, 200.0, 500.0)]
    assert [e for e in out if isinstance(e, PlacesCorrected)] == [
        PlacesCorrected(((later, 12),), t.state.policy.elimination_article, 500.0)]
    assert [e.to_dict() for e in t.events[:len(stored)]] == stored  # append-only: nothing stored was changed
    rebuilt = Tournament.replay([event_from_dict(e.to_dict()) for e in t.events])
    assert rebuilt.standings() == t.standings()
    assert {o.player: o.place for o in rebuilt.state.outs} == {o.player: o.place for o in t.state.outs}


def test_a_bust_heard_live_or_late_but_last_keeps_the_order_heard() -> None:
    """A late hand whose busts happened after every elimination recorded is ranked as before, with no
    correction; the same hand's busts are ranked by their stacks at its start (cdc 2.10), as live."""
    t = started("cdc-2013", 18, 2)
    start(t, 1, 100.0)
    start(t, 2, 100.0)
    first = t.state.tables[2].seats[min(t.state.tables[2].seats)]
    end(t, 2, 150.0, busts=[min(t.state.tables[2].seats)])
    seats = sorted(t.state.tables[1].seats)[:2]
    names = [t.state.tables[1].seats[s] for s in seats]
    out = _late_end(t, 1, 500.0, 200.0, busts=seats)
    assert not any(isinstance(e, PlacesCorrected) for e in out)
    assert _place(t, first).place == 18
    assert {_place(t, n).place for n in names} == {16} and _place(t, names[0]).tied == 2  # equal stacks tie


def test_no_move_for_a_table_the_floor_cannot_reach_until_it_is_heard_again() -> None:
    """Table 1 is cut off between hands; two busts at table 2 would move a player from table 1 (10 against
    8): the floor waits, says why (French, English, no identifier), and moves him once it hears table 1."""
    t = started("pouques-2020", 20, 2)
    out = _busts_at_2_with_1_cut(t, 2)
    assert not [e for e in out if isinstance(e, MoveOrdered)]
    assert t.waiting_for() == {1}
    waits = t.snapshot(41.0)["floor_waits"]
    assert waits == {"1": {"fr": "Table 1 injoignable : le placement l'attend, aucun joueur n'y va ni n'en part "
                                 "avant son retour",
                           "en": "Table 1 unreachable: seating waits for it, no player moves to or from it until "
                                 "it is back"}}
    back = t.table_reachable(1, 50.0)
    assert [(e.from_table, e.to_table) for e in back if isinstance(e, MoveOrdered)] == [(1, 2)]
    assert t.waiting_for() == set() and t.snapshot(51.0)["floor_waits"] == {}


def test_the_floor_balances_the_tables_it_can_reach_meanwhile() -> None:
    """Three tables of 10, table 1 cut off: four busts at table 3 move two players from table 2 (the one
    reachable giver), none from table 1; the third move (from table 1) waits for it."""
    t = started("pouques-2020", 30, 3)
    t.table_unreachable(1)
    assert t.waiting_for() == set() and t.snapshot(5.0)["floor_waits"] == {}  # nothing waits for it yet
    start(t, 3, 10.0)
    out = end(t, 3, 20.0, busts=sorted(t.state.tables[3].seats)[:4])
    assert [(e.from_table, e.to_table) for e in out if isinstance(e, MoveOrdered)] == [(2, 3), (2, 3)]
    assert t.state.counts() == {1: 10, 2: 8, 3: 8} and t.waiting_for() == {1}


def test_a_table_to_break_waits_while_it_or_the_seats_its_players_need_are_cut_off() -> None:
    """Three tables of 7 (10 seats), table 3 to break once 20 are left: not while it is cut off; not either
    while table 2 is, table 1 alone having no seats for its 7 players; broken once both are heard."""
    t = started("pouques-2020", 21, 3)
    t.table_unreachable(3)
    t.table_unreachable(2)
    start(t, 1, 10.0)
    out = end(t, 1, 20.0, busts=[min(t.state.tables[1].seats)])
    assert not [e for e in out if isinstance(e, TableBroken | MoveOrdered)]
    assert t.waiting_for() == {3}
    assert not t.table_reachable(3, 30.0)  # table 1's seats cannot take table 3's players
    assert t.waiting_for() == {2}
    back = t.table_reachable(2, 40.0)
    assert [e.table for e in back if isinstance(e, TableBroken)] == [3]


def test_no_table_stops_short_for_a_table_cut_off() -> None:
    """cdc 3.3: a table three short of the fullest stops until balanced. Table 1 cut off, three busts at
    table 2 (7 against 10): no player can come from table 1, so table 2 deals on; once table 1 is heard,
    the floor moves a player from it and table 2 is no longer short."""
    t = started("cdc-2013", 20, 2)
    _busts_at_2_with_1_cut(t, 3)
    assert t.can_start_hand(2, 50.0)
    back = t.table_reachable(1, 60.0)
    assert [(e.from_table, e.to_table) for e in back if isinstance(e, MoveOrdered)] == [(1, 2)]
    assert t.can_start_hand(2, 70.0)


def _recorded_places_agree(t: Tournament) -> dict[str, int]:
    """Each out's place as its records say it (his elimination, corrected since): the standings' place."""
    recorded = {o.player: o.place for o in t.state.outs if o.place > 0}
    assert recorded == {s.player: s.place for s in t.standings() if s.player in recorded}
    return recorded


def test_a_late_hand_without_a_bust_corrects_no_place() -> None:
    """Table 1 heard late, its hand over without a bust: no one's place changes, and no record says so."""
    t = started("cdc-2013", 20, 2)
    start(t, 1, 100.0)
    start(t, 2, 100.0)
    end(t, 2, 300.0, busts=[min(t.state.tables[2].seats)])
    out = _late_end(t, 1, 500.0, 200.0, busts=[])
    assert not [e for e in out if isinstance(e, PlacesCorrected)]
    _recorded_places_agree(t)


def test_two_busts_heard_late_move_the_later_bust_up_two_places() -> None:
    """20 entries. Table 2's bust at 300 s is recorded 20th; table 1, cut off, lost two players at 200 s
    (their stacks unequal, so not tied): they are 20th and 19th, the bust at 300 s is corrected to 18th."""
    t = started("cdc-2013", 20, 2)
    seats = sorted(t.state.tables[1].seats)[:2]
    start(t, 1, 10.0)
    end(t, 1, 20.0, stacks={seats[0]: 9_000, seats[1]: 11_000})  # chips conserved: 1 000 changed hands
    start(t, 1, 100.0)
    start(t, 2, 100.0)
    later = t.state.tables[2].seats[min(t.state.tables[2].seats)]
    end(t, 2, 300.0, busts=[min(t.state.tables[2].seats)])
    out = _late_end(t, 1, 500.0, 200.0, busts=seats)
    assert [e for e in out if isinstance(e, PlacesCorrected)] == [
        PlacesCorrected(((later, 18),), t.state.policy.elimination_article, 500.0)]
    assert _recorded_places_agree(t)[later] == 18


def test_busts_heard_late_at_two_tables_correct_the_same_later_bust_twice() -> None:
    """Three tables; a bust at table 2 at 300 s is recorded 30th. Tables 1 and 3, cut off, lost a player at
    200 s and 250 s: heard one after the other, each correction starts from the place the last one gave."""
    t = started("cdc-2013", 30, 3)
    for table in (1, 2, 3):
        start(t, table, 100.0)
    later = t.state.tables[2].seats[min(t.state.tables[2].seats)]
    end(t, 2, 300.0, busts=[min(t.state.tables[2].seats)])
    _late_end(t, 1, 500.0, 200.0, busts=[min(t.state.tables[1].seats)])
    assert _recorded_places_agree(t)[later] == 29
    _late_end(t, 3, 510.0, 250.0, busts=[min(t.state.tables[3].seats)])
    assert _recorded_places_agree(t)[later] == 28


def test_a_disqualified_players_place_is_not_corrected_by_a_bust_heard_late() -> None:
    """A disqualified player has no place in the records (0: he is ranked when he left); a bust heard late
    that happened before he left corrects no place of his."""
    t = started("cdc-2013", 20, 2)
    start(t, 1, 100.0)
    gone = next(name for name in t.state.tables[2].seats.values())
    t.give_penalty(gone, PenaltyKind.DISQUALIFICATION, 0, 300.0)
    out = _late_end(t, 1, 500.0, 200.0, busts=[min(t.state.tables[1].seats)])
    assert not [e for e in out if isinstance(e, PlacesCorrected)]
    assert {o.player: o.place for o in t.state.outs}[gone] == 0
    _recorded_places_agree(t)


def test_busts_at_the_same_time_at_two_tables_one_heard_late_keep_the_order_heard() -> None:
    """Busts at tables 1 and 2 at the same instant: the one heard first went out first (as live), the one
    heard late takes the next place up; nothing to correct."""
    t = started("cdc-2013", 20, 2)
    start(t, 1, 100.0)
    start(t, 2, 100.0)
    first = t.state.tables[2].seats[min(t.state.tables[2].seats)]
    end(t, 2, 200.0, busts=[min(t.state.tables[2].seats)])
    late = t.state.tables[1].seats[min(t.state.tables[1].seats)]
    out = _late_end(t, 1, 500.0, 200.0, busts=[min(t.state.tables[1].seats)])
    assert not [e for e in out if isinstance(e, PlacesCorrected)]
    assert _recorded_places_agree(t) == {first: 20, late: 19}


def test_hand_for_hand_a_bust_heard_late_shares_the_rounds_place() -> None:
    """Hand for hand, the round's busts are ranked together whenever heard (cdc 2.10): table 1's bust at
    200 s heard late joins table 2's at 300 s, by their stacks at the hand's start; no place to correct."""
    t = started("cdc-2013", 20, 2)
    t.start_hand_for_hand(50.0)
    seat = min(t.state.tables[1].seats)
    start(t, 1, 60.0)
    start(t, 2, 60.0)
    end(t, 1, 70.0, stacks={seat: 9_000, min(s for s in t.state.tables[1].seats if s != seat): 11_000})
    end(t, 2, 70.0)
    start(t, 1, 100.0)
    start(t, 2, 100.0)
    other = t.state.tables[2].seats[min(t.state.tables[2].seats)]
    end(t, 2, 300.0, busts=[min(t.state.tables[2].seats)])
    late = t.state.tables[1].seats[seat]
    out = _late_end(t, 1, 500.0, 200.0, busts=[seat])
    assert not [e for e in out if isinstance(e, PlacesCorrected)]  # as heard live
    assert (_place(t, other).place, _place(t, late).place) == (19, 20)  # 10 000 at the start against 9 000


def test_the_final_table_is_drawn_once_the_table_cut_off_is_heard() -> None:
    """cdc, final table of 9: 12 players on two tables, table 1 cut off between hands; three busts at table 2
    leave 9: the floor does not draw the final table without table 1, says it waits for it, and draws it
    when table 1 is heard again."""
    t = started("cdc-2013", 12, 2)
    out = _busts_at_2_with_1_cut(t, 3)
    assert not [e for e in out if isinstance(e, FinalTableDrawn | MoveOrdered)]
    assert t.waiting_for() == {1} and list(t.snapshot(41.0)["floor_waits"]) == ["1"]
    back = t.table_reachable(1, 50.0)
    assert [type(e) for e in back] == [FinalTableDrawn, ButtonDrawn]


def test_a_table_broken_sends_no_player_to_a_table_cut_off() -> None:
    """Four tables of 7, table 1 cut off: a bust at table 2 leaves 27, table 4 is broken into tables 2 and 3
    (their 7 free seats), none of its players sent to table 1, which has seats too but cannot hear it."""
    t = started("pouques-2020", 28, 4)
    t.table_unreachable(1)
    start(t, 2, 10.0)
    out = end(t, 2, 20.0, busts=[min(t.state.tables[2].seats)])
    assert [e.table for e in out if isinstance(e, TableBroken)] == [4]
    assert sorted({e.to_table for e in out if isinstance(e, MoveOrdered)}) == [2, 3]
    assert t.state.counts() == {1: 7, 2: 10, 3: 10}


def test_a_table_cut_off_during_its_hand_is_waited_for() -> None:
    """Table 1 is cut off in the middle of a hand; two busts at table 2 would take a player from it (10
    against 8): the floor says it waits for table 1, in hand or not."""
    t = started("pouques-2020", 20, 2)
    start(t, 1, 10.0)
    t.table_unreachable(1)
    start(t, 2, 30.0)
    end(t, 2, 40.0, busts=sorted(t.state.tables[2].seats)[:2])
    assert t.state.tables[1].in_hand and t.waiting_for() == {1}


def test_a_final_table_due_at_the_start_waits_for_a_table_cut_off_and_not_before() -> None:
    """8 players drawn on two tables (the TD's choice) fit the final table: the floor draws it once the
    tournament has started, not before; so it does not wait for a table cut off before the start."""
    fresh = Tournament(name="test", ruleset="cdc-2013", structure=STRUCTURE, now=0.0, rng=random.Random(1))
    for i in range(8):
        fresh.register(f"p{i}", 0.0)
    fresh.draw_seats(0.0, tables=2)
    fresh.table_unreachable(1)
    assert fresh.waiting_for() == set() and fresh.snapshot(1.0)["floor_waits"] == {}
    fresh.start(2.0)
    assert fresh.waiting_for() == {1}


def test_a_short_table_deals_on_once_the_table_that_would_give_it_a_player_is_cut_off() -> None:
    """cdc 3.3: three busts at table 2 while table 1 plays a hand: table 2 (7 against 10) stops until a player
    comes from table 1. Table 1 is then cut off: no player can come, so table 2 deals on, and the clock's
    snapshot no longer shows it stopped."""
    t = started("cdc-2013", 20, 2)
    start(t, 1, 10.0)
    start(t, 2, 10.0)
    end(t, 2, 20.0, busts=sorted(t.state.tables[2].seats)[:3])
    tables = t.snapshot(30.0)["tables"]
    assert not t.can_start_hand(2, 30.0) and tables["2"]["stopped"]
    t.table_unreachable(1)
    tables = t.snapshot(40.0)["tables"]
    assert t.can_start_hand(2, 40.0) and not tables["2"]["stopped"]
