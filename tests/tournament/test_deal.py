"""A deal at the final table (issue #30, payouts): chip chop and ICM, worked out by hand, every cent paid;
the floor records the deal the TD confirms and pays it whatever places follow."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any, cast

import pytest

from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.tournament.deal import chip_chop, icm
from hub.tournament.structure import pouques_2020, to_toml


def test_chip_chop_gives_each_the_last_prize_and_the_rest_by_chips() -> None:
    # 1,000 / 600 / 400 EUR to play; 50 %, 30 %, 20 % of the chips: 400 each sure, 800 by chips
    assert chip_chop({"a": 50_000, "b": 30_000, "c": 20_000}, [100_000, 60_000, 40_000]) == {
        "a": 80_000, "b": 64_000, "c": 56_000}


def icm_by_every_order(chips: dict[str, int], prizes: list[int]) -> dict[str, float]:
    """Malmuth-Harville written out: every finishing order's chance, the slow way."""
    out = dict.fromkeys(chips, 0.0)
    for order in itertools.permutations(chips):
        p, left = 1.0, sum(chips.values())
        for name in order:
            p *= chips[name] / left
            left -= chips[name]
        for place, name in enumerate(order):
            out[name] += p * prizes[place]
    return out


def test_icm_equals_every_finishing_order_weighed() -> None:
    rng = random.Random(4)
    for _ in range(30):
        n = rng.randint(2, 6)
        chips = {f"p{i}": rng.randint(1, 100_000) for i in range(n)}
        prizes = sorted((rng.randint(0, 500_000) for _ in range(n)), reverse=True)
        got = icm(chips, prizes)
        slow = icm_by_every_order(chips, prizes)
        assert sum(got.values()) == sum(prizes)  # every cent
        assert all(abs(got[name] - slow[name]) <= 1 for name in chips), (got, slow)


def test_icm_of_two_players_and_equal_stacks() -> None:
    assert icm({"a": 3_000, "b": 1_000}, [10_000, 6_000]) == {"a": 9_000, "b": 7_000}  # 6,000 + 4,000 x 3/4
    assert icm({"a": 5, "b": 5, "c": 5}, [600, 300, 0]) == {"a": 300, "b": 300, "c": 300}


def test_a_deal_needs_two_to_ten_players_and_a_prize_each() -> None:
    with pytest.raises(ValueError, match="2 players and 3 prizes"):
        icm({"a": 1, "b": 1}, [3, 2, 1])
    with pytest.raises(ValueError, match="between 2 and"):
        chip_chop({"a": 1}, [1])


def test_the_floor_records_the_deal_and_pays_it_whatever_the_places(tmp_path: Path) -> None:
    with EventStore(str(tmp_path / "t.db")) as store:
        floor = FloorService(store)
        assert floor.execute({"cmd": "new", "name": "x", "ruleset": "cdc-2013", "buy_in_cents": 2_000,
                              "structure_toml": to_toml(pouques_2020()), "payouts": "50,30,20"}, 0.0).ok
        assert floor.execute({"cmd": "register", "players": [f"p{i}" for i in range(10)]}, 0.0).ok
        assert floor.execute({"cmd": "seat"}, 0.0).ok and floor.execute({"cmd": "start"}, 0.0).ok
        for name in [f"p{i}" for i in range(7)]:
            assert floor.execute({"cmd": "eliminate", "player": name}, 1.0).ok
        offer = floor.deal_offer()
        assert offer["total_cents"] == 20_000  # the three places left: 50 + 30 + 20 % of 200 EUR
        rows = cast(list[dict[str, Any]], offer["players"])
        prizes = {str(p["player"]): int(p["icm"]) for p in rows}
        more: dict[str, Any] = {"cmd": "deal", "prizes": {**prizes, "p7": prizes["p7"] + 1}, "method": "icm"}
        wrong = floor.execute(more, 2.0)
        assert not wrong.ok and "20000 cents" in str(wrong.error)
        less: dict[str, Any] = {"cmd": "deal", "prizes": {**prizes, "p7": prizes["p7"] - 1}, "method": "icm"}
        short = floor.execute(less, 2.0)  # a cent left unpaid is refused too
        assert not short.ok and "20000 cents" in str(short.error) and "19999" in str(short.error)
        deal: dict[str, Any] = {"cmd": "deal", "prizes": prizes, "method": "icm"}
        done = floor.execute(deal, 2.0)
        assert done.ok and done.events == ["DealAgreed"] and isinstance(done.data.get("undo"), int)
        assert floor.execute({"cmd": "eliminate", "player": "p9"}, 3.0).ok  # the play goes on for the title
        won = floor.prizes()
        assert {name: won[name] for name in prizes} == prizes and sum(won.values()) == 20_000
        rebuilt = FloorService.open(store)
        assert rebuilt.prizes() == won
