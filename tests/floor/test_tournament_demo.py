"""`tapis demo --tournament`: 60 players on 6 tables played to one winner through the real hub code,
with balancing and table breaks, ending with a ranking whose prizes add up to the prize pool."""

from __future__ import annotations

import io
import json

import pytest

from simulators.tournament_demo import run_tournament_demo


def _lines(players: int, tables: int, ruleset: str, seed: int) -> list[dict[str, object]]:
    out = io.StringIO()
    assert run_tournament_demo(players, tables, ruleset, seed, out, as_json=True) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_sixty_players_to_one_winner_with_payouts() -> None:
    lines = _lines(60, 6, "cdc-2013", 1)
    results = lines[-1]
    assert results["type"] == "results"
    events = [line["event"] for line in lines[:-1]]
    kinds = [e["type"] for e in events]  # type: ignore[index]
    ranking = results["ranking"]
    assert isinstance(ranking, list)
    assert results["players_left"] == 1 and results["entries"] == 60
    assert [row["place"] for row in ranking][0] == 1 and ranking[0]["tied"] == 1
    assert len(ranking) == 60 and len({row["player"] for row in ranking}) == 60
    assert kinds.count("PlayerEliminated") == 59
    # Balancing and breaking happened on the way: 6 tables -> the final table (cdc-2013 3.4, 3.6).
    assert kinds.count("TableBroken") >= 3 and "FinalTableDrawn" in kinds and "MoveOrdered" in kinds
    # A mover is confirmed when dealt in at his new table (one moved twice before that, once).
    assert 0 < kinds.count("MoveConfirmed") <= kinds.count("MoveOrdered")
    # pouques-2020 81 table (the demo's): 96 % of 60 x 50 EUR, 12 places, every cent paid out.
    assert results["prize_pool_cents"] == 288_000
    paid = [row["prize_cents"] for row in ranking if row["prize_cents"]]
    assert len(paid) == 12 and sum(paid) == 288_000
    assert paid[0] == 70_132


@pytest.mark.parametrize("ruleset", ["brest-2011", "pcpm", "cpt87"])
def test_other_rulesets_also_finish(ruleset: str) -> None:
    results = _lines(30, 3, ruleset, 2)[-1]
    assert results["players_left"] == 1
    ranking = results["ranking"]
    assert isinstance(ranking, list) and len(ranking) == 30


def test_text_output_ends_with_the_ranking() -> None:
    out = io.StringIO()
    assert run_tournament_demo(18, 2, "cdc-2013", 3, out) == 0
    text = out.getvalue()
    assert "Classement final (18 entrées" in text
    assert "table finale tirée" in text
    assert text.rstrip().splitlines()[-1].strip().startswith("18 ")
