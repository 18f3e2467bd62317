"""The five seed rulebook files (hub/rulebooks/*.toml) give exactly the structures the Python modules
held before the files replaced them: every Ruleset field and article, every fault kind's clauses,
silent and partial kinds, deadline and substantial article (golden_seeds.json, dumped from the
Python modules at the commit that added the files)."""

from __future__ import annotations

import json
from dataclasses import fields
from enum import Enum
from pathlib import Path

import pytest

import hub.rulebooks as rb
from hub.rules.rulesets import RULESETS, get_ruleset
from hub.rulings.engine import rulings_table
from hub.rulings.model import Substantial
from hub.tournament.policy import floor_policy
from hub.tournament.results import POUQUES_PAYOUTS

GOLDEN = json.loads((Path(__file__).parent / "golden_seeds.json").read_text(encoding="utf-8"))


def plain(v: object) -> object:
    """A frozen structure as JSON values, the way golden_seeds.json was written."""
    if isinstance(v, Enum):
        return v.value
    if isinstance(v, (frozenset, set)):
        return sorted(str(plain(x)) for x in v)
    if isinstance(v, tuple):
        return [plain(x) for x in v]
    if hasattr(v, "items"):
        return {str(plain(k)): plain(x) for k, x in sorted(v.items(), key=lambda kv: str(plain(kv[0])))}
    if hasattr(v, "__dataclass_fields__"):
        return {f.name: plain(getattr(v, f.name)) for f in fields(v)}  # type: ignore[arg-type]
    return v


def test_the_five_seeds_are_known_in_order() -> None:
    assert sorted(GOLDEN) == sorted(rb.SEED_IDS)
    assert tuple(RULESETS)[:5] == rb.SEED_IDS


@pytest.mark.parametrize("rid", rb.SEED_IDS)
def test_file_gives_exactly_the_ruleset(rid: str) -> None:
    loaded = plain(get_ruleset(rid))
    assert isinstance(loaded, dict)
    assert loaded.pop("cite") == {}  # a seed cites only itself
    assert loaded == GOLDEN[rid]["ruleset"]


@pytest.mark.parametrize("rid", rb.SEED_IDS)
def test_file_gives_exactly_the_rulings_table(rid: str) -> None:
    loaded = plain(rulings_table(rid))
    assert isinstance(loaded, dict)
    loaded.pop("substantial")
    want = GOLDEN[rid]["rulings"]
    assert loaded.keys() == want.keys()
    for key in want:  # field by field, every fault kind's clauses
        if key == "table":
            assert loaded[key].keys() == want[key].keys(), rid
            for kind in want[key]:
                assert loaded[key][kind] == want[key][kind], f"{rid} {kind}"
        else:
            assert loaded[key] == want[key], f"{rid} {key}"


def test_substantial_action_rule_of_each_seed() -> None:
    """What `is_substantial` hard-coded per id before the files (cdc 7.7, cpt87 6.6, pouques 48, others)."""
    assert {rid: rulings_table(rid).substantial for rid in rb.SEED_IDS} == {
        "cdc-2013": Substantial.TWO_IN_A_ROW_ONE_WITH_CHIPS_OR_THREE,
        "brest-2011": Substantial.TWO_WITH_CHIPS,
        "pouques-2020": Substantial.TWO_ACTIONS,
        "pcpm": Substantial.TWO_WITH_CHIPS,
        "cpt87": Substantial.TWO_IN_A_ROW_WITH_CHIPS_OR_THREE,
    }


@pytest.mark.parametrize("rid", rb.SEED_IDS)
def test_the_engines_read_the_files(rid: str) -> None:
    book = rb.get(rid)
    assert get_ruleset(rid) is book.ruleset
    assert rulings_table(rid) is book.rulings


GOLDEN_FLOOR = json.loads((Path(__file__).parent / "golden_floor.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("rid", rb.SEED_IDS)
def test_file_gives_exactly_the_floor_policy(rid: str) -> None:
    """Penalty ladder, payouts, late arrival and registration, re-entry, balancing: as in Python before."""
    loaded = plain(floor_policy(rid))
    assert isinstance(loaded, dict)
    for key, want in GOLDEN_FLOOR[rid].items():
        assert loaded[key] == want, f"{rid} {key}"
    assert loaded.keys() == GOLDEN_FLOOR[rid].keys()
    assert floor_policy(rid) is rb.get(rid).floor


def test_the_pouques_payouts_offered_to_any_tournament_are_pouques_81() -> None:
    assert floor_policy("pouques-2020").payouts == POUQUES_PAYOUTS
