"""`tapis demo --game plo` / `--game short_deck`: the simulated croupier deals the game's cards and
the hands are played to their end with no fault (four hole cards are no extra card in PLO, a 36-card
deck has no foreign card)."""

import io
import json

import pytest

from simulators.demo import run_demo


@pytest.mark.parametrize("game", ["plo", "short_deck"])
def test_the_demo_deals_the_game(game: str) -> None:
    out = io.StringIO()
    assert run_demo(tables=1, hands=2, as_json=True, pace=0.02, out=out, timeout=120, game=game) == 0
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    assert {e["game"] for e in events if e["type"] == "hand_start"} == {game}
    assert [e for e in events if e["type"] == "fault"] == []
    assert len([e for e in events if e["type"] == "hand_end"]) >= 2
    for end in (e for e in events if e["type"] == "hand_end"):  # chips kept, whoever won
        assert sum(end["stacks"].values()) == 20_000 * len(end["stacks"])


def test_the_demo_offers_only_games_its_croupier_can_deal() -> None:
    from simulators.cli import DEMO_GAMES

    assert "pineapple" not in DEMO_GAMES and "plo" in DEMO_GAMES
