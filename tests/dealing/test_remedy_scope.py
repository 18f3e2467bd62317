"""What a ruling told to the monitor (`expect_remedy`) allows, and no more: the cards it names, the
street it covers, the hands it kills or keeps alive, the hand it voids. Each test carries out a
ruling of a rulebook in ../shared/seeds (the article is named) and checks that the correction it
allows stays silent while a correction it does not allow is still a fault. Found by mutants of
`expect_remedy` in table_agent/dealing.py that survived the dealing tests (docs/testing.md)."""

from __future__ import annotations

from table_agent.dealing import Decision, FaultDetected, HandContext, Street
from table_agent.dealing import FaultKind as K
from table_agent.dealing_script import TableScript, hand_started
from table_agent.events import BOARD, BURN, MUCK, TRAY, Zone

SEATS = (1, 2, 3, 4, 5, 6)
HOLE = ("As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c")


def _table(**overrides: object) -> tuple[TableScript, HandContext]:
    return hand_started(**(dict(hand=7, seats=SEATS, button=6, first_to_deal=1, dealer=6) | overrides))


def _preflop(t: TableScript, seats: tuple[int, ...] = (3, 4, 5, 6, 1, 2)) -> None:
    """Everyone in `seats` calls (the big blind checks): the flop is the next card due."""
    t.round(Street.PREFLOP, [(s, "check" if s == 2 else "call") for s in seats])


def _kinds(faults: list[FaultDetected]) -> list[K]:
    return [f.kind for f in faults]


# --- flop without burn: the first card is designated burn (cdc-2013 8.3) ----------------------

def test_designate_burn_allows_the_first_flop_card_only() -> None:
    t, ctx = _table()
    t.deal(ctx, HOLE)
    _preflop(t)
    t.board("2s", "2h", "2d")
    t.monitor.expect_remedy(Decision.DESIGNATE_BURN)
    assert t.move("2s", BURN) == []
    assert _kinds(t.move("2h", BURN)) == [K.BOARD_REMOVED]  # the second card is the flop's


def test_designate_burn_naming_a_card_allows_that_card() -> None:
    t, ctx = _table()
    t.deal(ctx, HOLE)
    _preflop(t)
    t.board("2s", "2h", "2d")
    t.monitor.expect_remedy(Decision.DESIGNATE_BURN, cards=("2h",))
    assert t.move("2h", BURN) == []


# --- two burns before the flop: the second burn goes to the flop (cdc-2013 8.3) ------------------

def test_burn_to_flop_ruled_at_the_second_burn_then_the_flop_dealt_anyway() -> None:
    """The ruling reaches the table at the second burn, the dealer has already dealt three flop
    cards: the second burn joins the board and the last flop card becomes the turn's burn."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    _preflop(t)
    t.burn("2s")
    t.burn("2h")
    t.monitor.expect_remedy(Decision.BURN_TO_FLOP)
    t.board("2d", "2c", "5s")
    assert t.move("2h", BOARD) == []  # a fourth card on the board, but the one ruled there
    assert t.move("5s", BURN) == []
    assert _kinds(t.faults) == [K.FLOP_TWO_BURNS]


def test_burn_to_flop_only_the_second_burn_joins_the_flop() -> None:
    t, ctx = _table()
    t.deal(ctx, HOLE)
    _preflop(t)
    t.burn("2s")
    t.burn("2h")
    t.monitor.expect_remedy(Decision.BURN_TO_FLOP)
    t.board("2d", "2c", "5s")
    assert _kinds(t.move("2s", BOARD)) == [K.FLOP_FOUR_CARDS]  # the first burn is no flop card


def test_burn_to_flop_ruled_after_the_first_flop_card_sends_the_third_to_the_burn() -> None:
    t, ctx = _table()
    t.deal(ctx, HOLE)
    _preflop(t)
    t.burn("2s")
    t.burn("2h")
    t.board("2d")
    t.monitor.expect_remedy(Decision.BURN_TO_FLOP)
    t.board("2c", "5s")
    assert t.move("5s", BURN) == []  # the flop's last card, the turn's burn
    assert t.move("2h", BOARD) == []
    assert _kinds(t.move("2c", BURN)) == [K.BOARD_REMOVED]  # but not the second


# --- a board ruling covers its street, once -----------------------------------------------------

def test_a_flop_dealt_again_before_the_betting_closed_is_premature_again() -> None:
    """cdc-2013 8.3: a premature flop goes back into the stub; dealt again before the round is
    over, it is premature again and is reported again."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    t.monitor.betting_opened(Street.PREFLOP)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    t.monitor.expect_remedy(Decision.RESHUFFLE_BOARD)
    for card in ("2h", "2d", "2c"):
        t.leave(card)
    assert _kinds(t.board("6h", "6d", "6c")) == [K.PREMATURE_FLOP]  # fresh cards from the stub


