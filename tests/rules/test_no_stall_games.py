"""No hand of the other games ever stalls either (tests/rules/no_stall.py): pot-limit refusals and
corrections always leave a way forward, and every refusal reads in French and English."""

from __future__ import annotations

import os
import random

import pytest

from tests.rules import no_stall

SEED = int(os.environ.get("TAPIS_SEED") or random.SystemRandom().randrange(2**32))
HANDS = int(os.environ.get("TAPIS_NO_STALL_HANDS", "300")) // 3


@pytest.mark.parametrize("game", ["plo", "plo5", "short_deck"])
def test_random_hands_of_the_game_never_stall(game: str) -> None:
    print(f"seed {SEED} (TAPIS_SEED={SEED} replays it)")
    stats = no_stall.run("cpt87", HANDS, SEED, game=game)
    assert stats.hands == HANDS
    assert stats.ends.get("showdown", 0) and stats.refused
    if game.startswith("plo"):
        assert stats.reasons.get("above_pot_limit", 0) > 0  # the dial went above the pot, and the hand went on
