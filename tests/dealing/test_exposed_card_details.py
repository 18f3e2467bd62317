"""An exposed card during the deal (spec/faults.md `exposed_card`): the facts the rulings read
(`exposed_count` for a second exposure, `dealer_card` for the dealing player's own card,
`button_first_card`, `last_served`, `deal_position`), the replacement each exposure is owed after
the deal, and what is not an exposure at all. Found by mutants of table_agent/dealing.py that
survived the dealing tests (docs/testing.md)."""

from __future__ import annotations

from table_agent.dealing import FaultDetected, HandContext
from table_agent.dealing import FaultKind as K
from table_agent.dealing_script import TableScript, hand_started
from table_agent.events import TRAY, Zone

SEATS = (1, 2, 3, 4, 5, 6)
HOLE = ("As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c")
SPARE = ("2s", "2h", "2d", "2c", "3s")


def _table() -> tuple[TableScript, HandContext]:
    """Six players, the button (seat 6) deals himself: a player-dealer (dealer_card)."""
    return hand_started(hand=5, seats=SEATS, button=6, first_to_deal=1, dealer=6)


def _kinds(faults: list[FaultDetected]) -> list[K]:
    return [f.kind for f in faults]


def test_a_first_round_card_exposed_names_its_seat_position_and_nothing_more() -> None:
    t, _ = _table()
    t.hole(1, HOLE[0])
    t.hole(2, HOLE[1])
    out = t.move(HOLE[1], TRAY)
    assert _kinds(out) == [K.EXPOSED_CARD]
    f = out[0]
    assert (f.seat, f.cards) == (2, (HOLE[1],))
    d = f.details
    assert d["during_deal"] is True and d["deal_complete"] is False
    assert (d["deal_position"], d["seat_card"], d["exposed_count"]) == (2, 1, 1)
    assert (d["dealer_card"], d["button_first_card"], d["last_served"]) == (False, False, False)


def test_the_button_dealers_first_card_exposed_is_his_own_the_buttons_first_and_the_last_served() -> None:
    t, _ = _table()
    for seat, card in zip(SEATS, HOLE):
        t.hole(seat, card)
    first = t.move(HOLE[1], TRAY)  # seat 2's first card, then the button's
    second = t.move(HOLE[5], TRAY)
    assert _kinds(first + second) == [K.EXPOSED_CARD, K.EXPOSED_CARD]
    f = second[0]
    assert (f.seat, f.cards) == (6, (HOLE[5],))
    d = f.details
    assert (d["deal_position"], d["seat_card"], d["exposed_count"]) == (6, 1, 2)
    assert (d["dealer_card"], d["button_first_card"], d["last_served"]) == (True, True, True)
    assert d["during_deal"] is True and d["deal_complete"] is False


def test_the_buttons_second_card_exposed_is_not_his_first() -> None:
    t, ctx = _table()
    t.deal(ctx, HOLE)
    out = t.move(HOLE[11], TRAY)  # the button's second card, the last of the deal
    assert _kinds(out) == [K.EXPOSED_CARD]
    d = out[0].details
    assert (d["seat_card"], d["deal_position"]) == (2, 12)
    assert d["button_first_card"] is False and d["dealer_card"] is True and d["deal_complete"] is True


def test_each_exposed_card_is_owed_one_replacement_and_no_more() -> None:
    t, ctx = _table()
    t.hole(1, HOLE[0])
    t.hole(2, HOLE[1])
    t.move(HOLE[1], TRAY)  # seat 2 exposed in round 1...
    for seat, card in zip(ctx.deal_order[2:] + ctx.deal_order, HOLE[2:]):
        t.hole(seat, card)
    assert t.move(HOLE[7], TRAY)[0].kind is K.EXPOSED_CARD  # ...and its round-2 card too
    assert t.hole(2, SPARE[0]) == []  # the two replacements, after the rounds
    assert t.hole(2, SPARE[1]) == []
    extra = t.hole(2, SPARE[2])  # a third card from the deck: one too many
    assert _kinds(extra) == [K.EXTRA_HOLE_CARD]
    assert (extra[0].cards, extra[0].details["held"], extra[0].details["extra"]) == ((SPARE[2],), 3, 1)


def test_an_exposed_card_given_back_is_dead_and_the_seat_still_owed_its_replacement() -> None:
    """The exposed card put back in the hand before any ruling is a dead card in a live hand; the
    replacement the exposure was owed then comes silently, a further card does not."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    t.move(HOLE[1], TRAY)  # seat 2's first card exposed, the rounds complete
    assert _kinds(t.move(HOLE[1], Zone.seat_zone(2))) == [K.DEAD_CARD_IN_HAND]
    assert t.hole(2, SPARE[0]) == []  # the replacement owed
    assert _kinds(t.hole(2, SPARE[1])) == [K.EXTRA_HOLE_CARD]


def test_a_burn_card_sent_to_the_tray_during_the_deal_is_no_exposure() -> None:
    t, _ = _table()
    t.hole(1, HOLE[0])
    t.burn(SPARE[0])
    assert t.move(SPARE[0], TRAY) == []


def test_a_hole_card_to_the_tray_after_the_deal_is_no_exposure() -> None:
    """Once the first action is made the deal is over: a hole card thrown to the tray is a fold
    thrown the wrong way, not a card exposed by the dealer."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    t.act(3, 3)
    assert t.move(HOLE[3], TRAY) == []


def test_a_card_never_dealt_exposed_has_no_deal_position() -> None:
    """A card that reached a seat from the burn, not from the deck, then went to the tray: it has
    no place in the deal (0), so cdc-2013 7.1's "one of the first two cards" cannot match it."""
    t, _ = _table()
    t.hole(1, HOLE[0])
    t.burn(SPARE[0])
    assert t.move(SPARE[0], Zone.seat_zone(2)) == []  # a lone card in seat 2's place: not two yet
    out = t.move(SPARE[0], TRAY)
    assert [(f.kind, f.seat) for f in out] == [(K.EXPOSED_CARD, 2)]
    assert (out[0].details["deal_position"], out[0].details["seat_card"]) == (0, 0)


def test_a_seat_owed_two_replacements_that_got_one_is_not_short() -> None:
    """Both of seat 2's cards exposed during the deal, one replacement given: at the first action
    seat 2 still holds one card, but one more is due to it, not missing."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    t.move(HOLE[1], TRAY)
    t.move(HOLE[7], TRAY)
    t.hole(2, SPARE[0])
    assert t.act(3, 3) == []