def test_a_board_ruling_the_monitor_did_not_see_covers_the_last_street_dealt() -> None:
    """A TD may rule a board fault the antennas did not reveal (here the turn, dealt after the hub
    wrongly closed the flop's betting): the ruling covers the last street on the board."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    _preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    t.monitor.betting_closed(Street.FLOP)
    t.burn("3s")
    t.board("3h")
    assert t.faults == []
    t.monitor.expect_remedy(Decision.BURN_PREMATURE)
    assert t.move("3h", BURN) == []  # the turn ruled premature: burned
    assert _kinds(t.move("2c", TRAY)) == [K.BOARD_REMOVED]  # the flop is not covered


def test_a_board_ruling_with_no_board_covers_the_flop() -> None:
    t, ctx = _table()
    t.deal(ctx, HOLE)
    _preflop(t)
    t.monitor.expect_remedy(Decision.RESHUFFLE_BOARD)
    t.burn("2s")
    assert _kinds(t.board("2h", "2d", "2c")) == []


# --- hands killed, hands kept ---------------------------------------------------------------------

def test_a_hand_ruled_dead_mucked_while_another_is_to_act_is_no_action() -> None:
    """pouques-2020 79: an extra hole card kills the hand; the dealer mucks it whoever is to act."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    assert _kinds(t.hole(4, "2s")) == [K.EXTRA_HOLE_CARD]
    t.monitor.expect_remedy(Decision.HAND_DEAD, seat=4)
    t.monitor.set_to_act(3)
    assert t.muck(4) == []


def test_a_later_ruling_does_not_bring_a_dead_hand_back() -> None:
    """cdc-2013 5.1 kills the absent player's hand; a board ruling later in the hand (8.3) names no
    dead seat and leaves that hand dead."""
    t, ctx = _table(away=frozenset({5}))
    assert [(f.kind, f.seat) for f in t.deal(ctx, HOLE)] == [(K.ABSENT_PLAYER, 5)]
    _preflop(t, (3, 4, 6, 1, 2))
    t.board("2s", "2h", "2d")
    t.monitor.expect_remedy(Decision.DESIGNATE_BURN)
    t.monitor.set_to_act(1)
    assert t.muck(5) == []


def test_the_dealers_kept_card_leaves_his_hand_live_and_owed_nothing() -> None:
    """pcpm: the dealing player's own exposed card is kept, shown to all; no replacement is due
    and his hand plays on (folding it out of turn is an action out of turn)."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    t.move("3c", TRAY)  # the dealer (button, seat 6) exposes his last card
    t.monitor.expect_remedy(Decision.CARD_KEPT, seat=6)
    assert t.move("3c", Zone.seat_zone(6)) == []
    assert _kinds(t.hole(6, "2s")) == [K.EXTRA_HOLE_CARD]  # no replacement owed


def test_the_dealers_kept_card_hand_still_acts_in_turn() -> None:
    t, ctx = _table()
    t.deal(ctx, HOLE)
    t.move("3c", TRAY)
    t.monitor.expect_remedy(Decision.CARD_KEPT, seat=6)
    t.move("3c", Zone.seat_zone(6))
    t.monitor.set_to_act(3)
    assert [(f.kind, f.seat) for f in t.move("3c", MUCK)] == [(K.OUT_OF_TURN, 6)]


# --- a void hand ----------------------------------------------------------------------------------

def test_after_a_misdeal_the_cards_gathered_raise_nothing() -> None:
    """A misdeal (cdc-2013 7.1): the hand is void; the dealer gathers the cards any way he likes."""
    t, ctx = _table()
    assert _kinds(t.hole(6, "As")) == [K.WRONG_DEAL_ORDER]
    t.monitor.expect_remedy(Decision.MISDEAL)
    assert t.move("As", TRAY) == []
    assert t.tray("Kd") == []


def test_the_bottom_card_is_one_card_outside_the_betting_not_two() -> None:
    """pouques-2020: a premature turn is burned and the turn is dealt at once from the bottom of
    the stub; a river dealt before the betting then is premature again."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    _preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    t.monitor.betting_opened(Street.FLOP)
    t.burn("3s")
    t.board("3h")
    t.monitor.expect_remedy(Decision.BOTTOM_CARD)
    t.leave("3s")
    t.move("3h", BURN)
    assert t.board("5c") == []  # the bottom card, outside the betting: allowed
    t.burn("3s")
    assert _kinds(t.board("4d")) == [K.PREMATURE_RIVER]


