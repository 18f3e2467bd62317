"""Registration, late registration and arrivals (cdc 2.8, brest II.1, pouques 9/25, pcpm, cpt87
3.4), re-entry (pouques 7/22), wait-list (brest II.2) and penalties (cdc 12, brest XIII, pcpm,
pouques 49, cpt87 10.1)."""

from __future__ import annotations

import random

import pytest
from floor_helpers import STRUCTURE, end, start, started

from hub.tournament.errors import PenaltyError, RegistrationError, TournamentError
from hub.tournament.events import PenaltyGiven, PlayerRemoved, RemovalReason, SeatDrawn, WaitListEntered
from hub.tournament.penalties import PenaltyKind
from hub.tournament.results import wait_list_stack
from hub.tournament.structure import Break, Level, Structure
from hub.tournament.tournament import Tournament

MIN = 60.0


def test_brest_wait_list_stack_formula() -> None:
    """brest II.2: start stack - (SB + BB) of the round in play - 3 BB per completed round."""
    levels = (Level(1, 25, 50, 20), Level(2, 50, 100, 20), Level(3, 100, 200, 20), Level(4, 150, 300, 20))
    assert wait_list_stack(10_000, levels, 1) == 10_000 - 75
    assert wait_list_stack(10_000, levels, 3) == 10_000 - 300 - 3 * (50 + 100) == 9250
    assert wait_list_stack(10_000, levels, 4) == 10_000 - 450 - 3 * 350 == 8500


def test_brest_wait_list_player_enters_after_an_elimination() -> None:
    t = started("brest-2011", 18, 2)
    t.join_wait_list("w1", 1.0)
    with pytest.raises(RegistrationError):
        t.seat_from_wait_list(2.0)  # nobody is out yet
    t.tick(61 * MIN)  # level 3 (30-minute levels): 75/150
    start(t, 1, 61 * MIN)
    end(t, 1, 61 * MIN + 5, busts=[min(t.state.tables[1].seats)])
    events = t.seat_from_wait_list(61 * MIN + 10)
    entered = [e for e in events if isinstance(e, WaitListEntered)][0]
    assert entered.stack == 10_000 - (75 + 150) - 3 * (50 + 100) == 9325
    assert t.state.players["w1"].chips == 9325 and t.state.entries == 19
    assert t.chips_in_play() == t.state.chips_total == 18 * 10_000 + 9325


def test_no_wait_list_outside_brest() -> None:
    t = started("cdc-2013", 18, 2)
    with pytest.raises(RegistrationError):
        t.join_wait_list("w1", 1.0)


def test_pouques_reentry_once_within_six_levels() -> None:
    t = started("pouques-2020", 20, 2)
    name = t.state.tables[1].seats[min(t.state.tables[1].seats)]
    start(t, 1, 10.0)
    end(t, 1, 11.0, busts=[min(t.state.tables[1].seats)])
    assert t.snapshot(11.5)["reentries"] == 0  # the clock's count, kept until an entry is taken
    events = t.reenter(name, 12.0)
    assert t.snapshot(12.5)["reentries"] == 1
    assert [e for e in events if isinstance(e, SeatDrawn)][0].chips == 10_000
    assert t.state.entries == 21 and t.state.players[name].alive
    table = t.state.players[name].table
    assert table is not None
    start(t, table, 20.0)
    end(t, table, 21.0, busts=[t.state.players[name].seat or 0])
    with pytest.raises(RegistrationError, match="re-entry"):
        t.reenter(name, 22.0)
    assert sum(1 for s in t.standings() if s.player == name) == 1


def test_pouques_reentry_closes_after_level_6() -> None:
    t = started("pouques-2020", 20, 2)
    start(t, 1, 10.0)
    name = t.state.tables[1].seats[min(t.state.tables[1].seats)]
    end(t, 1, 11.0, busts=[min(t.state.tables[1].seats)])
    t.tick(6 * 30 * MIN + 1)
    with pytest.raises(RegistrationError, match="closed"):
        t.reenter(name, 6 * 30 * MIN + 2)


