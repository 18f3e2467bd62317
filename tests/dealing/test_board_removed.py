"""Board cards leaving the board before the hand is over (spec/faults.md `board_removed`, cdc-2013
8.6): a fault while two hands or more are live and betting is to come; none once a single hand is
left or the river's betting is closed (the table already knows every card). Found by a mutant of
`_decided` in table_agent/dealing.py that survived the dealing tests (docs/testing.md)."""

from __future__ import annotations

from table_agent.dealing import DealingMonitor, Decision, FaultDetected, HandContext, Street
from table_agent.dealing import FaultKind as K
from table_agent.dealing_script import DECK, TableScript
from table_agent.events import BOARD, BURN

SEATS = (1, 2, 3)


def _to_the_flop(folds: tuple[int, ...]) -> TableScript:
    """Three players; `folds` fold preflop; the flop is burned and dealt."""
    ctx = HandContext(hand=6, seats=SEATS, button=3, first_to_deal=1)
    t = TableScript(DealingMonitor(table="t1"))
    t.monitor.start_hand(ctx)
    t.deal(ctx, DECK[:6])
    t.round(Street.PREFLOP, [(s, "fold" if s in folds else "call") for s in SEATS])
    t.burn(DECK[6])
    t.board(*DECK[7:10])
    return t


def _removed(faults: list[FaultDetected]) -> list[tuple[str, ...]]:
    return [f.cards for f in faults if f.kind is K.BOARD_REMOVED]


def test_a_flop_card_swept_away_with_two_hands_live_is_a_fault() -> None:
    t = _to_the_flop(folds=(3,))
    assert _removed(t.move(DECK[8], BURN)) == [(DECK[8],)]
    assert t.move(DECK[9], BURN) == []  # reported once a hand: the TD already has the board in hand


def test_an_allowed_board_card_removal_serves_once() -> None:
    """cdc-2013 8.3: a four-card flop's extra card is ruled the turn's burn and may leave the board
    once; put back and taken off again, it is a board card removed."""
    t = _to_the_flop(folds=())
    t.board(DECK[10])  # a fourth card: the extra one is the turn's burn
    t.monitor.expect_remedy(Decision.EXTRA_CARD_BURN)
    assert t.move(DECK[10], BURN) == []
    t.move(DECK[10], BOARD)
    assert _removed(t.move(DECK[10], BURN)) == [(DECK[10],)]


def test_a_burn_moved_to_the_flop_no_longer_counts_as_a_burn() -> None:
    """cdc-2013 8.3: two burns before the flop, the second goes to the flop; the turn then needs
    its own burn."""
    ctx = HandContext(hand=6, seats=SEATS, button=3, first_to_deal=1)
    t = TableScript(DealingMonitor(table="t1"))
    t.monitor.start_hand(ctx)
    t.deal(ctx, DECK[:6])
    t.round(Street.PREFLOP, [(s, "call") for s in SEATS])
    t.burn(DECK[6])
    t.burn(DECK[7])
    t.monitor.expect_remedy(Decision.BURN_TO_FLOP)
    t.move(DECK[7], BOARD)
    t.board(DECK[8], DECK[9])
    t.round(Street.FLOP, [(s, "check") for s in SEATS])
    assert [f.kind for f in t.board(DECK[10])] == [K.TURN_WITHOUT_BURN]


def test_a_flop_card_swept_away_with_one_hand_left_is_no_fault() -> None:
    t = _to_the_flop(folds=(2, 3))
    assert t.move(DECK[8], BURN) == []


def test_the_board_gathered_after_the_river_betting_is_no_fault() -> None:
    t = _to_the_flop(folds=())
    for street, burn, card in ((Street.FLOP, DECK[10], DECK[11]), (Street.TURN, DECK[12], DECK[13])):
        t.round(street, [(s, "check") for s in SEATS])
        t.burn(burn)
        t.board(card)
    t.round(Street.RIVER, [(s, "check") for s in SEATS])
    assert t.move(DECK[7], BURN) == []
    assert t.faults == []
