"""After a ruling, the dealer's correction raises no new fault and the hand plays on cleanly.

Each test: a clean 6-handed hand (seats 1-6, button 6), the fault at the card that reveals it,
the ruling's remedy told to the monitor (`expect_remedy`), the physical correction, the rest of
the hand to the river; then exactly one fault in the whole hand.
"""

from __future__ import annotations

from table_agent.dealing import Decision, HandContext, Street
from table_agent.dealing import FaultKind as K
from table_agent.dealing_script import TableScript, hand_started
from table_agent.events import BOARD, BURN, TRAY, Zone

SEATS = (1, 2, 3, 4, 5, 6)
HOLE = ("As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c")


def new_table(**overrides: object) -> tuple[TableScript, HandContext]:
    return hand_started(**(dict(hand=3, seats=SEATS, button=6, first_to_deal=1, dealer=6) | overrides))


def preflop(t: TableScript) -> None:
    t.round(Street.PREFLOP, [(3, "fold"), (4, "call"), (5, "fold"), (6, "fold"), (1, "call"), (2, "check")])


def checks(t: TableScript, street: Street) -> None:
    t.round(street, [(1, "check"), (2, "check"), (4, "check")])


def finish_from_turn(t: TableScript) -> None:
    """Flop round, then turn and river with their burns, then showdown."""
    checks(t, Street.FLOP)
    t.burn("3s")
    t.board("3h")
    checks(t, Street.TURN)
    t.burn("4s")
    t.board("4d")
    checks(t, Street.RIVER)
    t.muck(2)


def kinds(t: TableScript) -> list[K]:
    return [f.kind for f in t.faults]


def test_exposed_card_replaced_by_the_first_burn() -> None:
    t, ctx = new_table()
    for seat, card in zip(ctx.deal_order, HOLE[:4]):
        t.hole(seat, card)
    assert [f.kind for f in t.move("Jc", TRAY)] == [K.EXPOSED_CARD]
    t.monitor.expect_remedy(Decision.REPLACE_WITH_BURN, cards=("Jc",), seat=4)
    for seat, card in zip((5, 6, 1, 2, 3, 4, 5, 6), HOLE[4:]):
        t.hole(seat, card)
    t.hole(4, "2s")  # the would-be first burn, after the button's last card (cdc 7.3)
    preflop(t)
    t.move("Jc", BURN)  # the exposed card is the first burn
    t.board("2h", "2d", "2c")
    finish_from_turn(t)
    assert kinds(t) == [K.EXPOSED_CARD]


def test_flop_without_burn_first_card_designated_burn() -> None:
    t, ctx = new_table()
    t.deal(ctx, HOLE)
    preflop(t)
    t.board("2s", "2h", "2d")  # no burn: one fault, at the first card
    t.monitor.expect_remedy(Decision.DESIGNATE_BURN)
    t.move("2s", BURN)
    t.board("2c")
    finish_from_turn(t)
    assert kinds(t) == [K.FLOP_WITHOUT_BURN]


def test_two_burns_caught_before_the_flop() -> None:
    t, ctx = new_table()
    t.deal(ctx, HOLE)
    preflop(t)
    t.burn("2s")
    t.burn("2h")
    t.monitor.expect_remedy(Decision.BURN_TO_FLOP)
    t.move("2h", BOARD)  # the second burn is the first flop card
    t.board("2d", "2c")
    finish_from_turn(t)
    assert kinds(t) == [K.FLOP_TWO_BURNS]


def test_two_burns_after_the_flop_last_flop_card_burns_for_the_turn() -> None:
    t, ctx = new_table()
    t.deal(ctx, HOLE)
    preflop(t)
    t.burn("2s")
    t.burn("2h")
    t.board("2d", "2c", "5s")
    t.monitor.expect_remedy(Decision.BURN_TO_FLOP, cards=("2h",))
    t.move("2h", BOARD)
    t.move("5s", BURN)  # the turn's burn
    checks(t, Street.FLOP)
    t.board("3h")  # no new burn: 5s already is
    checks(t, Street.TURN)
    t.burn("4s")
    t.board("4d")
    assert kinds(t) == [K.FLOP_TWO_BURNS]


def test_four_card_flop_fourth_card_burns_for_the_turn() -> None:
    t, ctx = new_table()
    t.deal(ctx, HOLE)
    preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c", "3s")
    t.monitor.expect_remedy(Decision.EXTRA_CARD_BURN)
    t.move("3s", BURN)
    checks(t, Street.FLOP)
    t.board("3h")
    checks(t, Street.TURN)
    t.burn("4s")
    t.board("4d")
    assert kinds(t) == [K.FLOP_FOUR_CARDS]


