"""No hand ever stalls, whatever the panels allow, under each ruleset (see tests/rules/no_stall.py).

A new seed every run (printed, and named in any failure: replay it with
`python -m tests.rules.no_stall --seed SEED`). CI plays a bounded number of hands per ruleset; the
documented large run is `python -m tests.rules.no_stall --hands 5000` (docs/rules-coverage.md).
"""

from __future__ import annotations

import os
import random

import pytest

from hub.rules import RULESETS
from tests.rules import no_stall

SEED = int(os.environ.get("TAPIS_SEED") or random.SystemRandom().randrange(2**32))
HANDS = int(os.environ.get("TAPIS_NO_STALL_HANDS", "300"))


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_random_hands_never_stall(ruleset: str) -> None:
    print(f"seed {SEED} (TAPIS_SEED={SEED} replays it)")
    stats = no_stall.run(ruleset, HANDS, SEED)
    assert stats.hands == HANDS
    assert stats.ends.get("showdown", 0) and stats.ends.get("uncontested", 0)  # the hands do vary
    assert stats.refused  # refusals are exercised, each one's message checked


def test_a_stall_is_reported_with_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness can fail: an engine that refuses every call is caught, naming the seed."""
    from hub.room.game import TableGame

    real = TableGame.action

    def refusing(self: TableGame, seat: int, action: str, to: int | None) -> object:
        if action == "call":
            action = "check"  # refused whenever a bet is owed
        return real(self, seat, action, to)

    monkeypatch.setattr(TableGame, "action", refusing)
    with pytest.raises(no_stall.Stall, match="seed 7 "):
        no_stall.run("cdc-2013", 50, 7)
