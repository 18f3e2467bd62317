"""Eliminations and ranking (cdc 2.9-2.10, pouques 82), hand for hand (pouques 39, brest I.12),
leaving without notice (pcpm, cpt87 2.12), chip race (cdc 4.2, brest X) and heads-up (pouques §G)."""

from __future__ import annotations

import random

import pytest
from floor_helpers import end, start, started

from hub.tournament.errors import FloorError
from hub.tournament.events import (
    ChipsColouredUp,
    FinalTableDrawn,
    HandForHandEnded,
    HandForHandStarted,
    HeadsUpStarted,
    PlayerRemoved,
    RemovalReason,
)
from hub.tournament.results import ChipRaceRounding, Standing, chip_race
from hub.tournament.structure import pouques_2020
from hub.tournament.tournament import Tournament


def set_stacks(t: Tournament, table: int, now: float, wanted: dict[int, int]) -> None:
    """Play a hand whose result gives `wanted` seats these stacks (the rest to another seat)."""
    start(t, table, now)
    tb = t.state.tables[table]
    chips = {seat: t.state.players[name].chips for seat, name in tb.seats.items()}
    spare = max(s for s in chips if s not in wanted)
    for seat, value in wanted.items():
        chips[spare] += chips[seat] - value
        chips[seat] = value
    end(t, table, now + 1, stacks=chips)


def place_of(t: Tournament, name: str) -> Standing:
    return next(s for s in t.standings() if s.player == name)


def test_same_hand_eliminations_ranked_by_stack_at_the_start_of_the_hand() -> None:
    """cdc 2.10: the bigger stack at the start of the hand finishes better; equal stacks tie."""
    t = started("cdc-2013", 18, 2)
    a, b, c, d = sorted(t.state.tables[1].seats)[:4]
    set_stacks(t, 1, 10.0, {a: 3000, b: 5000, c: 4000, d: 4000})
    names = {s: t.state.tables[1].seats[s] for s in (a, b, c, d)}
    start(t, 1, 20.0)
    end(t, 1, 21.0, busts=[a, b, c, d])
    assert place_of(t, names[b]) == Standing(15, names[b])
    assert place_of(t, names[c]).place == place_of(t, names[d]).place == 16
    assert place_of(t, names[c]).tied == 2
    assert place_of(t, names[a]) == Standing(18, names[a])


@pytest.mark.parametrize(("ruleset", "by_stack"), [("cdc-2013", True), ("brest-2011", False)])
def test_hand_for_hand_eliminations_across_tables(ruleset: str, by_stack: bool) -> None:
    """cdc 2.10: at the bubble, ranked by starting stack; elsewhere different tables tie."""
    t = started(ruleset, 20, 2, paid_places=18)
    s1, s2 = min(t.state.tables[1].seats), min(t.state.tables[2].seats)
    small, big = t.state.tables[1].seats[s1], t.state.tables[2].seats[s2]
    set_stacks(t, 1, 10.0, {s1: 2000})
    set_stacks(t, 2, 12.0, {s2: 8000})
    t.start_hand_for_hand(20.0)
    start(t, 1, 30.0)
    start(t, 2, 30.0)
    end(t, 1, 31.0, busts=[s1])
    with pytest.raises(FloorError, match="hand for hand"):
        t.hand_started(1, t.state.tables[1].hand_no + 1, 32.0)
    end(t, 2, 33.0, busts=[s2])
    if by_stack:
        assert (place_of(t, big).place, place_of(t, small).place) == (19, 20)
    else:
        assert place_of(t, big) == Standing(19, big, 2) and place_of(t, small) == Standing(19, small, 2)
    assert t.can_start_hand(1, 34.0)  # the next round opens once both tables are done


def test_pouques_plays_hand_for_hand_one_place_before_each_prize_jump() -> None:
    """pouques 39 with 20 entries (12 paid, 81): at 13 (bubble) and 10 (2.81 % -> 3.61 %) left."""
    t = started("pouques-2020", 20, 2, buy_in_cents=35_000)
    now, seen = 10.0, []
    while t.state.final_table is None:
        now += 10
        ready = [n for n in sorted(t.state.tables) if t.can_start_hand(n, now)]
        for n in ready:
            start(t, n, now)
        for n in ready:
            bust = [min(t.state.tables[n].seats)] if n == 1 and len(t.state.alive()) > 9 else []
            for e in end(t, n, now + 1, busts=bust):
                if isinstance(e, (HandForHandStarted, HandForHandEnded, FinalTableDrawn)):
                    seen.append((type(e).__name__, len(t.state.alive())))
    assert seen == [("HandForHandStarted", 13), ("HandForHandEnded", 12),
                    ("HandForHandStarted", 10), ("FinalTableDrawn", 9)]


@pytest.mark.parametrize("ruleset", ["pcpm", "cpt87"])
def test_leaving_without_notice_ranks_last(ruleset: str) -> None:
    t = started(ruleset, 18, 2)
    first, second, told = "p001", "p002", "p003"
    total = t.state.chips_total
    t.player_left(first, 5.0, notified=False)
    t.player_left(second, 6.0, notified=False)
    t.player_left(told, 7.0, notified=True)  # ranked when he leaves, chips removed
    places = {s.player: s.place for s in t.standings()}
    assert places[first] == 18 and places[second] == 17  # cpt87 2.12: the later one just before
    assert places[told] == 16
    assert t.state.chips_total == total - 30_000 == t.chips_in_play()