def test_no_reentry_in_a_freezeout() -> None:
    t = started("cdc-2013", 18, 2)
    start(t, 1, 10.0)
    name = t.state.tables[1].seats[min(t.state.tables[1].seats)]
    end(t, 1, 11.0, busts=[min(t.state.tables[1].seats)])
    with pytest.raises(RegistrationError, match="freezeout"):
        t.reenter(name, 12.0)


def test_pouques_late_registration_for_six_levels() -> None:
    """pouques 9: on-site registration for 6 more levels, seat drawn by the TD."""
    t = started("pouques-2020", 20, 2)
    events = t.register("late", 5 * 30 * MIN)
    seat = [e for e in events if isinstance(e, SeatDrawn)][0]
    assert seat.chips == 10_000 and seat.table == 3  # both tables are full: a new one opens
    assert sorted(t.state.counts().values()) == [7, 7, 7]  # and the floor balances it at once
    t.tick(6 * 30 * MIN + 1)
    with pytest.raises(RegistrationError, match="closed"):
        t.register("later", 6 * 30 * MIN + 2)


def test_cdc_no_late_registration() -> None:
    t = started("cdc-2013", 18, 2)
    with pytest.raises(RegistrationError):
        t.register("late", 60.0)
    with pytest.raises(RegistrationError):
        t.register("p001", 61.0)  # one entry per person


def absent_event(ruleset: str) -> Tournament:
    t = Tournament(name="late", ruleset=ruleset, structure=STRUCTURE, now=0.0, rng=random.Random(3))
    for i in range(16):
        t.register(f"p{i:02d}", 0.0)
    t.register("away", 0.0, present=False)
    t.register("gone", 0.0, present=False)
    t.draw_seats(0.0, tables=2)
    t.start(0.0)
    return t


def test_cdc_late_arrivals_are_blinded_until_the_end_of_level_2() -> None:
    """cdc 2.8: dealt in and blinded while absent; removed once level 2 is over."""
    t = absent_event("cdc-2013")
    away = t.state.players["away"]
    assert away.seat is not None and away.table is not None
    start(t, away.table, 10.0)
    assert away.seat in t.dead_seats(away.table)
    end(t, away.table, 11.0)
    t.player_arrived("away", 30 * MIN)
    start(t, away.table, 30 * MIN)
    assert away.seat not in t.dead_seats(away.table)
    end(t, away.table, 30 * MIN + 1)
    events = t.tick(60 * MIN + 1)
    removed = [e for e in events if isinstance(e, PlayerRemoved)]
    assert [(e.player, e.reason, e.article) for e in removed] == [("gone", RemovalReason.ABSENT, "cdc-2013 2.8")]
    assert t.standings()[-1].player == "gone"
    with pytest.raises(RegistrationError):
        t.player_arrived("gone", 60 * MIN + 2)
    assert t.chips_in_play() == t.state.chips_total


def test_cpt87_late_arrival_gets_a_full_stack_on_arrival() -> None:
    """cpt87 3.4: the late player arrives with a full starting stack (not blinded)."""
    t = absent_event("cpt87")
    assert t.state.players["away"].seat is None
    assert sum(len(tb.seats) for tb in t.state.tables.values()) == 16
    events = t.player_arrived("away", 40 * MIN)
    seat = [e for e in events if isinstance(e, SeatDrawn)][0]
    assert seat.player == "away" and seat.chips == 10_000


def test_brest_absent_after_round_1_replaced_by_the_wait_list() -> None:
    """brest II.1: absent at the end of round 1 are out; a waiting player takes the blinded stack."""
    t = absent_event("brest-2011")
    t.join_wait_list("w", 1.0)
    away = t.state.players["away"]
    seat, table = away.seat, away.table
    start(t, table or 0, 10.0)
    tb = t.state.tables[table or 0]
    chips = {s: t.state.players[n].chips for s, n in tb.seats.items()}
    other = next(s for s in chips if s != seat)
    chips[seat or 0] -= 150  # blinded while absent
    chips[other] += 150
    end(t, table or 0, 11.0, stacks=chips)
    events = t.tick(30 * MIN + 1)
    kinds = [(type(e).__name__, getattr(e, "player", None)) for e in events]
    assert kinds == [("LevelStarted", None), ("PlayerRemoved", "away"), ("WaitListEntered", "w"),
                     ("SeatDrawn", "w"), ("PlayerRemoved", "gone")]
    w = t.state.players["w"]
    assert (w.table, w.seat, w.chips) == (table, seat, 9850)
    # 18 stacks drawn; w takes away's 9,850 in play; gone's 10,000 leave the tournament.
    assert t.chips_in_play() == t.state.chips_total == 18 * 10_000 - 10_000


