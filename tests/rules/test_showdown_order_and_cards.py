"""Showdown details the worked examples leave untested (found by mutants of hub/rules/showdown.py,
docs/testing.md): who shows first when the last aggressor is no longer live, the river aggressor
showing first, cards given as a string or with an unknown face, a pot nobody showed for, and a seat
all-in on its ante at showdown."""

from __future__ import annotations

from hub.rules import ActionKind, Level, Street, start_hand
from hub.rules.rulesets import get_ruleset
from hub.rules.showdown import order

BOARD = (("2c", "7d", "9h"), ("Jd",), ("3s",))


def test_a_last_aggressor_no_longer_live_hands_the_first_show_to_the_next_live_seat() -> None:
    rules = get_ruleset("cdc-2013")
    assert order(rules, {1, 2, 4}, 1, {Street.RIVER: [3]}, Street.RIVER) == [4, 1, 2]
    assert order(rules, {1, 2, 4}, 1, {Street.RIVER: [4]}, Street.RIVER) == [4, 1, 2]
    assert order(rules, {1, 2, 4}, 1, {}, Street.RIVER) == [2, 4, 1]


def _to_the_river(river_bettor: int | None = None):  # type: ignore[no-untyped-def]
    h = start_hand("cdc-2013", Level(50, 100), 1, {1: 1_000, 2: 1_000, 3: 1_000})
    h.act(1, ActionKind.CALL)
    h.act(2, ActionKind.CALL)
    h.act(3, ActionKind.CHECK)
    for street, board in zip((Street.FLOP, Street.TURN, Street.RIVER), BOARD):
        h.deal_board(*board)
        if street is Street.RIVER and river_bettor is not None:
            while (seat := h.to_act) != river_bettor:
                assert seat is not None
                h.act(seat, ActionKind.CHECK)
            h.act(river_bettor, ActionKind.BET, 200)
            while h.betting_open and h.to_act is not None:
                h.act(h.to_act, ActionKind.CALL)
        else:
            while h.betting_open and h.to_act is not None:
                h.act(h.to_act, ActionKind.CHECK)
    return h


def test_the_river_bettor_shows_first_and_cards_may_come_as_a_string() -> None:
    h = _to_the_river(river_bettor=3)
    res = h.showdown({1: "AsAh", 2: ("Ks", "Kh"), 3: "Q??"})  # seat 3's face unknown: not scored
    assert res.shown_order[0] == 3
    assert [(p.amount, p.winners) for p in res.pots] == [(900, (1,))]


def test_a_pot_nobody_showed_for_goes_to_the_first_to_show() -> None:
    h = _to_the_river(river_bettor=3)
    res = h.showdown({})  # every hand mucked face down: the first in showdown order stands
    assert [(p.amount, p.winners) for p in res.pots] == [(900, (3,))]


def test_a_seat_all_in_on_its_ante_plays_only_for_the_antes() -> None:
    h = start_hand("cdc-2013", Level(50, 100, ante=10), 1, {1: 10, 2: 1_000, 3: 1_000})
    h.act(2, ActionKind.CALL)  # seat 1 (the button) has nothing left after its ante
    h.act(3, ActionKind.CHECK)
    for board in BOARD:
        h.deal_board(*board)
        while h.betting_open and h.to_act is not None:
            h.act(h.to_act, ActionKind.CHECK)
    res = h.showdown({1: "AsAh", 2: "KsKh", 3: "QsQh"})
    assert [(p.amount, p.eligible, p.winners) for p in res.pots] == [(30, (2, 3, 1), (1,)), (200, (2, 3), (2,))]


def test_cards_may_come_as_evaluator_codes() -> None:
    from hub.rules.evaluator import parse_card

    h = _to_the_river()
    res = h.showdown({1: (parse_card("As"), parse_card("Ah")), 2: ("Ks", "Kh")})
    assert [(p.amount, p.winners) for p in res.pots] == [(300, (1,))]
