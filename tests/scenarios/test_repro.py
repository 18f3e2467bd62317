"""The reproductions filed from outside (`../shared/repro/`, copied in `repro/`) through the whole
pipeline (pty reader, agent, Mosquitto, hub): each prints what its header expects (issue #26)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from simulators.replay import replay
from simulators.scenario import load

HERE = Path(__file__).parent / "repro"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "repro"


def _hand_start(events: list[dict[str, Any]], hand: int) -> tuple[int, int | None, int]:
    e = next(e for e in events if e["type"] == "hand_start" and e["hand"] == hand)
    return e["button"], e["small_blind"], e["big_blind"]


def _end_stacks(events: list[dict[str, Any]]) -> tuple[str, dict[str, int]]:
    e = [e for e in events if e["type"] == "hand_end"][-1]
    return e["result"], e["stacks"]


EXPECTED = {
    "button_on_seat_10_of_9_cdc-2013": lambda ev: _hand_start(ev, 3) == (1, 2, 3),
    "cancelled_hand_next_button_cdc-2013": lambda ev: _hand_start(ev, 2) == (1, 2, 3),
    "late_wake_up_two_players_pouques-2020": lambda ev: any(
        e["type"] == "fault" and e["seat"] == 4 and e["ruling"]["decision"] == "td_decision"
        and e["ruling"]["article"] == "pouques-2020 70" for e in ev),
    "player_leaves_table_mid_hand_cdc-2013": lambda ev: _end_stacks(ev) == (
        "uncontested", {"1": 10650, "2": 9950, "3": 9700, "4": 9700}),
    "pot_split_first_flop_card_brest-2011": lambda ev: _end_stacks(ev) == (
        "cancelled", {"1": 10075, "2": 9950, "3": 9900, "4": 10075}),
    "pot_split_turn_after_flop_bets_cpt87": lambda ev: _end_stacks(ev) == (
        "cancelled", {"1": 9900, "2": 10200, "3": 9700, "4": 10200}),
}


def test_every_reproduction_is_checked_and_current() -> None:
    """Each copy here has its expectation below, and is the file filed (when `../shared` is beside us)."""
    assert sorted(p.stem for p in HERE.glob("*.yaml")) == sorted(EXPECTED)
    if SHARED.is_dir():
        for path in SHARED.glob("*.yaml"):
            assert (HERE / path.name).read_text() == path.read_text(), f"copy {path.name} again"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_reproduction_prints_what_its_header_expects(name: str) -> None:
    events = replay(load(HERE / f"{name}.yaml"), out=io.StringIO())
    assert EXPECTED[name](events), [e for e in events if e["type"] != "action"]
