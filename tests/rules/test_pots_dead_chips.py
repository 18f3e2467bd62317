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


def test_odd_chips_go_to_the_first_winner_or_one_each_from_him() -> None:
    assert split_pot(101, [5, 2]) == [(5, 51), (2, 50)]
    assert split_pot(102, [5, 2, 3]) == [(5, 34), (2, 34), (3, 34)]
    assert split_pot(104, [5, 2, 3]) == [(5, 36), (2, 34), (3, 34)]  # cdc 11.8: the nearest on the left
    assert split_pot(104, [5, 2, 3], one_each=True) == [(5, 35), (2, 35), (3, 34)]  # brest VIII.13, pcpm


def test_three_pots_and_the_dead_chips_go_to_the_last_one() -> None:
    pots = build_pots({1: 300, 2: 500, 3: 800, 4: 1_000, 5: 1_000}, [1, 2, 3])  # 4 and 5 dead
    assert pots == [(1_500, (1, 2, 3)), (800, (2, 3)), (1_300, (3,))]


def test_a_folded_seat_below_a_level_pays_into_the_pots_it_reached() -> None:
    pots = build_pots({1: 300, 2: 500, 3: 200, 4: 500}, [1, 2, 4])  # seat 3 called 200, then folded
    assert pots == [(1_100, (1, 2, 4)), (400, (2, 4))]


def test_a_one_chip_all_in_above_the_ante_is_a_level() -> None:
    pots = build_pots({1: 11, 2: 110, 3: 110}, [1, 2, 3], {1: 10, 2: 10, 3: 10})
    assert pots == [(33, (1, 2, 3)), (198, (2, 3))]


def test_two_seats_all_in_on_their_antes_and_two_side_pots_behind() -> None:
    # Antes of 10: seat 1 had only 5, seat 2 exactly 10; seat 5 all-in for 50 more, 3 and 4 bet 100.
    contributed = {1: 5, 2: 10, 3: 110, 4: 110, 5: 60}
    dead = {1: 5, 2: 10, 3: 10, 4: 10, 5: 10}
    pots = build_pots(contributed, [1, 2, 3, 4, 5], dead, {1, 2})
    assert pots == [(25, (1, 2, 3, 4, 5)), (20, (2, 3, 4, 5)), (150, (3, 4, 5)), (100, (3, 4))]


def test_a_big_blind_all_in_on_its_ante_plays_for_it_with_everyone() -> None:
    # Big-blind ante: only seat 3 (the big blind) pays it, and it is all it had.
    pots = build_pots({1: 100, 2: 100, 3: 10}, [1, 2, 3], {3: 10}, {3})
    assert pots == [(10, (1, 2, 3)), (200, (1, 2))]


def test_dead_money_smaller_than_an_all_in_ante_counts_for_what_it_is() -> None:
    # Seat 6 folded after a dead blind of 7 (less than the others' antes); seats 1 and 2 all-in on antes.
    contributed = {1: 5, 2: 10, 3: 110, 4: 110, 6: 7}
    dead = {1: 5, 2: 10, 3: 10, 4: 10, 6: 7}
    pots = build_pots(contributed, [1, 2, 3, 4], dead, {1, 2})
    assert pots == [(25, (1, 2, 3, 4)), (17, (2, 3, 4)), (200, (3, 4))]


def test_an_uncontested_hand_says_who_took_what_and_by_which_article() -> None:
    h = start_hand("cdc-2013", Level(50, 100), 1, {1: 1_000, 2: 1_000, 3: 1_000})
    h.act(1, ActionKind.RAISE, 300)
    h.act(2, ActionKind.FOLD)
    h.act(3, ActionKind.FOLD)
    res = h.result
    assert res is not None and res.kind is HandEndKind.UNCONTESTED
    assert [(p.amount, p.eligible, p.winners, p.shares) for p in res.pots] == [(250, (1,), (1,), ((1, 250),))]
    assert res.returned == {1: 200} and res.shown_order == () and res.article
    assert res.stacks == {1: 1_150, 2: 950, 3: 900}


def test_a_showdown_result_names_each_pots_eligible_seats_and_the_order_shown() -> None:
    h = start_hand("cdc-2013", Level(50, 100), 1, {1: 300, 2: 500, 3: 5_000, 4: 5_000})
    h.act(4, ActionKind.RAISE, 1_000)
    h.act(1, ActionKind.ALLIN)
    h.act(2, ActionKind.ALLIN)
    h.act(3, ActionKind.FOLD)  # the big blind's 100 stays in the main pot
    for board in (("2c", "7d", "9h"), ("Jd",), ("3s",)):
        h.deal_board(*board)
    res = h.showdown({1: ("As", "Ah"), 2: ("Ks", "Kh"), 4: ("Qs", "Qh")})
    assert [(p.amount, p.eligible, p.winners) for p in res.pots] == [
        (1_000, (2, 4, 1), (1,)), (400, (2, 4), (2,))]  # eligible from the button's left
    assert res.returned == {4: 500} and set(res.shown_order) == {1, 2, 4} and res.article


def test_a_seat_whose_stack_was_exactly_its_ante_plays_for_the_antes() -> None:
    """Seat 1 had 10 chips, the ante: all-in on it, not out of the hand (hand.py marks `capped` only a
    seat short of its ante; before the fix seat 1 was eligible for no pot at all)."""
    pots = build_pots({1: 10, 2: 110, 3: 110}, [1, 2, 3], {1: 10, 2: 10, 3: 10})
    assert pots == [(30, (1, 2, 3)), (200, (2, 3))]
