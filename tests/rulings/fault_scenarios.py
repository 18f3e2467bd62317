"""Realistic card sequences at a 6-handed table (seats 1-6 of 9, button 6), each ending with the
card or action that reveals one fault. Shared by the rulings tests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from table_agent.dealing import DealingMonitor, FaultDetected, HandContext, Street
from table_agent.dealing_script import TableScript
from table_agent.events import TRAY, Zone
from tablewire.faults import Deadline

SEATS = (1, 2, 3, 4, 5, 6)
# seat 1: As 8h, seat 2: Kd 7c, seat 3: Qh 6s, seat 4: Jc 5d, seat 5: Ts 4h, seat 6: 9d 3c
HOLE = ("As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c")
STUB = ("2s", "2h", "2d", "2c", "3s", "3h", "3d", "4s", "4d", "4c", "5s", "5h", "5c")


def context(deadline: Deadline = Deadline.FIRST_CARD, **overrides: object) -> HandContext:
    fields: dict[str, object] = dict(hand=7, seats=SEATS, button=6, first_to_deal=1, table_seats=9,
                                     deadline=deadline, dealer=6)
    fields.update(overrides)
    return HandContext(**fields)  # type: ignore[arg-type]


def table(deadline: Deadline = Deadline.FIRST_CARD, **overrides: object) -> tuple[TableScript, HandContext]:
    t = TableScript(DealingMonitor(table="t1"))
    ctx = context(deadline, **overrides)
    t.monitor.start_hand(ctx)
    return t, ctx


def preflop(t: TableScript) -> list[FaultDetected]:
    """UTG (3) folds, 4 calls, 5 and 6 fold, SB calls, BB checks: heads to a 3-way flop (1, 2, 4)."""
    return t.round(Street.PREFLOP, [(3, "fold"), (4, "call"), (5, "fold"), (6, "fold"), (1, "call"),
                                    (2, "check")])


def to_flop_round(t: TableScript, ctx: HandContext) -> list[FaultDetected]:
    out = t.deal(ctx, HOLE) + preflop(t) + t.burn("2s") + t.board("2h", "2d", "2c")
    return out + t.monitor.betting_opened(Street.FLOP)


def to_turn_round(t: TableScript, ctx: HandContext) -> list[FaultDetected]:
    out = to_flop_round(t, ctx)
    for seat in (1, 2, 4):
        t.monitor.set_to_act(seat)
        out += t.act(seat, seat, "check")
    out += t.monitor.betting_closed(Street.FLOP)
    return out + t.burn("3s") + t.board("3h") + t.monitor.betting_opened(Street.TURN)


@dataclass(frozen=True)
class Scenario:
    name: str
    drive: Callable[[Deadline], list[FaultDetected]]  # returns the faults of the revealing step


def _deal_partial(t: TableScript, ctx: HandContext, n: int) -> None:
    order = ctx.deal_order
    for i, card in enumerate(HOLE[:n]):
        assert t.hole(order[i % len(order)], card) == []


def boxed_in_deal(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    _deal_partial(t, ctx, 3)
    return t.tray("2s")


def two_boxed_in_deal(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    _deal_partial(t, ctx, 3)
    assert len(t.tray("2s")) == 1
    _deal_partial_more(t, ctx, 3, 5)
    return t.tray("5c")


def _deal_partial_more(t: TableScript, ctx: HandContext, start: int, stop: int) -> None:
    order = ctx.deal_order
    for i in range(start, stop):
        assert t.hole(order[i % len(order)], HOLE[i]) == []


def two_boxed_on_flop(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert to_flop_round(t, ctx) == []
    assert len(t.tray("5s")) == 1
    return t.tray("5h")


def exposed_mid_deal(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    _deal_partial(t, ctx, 4)  # seat 4 holds Jc, the 4th card of the deal
    return t.move("Jc", TRAY)


def exposed_first_card(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    _deal_partial(t, ctx, 2)
    return t.move("As", TRAY)


def exposed_twice(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    _deal_partial(t, ctx, 4)
    assert len(t.move("Jc", TRAY)) == 1
    _deal_partial_more(t, ctx, 4, 9)  # seat 3 gets 6s, its second card (9th of the deal)
    return t.move("6s", TRAY)


def dealer_card_exposed(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    _deal_partial(t, ctx, 6)  # the button (dealer) holds 9d, his first card
    return t.move("9d", TRAY)


def card_to_empty_seat(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    _deal_partial(t, ctx, 6)
    return t.hole(7, "8h")


def deal_starts_at_button(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    return t.hole(6, "As")


def seat_skipped(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    _deal_partial(t, ctx, 2)
    return t.hole(4, "Qh")  # seat 3 forgotten


def extra_to_small_blind(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert t.deal(ctx, HOLE) == []
    return t.hole(1, "2s")


def extra_to_button(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert t.deal(ctx, HOLE) == []
    return t.hole(6, "2s")


def missing_last_card(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    _deal_partial(t, ctx, 11)  # the button never gets his second card
    t.monitor.set_to_act(3)
    return t.act(3, 3, "call")


def flop_without_burn(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert t.deal(ctx, HOLE) + preflop(t) == []
    return t.board("2s")


def flop_two_burns(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert t.deal(ctx, HOLE) + preflop(t) + t.burn("2s") == []
    return t.burn("2h")


def flop_four_cards(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert t.deal(ctx, HOLE) + preflop(t) + t.burn("2s") + t.board("2h", "2d", "2c") == []
    return t.board("3s")


def premature_flop(actions: int) -> Callable[[Deadline], list[FaultDetected]]:
    def drive(d: Deadline) -> list[FaultDetected]:
        t, ctx = table(d)
        assert t.deal(ctx, HOLE) == []
        t.monitor.betting_opened(Street.PREFLOP)
        for seat in (3, 4, 5)[:actions]:
            t.monitor.set_to_act(seat)
            assert t.act(seat, seat, "call") == []
        assert t.burn("2s") == []
        return t.board("2h")
    return drive


def turn_without_burn(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert to_flop_round(t, ctx) + t.monitor.betting_closed(Street.FLOP) == []
    return t.board("3s")


def river_without_burn(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert to_turn_round(t, ctx) + t.monitor.betting_closed(Street.TURN) == []
    return t.board("4s")


def premature_turn(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert to_flop_round(t, ctx) == []
    t.monitor.set_to_act(1)
    assert t.act(1, 1, "check") + t.burn("3s") == []
    return t.board("3h")  # seats 2 and 4 have not spoken on the flop


def premature_river(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert to_turn_round(t, ctx) == []
    t.monitor.set_to_act(1)
    assert t.act(1, 1, "bet") + t.burn("4s") == []
    return t.board("4d")


def board_removed(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert to_turn_round(t, ctx) == []
    return t.leave("2h")


def unknown_tag(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    _deal_partial(t, ctx, 4)
    return t.hole(5, "tag:04A1B2C3D4")


def foreign_card(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    _deal_partial(t, ctx, 4)
    return t.hole(5, "Ts@Z")


def duplicate_card(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert t.deal(ctx, HOLE) + preflop(t) + t.burn("2s") == []
    return t.board("As#2")  # a second As: seat 1 holds one


def mixed_decks(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert t.deal(ctx, HOLE) + preflop(t) + t.burn("2s") == []
    return t.board("2h@B")


def dead_card_in_hand(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert t.deal(ctx, HOLE) + preflop(t) == []  # seat 5 folded Ts 4h to the muck
    return t.move("Ts", Zone.seat_zone(4))  # and it lands on seat 4's live hand


def absent_player(d: Deadline) -> list[FaultDetected]:
    """Seat 4 is away for the whole deal; returns every fault the deal raised, in order."""
    t, ctx = table(d, away=frozenset({4}))
    t.deal(ctx, HOLE)
    return t.faults


def out_of_turn_once(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert t.deal(ctx, HOLE) == []
    t.monitor.betting_opened(Street.PREFLOP)
    t.monitor.set_to_act(3)
    return t.act(5, 3, "call")


def out_of_turn_three_after(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert t.deal(ctx, HOLE) == []
    t.monitor.betting_opened(Street.PREFLOP)
    t.monitor.set_to_act(3)
    assert len(t.act(4, 3, "raise")) == 1
    assert len(t.act(5, 3, "call")) == 1
    return t.act(6, 3, "call")


def out_of_turn_muck(d: Deadline) -> list[FaultDetected]:
    t, ctx = table(d)
    assert t.deal(ctx, HOLE) == []
    t.monitor.betting_opened(Street.PREFLOP)
    t.monitor.set_to_act(3)
    return t.muck(5)

