"""The engine's shortcuts for speed (issue #35) give what the long way gives: records, the plain
PHH lines, the turn order shared between hands, the one-pass hand evaluation."""

from __future__ import annotations

import dataclasses

import pytest

from hub.rules import ActionKind, ActionRecord, ActionStatus, Level, start_hand
from hub.rules.evaluator import Category, category, evaluate, parse_cards
from hub.rules.phh import _ACTION, _PLAIN_STEPS, _PLAYER_OPS
from hub.rules.records import Street, action_record


def test_a_fast_record_is_a_frozen_action_record() -> None:
    fields = (3, ActionKind.CALL, None, ActionStatus.ACCEPTED, ActionKind.CALL, 200, 100, None, None,
              False, Street.FLOP)
    fast, plain = action_record(*fields), ActionRecord(*fields)
    assert type(fast) is ActionRecord and fast == plain and hash(fast) == hash(plain)
    assert repr(fast) == repr(plain) and fast.to_dict() == plain.to_dict()
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.seat = 4  # type: ignore[misc]


def test_the_engine_logs_frozen_action_records() -> None:
    h = start_hand("cdc-2013", Level(50, 100), 1, {1: 1_000, 2: 1_000, 3: 1_000})
    h.act(1, ActionKind.CALL)
    h.act(2, ActionKind.FOLD)
    assert [type(r) for r in h.log] == [ActionRecord, ActionRecord]
    with pytest.raises(dataclasses.FrozenInstanceError):
        h.log[0].added = 0  # type: ignore[misc, union-attr]


def test_the_plain_phh_lines_read_as_the_pattern_reads_them() -> None:
    assert {"p1 f", "p9 cc", "p2 sm", "d dh p3 ????", "d dh p6 ????????"} <= set(_PLAIN_STEPS)
    for line, step in _PLAIN_STEPS.items():
        m = _ACTION.fullmatch(line)
        assert m is not None, line
        hole_seat, hole, _, seat, op, arg = m.groups()
        if hole_seat is not None:
            assert step == ("dh", int(hole_seat), 0, (hole,), line)
        elif op == "sm":
            assert arg is None and step == ("sm", int(seat), 0, (), line)
        else:
            assert step == (_PLAYER_OPS[op], int(seat), None, (), line)


def test_hands_on_one_seating_share_the_turn_order_but_own_their_seats() -> None:
    stacks = {1: 1_000, 3: 1_000, 5: 1_000, 8: 1_000}
    first = start_hand("cdc-2013", Level(50, 100), 3, stacks)
    first.seats.append(9)  # whatever a caller does to one hand's list
    second = start_hand("cdc-2013", Level(50, 100), 3, stacks)
    assert second.seats == [5, 8, 1, 3]
    assert second.to_act == 1  # the first seat after the big blind (8)
    assert start_hand("cdc-2013", Level(50, 100), 5, stacks).seats == [8, 1, 3, 5]


@pytest.mark.parametrize(("cards", "kind", "ranks"), [
    ("KsKdKh5c5d5s2c", Category.FULL_HOUSE, "K5"),  # two trips: the lower one is the pair
    ("7s7d7h9c9dQsQc", Category.FULL_HOUSE, "7Q"),  # trips and two pairs: the higher pair
    ("4s4d4h4cAsAdAh", Category.QUADS, "4A"),  # quads: the trips give the kicker
    ("JsJd3c3dTsTh2c", Category.TWO_PAIR, "JT3"),  # three pairs: the third pair is the kicker
    ("8s8d8h2c3dKsQc", Category.TRIPS, "8KQ"),
    ("As2d3c4h5s9dJc", Category.STRAIGHT, "5"),  # the wheel
    ("2h3h4h5h6h7h9c", Category.STRAIGHT_FLUSH, "7"),
    ("AhKhQh2h7hAsAd", Category.FLUSH, "AKQ72"),  # flush over trips
    ("9s9d5c5h2c2dAs", Category.TWO_PAIR, "95A"),
    ("9s9dKc5h2c3dAs", Category.PAIR, "9AK5"),
])
def test_seven_card_hands_are_ranked_by_their_best_five(cards: str, kind: Category, ranks: str) -> None:
    score = evaluate(parse_cards(cards))
    assert category(score) is kind
    nibbles = [score >> shift & 15 for shift in range(16, -1, -4)]
    assert nibbles[:len(ranks)] == ["23456789TJQKA".index(r) for r in ranks]
