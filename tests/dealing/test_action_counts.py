"""What the monitor counts from the panel's actions, for the rulings: the actions made before a
premature flop (pouques-2020 77: none, one, or more decide misdeal, the TD, or a reshuffle), the
players who acted after a skipped seat (pouques-2020 70 "late wake-up", cdc-2013 substantial
action); and the actions it ignores: no hand watched, a void hand, cards mucked while no one is to
act. Found by mutants of `action_seen` and `betting_*` in table_agent/dealing.py (docs/testing.md)."""

from __future__ import annotations

from table_agent.dealing import DealingMonitor, Decision, FaultDetected, HandContext, Street
from table_agent.dealing import FaultKind as K
from table_agent.dealing_script import DECK, TableScript
from table_agent.events import MUCK

SEATS = (1, 2, 3, 4, 5, 6)


def _dealt() -> tuple[TableScript, HandContext]:
    ctx = HandContext(hand=2, seats=SEATS, button=6, first_to_deal=1)
    t = TableScript(DealingMonitor(table="t1"))
    t.monitor.start_hand(ctx)
    t.deal(ctx, DECK[:12])
    t.monitor.betting_opened(Street.PREFLOP)
    return t, ctx


def _premature_flop_after(actions: int) -> FaultDetected:
    t, _ = _dealt()
    for seat in (3, 4, 5)[:actions]:
        t.monitor.set_to_act(seat)
        t.act(seat, seat)
    t.burn(DECK[12])
    out = t.board(DECK[13], DECK[14], DECK[15])
    assert [(f.kind, f.cards) for f in out] == [(K.PREMATURE_FLOP, (DECK[13],))]  # its first card
    return out[0]


def test_a_premature_flop_counts_the_actions_made_before_it() -> None:
    assert [_premature_flop_after(n).details["actions_preflop"] for n in (0, 1, 2, 3)] == [0, 1, 2, 3]


def test_players_acting_after_a_skipped_seat_are_counted_and_a_new_skip_starts_over() -> None:
    t, _ = _dealt()
    counts = [f.details["acted_since_skipped"] for s in (4, 5, 6) for f in t.monitor.action_seen(s, 3)]
    assert counts == [1, 2, 3]  # seat 3 skipped by three players in a row
    assert t.monitor.action_seen(3, 3) == []  # seat 3 acts at last: the count is over
    out = t.monitor.action_seen(2, 1)  # seat 1 skipped: a new count
    assert [(f.details["skipped"], f.details["acted_since_skipped"]) for f in out] == [(1, 1)]
    out = t.monitor.action_seen(2, 4)  # another seat skipped straight after: starts over too
    assert [(f.details["skipped"], f.details["acted_since_skipped"]) for f in out] == [(4, 1)]


def test_no_hand_watched_commands_and_actions_do_nothing() -> None:
    m = DealingMonitor(table="t1")
    assert m.betting_opened(Street.PREFLOP) == [] and m.betting_closed(Street.PREFLOP) == []
    assert m.action_seen(3, 4) == []
    m.seat_away(3)
    m.seat_back(3)
    m.set_to_act(3)
    assert m.hand is None


def test_after_a_misdeal_an_action_out_of_turn_is_not_judged() -> None:
    t, _ = _dealt()
    t.monitor.expect_remedy(Decision.MISDEAL)
    assert t.monitor.action_seen(4, 3) == []


def test_cards_mucked_between_betting_rounds_are_no_action_out_of_turn() -> None:
    """The flop's betting is over, the turn not yet dealt: no one is to act."""
    t, _ = _dealt()
    t.round(Street.PREFLOP, [(s, "call") for s in (3, 4, 5, 6, 1, 2)])
    t.burn(DECK[12])
    t.board(DECK[13], DECK[14], DECK[15])
    t.round(Street.FLOP, [(s, "check") for s in (1, 2, 3, 4, 5, 6)])
    assert t.move(DECK[3], MUCK) == []


def test_two_burns_then_a_flop_during_the_betting_is_one_fault_for_the_flop() -> None:
    """One fault a street: the TD called for the two burns rules the flop they came before."""
    t, _ = _dealt()
    t.burn(DECK[12])
    assert [f.kind for f in t.burn(DECK[13])] == [K.FLOP_TWO_BURNS]
    assert t.board(DECK[14], DECK[15], DECK[16]) == []
