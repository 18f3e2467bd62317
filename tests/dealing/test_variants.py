"""The dealing monitor on the other games' card flow: PLO's four and five cards, short deck's
missing ranks, pineapple's discard, with the counts the hub takes from hub/rules/games.toml."""

from __future__ import annotations

import pytest

from table_agent.dealing import FaultKind as K
from table_agent.dealing import HandContext, Street
from table_agent.dealing_script import DECK, TableScript, hand_started
from table_agent.events import MUCK

SEATS = (1, 2, 3)  # button 3: dealt 1, 2, 3


def start(hole_cards: int, **more: object) -> tuple[TableScript, HandContext]:
    return hand_started(hand=1, seats=SEATS, button=3, first_to_deal=1, hole_cards=hole_cards,
                      **more)


@pytest.mark.parametrize("hole_cards", [4, 5])
def test_omaha_deals_clean_in_as_many_rounds_as_cards(hole_cards: int) -> None:
    t, ctx = start(hole_cards)
    assert t.deal(ctx, DECK[: 3 * hole_cards]) == []
    t.monitor.betting_closed(Street.PREFLOP)
    t.burn(DECK[20])
    assert t.board(*DECK[21:24]) == []


@pytest.mark.parametrize("hole_cards", [4, 5])
def test_one_card_more_than_the_game_deals_is_an_extra_card(hole_cards: int) -> None:
    t, ctx = start(hole_cards)
    t.deal(ctx, DECK[: 3 * hole_cards])
    faults = t.hole(2, DECK[3 * hole_cards])
    assert [(f.kind, f.seat, f.details["held"], f.details["extra"], f.details["last_served"]) for f in faults] == [
        (K.EXTRA_HOLE_CARD, 2, hole_cards + 1, 1, False)]


def test_plo5_seat_short_of_its_fifth_card_is_missing_at_the_flop() -> None:
    t, ctx = start(5)
    for seat, card in zip(ctx.deal_order * 5, DECK[:14]):  # the button's fifth card never comes
        t.hole(seat, card)
    t.monitor.betting_closed(Street.PREFLOP)
    t.burn(DECK[20])
    faults = t.board(DECK[21])
    assert [(f.kind, f.seat, f.details["held"]) for f in faults] == [(K.MISSING_HOLE_CARD, 3, 4)]


def test_a_seat_skipped_in_the_third_round_of_an_omaha_deal() -> None:
    t, ctx = start(4)
    for seat, card in zip(ctx.deal_order * 2 + (1, 3), DECK):  # round 3: seat 2 passed over
        faults = t.hole(seat, card)
    assert [(f.kind, f.seat, f.details["round"]) for f in faults] == [(K.SEAT_SKIPPED, 2, 3)]


@pytest.mark.parametrize("rank", list("2345"))
def test_every_removed_rank_is_foreign_in_short_deck(rank: str) -> None:
    t, _ = start(2, excluded_ranks=frozenset("2345"))
    assert t.hole(1, "6s") == []
    faults = t.hole(2, rank + "h")
    assert [(f.kind, f.seat, f.cards) for f in faults] == [(K.FOREIGN_CARD, 2, (rank + "h",))]


def test_the_short_decks_lowest_cards_are_in_play() -> None:
    t, ctx = start(2, excluded_ranks=frozenset("2345"))
    assert t.deal(ctx, ["6s", "6h", "7c", "Ad", "Ks", "9h"]) == []


def test_pineapple_a_second_card_to_the_muck_is_the_fold_not_a_discard() -> None:
    t, ctx = start(3, discards=1)
    assert t.deal(ctx, DECK[:9]) == []
    t.monitor.set_to_act(1)
    assert t.move(DECK[0], MUCK) == []  # seat 1's discard
    t.monitor.set_to_act(2)
    faults = t.move(DECK[3], MUCK)  # seat 1 again, while seat 2 is to act: a fold out of turn
    assert [(f.kind, f.seat) for f in faults] == [(K.OUT_OF_TURN, 1)]
