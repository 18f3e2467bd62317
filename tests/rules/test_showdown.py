"""Side pots, odd chips, showdown order, hands face up, heads-up and the dead button."""

from __future__ import annotations

import pytest

from hub.rules import (
    ActionKind,
    HandEndKind,
    Level,
    Positions,
    next_positions,
    start_hand,
)
from hub.rules.evaluator import Category, category, evaluate, parse_cards
from hub.rules.pots import build_pots


def test_side_pots_from_three_allins() -> None:
    h = start_hand("cdc-2013", Level(50, 100), 1, {1: 5_000, 2: 300, 3: 1_000, 4: 5_000})
    h.act(4, ActionKind.RAISE, 1_000)
    h.act(1, ActionKind.CALL)
    h.act(2, ActionKind.ALLIN)
    h.act(3, ActionKind.ALLIN)
    assert not h.betting_open and h.cards_face_up is False  # seats 4 and 1 still have chips
    for board in (("2c", "7d", "9h"), ("Jd",), ("3s",)):
        h.deal_board(*board)
        assert h.to_act == 4  # seats 2 and 3 are all-in: seat 4 then seat 1 speak
        h.act(4, ActionKind.CHECK)
        h.act(1, ActionKind.CHECK)
    # Seat 2 (short) has the best hand, seat 3 the second, seats 4 and 1 tie below.
    res = h.showdown({2: ("As", "Ah"), 3: ("Ks", "Kh"), 4: ("Qs", "Qh"), 1: ("Qd", "Qc")})
    assert res.kind is HandEndKind.SHOWDOWN
    assert [(p.amount, p.winners) for p in res.pots] == [(1_200, (2,)), (2_100, (3,))]
    assert res.stacks == {1: 4_000, 2: 1_200, 3: 2_100, 4: 4_000}


def test_odd_chip_goes_left_of_the_button_cdc_11_8() -> None:
    h = start_hand("cdc-2013", Level(25, 51), 3, {1: 1_000, 3: 1_000, 5: 1_000})
    # Button 3: small blind 5, big blind 1, seat 3 first to act.
    h.act(3, ActionKind.CALL)
    h.act(5, ActionKind.CALL)
    h.act(1, ActionKind.FOLD)  # 51 x 3 = 153 in the pot
    for street in (("2c", "7d", "9h"), ("Jd",), ("3s",)):
        h.deal_board(*street)
        h.act(5, ActionKind.CHECK)
        h.act(3, ActionKind.CHECK)
    res = h.showdown({3: ("As", "Kd"), 5: ("Ac", "Kh")})
    assert res.pots[0].amount == 153
    assert dict(res.pots[0].shares) == {5: 77, 3: 76}  # seat 5 is first left of button 3
    assert res.article == "cdc-2013 11.8"


def test_showdown_order_last_aggressor_cdc_and_first_raiser_pouques() -> None:
    for ruleset, first in (("cdc-2013", 3), ("pouques-2020", 2)):
        h = start_hand(ruleset, Level(50, 100), 1, {1: 5_000, 2: 5_000, 3: 5_000, 4: 5_000})
        for seat in (4, 1, 2):
            h.act(seat, ActionKind.CALL)
        h.act(3, ActionKind.CHECK)
        for board in (("2c", "7d", "9h"), ("Jd",)):
            h.deal_board(*board)
            for seat in (2, 3, 4, 1):
                h.act(seat, ActionKind.CHECK)
        h.deal_board("3s")
        h.act(2, ActionKind.BET, 100)
        h.act(3, ActionKind.RAISE, 400)
        h.act(4, ActionKind.FOLD)
        h.act(1, ActionKind.FOLD)
        h.act(2, ActionKind.CALL)
        assert h.showdown_order()[0] == first, ruleset


def test_showdown_order_without_bet_starts_left_of_button() -> None:
    h = start_hand("cdc-2013", Level(50, 100), 4, {1: 5_000, 2: 5_000, 4: 5_000})
    h.act(4, ActionKind.CALL)
    h.act(1, ActionKind.CALL)
    h.act(2, ActionKind.CHECK)
    for board in (("2c", "7d", "9h"), ("Jd",), ("3s",)):
        h.deal_board(*board)
        while h.betting_open:
            h.act(h.to_act or 0, ActionKind.CHECK)
    assert h.showdown_order() == [1, 2, 4]


def test_all_in_hands_face_up_cdc_11_4() -> None:
    h = start_hand("cdc-2013", Level(50, 100), 1, {1: 1_000, 2: 1_000, 3: 3_000})
    h.act(1, ActionKind.ALLIN)
    h.act(2, ActionKind.ALLIN)
    h.act(3, ActionKind.CALL)
    assert not h.betting_open and h.cards_face_up
    h.deal_board("2c", "7d", "9h")
    assert not h.betting_open  # no round opens: nobody left to bet against
    h.deal_board("Jd")
    h.deal_board("3s")
    res = h.showdown({1: "AsAh", 2: "KsKh", 3: "QsQh"})
    assert res.stacks == {1: 3_000, 2: 0, 3: 2_000}