def test_premature_flop_reshuffled_and_redealt_without_burn() -> None:
    t, ctx = new_table()
    t.deal(ctx, HOLE)
    t.monitor.betting_opened(Street.PREFLOP)
    for seat in (3, 4):
        t.monitor.set_to_act(seat)
        t.act(seat, seat, "fold" if seat == 3 else "call")
    t.burn("2s")
    t.board("2h", "2d", "2c")
    t.monitor.expect_remedy(Decision.RESHUFFLE_BOARD)
    for card in ("2h", "2d", "2c"):
        t.leave(card)  # back into the stub
    for seat, action in ((5, "fold"), (6, "fold"), (1, "call"), (2, "check")):
        t.monitor.set_to_act(seat)
        t.act(seat, seat, action)
    t.monitor.betting_closed(Street.PREFLOP)
    t.board("2d", "5c", "2h")  # new flop, no burn: the burn stands
    finish_from_turn(t)
    assert kinds(t) == [K.PREMATURE_FLOP]


def test_premature_turn_river_dealt_as_turn() -> None:
    t, ctx = new_table()
    t.deal(ctx, HOLE)
    preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    t.monitor.betting_opened(Street.FLOP)
    t.monitor.set_to_act(1)
    t.act(1, 1, "check")
    t.burn("3s")
    t.board("3h")
    t.monitor.expect_remedy(Decision.RIVER_AS_TURN, cards=("3h",))
    t.move("3h", TRAY)  # set aside, face up
    for seat in (2, 4):
        t.monitor.set_to_act(seat)
        t.act(seat, seat, "check")
    t.monitor.betting_closed(Street.FLOP)
    t.burn("4s")
    t.board("4d")  # the would-be river is the turn
    checks(t, Street.TURN)
    t.move("3h", BOARD)  # reshuffled into the stub, drawn again as the river, no burn
    checks(t, Street.RIVER)
    assert kinds(t) == [K.PREMATURE_TURN]


def test_premature_turn_pouques_bottom_card() -> None:
    t, ctx = new_table()
    t.deal(ctx, HOLE)
    preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    t.monitor.betting_opened(Street.FLOP)
    t.burn("3s")
    t.board("3h")
    t.monitor.expect_remedy(Decision.BOTTOM_CARD)
    t.leave("3s")  # the burn goes back on top of the stub
    t.move("3h", BURN)  # the exposed card is burned
    t.board("5c")  # 3rd card from the bottom is the turn, at once
    checks(t, Street.FLOP)
    checks(t, Street.TURN)
    t.burn("3s")
    t.board("4d")
    checks(t, Street.RIVER)
    assert kinds(t) == [K.PREMATURE_TURN]


def test_turn_without_burn_burned_and_next_card_dealt() -> None:
    t, ctx = new_table()
    t.deal(ctx, HOLE)
    preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    checks(t, Street.FLOP)
    t.board("3s")
    t.monitor.expect_remedy(Decision.BURN_AND_NEXT)
    t.move("3s", BURN)
    t.board("3h")
    checks(t, Street.TURN)
    t.burn("4s")
    t.board("4d")
    assert kinds(t) == [K.TURN_WITHOUT_BURN]


def test_premature_river_reshuffled_then_new_river_without_burn() -> None:
    t, ctx = new_table()
    t.deal(ctx, HOLE)
    preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    checks(t, Street.FLOP)
    t.burn("3s")
    t.board("3h")
    t.monitor.betting_opened(Street.TURN)
    t.monitor.set_to_act(1)
    t.act(1, 1, "bet")
    t.burn("4s")
    t.board("4d")
    t.monitor.expect_remedy(Decision.RESHUFFLE_BOARD)
    t.leave("4d")
    for seat in (2, 4):
        t.monitor.set_to_act(seat)
        t.act(seat, seat, "call")
    t.monitor.betting_closed(Street.TURN)
    t.board("4c")
    checks(t, Street.RIVER)
    assert kinds(t) == [K.PREMATURE_RIVER]


def test_premature_river_pouques_burned_then_dealt_after_betting() -> None:
    t, ctx = new_table()
    t.deal(ctx, HOLE)
    preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    checks(t, Street.FLOP)
    t.burn("3s")
    t.board("3h")
    t.monitor.betting_opened(Street.TURN)
    t.burn("4s")
    t.board("4d")
    t.monitor.expect_remedy("burn_premature")
    t.leave("4s")  # burn back on top
    t.move("4d", BURN)  # the exposed river is burned
    checks(t, Street.TURN)
    t.burn("4s")
    t.board("4c")
    assert kinds(t) == [K.PREMATURE_RIVER]


def test_extra_card_to_small_blind_becomes_the_burn() -> None:
    t, ctx = new_table()
    t.deal(ctx, HOLE)
    t.hole(1, "2s")
    t.monitor.expect_remedy(Decision.BURN_AS_FIRST, seat=1)
    t.move("2s", BURN)
    preflop(t)
    t.board("2h", "2d", "2c")  # 2s was the burn (brest III.7)
    finish_from_turn(t)
    assert kinds(t) == [K.EXTRA_HOLE_CARD]


def test_dealers_exposed_card_kept_pcpm() -> None:
    t, ctx = new_table()
    t.deal(ctx, HOLE)  # the dealer (button, seat 6) exposes his last card
    t.move("3c", TRAY)
    t.monitor.expect_remedy(Decision.CARD_KEPT, seat=6)
    t.move("3c", Zone.seat_zone(6))
    preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    finish_from_turn(t)
    assert kinds(t) == [K.EXPOSED_CARD]


