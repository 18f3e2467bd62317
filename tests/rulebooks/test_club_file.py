"""A club's file (club-bords-de-loire.toml) inherits cdc-2013 and changes three articles: an exposed
card (its art. 9), a flop without burn (art. 12), the showdown order (art. 14). Through `tapis replay`
(the real pipeline) its rulings follow the changed articles and cite the club's numbers; what it did not
change still cites cdc-2013."""

from __future__ import annotations

import dataclasses
import io
import json
import shutil
from pathlib import Path

import pytest

import hub.rulebooks as rb
from hub.rules import ActionKind, Level, Street, start_hand
from simulators.replay import replay
from simulators.scenario import ScenarioError, load

HERE = Path(__file__).parent
CLUB = HERE / "club-bords-de-loire.toml"
SCENARIOS = HERE.parent / "scenarios"


def _replay(tmp_path: Path, name: str) -> list[dict[str, object]]:
    shutil.copy(CLUB, tmp_path / CLUB.name)
    text = (SCENARIOS / f"{name}_cdc-2013.yaml").read_text(encoding="utf-8")
    scenario = tmp_path / f"{name}.yaml"
    scenario.write_text(text.replace("ruleset: cdc-2013", f"ruleset: {CLUB.name}"), encoding="utf-8")
    out = io.StringIO()
    events = replay(load(scenario), out=out)
    assert [json.loads(line) for line in out.getvalue().splitlines()] == events
    return events


def _faults(events: list[dict[str, object]]) -> list[tuple[object, ...]]:
    return [(e["kind"], e["ruling"]["decision"], e["ruling"]["article"])  # type: ignore[index]
            for e in events if e["type"] == "fault"]


def test_the_club_file_resolves_over_cdc_2013() -> None:
    club = rb.load_file(CLUB)
    cdc = rb.get("cdc-2013")
    assert club.id == "pcbl-2026" and club.inherits == "cdc-2013"
    assert club.ruleset.article("showdown_order") == "pcbl-2026 14"
    assert club.ruleset.article("min_raise") == "cdc-2013 10.5"  # unchanged: still the federation's
    changed = {k for k in cdc.rulings.table if cdc.rulings.table[k] != club.rulings.table[k]}
    assert {str(k) for k in changed} == {"exposed_card", "flop_without_burn"}
    assert club.texts["pcbl-2026 9"].startswith("Toute carte retournée")
    # the tournament's floor (ladder, payouts...) is cdc-2013's, unchanged, under the club's id
    assert cdc.floor is not None and club.floor == dataclasses.replace(cdc.floor, ruleset="pcbl-2026")


def test_replay_an_exposed_card_is_a_misdeal_under_the_club_article_9(tmp_path: Path) -> None:
    events = _replay(tmp_path, "exposed_card")
    assert _faults(events) == [("exposed_card", "misdeal", "pcbl-2026 9")]  # cdc-2013: replace_with_burn, 7.3
    assert [e["ruleset"] for e in events if e["type"] == "hand_start"] == ["pcbl-2026"]
    assert [e["result"] for e in events if e["type"] == "hand_end"] == ["misdeal"]


def test_replay_a_flop_without_burn_is_reshuffled_under_the_club_article_12(tmp_path: Path) -> None:
    events = _replay(tmp_path, "flop_without_burn")
    assert _faults(events) == [("flop_without_burn", "reshuffle_board", "pcbl-2026 12")]  # cdc: 8.3
    ends = [e for e in events if e["type"] == "hand_end"]
    assert ends and sum(ends[-1]["stacks"].values()) == 38_000  # type: ignore[attr-defined]


def test_replay_the_same_scenarios_under_cdc_2013_still_cite_cdc() -> None:
    out = io.StringIO()
    events = replay(load(SCENARIOS / "exposed_card_cdc-2013.yaml"), out=out)
    assert _faults(events) == [("exposed_card", "replace_with_burn", "cdc-2013 7.3")]


def test_the_first_raiser_shows_first_under_the_club_article_14() -> None:
    rb.register_file(CLUB)
    shown = {}
    for rid in ("cdc-2013", "pcbl-2026"):
        h = start_hand(rid, Level(50, 100), 1, {1: 5_000, 2: 5_000, 3: 5_000})
        h.act(1, ActionKind.CALL)
        h.act(2, ActionKind.CALL)
        h.act(3, ActionKind.CHECK)
        for board in (("2c", "7d", "9h"), ("Jd",), ("3s",)):
            h.deal_board(*board)
            if h.street is Street.RIVER:
                h.act(2, ActionKind.BET, 200)  # seat 2 raises first, seat 3 re-raises: the last aggressor
                h.act(3, ActionKind.RAISE, 600)
                h.act(1, ActionKind.CALL)
                h.act(2, ActionKind.CALL)
            else:
                while h.betting_open and h.to_act is not None:
                    h.act(h.to_act, ActionKind.CHECK)
        res = h.showdown({1: "AsAh", 2: "KsKh", 3: "QsQh"})
        shown[rid] = (res.shown_order[0], h.rules.article("showdown_order"))
    assert shown == {"cdc-2013": (3, "cdc-2013 11.5"), "pcbl-2026": (2, "pcbl-2026 14")}


def test_a_scenario_naming_a_broken_file_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text('id = "bad-club"\nname = "x"\ninherits = "cdc-2013"\nburns = 2\n')
    scenario = tmp_path / "s.yaml"
    scenario.write_text((SCENARIOS / "exposed_card_cdc-2013.yaml").read_text().replace(
        "ruleset: cdc-2013", "ruleset: bad.toml"))
    with pytest.raises(ScenarioError) as err:
        load(scenario)
    assert "\n" not in str(err.value) and "burns" in str(err.value)
