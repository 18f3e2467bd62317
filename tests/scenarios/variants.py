"""Scenarios of the other games (PLO, short deck) through `tapis replay`: what each must print.

`python -m tests.scenarios.variants` writes the YAML files beside this module (committed, like the
library's); `tests/scenarios/test_variants.py` replays each through the real pipeline. Seats 1, 2, 4
and 9 play, button 9: small blind 1, big blind 2, dealt 1 2 4 9, seat 9 served last.
"""

from __future__ import annotations

from typing import Any

import yaml

from tests.scenarios.library import HERE, PLAYERS, Step, act, hole

ORDER = (1, 2, 4, 9)
# Four cards each, dealt one at a time in four rounds. The board Ts Jd 4d 6d 9d carries four
# diamonds: seat 9's lone Ad would make a hold'em flush, but Omaha plays exactly two cards from
# the hand, so seat 2's 7-8 straight (with 9-T-J) wins the showdown.
PLO_HOLE: dict[int, tuple[str, ...]] = {
    1: ("Kc", "Qc", "2s", "3h"), 2: ("7c", "7h", "8s", "2h"), 4: ("5c", "5h", "3c", "Kh"), 9: ("Ad", "As", "Ah", "Ac")}
BOARD = [{"burn": "3d"}, {"board": "Ts"}, {"board": "Jd"}, {"board": "4d"}]
TURN = [{"burn": "5d"}, {"board": "6d"}]
RIVER = [{"burn": "8c"}, {"board": "9d"}]


def plo_deal(hole_cards: dict[int, tuple[str, ...]] = PLO_HOLE) -> list[Step]:
    return [hole(s, hole_cards[s][r]) for r in range(4) for s in ORDER]


def checks(first: int = 1) -> list[Step]:
    i = ORDER.index(first)
    return [act(s, "check") for s in ORDER[i:] + ORDER[:i]]


def scenario(ruleset: str, variant: str, steps: list[Step]) -> dict[str, Any]:
    return {"ruleset": ruleset, "variant": variant, "table": {"id": "t1", "seats": 9},
            "level": {"sb": 50, "bb": 100}, "button": 9, "players": PLAYERS, "steps": steps}


Act = tuple[int, str, str, str | None, str | None]
# name -> (scenario, faults (kind, decision, article) in order, hand end result or None,
#          actions (seat, action, status, applied, reason) in order or None: not checked)
VARIANTS: dict[str, tuple[dict[str, Any], list[tuple[str, str, str]], str | None,
                          list[Act] | None]] = {}

# A fifth hole card to seat 4 (not the last served, not the small blind) once four rounds are out:
# cpt87 6.5 « nombre de cartes distribuées incorrect » is a misdeal, the same clause as hold'em's
# third card (the article speaks of a wrong count, the game says what the right one is).
VARIANTS["plo_fifth_hole_card_cpt87"] = (
    scenario("cpt87", "plo", plo_deal() + [hole(4, "Kd")]),
    [("extra_hole_card", "misdeal", "cpt87 6.5")], "misdeal", None)
VARIANTS["plo_fifth_hole_card_cdc-2013"] = (
    scenario("cdc-2013", "plo", plo_deal() + [hole(4, "Kd")]),
    [("extra_hole_card", "misdeal", "cdc-2013 7.1")], "misdeal", None)
# The fifth card to the last player served (the button): cpt87 6.5's exception, the TD decides.
VARIANTS["plo_fifth_hole_card_last_served_cpt87"] = (
    scenario("cpt87", "plo", plo_deal() + [hole(9, "Kd")]),
    [("extra_hole_card", "td_decision", "cpt87 6.5")], None, None)
CHECKED: list[Act] = [(s, "check", "accepted", "check", None) for s in (2, 4, 9)]
# Four cards each is no fault in PLO (in hold'em the third card would be one).
VARIANTS["plo_hand_pot_limit_cpt87"] = (
    scenario("cpt87", "plo", plo_deal() + [
        act(4, "raise", 400),  # above the pot (350): refused, the player says again
        act(4, "raise", 350),  # the pot
        act(9, "call"), act(1, "fold"), act(2, "call"),
        *BOARD, act(2, "check"), act(4, "check"), act(9, "check"),
        *TURN, act(2, "check"), act(4, "check"), act(9, "check"),
        *RIVER, act(2, "check"), act(4, "check"), act(9, "check")]),
    [], "showdown",
    [(4, "raise", "rejected", None, "above_pot_limit"), (4, "raise", "accepted", "raise", None),
     (9, "call", "accepted", "call", None), (1, "fold", "accepted", "fold", None),
     (2, "call", "accepted", "call", None)] + CHECKED * 3)
# A 2 to 5 at a short-deck table is a card of no deck in play: the irregular deck's ruling.
SD_HOLE = {1: ("As", "Ah"), 2: ("Kd", "Kc"), 4: ("Qh", "Qs"), 9: ("6c", "7d")}
VARIANTS["short_deck_foreign_card_cpt87"] = (
    scenario("cpt87", "short_deck",
             [hole(s, SD_HOLE[s][0]) for s in ORDER] + [hole(1, "Ac"), hole(2, "2d")]),
    [("foreign_card", "hand_cancelled_pot_split", "cpt87 6.4")], "cancelled", None)
VARIANTS["short_deck_clean_cdc-2013"] = (
    scenario("cdc-2013", "short_deck",
             [hole(s, SD_HOLE[s][r]) for r in (0, 1) for s in ORDER]
             + [act(4, "call"), act(9, "call"), act(1, "call"), act(2, "check"),
                {"burn": "8c"}, {"board": "Ts"}, {"board": "Jd"}, {"board": "9h"}]
             + checks() + [{"burn": "6d"}, {"board": "8d"}] + checks()
             + [{"burn": "7c"}, {"board": "Ad"}] + checks()),
    [], "showdown", None)

# Pineapple: three cards each, one thrown to the muck once the pre-flop betting is over; the hand
# plays on with two. Seat 4 throws its Ad: with it (three-card hold'em) Qh Qs Qd Ad Ac would be a
# full house; with the two it kept, seat 1's aces (As Ah Ac) win.
PINE_HOLE = {1: ("As", "Ah", "3c"), 2: ("Kd", "Kc", "3d"), 4: ("Qh", "Qs", "Ad"), 9: ("2c", "7d", "7s")}
PINE_DISCARD = {1: "3c", 2: "3d", 4: "Ad", 9: "2c"}
VARIANTS["pineapple_discard_cpt87"] = (
    scenario("cpt87", "pineapple",
             [hole(s, PINE_HOLE[s][r]) for r in range(3) for s in ORDER]
             + [act(4, "call"), act(9, "call"), act(1, "call"), act(2, "check")]
             + [{"muck": {"seat": s, "card": PINE_DISCARD[s]}} for s in ORDER]
             + [{"burn": "4c"}, {"board": "Ac"}, {"board": "Qd"}, {"board": "5h"}] + checks()
             + [{"burn": "4d"}, {"board": "8s"}] + checks() + [{"burn": "4h"}, {"board": "9c"}] + checks()),
    [], "showdown", None)


def main() -> None:
    for name, (body, *_rest) in VARIANTS.items():
        text = f"# {name.replace('_', ' ')}: see tests/scenarios/variants.py for what it must print\n"
        (HERE / f"{name}.yaml").write_text(text + yaml.safe_dump(body, sort_keys=False))


if __name__ == "__main__":
    main()
