"""The facts the deal-order faults carry (spec/faults.md `wrong_deal_order`, `seat_skipped`): the
card, the seat expected or served, the card's place in the deal and its round; after one of these
misdeal-class faults the order is no longer judged. Found by mutants of `_deal_card` in
table_agent/dealing.py that survived the dealing tests (docs/testing.md)."""

from __future__ import annotations

from table_agent.dealing import FaultDetected, HandContext
from table_agent.dealing import FaultKind as K
from table_agent.dealing_script import DECK, TableScript, hand_started

SEATS = (1, 2, 3, 4, 5, 6)


def _start() -> tuple[TableScript, HandContext]:
    return hand_started(hand=5, seats=SEATS, button=6, first_to_deal=1)


def _facts(faults: list[FaultDetected], *keys: str) -> list[tuple[object, ...]]:
    return [(f.kind, f.seat, f.cards, *(f.details[k] for k in keys)) for f in faults]


def test_a_deal_starting_at_the_wrong_seat_names_the_seat_expected_then_stops_judging() -> None:
    t, _ = _start()
    out = t.hole(3, DECK[0])
    assert _facts(out, "expected_seat", "deal_position", "round") == [(K.WRONG_DEAL_ORDER, 3, (DECK[0],), 1, 1, 1)]
    assert t.hole(1, DECK[1]) == [] and t.hole(6, DECK[2]) == []


def test_a_card_back_to_an_earlier_seat_names_the_seat_due_and_the_round() -> None:
    t, _ = _start()
    for n, seat in enumerate((1, 2, 3, 4, 5, 6, 1, 2, 3, 4)):
        t.hole(seat, DECK[n])
    out = t.hole(2, DECK[10])  # seat 5 is due its second card
    assert _facts(out, "expected_seat", "deal_position", "round") == [(K.WRONG_DEAL_ORDER, 2, (DECK[10],), 5, 11, 2)]
    assert t.hole(6, DECK[11]) == []  # no longer judged


def test_a_seat_passed_over_is_skipped_in_its_round_and_names_the_seat_served() -> None:
    t, _ = _start()
    for n, seat in enumerate((1, 2, 3)):
        t.hole(seat, DECK[n])
    out = t.hole(5, DECK[3])  # seat 4 passed over
    assert _facts(out, "round", "served_seat", "deal_position") == [(K.SEAT_SKIPPED, 4, (DECK[3],), 1, 5, 4)]
    assert t.hole(2, DECK[4]) == []  # no longer judged


def test_a_new_round_begun_before_the_last_seats_were_served_skips_them() -> None:
    t, _ = _start()
    for n, seat in enumerate((1, 2, 3, 4)):
        t.hole(seat, DECK[n])
    out = t.hole(1, DECK[4])  # the second round begins: seats 5 and 6 had no first card
    assert _facts(out, "round") == [(K.SEAT_SKIPPED, 5, (DECK[4],), 1), (K.SEAT_SKIPPED, 6, (DECK[4],), 1)]


def test_in_the_last_round_a_card_back_to_the_first_seat_is_out_of_order_not_a_new_round() -> None:
    t, _ = _start()
    for n, seat in enumerate((1, 2, 3, 4, 5, 6, 1, 2)):
        t.hole(seat, DECK[n])
    out = t.hole(1, DECK[8])  # a third card to seat 1 in a two-card game
    assert [(f.kind, f.details["expected_seat"]) for f in out] == [(K.WRONG_DEAL_ORDER, 3)]