def test_cdc_penalty_rounds_are_hands_times_players_at_the_table() -> None:
    """cdc 12.1: one hand per player at the table (himself included) per round."""
    t = started("cdc-2013", 18, 2)
    name = "p005"
    p = t.state.players[name]
    at_table = len(t.state.tables[p.table or 0].seats)
    events = t.give_penalty(name, PenaltyKind.MISSED_ROUNDS, 2, 5.0)
    given = [e for e in events if isinstance(e, PenaltyGiven)][0]
    assert given.dead_hands == 2 * at_table == 18 and given.article == "cdc-2013 12.1-12.2"
    with pytest.raises(PenaltyError) as info:
        t.give_penalty(name, PenaltyKind.MISSED_ROUNDS, 5, 6.0)
    assert isinstance(info.value, ValueError) and isinstance(info.value, TournamentError)
    # in the TD's words, never the command's identifiers ("missed_rounds")
    assert str(info.value) == ("tours de pénalité : de 1 à 4, pas 5 (cdc-2013 12.1-12.2) / "
                               "penalty rounds: 1 to 4, not 5 (cdc-2013 12.1-12.2)")
    with pytest.raises(PenaltyError) as info:
        t.give_penalty(name, PenaltyKind.MISSED_HANDS, 2, 6.0)
    assert str(info.value) == (
        "« mains de pénalité » ne figure pas dans l'échelle des sanctions de ce règlement (avertissement, "
        "tours de pénalité, disqualification) / penalty hands is not in this ruleset's hierarchy (warning, "
        "penalty rounds, disqualification)")


def test_a_warning_kills_one_hand_then_the_player_is_dealt_in_again() -> None:
    """cdc 12.2: warning with one hand dealt dead; blinds still taken (the table's job)."""
    t = started("cdc-2013", 18, 2)
    p = t.state.players["p005"]
    assert t.suggested_penalty("p005").kind is PenaltyKind.WARNING
    t.give_penalty("p005", PenaltyKind.WARNING, 0, 5.0)
    assert t.suggested_penalty("p005").kind is PenaltyKind.MISSED_ROUNDS
    table = p.table or 0
    start(t, table, 10.0)
    assert p.seat in t.dead_seats(table)
    end(t, table, 11.0)
    start(t, table, 12.0)
    assert p.seat not in t.dead_seats(table)


def test_brest_suspension_in_minutes_and_pcpm_ladder() -> None:
    t = started("brest-2011", 18, 2)
    p = t.state.players["p005"]
    t.give_penalty("p005", PenaltyKind.SUSPENSION, 20, 5.0)
    table = p.table or 0
    start(t, table, 10.0)
    assert p.seat in t.dead_seats(table)
    end(t, table, 11.0)
    start(t, table, 5.0 + 20 * MIN)
    assert p.seat not in t.dead_seats(table)
    with pytest.raises(PenaltyError):
        t.give_penalty("p006", PenaltyKind.SUSPENSION, 45, 20 * MIN + 10)  # 10 to 40 minutes
    pcpm = started("pcpm", 18, 2)
    with pytest.raises(PenaltyError):
        pcpm.give_penalty("p005", PenaltyKind.MISSED_ROUNDS, 1, 5.0)  # warning, then exclusion
    pcpm.give_penalty("p005", PenaltyKind.WARNING, 0, 5.0)
    assert pcpm.suggested_penalty("p005").kind is PenaltyKind.DISQUALIFICATION