def test_a_kept_card_ruling_keeps_only_that_seats_exposed_card() -> None:
    """Two cards exposed, seat 2's then the dealer's: the ruling keeps the dealer's (pcpm); seat 2's
    card put back in its hand is still a dead card there (cdc-2013 7.5)."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    t.move("Kd", TRAY)  # seat 2's first card
    t.move("3c", TRAY)  # the dealer's last card
    t.monitor.expect_remedy(Decision.CARD_KEPT, seat=6)
    assert t.move("3c", Zone.seat_zone(6)) == []
    assert [(f.kind, f.seat) for f in t.move("Kd", Zone.seat_zone(2))] == [(K.DEAD_CARD_IN_HAND, 2)]


def test_a_ruling_delivered_twice_is_carried_out_once() -> None:
    """The hub's outbox delivers at least once: the same ruling may reach the table twice."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    t.move("3c", TRAY)
    t.monitor.expect_remedy(Decision.CARD_KEPT, seat=6)
    t.monitor.expect_remedy(Decision.CARD_KEPT, seat=6)
    assert t.move("3c", Zone.seat_zone(6)) == []
    assert _kinds(t.hole(6, "2s")) == [K.EXTRA_HOLE_CARD]


def test_a_second_board_ruling_keeps_what_the_first_allowed() -> None:
    """cdc-2013 8.3: a premature flop, ruled at its first card (reshuffle); the dealer goes on with
    four cards, a four-card flop ruled in turn (the extra card burned). Gathering the premature
    flop stays allowed after the second ruling."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    t.monitor.betting_opened(Street.PREFLOP)
    t.burn("2s")
    assert _kinds(t.board("2h")) == [K.PREMATURE_FLOP]
    t.monitor.expect_remedy(Decision.RESHUFFLE_BOARD)
    assert _kinds(t.board("2d", "2c", "5s")) == [K.FLOP_FOUR_CARDS]
    t.monitor.expect_remedy(Decision.EXTRA_CARD_BURN)
    assert t.move("5s", BURN) == []
    for card in ("2h", "2d", "2c"):
        assert t.leave(card) == []


def test_the_extra_flop_card_ruling_allows_the_fourth_card_not_a_fifth() -> None:
    """cdc-2013 8.3: a four-card flop, its fourth card burned; ruled late, after the dealer also
    dealt a fifth card (a premature river of its own): that one leaving is not covered."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    _preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c", "5s", "5h")
    assert _kinds(t.faults)[-2:] == [K.FLOP_FOUR_CARDS, K.PREMATURE_RIVER]
    t.monitor.expect_remedy(Decision.EXTRA_CARD_BURN)
    assert t.move("5s", BURN) == []
    assert _kinds(t.move("5h", TRAY)) == [K.BOARD_REMOVED]


def test_the_bottom_card_ruling_allows_the_premature_turn_not_a_river_after_it() -> None:
    """pouques-2020 77: the premature turn is burned; a river the dealer dealt after it before the
    ruling reached him is not covered."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    _preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    t.monitor.betting_opened(Street.FLOP)
    t.burn("3s")
    t.board("3h")
    t.burn("4s")
    t.board("4d")
    assert _kinds(t.faults) == [K.PREMATURE_TURN, K.PREMATURE_RIVER]
    t.monitor.expect_remedy(Decision.BOTTOM_CARD)
    assert t.move("3h", BURN) == []
    assert _kinds(t.move("4d", TRAY)) == [K.BOARD_REMOVED]


def test_a_bottom_card_ruling_delivered_twice_still_allows_one_card() -> None:
    """Commands reach the table at least once (MQTT QoS 1): the pouques-2020 77 ruling received
    twice must not let a second card through outside the betting (the premature river after it)."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    _preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    t.monitor.betting_opened(Street.FLOP)
    t.burn("3s")
    t.board("3h")
    t.monitor.expect_remedy(Decision.BOTTOM_CARD)
    t.monitor.expect_remedy(Decision.BOTTOM_CARD)
    t.leave("3s")
    t.move("3h", BURN)
    assert t.board("5c") == []
    t.burn("3s")
    assert _kinds(t.board("4d")) == [K.PREMATURE_RIVER]