def test_boxed_card_set_aside_deal_unchanged() -> None:
    t, ctx = new_table()
    t.hole(1, "As")
    t.tray("5c")
    t.monitor.expect_remedy(Decision.SET_ASIDE)
    for seat, card in zip(ctx.deal_order[1:] + ctx.deal_order, HOLE[1:]):
        t.hole(seat, card)
    preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    finish_from_turn(t)
    assert kinds(t) == [K.BOXED_CARD]


def test_misdeal_then_clean_redeal() -> None:
    t, ctx = new_table()
    assert [f.kind for f in t.hole(6, "As")] == [K.WRONG_DEAL_ORDER]
    t.monitor.expect_remedy(Decision.MISDEAL)
    t.hole(1, "Kd")
    t.clear()  # cards gathered and reshuffled
    t.monitor.start_hand(ctx)  # same hand, redealt
    t.deal(ctx, HOLE)
    preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    finish_from_turn(t)
    assert kinds(t) == [K.WRONG_DEAL_ORDER]


def test_absent_players_hand_killed_without_out_of_turn() -> None:
    t, ctx = new_table(away=frozenset({5}))
    t.deal(ctx, HOLE)
    t.monitor.expect_remedy(Decision.HAND_DEAD, seat=5)
    t.monitor.set_to_act(3)
    t.muck(5)  # the dealer kills the absent player's hand
    preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    finish_from_turn(t)
    assert kinds(t) == [K.ABSENT_PLAYER]


def test_unknown_decision_refused() -> None:
    t, _ = new_table()
    try:
        t.monitor.expect_remedy("shuffle_harder")
    except ValueError as err:
        assert "shuffle_harder" in str(err)
    else:
        raise AssertionError("an unknown remedy must be refused")


def test_without_the_remedy_the_same_correction_is_a_fault() -> None:
    """The monitor is not blind after a fault: a correction nobody ruled is itself reported."""
    t, ctx = new_table()
    t.deal(ctx, HOLE)
    preflop(t)
    t.board("2s", "2h", "2d")
    t.move("2s", BURN)  # no ruling told to the monitor
    assert kinds(t) == [K.FLOP_WITHOUT_BURN, K.BOARD_REMOVED]


def test_remedy_covers_only_its_street() -> None:
    t, ctx = new_table()
    t.deal(ctx, HOLE)
    preflop(t)
    t.board("2s", "2h", "2d")
    t.monitor.expect_remedy(Decision.DESIGNATE_BURN)
    t.move("2s", BURN)
    t.board("2c")
    checks(t, Street.FLOP)
    t.board("3h")  # the turn without its burn is a new fault
    assert kinds(t) == [K.FLOP_WITHOUT_BURN, K.TURN_WITHOUT_BURN]


def test_betting_decisions_are_accepted_as_no_ops() -> None:
    t, ctx = new_table()
    t.deal(ctx, HOLE)
    for decision in ("action_binding", "call_or_fold_only", "td_decision", "treated_as_call"):
        t.monitor.expect_remedy(decision)
    preflop(t)
    assert kinds(t) == []


def test_continue_after_substantial_action_kills_the_short_hand() -> None:
    t, ctx = new_table()
    for seat, card in zip(ctx.deal_order * 2, HOLE[:11]):  # the button gets one card
        t.hole(seat, card)
    t.monitor.set_to_act(3)
    assert [f.kind for f in t.act(3, 3, "call")] == [K.MISSING_HOLE_CARD]
    t.monitor.expect_remedy(Decision.CONTINUE, dead_seats=(6,))
    t.monitor.set_to_act(4)
    t.muck(6)  # the dead hand goes to the muck while seat 4 is to act: not an action out of turn
    assert kinds(t) == [K.MISSING_HOLE_CARD]


def test_td_decision_then_the_tds_choice() -> None:
    """pouques 77, premature flop after one action: the TD chooses; the choice is the remedy."""
    t, ctx = new_table()
    t.deal(ctx, HOLE)
    t.monitor.betting_opened(Street.PREFLOP)
    t.monitor.set_to_act(3)
    t.act(3, 3, "fold")
    t.burn("2s")
    t.board("2h", "2d", "2c")
    t.monitor.expect_remedy(Decision.TD_DECISION)
    t.monitor.expect_remedy(Decision.RESHUFFLE_BOARD)  # the TD's choice
    for card in ("2h", "2d", "2c"):
        t.leave(card)
    for seat, action in ((4, "call"), (5, "fold"), (6, "fold"), (1, "call"), (2, "check")):
        t.monitor.set_to_act(seat)
        t.act(seat, seat, action)
    t.monitor.betting_closed(Street.PREFLOP)
    t.board("2c", "5c", "5h")
    finish_from_turn(t)
    assert kinds(t) == [K.PREMATURE_FLOP]
