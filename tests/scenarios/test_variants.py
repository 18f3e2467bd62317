"""The PLO and short-deck scenarios through the real pipeline (pty reader, agent, Mosquitto, hub):
faults and rulings in order, actions where listed, how the hand ends (tests/scenarios/variants.py)."""

import io
import json
from pathlib import Path

import pytest
import yaml

from simulators.replay import replay
from simulators.scenario import ScenarioError, load
from tests.scenarios.library import HERE
from tests.scenarios.variants import VARIANTS


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_scenario(name: str) -> None:
    body, faults, result, actions = VARIANTS[name]
    path = HERE / f"{name}.yaml"
    assert yaml.safe_load(path.read_text()) == body  # the committed file is the one described here
    out = io.StringIO()
    events = replay(load(path), out=out)
    seen = [(e["kind"], e["ruling"]["decision"], e["ruling"]["article"]) for e in events if e["type"] == "fault"]
    assert seen == faults
    assert [e["game"] for e in events if e["type"] == "hand_start"][:1] == [body["variant"]]
    if actions is not None:
        acts = [(e["seat"], e["action"], e["status"], e.get("applied"), e.get("reason"))
                for e in events if e["type"] == "action"]
        assert acts == actions
    ends = [e for e in events if e["type"] == "hand_end"]
    if result is not None:
        assert result in [e["result"] for e in ends]
    for end in ends:
        assert sum(end["stacks"].values()) == sum(body["players"].values())


def test_omaha_decides_the_plo_showdown() -> None:
    """Seat 9's lone ace of diamonds is no flush in Omaha: seat 2's straight takes the pot."""
    events = replay(load(HERE / "plo_hand_pot_limit_cpt87.yaml"), out=io.StringIO())
    end = next(e for e in events if e["type"] == "hand_end")
    assert [p["winners"] for p in end["pots"]] == [[2]] and end["stacks"]["2"] == 10_750


def test_pineapple_showdown_plays_the_two_cards_kept() -> None:
    """Seat 4's discarded Ad would have made a full house: seat 1's three aces win the pot."""
    events = replay(load(HERE / "pineapple_discard_cpt87.yaml"), out=io.StringIO())
    assert [e for e in events if e["type"] == "fault"] == []
    end = next(e for e in events if e["type"] == "hand_end")
    assert [p["winners"] for p in end["pots"]] == [[1]] and end["stacks"]["1"] == 10_300


def test_an_unknown_variant_is_one_clear_line(tmp_path: Path) -> None:
    body = dict(VARIANTS["plo_fifth_hole_card_cpt87"][0], variant="razz")
    bad = tmp_path / "bad.yaml"
    bad.write_text(json.dumps(body))
    with pytest.raises(ScenarioError) as err:
        load(bad)
    assert "razz" in str(err.value) and "plo" in str(err.value) and "\n" not in str(err.value).strip()
