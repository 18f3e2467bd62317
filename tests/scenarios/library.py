"""The scenario library: every fault kind, under each ruleset where the rulebooks differ.

`python -m tests.scenarios.library` writes the YAML files beside this module (they are committed:
they are also examples for clubs and acceptance suites). `EXPECTED` says, per file, the faults with
their ruling (kind, decision, article) the replay must print, in order, and how the hand ends;
`tests/scenarios/test_library.py` replays each file through the real pipeline and checks it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
PLAYERS = {1: 10000, 2: 10000, 4: 8000, 9: 10000}  # button 9: SB 1, BB 2, deal 1 2 4 9
HOLE = {1: ("As", "Ah"), 2: ("Kd", "Kc"), 4: ("Qh", "Qs"), 9: ("2c", "7d")}
ORDER = (1, 2, 4, 9)

Step = dict[str, Any]


def hole(seat: int, card: str) -> Step:
    return {"hole": {"seat": seat, "card": card}}


def act(seat: int, action: str, to: int | None = None) -> Step:
    body: dict[str, Any] = {"seat": seat, "action": action}
    if to is not None:
        body["to"] = to
    return {"act": body}


def deal(skip: tuple[int, int] | None = None) -> list[Step]:
    """Two clean rounds; `skip=(round, seat)` leaves that card out."""
    return [hole(s, HOLE[s][r]) for r in (0, 1) for s in ORDER if skip != (r, s)]


PREFLOP = [act(4, "call"), act(9, "call"), act(1, "call"), act(2, "check")]
FLOP = [{"burn": "3c"}, {"board": "Ts"}, {"board": "Jd"}, {"board": "4h"}]
CHECKS = [act(1, "check"), act(2, "check"), act(4, "check"), act(9, "check")]
TURN = [{"burn": "5c"}, {"board": "6d"}]
RIVER = [{"burn": "8c"}, {"board": "9d"}]
FULL_HAND = deal() + PREFLOP + FLOP + CHECKS + TURN + CHECKS + RIVER + CHECKS


def scenario(ruleset: str, steps: list[Step], players: dict[int, int] | None = None,
             button: int = 9) -> dict[str, Any]:
    return {"ruleset": ruleset, "table": {"id": "t1", "seats": 9}, "level": {"sb": 50, "bb": 100},
            "button": button, "players": players or PLAYERS, "steps": steps}


def fault(kind: str, decision: str, article: str) -> tuple[str, str, str]:
    return (kind, decision, article)


LIBRARY: dict[str, tuple[dict[str, Any], list[tuple[str, str, str]], str | None]] = {}
# Per scenario, every panel action the replay must print, in order: (seat, action, status, applied).
ACTIONS: dict[str, list[tuple[int, str, str, str | None]]] = {}


def add(name: str, ruleset: str, steps: list[Step], faults: list[tuple[str, str, str]],
        result: str | None, **kw: Any) -> None:
    LIBRARY[name] = (scenario(ruleset, steps, **kw), faults, result)


# A clean session: three hands, the button moving, showdowns and folds, noise on the line.
add("clean_session", "cdc-2013",
    FULL_HAND + [{"new_hand": {}}]
    + [hole(s, c) for c, s in zip(["9s", "8h", "7c", "6s", "9h", "8d", "7s", "6h"], (2, 4, 9, 1) * 2)]
    + [{"noise": {"frames": 3}}, act(9, "raise", 300), act(1, "fold"), act(2, "fold"), act(4, "fold"),
       {"new_hand": {}}]
    + [hole(s, c) for c, s in zip(["Tc", "Td", "Th", "Ts", "Jc", "Jh", "Js", "Qc"], (4, 9, 1, 2) * 2)]
    + [act(1, "call"), act(2, "call"), act(4, "call"), act(9, "check")]
    + [{"muck": {"seat": 1}}] + FLOP[:1] + [{"board": "2d"}, {"board": "3d"}, {"board": "4d"}]
    + [act(4, "check"), act(9, "check"), act(2, "check")],
    [], None)

# The reader board resets on its own between the two rounds of the deal: set scanning again by the
# agent, the cards it reports again are not dealt twice (no fault), the second round is seen.
add("reader_reboot_mid_deal_cdc-2013", "cdc-2013",
    deal()[:4] + [{"reboot": {}}] + deal()[4:] + PREFLOP + FLOP + CHECKS + [{"reboot": {}}] + TURN + CHECKS
    + RIVER + CHECKS,
    [], "showdown")

for rs, article in [("cdc-2013", "cdc-2013 6.3"), ("cpt87", "cpt87 6.3")]:
    add(f"boxed_card_{rs}", rs, deal()[:3] + [{"tray": "5h"}] + deal()[3:] + PREFLOP + FLOP + CHECKS,
        [fault("boxed_card", "set_aside", article)], None)
add("two_boxed_in_deal_cdc-2013", "cdc-2013", deal()[:3] + [{"tray": "5h"}, {"tray": "5d"}] + deal()[3:],
    [fault("boxed_card", "set_aside", "cdc-2013 6.3"), fault("boxed_card", "misdeal", "cdc-2013 6.3")],
    "misdeal")

# Exposed card: the 3rd card of the deal (seat 4's first) flips onto the tray.
EXPOSED = deal()[:3] + [{"tray": "Qh"}] + deal()[3:] + [hole(4, "3s")]
add("exposed_card_cdc-2013", "cdc-2013", EXPOSED + PREFLOP + [{"burn": "Qh"}] + FLOP[1:] + CHECKS,
    [fault("exposed_card", "replace_with_burn", "cdc-2013 7.3")], None)
add("exposed_first_card_cdc-2013", "cdc-2013", deal()[:1] + [{"tray": "As"}],
    [fault("exposed_card", "misdeal", "cdc-2013 7.1")], "misdeal")
add("exposed_button_first_card_pouques-2020", "pouques-2020", deal()[:4] + [{"tray": "2c"}],
    [fault("exposed_card", "misdeal", "pouques-2020 78")], "misdeal")

add("card_to_empty_seat_cdc-2013", "cdc-2013", deal()[:2] + [hole(3, "5s")],
    [fault("card_to_empty_seat", "misdeal", "cdc-2013 7.1")], "misdeal")
add("wrong_deal_order_cdc-2013", "cdc-2013", [hole(2, "Kd")],
    [fault("wrong_deal_order", "misdeal", "cdc-2013 7.1")], "misdeal")
add("seat_skipped_brest-2011", "brest-2011", deal()[:1] + [hole(4, "Qh")],
    [fault("seat_skipped", "misdeal", "brest-2011 III.7")], "misdeal")

# One card too many to the small blind (seat 1) at the end of the deal.
EXTRA = deal() + [hole(1, "5s")]
add("extra_card_small_blind_cdc-2013", "cdc-2013", EXTRA,
    [fault("extra_hole_card", "misdeal", "cdc-2013 7.1")], "misdeal")
add("extra_card_small_blind_brest-2011", "brest-2011", EXTRA + [{"burn": "5s"}] + PREFLOP + FLOP[1:] + CHECKS,
    [fault("extra_hole_card", "burn_as_first", "brest-2011 III.7")], None)
add("missing_hole_card_cdc-2013", "cdc-2013", deal(skip=(1, 9)) + [act(4, "call")],
    [fault("missing_hole_card", "misdeal", "cdc-2013 7.1")], "misdeal")

# Board faults, each remedied on the felt; the hand then goes on to its end without a new fault.
add("flop_without_burn_cdc-2013", "cdc-2013",
    deal() + PREFLOP + [{"board": "Ts"}, {"board": "Jd"}, {"board": "4h"}, {"burn": "Ts"}, {"board": "3c"}]
    + CHECKS + TURN + CHECKS + RIVER + CHECKS,
    [fault("flop_without_burn", "designate_burn", "cdc-2013 8.3")], "showdown")
add("flop_two_burns_cdc-2013", "cdc-2013",
    deal() + PREFLOP + [{"burn": "3c"}, {"burn": "5c"}, {"board": "5c"}, {"board": "Jd"}, {"board": "4h"}]
    + CHECKS,
    [fault("flop_two_burns", "burn_to_flop", "cdc-2013 8.3")], None)
add("flop_four_cards_cdc-2013", "cdc-2013",
    deal() + PREFLOP + FLOP + [{"board": "2d"}, {"burn": "2d"}] + CHECKS + [{"board": "6d"}] + CHECKS,
    [fault("flop_four_cards", "extra_card_burn", "cdc-2013 8.3")], None)
for rs, decision, article in [("cdc-2013", "reshuffle_board", "cdc-2013 8.3"),
                              ("pouques-2020", "misdeal", "pouques-2020 77")]:
    add(f"premature_flop_{rs}", rs, deal() + FLOP[:2],
        [fault("premature_flop", decision, article)], "misdeal" if decision == "misdeal" else None)
add("premature_turn_cdc-2013", "cdc-2013",
    deal() + PREFLOP + FLOP + [act(1, "check"), {"burn": "5c"}, {"board": "6d"},
                               {"take": {"zone": "board", "card": "6d"}}] + CHECKS[1:] + [{"board": "9d"}],
    [fault("premature_turn", "river_as_turn", "cdc-2013 8.4")], None)
add("premature_turn_pouques-2020", "pouques-2020",
    deal() + PREFLOP + FLOP + [act(1, "check"), {"burn": "5c"}, {"board": "6d"}],
    [fault("premature_turn", "bottom_card", "pouques-2020 77")], None)
add("premature_river_cdc-2013", "cdc-2013",
    deal() + PREFLOP + FLOP + CHECKS + TURN + [act(1, "check"), {"burn": "8c"}, {"board": "9d"}],
    [fault("premature_river", "reshuffle_board", "cdc-2013 8.5")], None)
add("turn_without_burn_brest-2011", "brest-2011",
    deal() + PREFLOP + FLOP + CHECKS + [{"board": "6d"}],
    [fault("turn_without_burn", "burn_and_next", "brest-2011 III.17")], None)
add("board_removed_cdc-2013", "cdc-2013",
    deal() + PREFLOP + FLOP + [{"take": {"zone": "board", "card": "Jd"}}],
    [fault("board_removed", "continue", "cdc-2013 8.6")], None)

# Irregular decks: cancelled with bets returned (cdc 6.4) or the pot shared (brest III.11).
for rs, decision, article in [("cdc-2013", "hand_cancelled_bets_returned", "cdc-2013 6.4"),
                              ("brest-2011", "hand_cancelled_pot_split", "brest-2011 III.11")]:
    add(f"foreign_card_{rs}", rs, deal() + PREFLOP + [{"burn": "3c"}, {"board": "Ts@Z"}],
        [fault("foreign_card", decision, article)], "cancelled")
    add(f"unknown_tag_{rs}", rs, deal() + PREFLOP + [{"burn": "3c"}, {"board": "tag:04DEADBEEF0001"}],
        [fault("unknown_tag", decision, article)], "cancelled")
add("mixed_decks_cdc-2013", "cdc-2013", deal()[:5] + [hole(2, "Kc@B")],
    [fault("mixed_decks", "set_aside", "cdc-2013 6.4")], None)
add("dead_card_in_hand_cdc-2013", "cdc-2013",
    deal() + [act(4, "call"), {"muck": {"seat": 9}}, {"take": {"zone": "muck", "card": "7d"}}, hole(1, "7d")],
    [fault("dead_card_in_hand", "hand_dead", "cdc-2013 7.5")], None)
for rs, article in [("cdc-2013", "cdc-2013 5.1"), ("brest-2011", "brest-2011 III.13")]:
    add(f"absent_player_{rs}", rs, [{"away": {"seat": 4}}] + deal() + [act(9, "call")],
        [fault("absent_player", "hand_dead", article)], None)

# Out of turn, judged by the engine: binding, then released by a raise (cdc 10.2).
add("out_of_turn_released_cdc-2013", "cdc-2013",
    deal() + [act(1, "call"), act(4, "raise", 300), act(9, "fold"), act(1, "fold"), act(2, "fold")],
    [fault("out_of_turn", "action_binding", "cdc-2013 10.2")], "uncontested")
add("out_of_turn_fold_by_muck_cdc-2013", "cdc-2013",
    deal() + [{"muck": {"seat": 1}}, act(4, "call"), act(9, "call"), act(2, "check")],
    [fault("out_of_turn", "action_binding", "cdc-2013 10.2")], None)

# Time: 60 s + 10 s (cdc 4.5); pouques 45 s (63).
for rs, wait, article in [("cdc-2013", 71, "cdc-2013 4.5"), ("pouques-2020", 46, "pouques-2020 63")]:
    add(f"time_expired_{rs}", rs, deal() + [{"time": {"seat": 4}}, {"wait": wait - 5}, {"wait": 5}],
        [fault("time_expired", "hand_dead", article)], None)

# Insufficient raises: cdc 10.9 (>= 50 % of the increment completes it), pouques 52.
add("insufficient_raise_completed_cdc-2013", "cdc-2013", deal() + [act(4, "raise", 160)],
    [fault("insufficient_bet", "completed_to_min_raise", "cdc-2013 10.9")], None)
add("insufficient_raise_call_cdc-2013", "cdc-2013", deal() + [act(4, "raise", 140)],
    [fault("insufficient_bet", "treated_as_call", "cdc-2013 10.9")], None)

# Brest VII.20: seat 2 checks before seat 1 on the flop; seat 1 bets, which releases seat 2, who
# may then only call or fold: he had not himself opened or raised.
add("out_of_turn_released_call_or_fold_brest-2011", "brest-2011",
    deal() + PREFLOP + FLOP + [act(2, "check"), act(1, "bet", 200), act(2, "raise", 600), act(2, "call"),
                               act(4, "fold"), act(9, "fold")] + TURN + [act(1, "check"), act(2, "check")]
    + RIVER + [act(1, "check"), act(2, "check")],
    [fault("out_of_turn", "action_binding", "brest-2011 VII.20")], "showdown")
ACTIONS["out_of_turn_released_call_or_fold_brest-2011"] = (
    [(4, "call", "accepted", "call"), (9, "call", "accepted", "call"), (1, "call", "accepted", "call"),
     (2, "check", "accepted", "check"),
     (2, "check", "accepted", None), (1, "bet", "accepted", "bet"), (2, "raise", "rejected", None),
     (2, "call", "accepted", "call"), (4, "fold", "accepted", "fold"), (9, "fold", "accepted", "fold")]
    + [(1, "check", "accepted", "check"), (2, "check", "accepted", "check")] * 2)
# Brest VII.21: seat 4 (under the gun) forgotten by three players; their actions are maintained,
# he may only call or fold; he folds, the round closes with the held raise called, the hand goes on.
add("skipped_by_three_brest-2011", "brest-2011",
    deal() + [act(9, "raise", 300), act(1, "call"), act(2, "call"), act(4, "fold")]
    + FLOP + [act(1, "check"), act(2, "check"), act(9, "check")] + TURN
    + [act(1, "check"), act(2, "check"), act(9, "check")] + RIVER + [act(1, "check"), act(2, "check"),
                                                                     act(9, "check")],
    [fault("out_of_turn", "action_binding", "brest-2011 VII.20")] * 3, "showdown")
ACTIONS["skipped_by_three_brest-2011"] = (
    [(9, "raise", "accepted", None), (1, "call", "accepted", None), (2, "call", "accepted", None),
     (4, "fold", "accepted", "fold"), (9, "raise", "accepted", "raise"), (1, "call", "accepted", "call"),
     (2, "call", "accepted", "call")] + [(1, "check", "accepted", "check"), (2, "check", "accepted", "check"),
                                         (9, "check", "accepted", "check")] * 3)
# All-in over players all all-in for less: nothing he adds can be called, so his push is a call.
add("allin_over_allins_cdc-2013", "cdc-2013",
    deal() + [act(4, "allin"), act(9, "allin"), act(1, "fold"), act(2, "allin")]
    + FLOP + TURN + RIVER,
    [], "showdown", players={1: 10000, 2: 10000, 4: 800, 9: 500})
ACTIONS["allin_over_allins_cdc-2013"] = [
    (4, "allin", "accepted", "allin"), (9, "allin", "accepted", "call"), (1, "fold", "accepted", "fold"),
    (2, "allin", "accepted", "call")]
# cdc 8.3, flop with two burns seen only once the flop is out: the second burn goes to the board,
# the last flop card becomes the turn's burn; carrying this out raises nothing, the hand plays on.
add("flop_two_burns_flop_out_cdc-2013", "cdc-2013",
    deal() + PREFLOP + [{"burn": "3c"}, {"burn": "5c"}, {"board": "Ts"}, {"board": "Jd"}, {"board": "4h"},
                        {"board": "5c"}, {"burn": "4h"}]
    + CHECKS + [{"board": "6d"}] + CHECKS + RIVER + CHECKS,
    [fault("flop_two_burns", "burn_to_flop", "cdc-2013 8.3")], "showdown")

# cdc 8.3, premature flop ruled at its first card while the dealer lays the other two: all three go
# back into the stub, the pre-flop round ends, a new flop comes without burn; nothing else is raised.
add("premature_flop_reshuffled_cdc-2013", "cdc-2013",
    deal() + [act(4, "call")] + FLOP + [{"take": {"zone": "board", "card": c}} for c in ("Ts", "Jd", "4h")]
    + PREFLOP[1:] + [{"board": "2d"}, {"board": "3d"}, {"board": "4d"}] + CHECKS + TURN + CHECKS + RIVER + CHECKS,
    [fault("premature_flop", "reshuffle_board", "cdc-2013 8.3")], "showdown")

# cdc 10.14 (brest VII.7): a bet "in the dark", pressed before the flop is out, stands when the flop
# round opens and it is his turn.
add("in_the_dark_cdc-2013", "cdc-2013",
    deal() + PREFLOP + [act(1, "bet", 200)] + FLOP + [act(2, "call"), act(4, "fold"), act(9, "fold")]
    + TURN + [act(1, "check"), act(2, "check")] + RIVER + [act(1, "check"), act(2, "check")],
    [], "showdown")
ACTIONS["in_the_dark_cdc-2013"] = (
    [(4, "call", "accepted", "call"), (9, "call", "accepted", "call"), (1, "call", "accepted", "call"),
     (2, "check", "accepted", "check"), (1, "bet", "accepted", None), (1, "bet", "accepted", "bet"),
     (2, "call", "accepted", "call"), (4, "fold", "accepted", "fold"), (9, "fold", "accepted", "fold")]
    + [(1, "check", "accepted", "check"), (2, "check", "accepted", "check")] * 2)


def write() -> None:
    for name, (body, _faults, _result) in LIBRARY.items():
        (HERE / f"{name}.yaml").write_text(
            f"# {name.replace('_', ' ')}: see tests/scenarios/library.py for what it must print\n"
            + yaml.safe_dump(body, sort_keys=False, default_flow_style=None, width=110))


if __name__ == "__main__":
    write()
