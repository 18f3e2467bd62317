"""Seat draw (pouques 21, cdc 3.1), first button (pouques 23), final-table redraw (pouques 40,
cdc 3.6, cpt87 3.3) and payouts (pouques 81)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from floor_helpers import STRUCTURE, end, start, started
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_sim import play

from hub.tournament.events import ButtonDrawn, FinalTableDrawn
from hub.tournament.results import POUQUES_PAYOUTS, Standing, prizes
from hub.tournament.seating import draw_seats
from hub.tournament.tournament import Tournament


@pytest.mark.parametrize("seed", range(20))
def test_83_players_seat_on_9_tables_within_one_player(seed: int) -> None:
    t = started("pouques-2020", 83, 9, seed=seed)
    sizes = sorted(len(tb.seats) for tb in t.state.tables.values())
    assert sizes == [9] * 7 + [10] * 2
    seats = [(p.table, p.seat) for p in t.state.players.values()]
    assert len(set(seats)) == 83 and all(1 <= s <= 10 for _, s in seats)


def test_the_draw_is_random_but_reproducible() -> None:
    names = [f"p{i}" for i in range(83)]
    a = draw_seats(names, list(range(1, 10)), 10, random.Random(1))
    b = draw_seats(names, list(range(1, 10)), 10, random.Random(1))
    c = draw_seats(names, list(range(1, 10)), 10, random.Random(2))
    assert a == b and a != c


def test_pouques_one_button_seat_number_for_every_table() -> None:
    t = started("pouques-2020", 40, 4)
    drawn = [e for e in t.events if isinstance(e, ButtonDrawn)]
    assert len(drawn) == 1 and drawn[0].table == 0 and drawn[0].article == "pouques-2020 23"
    assert len({tb.button for tb in t.state.tables.values()}) == 1


def test_cdc_button_drawn_per_table_among_occupied_seats() -> None:
    t = started("cdc-2013", 40, 4)
    drawn = [e for e in t.events if isinstance(e, ButtonDrawn)]
    assert sorted(e.table for e in drawn) == [1, 2, 3, 4]
    assert all(e.seat in t.state.tables[e.table].seats for e in drawn)


def bust_to_the_final(t: Tournament) -> None:
    """Hands at both tables, one player out at table 1 each time, until one table is left."""
    now = 10.0
    while len(t.state.tables) > 1:
        now += 10
        start(t, 1, now)
        start(t, 2, now)
        end(t, 1, now + 1, busts=[min(t.state.tables[1].seats)])
        if len(t.state.tables) > 1:
            end(t, 2, now + 2)


@pytest.mark.parametrize(("ruleset", "final_size"), [("pouques-2020", 9), ("cdc-2013", 9),
                                                      ("cpt87", 10), ("brest-2011", 10)])
def test_final_table_is_redrawn_at_the_ruleset_size(ruleset: str, final_size: int) -> None:
    t = started(ruleset, 20, 2, seed=3)
    bust_to_the_final(t)
    final = [e for e in t.events if isinstance(e, FinalTableDrawn)]
    assert len(final) == 1 and len(final[0].seats) == final_size
    assert len(t.state.alive()) == final_size
    assert t.state.final_table == 1 and set(t.state.tables) == {1}
    seats = [seat for _, seat in final[0].seats]
    assert len(set(seats)) == final_size
    button = [e for e in t.events if isinstance(e, ButtonDrawn)][-1]
    assert button.table == 1 and button.seat in seats  # pouques 40: button drawn at the final


def test_120_entries_pay_15_places_of_96_percent() -> None:
    """pouques 81: 96 % of 120 x 350 EUR = 40,320 EUR, 15 places with the listed percentages."""
    amounts = POUQUES_PAYOUTS.payouts(120, 35_000)
    assert POUQUES_PAYOUTS.prize_pool(120, 35_000) == 4_032_000
    percents = [22.5, 16, 12, 9.5, 8, 6.5, 5, 4, 3, 2.5, 2.5, 2.5, 2, 2, 2]
    assert list(amounts) == [round(4_032_000 * p / 100) for p in percents]
    assert amounts[0] == 907_200 and amounts[14] == 80_640 and sum(amounts) == 4_032_000


def test_119_entries_pay_12_places() -> None:
    amounts = POUQUES_PAYOUTS.payouts(119, 35_000)
    pool = 119 * 35_000 * 96 // 100
    assert pool == 3_998_400 and len(amounts) == 12 and sum(amounts) == pool
    assert amounts[1] == 3_998_400 * 1745 // 10_000  # 17,45 %
    assert amounts[11] == 3_998_400 * 281 // 10_000  # 2,81 %


def test_ex_aequo_players_share_the_prizes_of_their_places() -> None:
    table = [Standing(1, "a"), Standing(2, "b"), Standing(3, "c", 2), Standing(3, "d", 2)]
    table += [Standing(place, f"x{place}") for place in range(5, 121)]  # the whole field of 120
    won = prizes(POUQUES_PAYOUTS, 120, 35_000, table)
    assert won["c"] == won["d"] == (483_840 + 383_040) // 2


def test_a_120_entry_event_shows_its_payouts_on_the_clock_screen() -> None:
    t = started("pouques-2020", 120, 12, buy_in_cents=35_000)
    snap = t.snapshot(0.0)
    assert snap["entries"] == 120 and snap["players_left"] == 120
    assert snap["prize_pool_cents"] == 4_032_000
    assert snap["payouts_cents"] == list(POUQUES_PAYOUTS.payouts(120, 35_000))
    assert snap["average_stack"] == 10_000
    tables = snap["tables"]
    assert isinstance(tables, dict) and len(tables) == 12
    assert Counter(t.state.counts().values()) == {10: 12}


@settings(max_examples=200, deadline=None)
@given(players=st.integers(2, 400), seats=st.integers(2, 10), seed=st.integers(0, 2**32))
def test_any_draw_is_balanced_within_one(players: int, seats: int, seed: int) -> None:
    tables = -(-players // seats)
    draw = draw_seats([f"p{i}" for i in range(players)], list(range(1, tables + 1)), seats, random.Random(seed))
    sizes = Counter(table for _, table, _ in draw)
    assert max(sizes.values()) - min(sizes.values()) <= 1 and len(sizes) == tables
    assert len({(table, seat) for _, table, seat in draw}) == players
    assert all(1 <= seat <= seats for _, _, seat in draw)


def test_a_simulated_120_entry_pouques_event_pays_15_places_in_full() -> None:
    t, _ = play("pouques-2020", players=120, tables=12, seed=4)
    won = t.prizes()
    assert sum(won.values()) == 4_032_000
    assert won[t.standings()[0].player] == 907_200
    # This seed busts two players at two tables in the same hand-for-hand round at the bubble:
    # ex aequo 15th, they share the 15th and 16th prizes (2 % + 0).
    tied = [s for s in t.standings() if s.tied > 1]
    assert [s.place for s in tied] == [15, 15] and len(won) == 16
    assert all(won[s.player] == 80_640 // 2 for s in tied)


def test_a_final_table_never_seats_more_than_the_tables_have_seats() -> None:
    """cpt87 3.3 seats 10 at the final of a 9-handed tournament; tables whose readers have nine seats
    cannot deal a tenth (a club night blocked on "no antenna for seat:10"): the final is 9-handed."""
    t = Tournament(name="test", ruleset="cpt87", structure=STRUCTURE, now=0.0, rng=random.Random(3),
                   seats_per_table=9)
    for i in range(18):
        t.register(f"p{i:03d}", 0.0)
    t.draw_seats(0.0, tables=2)
    t.start(0.0)
    bust_to_the_final(t)
    final = [e for e in t.events if isinstance(e, FinalTableDrawn)]
    assert len(final) == 1 and len(final[0].seats) == 9
    assert all(1 <= seat <= 9 for _, seat in final[0].seats) and max(t.state.tables[1].seats) <= 9
