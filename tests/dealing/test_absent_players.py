"""A player away from the table when the rulebook's deadline card is dealt has a dead hand
(spec/faults.md `absent_player`; tablewire.faults.Deadline: cdc-2013 5.1 the first card, brest-2011
III.13 his own last card, pouques-2020 27 the button's second card, pcpm / cpt87 5.1 the last card).
The hub marks seats away and back during the deal (`seat_away` / `seat_back`): both are judged at
the deadline, not at the hand start. Found by mutants of table_agent/dealing.py (docs/testing.md)."""

from __future__ import annotations

from table_agent.dealing import Deadline, FaultDetected, HandContext
from table_agent.dealing import FaultKind as K
from table_agent.dealing_script import TableScript, hand_started

SEATS = (1, 2, 3, 4, 5, 6)
HOLE = ("As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c")


def _table(deadline: Deadline, away: frozenset[int] = frozenset()) -> tuple[TableScript, HandContext]:
    return hand_started(hand=9, seats=SEATS, button=6, first_to_deal=1, deadline=deadline, away=away)


def _deal(t: TableScript, ctx: HandContext, first: int, last: int) -> list[FaultDetected]:
    """Deal cards `first`..`last` (1-based positions of the regular two-round deal)."""
    order = ctx.deal_order * 2
    return [f for n in range(first, last + 1) for f in t.hole(order[n - 1], HOLE[n - 1])]


def _absent(faults: list[FaultDetected]) -> list[tuple[int | None, int]]:
    return [(f.seat, int(str(f.details["deal_position"]))) for f in faults if f.kind is K.ABSENT_PLAYER]


def test_last_card_a_player_gone_during_the_deal_is_dead_at_the_last_card() -> None:
    t, ctx = _table(Deadline.LAST_CARD)
    assert _deal(t, ctx, 1, 5) == []
    t.monitor.seat_away(4)
    assert _deal(t, ctx, 6, 11) == []
    out = _deal(t, ctx, 12, 12)
    assert _absent(out) == [(4, 12)] and out[0].details["deadline"] == "last_card"


def test_last_card_a_player_back_before_the_last_card_keeps_his_hand() -> None:
    t, ctx = _table(Deadline.LAST_CARD, away=frozenset({2, 4}))
    assert _deal(t, ctx, 1, 7) == []
    t.monitor.seat_back(4)
    assert _absent(_deal(t, ctx, 8, 12)) == [(2, 12)]


def test_first_card_a_player_gone_after_the_first_card_keeps_his_hand() -> None:
    t, ctx = _table(Deadline.FIRST_CARD, away=frozenset({5}))
    t.monitor.seat_back(5)
    t.monitor.seat_away(3)
    assert _absent(_deal(t, ctx, 1, 1)) == [(3, 1)]
    t.monitor.seat_away(6)
    assert _deal(t, ctx, 2, 12) == []


def test_own_last_card_judged_at_each_seats_second_card() -> None:
    t, ctx = _table(Deadline.OWN_LAST_CARD, away=frozenset({2}))
    assert _deal(t, ctx, 1, 6) == []
    t.monitor.seat_away(5)
    t.monitor.seat_back(2)
    assert _absent(_deal(t, ctx, 7, 12)) == [(5, 11)]


def test_button_second_card_judges_every_seat_away_then() -> None:
    t, ctx = _table(Deadline.BUTTON_SECOND_CARD, away=frozenset({1}))
    assert _deal(t, ctx, 1, 9) == []
    t.monitor.seat_away(3)
    t.monitor.seat_back(1)
    assert _deal(t, ctx, 10, 11) == []
    assert _absent(_deal(t, ctx, 12, 12)) == [(3, 12)]


def test_an_absent_player_is_reported_once_even_if_the_last_served_gets_another_card() -> None:
    t, ctx = _table(Deadline.LAST_CARD, away=frozenset({4}))
    out = _deal(t, ctx, 1, 12)
    assert [(f.kind, f.seat, f.cards) for f in out] == [(K.ABSENT_PLAYER, 4, ())]
    assert [f.kind for f in t.hole(6, "2s")] == [K.EXTRA_HOLE_CARD]  # one too many, not absent again