def test_everybody_folds_uncontested_with_uncalled_bet_back() -> None:
    h = start_hand("cdc-2013", Level(50, 100), 1, {1: 1_000, 2: 1_000, 3: 1_000})
    h.act(1, ActionKind.RAISE, 300)
    h.act(2, ActionKind.FOLD)
    h.act(3, ActionKind.FOLD)
    assert h.result is not None and h.result.kind is HandEndKind.UNCONTESTED
    assert h.result.stacks == {1: 1_150, 2: 950, 3: 900}
    assert h.result.returned == {1: 200}


def test_heads_up_button_posts_small_blind_and_acts_first_cdc_5_3() -> None:
    h = start_hand("cdc-2013", Level(50, 100), 7, {2: 1_000, 7: 1_000})
    assert h.positions == Positions(button=7, small_blind=7, big_blind=2)
    assert h.seats == [2, 7]  # dealt first: the big blind
    assert h.to_act == 7
    h.act(7, ActionKind.CALL)
    h.act(2, ActionKind.CHECK)
    h.deal_board("2c", "7d", "9h")
    assert h.to_act == 2  # the big blind speaks first after the flop


def test_pouques_no_ante_heads_up_and_antes_otherwise() -> None:
    hu = start_hand("pouques-2020", Level(100, 200, ante=25), 1, {1: 5_000, 2: 5_000})
    assert hu.dead == {}
    three = start_hand("pouques-2020", Level(100, 200, ante=25), 1, {1: 5_000, 2: 5_000, 3: 10})
    assert three.dead == {1: 25, 2: 25, 3: 10} and three.ante_capped == {3}


def test_dead_button_cdc_5_2() -> None:
    prev = Positions(button=1, small_blind=2, big_blind=3)
    # Seat 3 (the big blind) is eliminated: BB moves to 4, no small blind, button to seat 2.
    pos = next_positions(prev, {1, 2, 4, 5})
    assert pos == Positions(button=2, small_blind=None, big_blind=4)
    # Seat 2 (small blind) is eliminated: the button lands on the empty seat 2 (dead button).
    pos2 = next_positions(prev, {1, 3, 4, 5})
    assert pos2 == Positions(button=2, small_blind=3, big_blind=4)
    h = start_hand("cdc-2013", Level(50, 100), 2, {1: 1_000, 3: 1_000, 4: 1_000, 5: 1_000},
                   positions=pos2)
    assert h.to_act == 5 and h.seats == [3, 4, 5, 1]
    # After a hand without small blind the button still moves one seat (onto the empty seat 3).
    after = next_positions(Positions(button=2, small_blind=None, big_blind=4), {1, 4, 5})
    assert after == Positions(button=3, small_blind=4, big_blind=5)


def test_heads_up_nobody_big_blind_twice() -> None:
    prev = Positions(button=1, small_blind=2, big_blind=3)
    pos = next_positions(prev, {1, 4})  # seats 2 and 3 eliminated at once
    assert pos.big_blind == 4 and pos.small_blind == pos.button == 1


def test_antes_all_in_player_plays_only_for_antes() -> None:
    pots = build_pots({1: 10, 2: 525, 3: 525}, [1, 2, 3], {1: 10, 2: 25, 3: 25}, {1})
    assert pots == [(30, (1, 2, 3)), (1_030, (2, 3))]


def test_evaluator_categories_and_wheel() -> None:
    cases = {
        "AsKsQsJsTs2c3d": Category.STRAIGHT_FLUSH,
        "As2c3d4h5s9c9d": Category.STRAIGHT,
        "AsAhAdAcKs2c3d": Category.QUADS,
        "AsAhAdKcKs2c3d": Category.FULL_HOUSE,
        "AsAhAd2c2d3h3s": Category.FULL_HOUSE,
        "2s7s9sJsKs2c3d": Category.FLUSH,
        "AsAhKdKc2s2c3d": Category.TWO_PAIR,
        "AsKh9d7c5s3c2d": Category.HIGH_CARD,
    }
    for cards, cat in cases.items():
        assert category(evaluate(parse_cards(cards))) is cat, cards
    wheel = evaluate(parse_cards("As2c3d4h5s"))
    six_high = evaluate(parse_cards("2c3d4h5s6s"))
    assert six_high > wheel
    assert evaluate(parse_cards("AsAhKdKc2s2cQd")) > evaluate(parse_cards("AsAhKdKc2s2cJd"))


def test_parse_card_lookup_reads_every_spelling_as_before() -> None:
    """`parse_card` looks the usual spelling up (issue #35); other cases and errors as before."""
    from hub.rules.evaluator import RANKS, SUITS, parse_card
    from hub.rules.records import InvalidCard

    for r, rank in enumerate(RANKS):
        for s, suit in enumerate(SUITS):
            for text in (rank + suit, rank.lower() + suit, rank + suit.upper()):
                assert parse_card(text) == r * 4 + s, text
    for bad in ("", "A", "Asx", "1s", "Ax", "??", " As"):
        with pytest.raises(InvalidCard):
            parse_card(bad)
