"""The live game rules out of turn, Time and short bets in the betting engine (`hub.rules`, articles
from `Ruleset.articles`), not through `hub.rulings` (it ignores those faults from the table: the
engine knows what is pending). The rulings tables still document them (docs/faults.md): both must
cite the same article, or a TD would read two texts for one ruling."""

from __future__ import annotations

import pytest

from hub.rules.rulesets import RULESETS
from hub.rulings.engine import clauses_for
from hub.rulings.model import Decision
from tablewire.faults import FaultKind as K

# (fault kind, decision in the rulings table) -> the engine's topic for the same ruling
SAME = [
    (K.OUT_OF_TURN, Decision.ACTION_BINDING, "out_of_turn"),
    (K.TIME_EXPIRED, Decision.HAND_DEAD, "time"),
    (K.INSUFFICIENT_BET, Decision.COMPLETED_TO_MIN_RAISE, "insufficient_raise"),
    (K.INSUFFICIENT_BET, Decision.TREATED_AS_CALL, "insufficient_raise"),
]


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize(("kind", "decision", "topic"), SAME)
def test_rulings_tables_and_engine_cite_the_same_article(ruleset: str, kind: K, decision: Decision,
                                                         topic: str) -> None:
    tabled = {a for c, a in clauses_for(kind, ruleset) if c.decision is decision}
    assert RULESETS[ruleset].article(topic) in tabled


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_skipped_players_restriction_cites_the_same_article(ruleset: str) -> None:
    tabled = {a for c, a in clauses_for(K.OUT_OF_TURN, ruleset)
              if c.decision in (Decision.CALL_OR_FOLD_ONLY, Decision.TD_DECISION)}
    assert RULESETS[ruleset].article("skipped") in tabled
