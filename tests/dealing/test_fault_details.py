"""The facts a fault carries to the rulings engine (its `details` and `cards`): the rulings read
them (`boxed_in_deal`, `during_deal`, `small_blind`, `last_served`, `extra`...), so each is asserted
here, not just the fault's kind. Found by mutants of table_agent/dealing.py that survived the
dealing tests (docs/testing.md)."""

from __future__ import annotations

from table_agent.dealing import FaultKind as K
from table_agent.dealing import HandContext, Street
from table_agent.dealing_script import TableScript, hand_started
from table_agent.events import TRAY, CardArrived, CardTag, Zone

SEATS = (1, 2, 3, 4, 5, 6)
HOLE = ("As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c")


def _table() -> tuple[TableScript, HandContext]:
    return hand_started(hand=3, seats=SEATS, button=6, first_to_deal=1, dealer=6)


def test_boxed_cards_are_counted_during_the_deal_and_name_the_card() -> None:
    t, ctx = _table()
    t.hole(ctx.deal_order[0], HOLE[0])
    first = t.tray("2h")
    second = t.tray("2d")
    assert [f.kind for f in first + second] == [K.BOXED_CARD, K.BOXED_CARD]
    assert first[0].cards == ("2h",) and second[0].cards == ("2d",)
    assert first[0].details["during_deal"] is True
    assert (first[0].details["boxed_in_deal"], first[0].details["boxed_after_deal"]) == (1, 0)
    assert (second[0].details["boxed_in_deal"], second[0].details["boxed_after_deal"]) == (2, 0)


def _dealt_and_first_action(t: TableScript, ctx: HandContext) -> None:
    """Two cards each, then the first action: the deal is over (dealing_state: first action)."""
    for seat, card in zip(ctx.deal_order * 2, HOLE):
        t.hole(seat, card)
    t.act(3, 3, "fold")


def test_boxed_cards_after_the_deal_are_counted_apart() -> None:
    t, ctx = _table()
    _dealt_and_first_action(t, ctx)
    first = t.tray("2h")
    second = t.tray("2d")
    assert first[0].details["during_deal"] is False
    assert (first[0].details["boxed_in_deal"], first[0].details["boxed_after_deal"]) == (0, 1)
    assert (second[0].details["boxed_in_deal"], second[0].details["boxed_after_deal"]) == (0, 2)


def test_an_extra_hole_card_after_the_deal_to_the_last_seat_served() -> None:
    t, ctx = _table()
    _dealt_and_first_action(t, ctx)
    last = ctx.deal_order[-1]
    extra = [f for f in t.hole(last, "2s") if f.kind is K.EXTRA_HOLE_CARD]
    assert extra and extra[0].seat == last and extra[0].cards == ("2s",)
    details = extra[0].details
    assert (details["held"], details["extra"]) == (3, 1)
    assert details["last_served"] is True and details["small_blind"] is False
    assert details["during_deal"] is False


def test_a_card_slid_to_the_small_blind_during_the_deal_is_an_extra_card_there() -> None:
    t, ctx = _table()
    for seat, card in zip(ctx.deal_order * 2, HOLE):
        t.hole(seat, card)
    sb = ctx.small_blind_seat
    other = next(s for s in ctx.deal_order if s not in (sb, ctx.deal_order[-1]))
    card = next(c for s, c in zip(ctx.deal_order * 2, HOLE) if s == other)
    extra = [f for f in t.move(card, Zone.seat_zone(sb)) if f.kind is K.EXTRA_HOLE_CARD]
    assert extra and extra[0].seat == sb and extra[0].cards == (card,)
    details = extra[0].details
    assert (details["held"], details["extra"], details["small_blind"]) == (3, 1, True)
    assert details["last_served"] is False and details["during_deal"] is True


def test_a_fault_carries_its_hand_and_the_time_of_the_card_that_revealed_it() -> None:
    t, ctx = _table()
    t.hole(ctx.deal_order[0], HOLE[0])
    out = t.tray("2h")
    assert (out[0].hand, out[0].at) == (ctx.hand, t.now) and t.now > 0