def test_disqualification_removes_the_chips() -> None:
    t = started("cpt87", 18, 2)
    events = t.give_penalty("p007", PenaltyKind.DISQUALIFICATION, 0, 5.0)
    removed = [e for e in events if isinstance(e, PlayerRemoved)][0]
    assert removed.reason is RemovalReason.DISQUALIFIED and removed.chips == 10_000
    assert t.chips_in_play() == t.state.chips_total == 170_000
    assert t.standings()[-1].player == "p007"


def test_a_player_disqualified_after_a_bust_ranks_above_the_bust() -> None:
    """A disqualified player is ranked when he leaves: out after a player who busted, he places above him."""
    t = started("cpt87", 18, 2)
    start(t, 1, 10.0)
    busted = t.state.tables[1].seats[min(t.state.tables[1].seats)]
    end(t, 1, 20.0, busts=[min(t.state.tables[1].seats)])
    gone = next(iter(t.state.tables[2].seats.values()))
    t.give_penalty(gone, PenaltyKind.DISQUALIFICATION, 0, 30.0)
    assert [(s.player, s.place) for s in t.standings()[-2:]] == [(gone, 17), (busted, 18)]


def test_pcpm_absent_stacks_removed_at_the_end_of_the_first_break() -> None:
    """pcpm: absent stacks are blinded, removed at the end of the first break, ranked first out."""
    structure = Structure("pcpm", 10_000, (Level(1, 25, 50, 30), Level(2, 50, 100, 30), Break("pause", 15),
                                           Level(3, 75, 150, 30), Level(4, 100, 200, 30)))
    t = Tournament(name="pcpm", ruleset="pcpm", structure=structure, now=0.0, rng=random.Random(3))
    for i in range(16):
        t.register(f"p{i:02d}", 0.0)
    t.register("gone", 0.0, present=False)
    t.draw_seats(0.0, tables=2)
    t.start(0.0)
    assert not [e for e in t.tick(60 * MIN + 14 * MIN) if isinstance(e, PlayerRemoved)]  # on the break
    removed = [e for e in t.tick(75 * MIN + 1) if isinstance(e, PlayerRemoved)]
    assert [(e.player, e.article) for e in removed] == [("gone", "pcpm retards")]
    assert t.standings()[-1].player == "gone"


def test_a_tick_is_due_exactly_when_it_records() -> None:
    """`tick_due` says when a tick needs the store's write lock (`FloorService.pump` takes it only then):
    at a level's end, and at the late arrivals' deadline passed by the TD's jump to a later level (the
    jump records no removal: the next tick does)."""
    t = absent_event("cdc-2013")
    for now in (10.0, 29 * MIN, 30 * MIN + 1, 31 * MIN):  # level 1 lasts 30 minutes
        assert t.tick_due(now) == bool(t.tick(now)), now
    t.jump_to_level(3, 32 * MIN)
    assert t.tick_due(32 * MIN + 0.2)
    removed = [e.player for e in t.tick(32 * MIN + 0.2) if isinstance(e, PlayerRemoved)]
    assert removed == ["away", "gone"]
    assert not t.tick_due(32 * MIN + 0.4)
    assert not t.tick(32 * MIN + 0.4)


def test_the_clock_shows_a_player_serving_a_penalty_until_his_last_dead_hand_is_over() -> None:
    """The table deals him dead with no incident (one ruling a hand): the players' list says why he sits out."""
    t = started("cdc-2013", 18, 2)
    p = t.state.players["p005"]
    table = p.table or 0

    def status() -> str:
        seats = t.snapshot(t.state.now)["tables"][str(table)]["seats"]
        return str(seats[str(p.seat)]["status"])

    assert status() == "seated"
    t.give_penalty("p005", PenaltyKind.WARNING, 0, 5.0)  # one hand dealt dead (cdc 12.2)
    assert status() == "penalty"
    start(t, table, 10.0)
    assert p.seat in t.dead_seats(table) and status() == "penalty"  # his last dead hand, being played
    end(t, table, 11.0)
    assert status() == "seated"
    t.give_penalty("p005", PenaltyKind.MISSED_ROUNDS, 1, 12.0)
    assert status() == "penalty"
