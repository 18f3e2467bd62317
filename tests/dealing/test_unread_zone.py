"""A zone whose reader is down (issue #33, point 3) is unknown, not empty: the monitor raises no fault
from it. Cards dealt to an unread seat are not seen, so the deal order is not judged while a seat is
unread, and a seat still unread when the deal ends is not short of cards."""

from __future__ import annotations

from table_agent.dealing import FaultKind as K
from table_agent.dealing import HandContext, Street
from table_agent.dealing_script import DECK, TableScript, hand_started
from table_agent.events import Zone


def start() -> tuple[TableScript, HandContext]:
    return hand_started(hand=1, seats=(1, 2, 3, 4), button=4, first_to_deal=1)


def deal_without(t: TableScript, ctx: HandContext, unseen: int) -> list[object]:
    faults: list[object] = []
    for seat, card in zip(ctx.deal_order * 2, DECK[:8]):
        if seat != unseen:  # its reader is down: the card lands, nobody reads it
            faults += t.hole(seat, card)
    t.monitor.betting_closed(Street.PREFLOP)
    faults += t.burn(DECK[20])
    faults += t.board(DECK[21], DECK[22], DECK[23])
    return faults


def test_a_seat_whose_reader_is_down_raises_no_fault_during_the_deal() -> None:
    t, ctx = start()
    t.monitor.zone_unread(Zone.seat_zone(2), True)
    assert deal_without(t, ctx, unseen=2) == []


def test_the_same_deal_with_the_seat_read_and_empty_is_judged() -> None:
    """The control: a seat read as empty is skipped and short."""
    t, ctx = start()
    faults = deal_without(t, ctx, unseen=2)
    assert [f.kind for f in faults] == [K.SEAT_SKIPPED]  # type: ignore[attr-defined]


def test_a_seat_read_again_before_the_end_of_the_deal_brings_its_cards_without_a_fault() -> None:
    t, ctx = start()
    t.monitor.zone_unread(Zone.seat_zone(2), True)
    for seat, card in zip(ctx.deal_order * 2, DECK[:8]):
        if seat != 2:
            assert t.hole(seat, card) == []
    t.monitor.zone_unread(Zone.seat_zone(2), False)
    assert t.hole(2, DECK[1]) == [] and t.hole(2, DECK[5]) == []  # read again: its two cards
    t.monitor.betting_closed(Street.PREFLOP)
    assert t.burn(DECK[20]) == [] and t.board(DECK[21], DECK[22], DECK[23]) == []


def test_a_seat_read_again_and_short_is_reported_short() -> None:
    t, ctx = start()
    t.monitor.zone_unread(Zone.seat_zone(2), True)
    for seat, card in zip(ctx.deal_order * 2, DECK[:8]):
        if seat != 2:
            t.hole(seat, card)
    t.monitor.zone_unread(Zone.seat_zone(2), False)
    t.hole(2, DECK[1])  # one card there: it is read, the other is not there
    t.monitor.betting_closed(Street.PREFLOP)
    t.burn(DECK[20])
    faults = t.board(DECK[21])
    assert [(f.kind, f.seat) for f in faults] == [(K.MISSING_HOLE_CARD, 2)]