def test_an_action_out_of_turn_carries_the_press_time() -> None:
    t, ctx = _table()
    for seat, card in zip(ctx.deal_order * 2, HOLE):
        t.hole(seat, card)
    out = t.monitor.action_seen(4, 3, action="call", at=123.5)
    assert [(f.kind, f.seat, f.cards, f.at) for f in out] == [(K.OUT_OF_TURN, 4, (), 123.5)]
    d = out[0].details
    assert (d["via"], d["action"], d["skipped"], d["acted_since_skipped"]) == ("panel", "call", 3, 1)


def test_two_burns_before_the_flop_name_both_burns() -> None:
    t, ctx = _table()
    _dealt_and_first_action(t, ctx)
    t.burn("2s")
    out = t.burn("2h")
    assert [(f.kind, f.cards, f.details["burns"]) for f in out] == [(K.FLOP_TWO_BURNS, ("2s", "2h"), 2)]


def test_a_tag_in_no_deck_is_unknown_at_its_seat_and_named_by_uid() -> None:
    t, ctx = _table()
    out = t.hole(ctx.deal_order[0], "tag:0badc0de")
    assert [(f.kind, f.seat, f.cards, f.details["uid"]) for f in out] == [(K.UNKNOWN_TAG, 1, (), "0BADC0DE")]


def test_a_tag_of_a_deck_with_no_face_is_unknown_too() -> None:
    """A registry entry with a deck but no card face: unknown, never a crash (observations never
    raise)."""
    t, _ = _table()
    tag = CardTag(uid="A0FF", card=None, deck="A", table="t1")
    out = t.monitor.observe(CardArrived(Zone.seat_zone(1), tag, 1.0, 1))
    assert [(f.kind, f.details["uid"]) for f in out] == [(K.UNKNOWN_TAG, "A0FF")]


def test_board_faults_carry_position_burns_and_whether_the_round_was_open() -> None:
    t, ctx = _table()
    _dealt_and_first_action(t, ctx)
    t.burn("2s")
    flop = t.board("2h", "2d", "2c")  # preflop betting still open: premature
    assert [(f.kind, f.cards) for f in flop] == [(K.PREMATURE_FLOP, ("2h",))]
    d = flop[0].details
    assert (d["board_position"], d["burns"], d["round_open"], d["actions_preflop"]) == (1, 1, True, 1)
    t.monitor.betting_closed(Street.PREFLOP)
    t.monitor.betting_closed(Street.FLOP)
    turn = t.board("3h")  # no burn for the turn
    assert [(f.kind, f.details["board_position"], f.details["burns"], f.details["round_open"])
            for f in turn] == [(K.TURN_WITHOUT_BURN, 4, 1, False)]


def test_a_board_card_removed_says_how_many_are_left() -> None:
    t, ctx = _table()
    _dealt_and_first_action(t, ctx)
    t.monitor.betting_closed(Street.PREFLOP)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    out = t.move("2d", TRAY)
    assert [(f.kind, f.cards, f.details["board_left"]) for f in out] == [(K.BOARD_REMOVED, ("2d",), 2)]


def test_hands_short_at_the_first_action_name_their_cards_and_the_last_served() -> None:
    """The deal stops after seat 4's second card: seats 5 and 6 (the button, served last) are
    short; the rulings read `last_served` (cpt87 6.5) and `held`."""
    t, ctx = _table()
    for seat, card in zip(ctx.deal_order * 2, HOLE[:10]):
        t.hole(seat, card)
    out = t.act(3, 3)
    assert [(f.kind, f.seat, f.cards, f.details["held"], f.details["last_served"]) for f in out] == [
        (K.MISSING_HOLE_CARD, 5, (HOLE[4],), 1, False), (K.MISSING_HOLE_CARD, 6, (HOLE[5],), 1, True)]


def test_a_card_of_no_deck_is_named_by_its_tag_in_other_faults() -> None:
    t, _ = _table()
    out = t.hole(3, "tag:0badc0de")  # unknown, and the deal should start at seat 1
    assert [(f.kind, f.cards) for f in out] == [(K.UNKNOWN_TAG, ()), (K.WRONG_DEAL_ORDER, ("tag:0BADC0DE",))]
