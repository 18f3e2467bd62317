"""How many cards a hand may hold once cards move between hands (spec/faults.md `extra_hole_card`):
a card slid onto a full hand is one too many, one slid back to the hand it left is not, and in
Pineapple a hand that discarded holds one card less. Found by mutants of `_full` in
table_agent/dealing.py that survived the dealing tests (docs/testing.md)."""

from __future__ import annotations

from table_agent.dealing import FaultDetected, HandContext
from table_agent.dealing import FaultKind as K
from table_agent.dealing_script import DECK, TableScript, hand_started
from table_agent.events import BURN, MUCK, Zone


def _start(**overrides: object) -> tuple[TableScript, HandContext]:
    return hand_started(**(dict(hand=4, seats=(1, 2, 3), button=3, first_to_deal=1) | overrides))


def _extra(faults: list[FaultDetected]) -> list[tuple[int | None, object]]:
    return [(f.seat, f.details["held"]) for f in faults if f.kind is K.EXTRA_HOLE_CARD]


def test_a_card_slid_back_to_the_hand_it_left_is_not_an_extra_card() -> None:
    t, ctx = _start()
    t.deal(ctx, DECK[:6])
    t.act(1, 1)
    assert _extra(t.move(DECK[1], Zone.seat_zone(3))) == [(3, 3)]  # seat 2's card onto seat 3
    assert t.move(DECK[1], Zone.seat_zone(2)) == []  # and back: seat 2 holds two again
    assert _extra(t.move(DECK[0], Zone.seat_zone(3))) == [(3, 3)]  # seat 3 holds two again too


def test_a_dead_card_taken_back_out_of_a_hand_leaves_it_as_dealt() -> None:
    t, ctx = _start()
    t.deal(ctx, DECK[:6])
    t.act(1, 1)
    t.burn(DECK[20])
    assert [(f.kind, f.seat, f.cards, f.details["came_from"]) for f in t.move(DECK[20], Zone.seat_zone(2))] == [
        (K.DEAD_CARD_IN_HAND, 2, (DECK[20],), "burn")]
    t.move(DECK[20], BURN)  # the dealer takes it back
    assert _extra(t.move(DECK[0], Zone.seat_zone(2))) == [(2, 3)]  # two in seat 2, not three


def test_pineapple_after_a_discard_two_cards_make_a_full_hand() -> None:
    t, ctx = _start(hole_cards=3, discards=1)
    assert t.deal(ctx, DECK[:9]) == []
    t.monitor.set_to_act(1)
    assert t.move(DECK[0], MUCK) == []  # seat 1 discards: two cards left, a full hand now
    assert _extra(t.move(DECK[1], Zone.seat_zone(1))) == [(1, 3)]  # seat 2's card slides onto it


def test_pineapple_a_hand_that_has_not_discarded_holds_three() -> None:
    t, ctx = _start(hole_cards=3, discards=1)
    t.deal(ctx, DECK[:9])
    t.monitor.set_to_act(1)
    t.move(DECK[0], MUCK)  # seat 1 discards
    t.move(DECK[1], Zone.seat_zone(1))  # seat 2's card onto seat 1 (extra there): seat 2 holds two
    assert t.move(DECK[1], Zone.seat_zone(2)) == []  # back on seat 2: three, as dealt