def test_a_reshuffle_ruling_keeps_the_extra_flop_card_allowed_to_the_burn() -> None:
    """cdc-2013 8.3 then 8.5: a four-card flop ruled at its fourth card (that card burns for the
    turn); before moving it the dealer deals a premature river, ruled in turn (back into the stub).
    The fourth flop card may still go to the burn."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    _preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c", "5s")
    t.monitor.expect_remedy(Decision.EXTRA_CARD_BURN)
    assert _kinds(t.board("5h")) == [K.PREMATURE_RIVER]
    t.monitor.expect_remedy(Decision.RESHUFFLE_BOARD)
    assert t.leave("5h") == []
    assert t.move("5s", BURN) == []


def test_a_bottom_card_ruling_keeps_the_premature_flop_allowed_back_to_the_stub() -> None:
    """pouques-2020 77: a premature flop after two actions, ruled at its first card (reshuffled);
    the dealer runs on to a burn and a turn, a premature turn ruled in turn (bottom card). The
    premature flop may still go back into the stub."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    t.monitor.betting_opened(Street.PREFLOP)
    for seat in (3, 4):
        t.monitor.set_to_act(seat)
        t.act(seat, seat)
    t.burn("2s")
    assert _kinds(t.board("2h")) == [K.PREMATURE_FLOP]
    t.monitor.expect_remedy(Decision.RESHUFFLE_BOARD)
    t.board("2d", "2c")
    t.burn("3s")
    assert _kinds(t.board("3h")) == [K.PREMATURE_TURN]
    t.monitor.expect_remedy(Decision.BOTTOM_CARD)
    for card in ("2h", "2d", "2c"):
        assert t.leave(card) == []
    assert t.move("3h", BURN) == []


def test_after_the_second_burn_joined_the_flop_the_turn_card_is_no_burn() -> None:
    """cdc-2013 8.3, caught before the flop: the second burn is the first flop card, two more come
    from the deck. The turn that follows is a board card: swept away, it is a fault."""
    t, ctx = _table()
    t.deal(ctx, HOLE)
    _preflop(t)
    t.burn("2s")
    t.burn("2h")
    t.monitor.expect_remedy(Decision.BURN_TO_FLOP)
    t.move("2h", BOARD)
    t.board("2d", "2c")
    t.round(Street.FLOP, [(s, "check") for s in (1, 2, 3, 4, 5, 6)])
    t.burn("3s")
    t.board("3h")
    assert _kinds(t.move("3h", TRAY)) == [K.BOARD_REMOVED]



def _flop_betting_open(t: TableScript, ctx: HandContext) -> None:
    t.deal(ctx, HOLE)
    _preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    t.monitor.betting_opened(Street.FLOP)


def test_a_premature_turn_ruling_covers_the_turn_not_the_flop() -> None:
    t, ctx = _table()
    _flop_betting_open(t, ctx)
    t.burn("3s")
    assert _kinds(t.board("3h")) == [K.PREMATURE_TURN]
    t.monitor.expect_remedy(Decision.BURN_PREMATURE)
    assert t.move("3h", BURN) == []
    assert _kinds(t.move("2d", TRAY)) == [K.BOARD_REMOVED]


def test_a_premature_turn_is_reported_once() -> None:
    t, ctx = _table()
    _flop_betting_open(t, ctx)
    t.burn("3s")
    t.board("3h")
    t.move("3h", TRAY)  # taken back without a ruling: a board card removed
    t.board("3d")  # another turn, still during the flop's betting: the same street's fault
    assert _kinds(t.faults) == [K.PREMATURE_TURN, K.BOARD_REMOVED]


def test_a_four_card_flop_is_a_flop_fault_a_premature_turn_after_it_is_another() -> None:
    t, ctx = _table()
    _flop_betting_open(t, ctx)
    t.board("5s")  # a fourth flop card
    t.move("5s", BURN)  # moved to the burn before any ruling: a board card removed
    t.board("3h")  # then the turn, during the flop's betting
    assert _kinds(t.faults) == [K.FLOP_FOUR_CARDS, K.BOARD_REMOVED, K.PREMATURE_TURN]
