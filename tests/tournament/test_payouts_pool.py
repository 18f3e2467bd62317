"""Money paid = pool, always (#15 point 7): every field size, every ruleset's table and the TD's own.

Property tests over the pure payout functions, then the floor and the TD's command line end to end:
pouques-2020 with fewer entries than paid places, cdc-2013 without `--payouts` (refused, never a
0,00 € pool), ex-aequo places whose prize does not split evenly.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.floor.commands import NewTournament
from hub.floor.payouts import parse_payouts
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.td import td_main
from hub.tournament.errors import FloorError
from hub.tournament.policy import floor_policy
from hub.tournament.results import POUQUES_PAYOUTS, PayoutRule, Standing, prizes
from hub.tournament.rulesets import RulesetId
from hub.tournament.structure import pouques_2020, to_toml

RULES: list[PayoutRule] = [r for r in (POUQUES_PAYOUTS, *(floor_policy(rs).payouts for rs in RulesetId)) if r]
TD_TABLES = ["50,30,20", "100", "33.34,33.33,33.33", "40,25,15,10,5,5", "pouques"]
for text in TD_TABLES:
    rule = parse_payouts({"payouts": text, "pool_percent": 87})
    assert rule is not None
    RULES.append(rule)
rules = st.sampled_from(RULES)


def pool_of(rule: PayoutRule, entries: int, buy_in_cents: int) -> int:
    """The prize pool as the rulebook puts it (pouques 81: a share of all the entry fees), worked
    out here and not by the code under test: the whole of the fees, then the share, then the cents
    rounded down once."""
    return entries * buy_in_cents * rule.pool_percent // 100


@given(rules, st.integers(1, 400), st.integers(1, 100_000))
@settings(max_examples=400, deadline=None)
def test_the_places_add_up_to_the_pool(rule: PayoutRule, entries: int, buy_in: int) -> None:
    amounts = rule.payouts(entries, buy_in)
    assert sum(amounts) == pool_of(rule, entries, buy_in) == rule.prize_pool(entries, buy_in)
    assert len(amounts) <= entries and all(a >= 0 for a in amounts)
    assert list(amounts) == sorted(amounts, reverse=True)  # a better place never earns less


@given(rules, st.integers(1, 200), st.integers(1, 50_000), st.data())
@settings(max_examples=300, deadline=None)
def test_every_cent_reaches_a_player_ties_included(rule: PayoutRule, entries: int, buy_in: int,
                                                   data: st.DataObject) -> None:
    """Standings of `entries` players in groups of ex aequo: what they win adds up to the pool."""
    table: list[Standing] = []
    place = 1
    while place <= entries:
        size = data.draw(st.integers(1, min(4, entries - place + 1)))
        table += [Standing(place, f"p{place + i:03d}", size) for i in range(size)]
        place += size
    won = prizes(rule, entries, buy_in, table)
    assert sum(won.values()) == pool_of(rule, entries, buy_in)


@pytest.mark.parametrize("entries", range(1, 14))
def test_pouques_small_fields_pay_the_whole_pool(entries: int) -> None:
    paid = POUQUES_PAYOUTS.payouts(entries, 10_000)
    assert sum(paid) == entries * 9_600 and len(paid) == min(entries, 12)


def test_pouques_three_entries_pay_288_euros() -> None:
    table = [Standing(1, "a"), Standing(2, "b"), Standing(3, "c")]
    assert sum(prizes(POUQUES_PAYOUTS, 3, 10_000, table).values()) == 28_800


def test_a_buy_in_with_cents_loses_no_cent_of_the_pool() -> None:
    """Three entries of 33,33 €, 96 % to the pool: 95,9904 € -> 95,99 €. Rounded per entry it
    would be 3 x 31,99 € = 95,97 €, two cents lost."""
    assert POUQUES_PAYOUTS.prize_pool(3, 3_333) == 9_599
    assert sum(POUQUES_PAYOUTS.payouts(3, 3_333)) == 9_599
    table = [Standing(1, "a"), Standing(2, "b"), Standing(3, "c")]
    assert sum(prizes(POUQUES_PAYOUTS, 3, 3_333, table).values()) == 9_599


def test_places_are_paid_only_as_far_as_there_are_players() -> None:
    """Ten entries, 12 places in the table: with three players left to rank, three places share
    the whole pool; none left, nothing; a pool of nothing (a free tournament) pays no place."""
    pool = pool_of(POUQUES_PAYOUTS, 10, 10_000)
    three = POUQUES_PAYOUTS.payouts(10, 10_000, players=3)
    assert len(three) == 3 and sum(three) == pool
    assert POUQUES_PAYOUTS.payouts(10, 10_000, players=0) == ()
    assert POUQUES_PAYOUTS.payouts(10, 0) == ()
    table = [Standing(1, "a"), Standing(2, "b"), Standing(3, "c")]
    won = prizes(POUQUES_PAYOUTS, 10, 10_000, table)
    assert set(won) == {"a", "b", "c"} and sum(won.values()) == pool


def _new(ruleset: str, payouts: str = "ruleset", buy_in_cents: int = 5_000) -> NewTournament:
    return NewTournament(name="t", ruleset=ruleset, structure_toml=to_toml(pouques_2020()),
                         buy_in_cents=buy_in_cents, payouts=payouts, seed=1)


def test_a_ruleset_without_a_table_needs_the_tds() -> None:
    with EventStore(":memory:") as store:
        with pytest.raises(FloorError, match="no payout table"):
            FloorService(store).create(_new("cdc-2013"), 0.0)
        assert store.count_tournament_events() == 0
    with EventStore(":memory:") as store:  # a free tournament has nothing to pay
        FloorService(store).create(_new("cdc-2013", buy_in_cents=0), 0.0)


def test_cli_refuses_cdc_without_payouts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "c.db")
    assert td_main(["new", "--ruleset", "cdc-2013", "--structure", "pouques", "--buy-in", "50", "--db", db]) == 2
    assert "no payout table" in capsys.readouterr().err


@pytest.mark.parametrize("ruleset,payouts", [("pouques-2020", "ruleset"), ("cdc-2013", "50,30,20"),
                                             ("brest-2011", "pouques"), ("cpt87", "60,40")])
def test_results_pay_the_pool_with_three_entries(ruleset: str, payouts: str) -> None:
    with EventStore(":memory:") as store:
        floor = FloorService(store)
        floor.create(_new(ruleset, payouts, 10_000), 0.0)
        for cmd in ({"cmd": "register", "players": ["a", "b", "c"]}, {"cmd": "seat"}, {"cmd": "start"}):
            assert floor.execute(cmd, time.time()).ok  # type: ignore[arg-type]
        # places are paid once won: the players still in have none until the last one is left (issue 18)
        assert not any(row["prize_cents"] for row in cast(list[dict[str, int]], floor.results()["ranking"]))
        for player in ("a", "b"):
            assert floor.execute({"cmd": "eliminate", "player": player}, time.time()).ok
        results = floor.results()
        paid = sum(row["prize_cents"] for row in cast(list[dict[str, int]], results["ranking"]))
        assert paid == cast(int, results["prize_pool_cents"]) > 0
        snap = floor.snapshot(0.0)
        assert sum(snap["payouts_cents"]) == snap["prize_pool_cents"]  # type: ignore[arg-type]