def test_cdc_leaving_without_notice_keeps_the_stack_in_play() -> None:
    """cdc 2.9: chips stay, the blinds go round, he is out when the stack is gone."""
    t = started("cdc-2013", 18, 2)
    p = t.state.players["p004"]
    events = t.player_left("p004", 5.0, notified=False)
    assert not [e for e in events if isinstance(e, PlayerRemoved)]
    table = p.table
    assert table is not None
    start(t, table, 10.0)
    assert p.seat in t.dead_seats(table) and p.chips == 10_000


def test_chip_race_cdc_rounds_from_half_a_chip_and_nobody_is_eliminated() -> None:
    stacks = {"a": 1025, "b": 1025, "c": 25}
    cards = {"a": ["Kh"], "b": ["Ks"], "c": ["2c"]}
    result = chip_race(25, 100, stacks, {"a": 1, "b": 1, "c": 1}, cards, ChipRaceRounding.HALF_UP, 100)
    assert result.big_chips == 1 and result.winners == ("b",)  # 75 of 100: rounds up
    assert result.new_stacks == {"a": 1000, "b": 1100, "c": 100}  # c keeps one chip (cdc 4.2)
    low = chip_race(25, 100, {"a": 1025, "b": 1000}, {"a": 1}, {"a": ["2c"]}, ChipRaceRounding.HALF_UP, 100)
    assert low.big_chips == 0 and low.new_stacks["a"] == 1000  # 25 of 100: rounds down
    up = chip_race(25, 100, {"a": 1025, "b": 1000}, {"a": 1}, {"a": ["2c"]}, ChipRaceRounding.ALWAYS_UP, 100)
    assert up.big_chips == 1 and up.new_stacks["a"] == 1100  # brest X.5: always up


def test_chip_race_one_chip_per_player_and_suit_order() -> None:
    result = chip_race(25, 100, {"a": 575, "b": 575, "c": 550},
                       {"a": 3, "b": 3, "c": 2}, {"a": ["As", "Ah", "2c"], "b": ["Kd", "3c", "4c"],
                                                   "c": ["Kh", "5c"]}, ChipRaceRounding.HALF_UP, 100)
    assert result.big_chips == 2  # 200 of 100: two chips
    assert result.winners == ("a", "c")  # a once only (brest X.4); K♥ beats K♦ (brest X.3)


def test_chip_race_through_the_aggregate_keeps_the_books() -> None:
    t = started("cdc-2013", 18, 2)
    names = list(t.state.tables[1].seats.values())[:3]
    events = t.chip_race(1, 25, 100, {names[0]: 1, names[1]: 2, names[2]: 1}, 5.0)
    race = [e for e in events if isinstance(e, ChipsColouredUp)][0]
    assert race.article == "cdc-2013 4.2" and len(race.winners) == 1
    assert t.chips_in_play() == t.state.chips_total == 180_000 - 100 + 100


def test_heads_up_switches_to_20_minute_levels_without_antes() -> None:
    """pouques §G: from heads-up, 20-minute levels and no antes."""
    t = Tournament(name="hu", ruleset="pouques-2020", structure=pouques_2020(), now=0.0, rng=random.Random(1))
    for name in ("a", "b", "c"):
        t.register(name, 0.0)
    t.draw_seats(0.0)
    t.start(0.0)
    t.jump_to_level(3, 60.0)
    assert t.hand_started(1, 1, 61.0).ante == 25
    seats = sorted(t.state.tables[1].seats)
    events = end(t, 1, 62.0, busts=[seats[-1]])
    assert [e for e in events if isinstance(e, HeadsUpStarted)]
    level = t.hand_started(1, 2, 63.0)
    assert (level.number, level.big_blind, level.ante) == (3, 300, 0)
    snap = t.snapshot(63.0)
    assert snap["ante"] == 0 and snap["time_left"] == 20 * 60.0 - 1 and snap["heads_up"] is True


def test_removal_reasons_are_recorded() -> None:
    t = started("cpt87", 18, 2)
    t.player_left("p000", 5.0, notified=False)
    removed = [e for e in t.events if isinstance(e, PlayerRemoved)]
    assert removed[0].reason is RemovalReason.LEFT_WITHOUT_NOTICE and removed[0].article == "cpt87 2.12"


def test_hand_for_hand_a_player_disqualified_during_the_round_ranks_above_its_busts() -> None:
    """Hand for hand, the round's busts go out together (one group, cdc 2.10), from its first bust on: a
    player disqualified during the round, after its first bust and before its last, ranks above them all."""
    from hub.tournament.penalties import PenaltyKind

    t = started("cdc-2013", 20, 2)
    t.start_hand_for_hand(5.0)
    start(t, 1, 10.0)
    start(t, 2, 10.0)
    seats = sorted(t.state.tables[2].seats)
    first, gone = t.state.tables[2].seats[seats[0]], t.state.tables[2].seats[seats[1]]
    end(t, 2, 100.0, busts=[seats[0]])
    t.give_penalty(gone, PenaltyKind.DISQUALIFICATION, 0, 200.0)
    last = t.state.tables[1].seats[min(t.state.tables[1].seats)]
    end(t, 1, 300.0, busts=[min(t.state.tables[1].seats)])
    places = {s.player: (s.place, s.tied) for s in t.standings()}
    assert (places[gone], places[first], places[last]) == ((18, 1), (19, 2), (19, 2))
