"""Deal order, hole-card counts, deck checks and out-of-turn, as the monitor sees them card by card."""

from __future__ import annotations

import pytest

from table_agent.dealing import BadHandContext, DealingMonitor, HandContext, Street
from table_agent.dealing import FaultKind as K
from table_agent.dealing_script import DECK, TableScript, card_tag, hand_started
from table_agent.events import BOARD, BURN, MUCK, CardLeft, Zone


def start(**overrides: object) -> tuple[TableScript, HandContext]:
    return hand_started(**(dict(hand=1, seats=(1, 2, 3, 4, 5, 6), button=6, first_to_deal=1) | overrides))


def test_deal_order_is_clockwise_from_first_seat_with_wrap() -> None:
    ctx = HandContext(hand=1, seats=(2, 4, 7, 9), button=4, first_to_deal=7)
    assert ctx.deal_order == (7, 9, 2, 4)


def test_heads_up_big_blind_first_then_button() -> None:
    t, ctx = start(seats=(3, 8), button=3, first_to_deal=8)
    assert ctx.deal_order == (8, 3) and ctx.small_blind_seat == 3
    assert t.deal(ctx, DECK[:4]) == []


def test_heads_up_deal_starting_at_the_button_is_wrong_order() -> None:
    t, ctx = start(seats=(3, 8), button=3, first_to_deal=8)
    faults = t.hole(3, "As")
    assert [(f.kind, f.seat, f.details["expected_seat"]) for f in faults] == [(K.WRONG_DEAL_ORDER, 3, 8)]


def test_button_skipped_is_seen_when_the_second_round_starts() -> None:
    t, _ = start()
    for seat, card in zip((1, 2, 3, 4, 5), DECK):
        assert t.hole(seat, card) == []
    faults = t.hole(1, "Kd")
    assert [(f.kind, f.seat, f.details["round"]) for f in faults] == [(K.SEAT_SKIPPED, 6, 1)]


def test_going_back_to_an_earlier_seat_is_wrong_order_and_reported_once() -> None:
    t, _ = start()
    for seat, card in zip((1, 2, 3), DECK):
        t.hole(seat, card)
    assert [f.kind for f in t.hole(2, "Kd")] == [K.WRONG_DEAL_ORDER]
    t.hole(4, "Qd")
    t.hole(5, "Jd")
    t.monitor.action_seen(3, 3)
    assert [f.kind for f in t.faults] == [K.WRONG_DEAL_ORDER]  # misdeal-class: no cascade


def test_missing_cards_reported_at_the_first_board_card() -> None:
    t, ctx = start()
    for seat, card in zip(ctx.deal_order * 2, DECK[:10]):  # seats 5 and 6 get one card
        t.hole(seat, card)
    t.monitor.betting_closed(Street.PREFLOP)
    t.burn(DECK[20])
    faults = t.board(DECK[21])
    assert [(f.kind, f.seat) for f in faults] == [(K.MISSING_HOLE_CARD, 5), (K.MISSING_HOLE_CARD, 6)]


def test_plo_extra_card_is_the_fifth() -> None:
    t, ctx = start(hole_cards=4, seats=(1, 2, 3), button=3)
    assert t.deal(ctx, DECK[:12]) == []
    faults = t.hole(1, DECK[12])
    assert [(f.kind, f.seat, f.details["held"], f.details["extra"]) for f in faults] == [
        (K.EXTRA_HOLE_CARD, 1, 5, 1)]


def test_mixed_decks_reported_once_per_hand() -> None:
    t, ctx = start()
    t.deal(ctx, DECK[:12])
    t.monitor.betting_closed(Street.PREFLOP)
    t.burn("Ah@B")
    t.board("Kh@B", "Qh@B", "Jh@B")
    assert [(f.kind, f.cards) for f in t.faults] == [(K.MIXED_DECKS, ("Ah",))]


def test_deck_in_play_taken_from_the_first_card_when_unset() -> None:
    t, ctx = start(deck=None)
    assert t.deal(ctx, [c + "@B" for c in DECK[:12]]) == []
    assert [f.kind for f in t.burn("2c")] == [K.MIXED_DECKS]


def test_card_moving_between_zones_is_not_a_duplicate() -> None:
    t, ctx = start()
    t.deal(ctx, DECK[:12])
    t.monitor.betting_closed(Street.PREFLOP)
    t.burn(DECK[12])
    t.board(*DECK[13:16])
    t.monitor.expect_remedy("designate_burn")  # nothing to remedy: harmless
    assert t.faults == []


def test_out_of_turn_count_follows_the_skipped_seat() -> None:
    t, ctx = start()
    t.deal(ctx, DECK[:12])
    t.monitor.set_to_act(3)
    counts = [f.details["acted_since_skipped"] for s in (4, 5) for f in t.act(s, 3, "call")]
    assert counts == [1, 2]
    assert t.act(3, 3, "call") == []  # the skipped player wakes up
    assert [f.details["skipped"] for f in t.act(1, 6, "call")] == [6]


def test_mucking_at_showdown_is_not_out_of_turn() -> None:
    t, ctx = start()
    t.deal(ctx, DECK[:12])
    for street in Street:
        t.monitor.betting_closed(street)
    assert t.muck(4) == []


def test_observations_between_hands_are_ignored() -> None:
    t = TableScript(DealingMonitor(table="t1"))
    assert t.hole(1, "As") == [] and t.tray("Kd") == [] and t.monitor.hand is None


