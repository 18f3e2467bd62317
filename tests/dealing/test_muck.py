"""Hole cards reaching the muck (spec/faults.md `out_of_turn`, via the muck): a fold, reported at
its first card and naming it when another seat is to act; a discard in Pineapple (the hand plays
on, one card less); a card from the deck straight to the muck is no one's fold. Found by mutants of
`_to_muck` in table_agent/dealing.py that survived the dealing tests (docs/testing.md)."""

from __future__ import annotations

from table_agent.dealing import FaultDetected, HandContext
from table_agent.dealing import FaultKind as K
from table_agent.dealing_script import DECK, TableScript, hand_started
from table_agent.events import MUCK, Zone


def _start(**overrides: object) -> tuple[TableScript, HandContext]:
    return hand_started(**(dict(hand=8, seats=(1, 2, 3), button=3, first_to_deal=1) | overrides))


def _out_of_turn(faults: list[FaultDetected]) -> list[tuple[int | None, tuple[str, ...], object, object]]:
    out = [f for f in faults if f.kind is K.OUT_OF_TURN]
    assert all(f.details["acted_since_skipped"] == 1 for f in out)  # the rulings' "late wake-up" count
    return [(f.seat, f.cards, f.details["via"], f.details["skipped"]) for f in out]


def test_a_fold_out_of_turn_is_reported_at_its_first_card_naming_it() -> None:
    t, ctx = _start()
    t.deal(ctx, DECK[:6])
    t.monitor.set_to_act(1)
    assert _out_of_turn(t.move(DECK[2], MUCK)) == [(3, (DECK[2],), "muck", 1)]
    assert t.move(DECK[5], MUCK) == []  # the rest of the same fold


def test_pineapple_the_fold_after_the_discard_is_reported_at_its_first_card() -> None:
    t, ctx = _start(hole_cards=3, discards=1)
    t.deal(ctx, DECK[:9])
    t.monitor.set_to_act(1)
    assert t.move(DECK[2], MUCK) == []  # seat 3 discards one card
    assert _out_of_turn(t.move(DECK[5], MUCK)) == [(3, (DECK[5],), "muck", 1)]  # then folds


def test_pineapple_a_hand_that_discarded_and_lost_a_card_is_not_full() -> None:
    """Seat 1 discards (two left), one of its cards slides onto seat 2 and one of seat 2's onto
    seat 1: seat 2 holds one too many, seat 1 holds two again, not too many."""
    t, ctx = _start(hole_cards=3, discards=1)
    t.deal(ctx, DECK[:9])
    t.monitor.set_to_act(1)
    t.move(DECK[0], MUCK)
    assert [f.kind for f in t.move(DECK[3], Zone.seat_zone(2))] == [K.EXTRA_HOLE_CARD]
    assert t.move(DECK[1], Zone.seat_zone(1)) == []


def test_a_game_with_two_discards_the_third_card_mucked_is_a_fold() -> None:
    t, ctx = _start(hole_cards=4, discards=2)
    t.deal(ctx, DECK[:12])
    t.monitor.set_to_act(1)
    assert t.move(DECK[2], MUCK) == [] and t.move(DECK[5], MUCK) == []  # seat 3 discards two
    assert _out_of_turn(t.move(DECK[8], MUCK)) == [(3, (DECK[8],), "muck", 1)]


def test_a_card_from_the_deck_straight_to_the_muck_is_no_fold() -> None:
    t, ctx = _start()
    t.deal(ctx, DECK[:6])
    t.monitor.set_to_act(1)
    assert t.arrive(MUCK, DECK[20]) == []


def test_a_hand_folded_on_the_panel_mucked_after_the_turn_moved_on_is_no_action() -> None:
    t, ctx = _start()
    t.deal(ctx, DECK[:6])
    t.monitor.set_to_act(1)
    t.monitor.action_seen(1, 1, action="fold", at=9.0)
    t.monitor.set_to_act(2)
    assert t.move(DECK[0], MUCK) == []  # seat 1's cards reach the muck while seat 2 is to act
