"""Chips a seat put in above the highest live all-in, then lost with its hand (folded, or killed by a
ruling), join the last pot, the one the deepest live seat plays for (hub/rules/pots.py). No other
test reaches that branch: the PokerKit differential and the PHH set never leave chips above the
deepest live seat, since a seat that out-bets everyone still live is called or gets its bet back."""

from __future__ import annotations

from hub.rules import ActionKind, HandEndKind, Level, start_hand
from hub.rules.pots import build_pots, split_pot
from hub.rules.records import Decision, Ruling


def test_chips_above_the_last_live_level_join_the_last_pot() -> None:
    # Seats 1 and 2 all-in for 300 and 500; seats 3 and 4 put in 1,000 each, then lost their hands.
    pots = build_pots({1: 300, 2: 500, 3: 1_000, 4: 1_000}, [1, 2])
    assert pots == [(1_200, (1, 2)), (1_600, (2,))]  # not (2,200, (1, 2)), (600, (2,))


def test_two_short_allins_and_two_big_stacks_killed_by_rulings() -> None:
    h = start_hand("cdc-2013", Level(50, 100), 1, {1: 300, 2: 500, 3: 5_000, 4: 5_000})
    h.act(4, ActionKind.RAISE, 1_000)
    h.act(1, ActionKind.ALLIN)
    h.act(2, ActionKind.ALLIN)
    h.act(3, ActionKind.CALL)
    for board in (("2c", "7d", "9h"), ("Jd",), ("3s",)):
        h.deal_board(*board)
        while h.betting_open and h.to_act is not None:
            h.act(h.to_act, ActionKind.CHECK)
    dead = Ruling(Decision.HAND_DEAD, "cdc-2013 5.4")
    h.kill_hand(3, dead)
    h.kill_hand(4, dead)
    res = h.showdown({1: ("As", "Ah"), 2: ("Ks", "Kh")})  # seat 1 best, seat 2 second
    assert res.kind is HandEndKind.SHOWDOWN
    assert [(p.amount, p.winners) for p in res.pots] == [(1_200, (1,)), (1_600, (2,))]
    assert res.stacks == {1: 1_200, 2: 1_600, 3: 4_000, 4: 4_000}


def test_nothing_but_dead_money_goes_to_the_live_seats() -> None:
    assert build_pots({1: 25, 2: 25}, [1, 2], {1: 25, 2: 25}) == [(50, (1, 2))]


def test_odd_chips_go_one_each_from_the_first_winner() -> None:
    assert split_pot(101, [5, 2]) == [(5, 51), (2, 50)]
    assert split_pot(102, [5, 2, 3]) == [(5, 34), (2, 34), (3, 34)]
    assert split_pot(104, [5, 2, 3]) == [(5, 35), (2, 35), (3, 34)]