@pytest.mark.parametrize("fields", [
    dict(seats=(1,), first_to_deal=1),
    dict(seats=(1, 2, 2), first_to_deal=1),
    dict(seats=(1, 2, 3), first_to_deal=4),
    dict(seats=(1, 12), first_to_deal=1),
])
def test_bad_hand_context_refused(fields: dict[str, object]) -> None:
    with pytest.raises(BadHandContext):
        HandContext(hand=1, button=1, **fields)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        HandContext(hand=1, button=1, **fields)  # type: ignore[arg-type]


def test_a_card_seen_twice_where_it_lies_counts_once() -> None:
    t, ctx = start()
    t.deal(ctx, DECK[:12])
    t.hole(1, DECK[0])  # antenna flicker: same tag, same seat, no departure in between
    t.monitor.betting_closed(Street.PREFLOP)
    t.burn(DECK[12])
    t.board(*DECK[13:16])
    assert t.faults == []


def test_arrival_before_departure_is_a_move_and_still_judged() -> None:
    t, ctx = start()
    t.deal(ctx, DECK[:12])
    t.monitor.betting_closed(Street.PREFLOP)
    t.burn(DECK[12])
    t.board(*DECK[13:16])
    faults = t.arrive(BURN, DECK[13])  # a flop card swept to the burn, no CardLeft seen yet
    assert [(f.kind, f.cards) for f in faults] == [(K.BOARD_REMOVED, (DECK[13],))]
    assert t.monitor.observe(CardLeft(BOARD, card_tag(DECK[13]), t.now, 999)) == []  # late departure


def test_players_lifting_their_cards_to_look_is_not_a_missing_card() -> None:
    t, ctx = start()
    t.deal(ctx, DECK[:12])
    t.leave(DECK[2])  # seat 3 lifts both cards off the antenna to look at them
    t.leave(DECK[8])
    t.monitor.set_to_act(3)
    assert t.act(3, 3, "call") == []  # the deal ends while seat 3 holds its cards in the air
    t.hole(3, DECK[2])
    t.hole(3, DECK[8])  # put back: still two cards, not four
    t.monitor.betting_closed(Street.PREFLOP)
    t.burn(DECK[12])
    t.board(*DECK[13:16])
    t.hole(3, DECK[20])  # a real third card is still an extra card
    assert [(f.kind, f.seat, f.details["held"]) for f in t.faults] == [(K.EXTRA_HOLE_CARD, 3, 3)]


def test_winner_mucking_after_everyone_folded_is_not_out_of_turn() -> None:
    t, ctx = start(seats=(1, 2, 3), button=3)
    t.deal(ctx, DECK[:6])
    t.monitor.set_to_act(3)
    t.act(3, 3, "fold")
    t.monitor.set_to_act(1)
    t.act(1, 1, "fold")
    t.monitor.set_to_act(2)  # the engine has not yet said the hand is over
    t.monitor.set_to_act(1)
    assert t.muck(2) == []  # the big blind wins uncontested and mucks
    assert t.faults == []


def test_pineapple_discard_is_not_a_fold() -> None:
    t, ctx = start(hole_cards=3, discards=1, seats=(1, 2, 3), button=3)
    assert t.deal(ctx, DECK[:9]) == []
    t.monitor.set_to_act(1)
    assert t.move(DECK[0], MUCK) == []  # seat 1 throws one card away
    t.monitor.betting_closed(Street.PREFLOP)
    t.burn(DECK[9])
    t.board(*DECK[10:13])
    t.monitor.set_to_act(2)
    assert [(f.kind, f.seat) for f in t.muck(1)] == [(K.OUT_OF_TURN, 1)]  # now a fold, out of turn


def test_short_deck_low_cards_are_foreign() -> None:
    t, ctx = start(excluded_ranks=frozenset("2345"))
    t.hole(1, "6s")
    faults = t.hole(2, "5s")
    assert [(f.kind, f.seat, f.cards) for f in faults] == [(K.FOREIGN_CARD, 2, ("5s",))]


def test_a_neighbours_card_sliding_onto_a_full_hand_is_an_extra_card() -> None:
    t, ctx = start()
    t.deal(ctx, DECK[:12])
    t.monitor.set_to_act(3)
    t.act(3, 3, "call")
    faults = t.move(DECK[1], Zone.seat_zone(3))  # seat 2's first card lands on seat 3's hand
    assert [(f.kind, f.seat, f.cards, f.details["held"]) for f in faults] == [
        (K.EXTRA_HOLE_CARD, 3, (DECK[1],), 3)]


def test_a_card_to_an_empty_seat_names_it_and_stops_judging_the_order() -> None:
    """A misdeal-class fault (cdc-2013 7.1): the seat, the card, its place in the deal; the
    dealer's next cards are not judged for order any more (the TD is already called)."""
    t, ctx = start(seats=(1, 2, 3), button=3)
    t.hole(1, DECK[0])
    faults = t.hole(8, DECK[1])
    assert [(f.kind, f.seat, f.cards) for f in faults] == [(K.CARD_TO_EMPTY_SEAT, 8, (DECK[1],))]
    assert (faults[0].details["during_deal"], faults[0].details["deal_position"]) == (True, 2)
    assert t.hole(3, DECK[2]) == []  # seat 2 passed over: no second fault
