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


def deal_preflop(t: TableScript, ctx: HandContext) -> None:
    for seat, card in zip(ctx.deal_order * 2, DECK[:8]):
        assert t.hole(seat, card) == []
    t.monitor.betting_closed(Street.PREFLOP)


def test_a_burn_whose_reader_is_down_is_not_counted_as_empty() -> None:
    """The burn's reader goes down before the flop: the burn card lands unseen, and the flop is not
    `flop_without_burn`; the turn's burn read once it is back is not a second burn before the flop."""
    t, ctx = start()
    deal_preflop(t, ctx)
    t.monitor.zone_unread(Zone.parse("burn"), True)
    assert t.board(DECK[21], DECK[22], DECK[23]) == []
    t.monitor.zone_unread(Zone.parse("burn"), False)
    t.monitor.betting_closed(Street.FLOP)
    assert t.burn(DECK[20]) == [] and t.burn(DECK[24]) == [] and t.board(DECK[25]) == []


def test_the_same_flop_with_the_burn_read_and_empty_is_judged() -> None:
    """The control: a burn read as empty at the flop is `flop_without_burn`."""
    t, ctx = start()
    deal_preflop(t, ctx)
    faults = t.board(DECK[21], DECK[22], DECK[23])
    assert [f.kind for f in faults] == [K.FLOP_WITHOUT_BURN]


def test_a_board_whose_reader_is_down_judges_no_card_by_its_place() -> None:
    """Cards may have landed on the board unseen: a card read there is not judged by its position."""
    t, ctx = start()
    deal_preflop(t, ctx)
    t.burn(DECK[20])
    t.monitor.zone_unread(Zone.parse("board"), True)
    t.monitor.zone_unread(Zone.parse("board"), False)
    assert t.board(DECK[21]) == [] and t.board(DECK[22], DECK[23], DECK[24]) == []  # 4 flop cards, unjudged


def test_the_same_board_read_all_along_is_judged() -> None:
    t, ctx = start()
    deal_preflop(t, ctx)
    t.burn(DECK[20])
    faults = t.board(DECK[21], DECK[22], DECK[23], DECK[24])
    assert [f.kind for f in faults] == [K.FLOP_FOUR_CARDS]
