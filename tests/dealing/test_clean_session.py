"""A clean multi-hand session raises no fault at all (rotating button, folds, burns, showdown)."""

from __future__ import annotations

from table_agent.dealing import DealingMonitor, HandContext, Street
from table_agent.dealing_script import DECK, TableScript


def play_clean_hand(t: TableScript, hand: int, seats: tuple[int, ...], button: int) -> None:
    order = sorted(seats)
    heads_up = len(seats) == 2
    after = [s for s in order if s > button] + [s for s in order if s <= button]
    first = after[1] if heads_up else after[0]  # heads-up: big blind first (cdc 5.3)
    ctx = HandContext(hand=hand, seats=seats, button=button, first_to_deal=first)
    t.monitor.start_hand(ctx)
    # a deck rotated per hand so the cards differ from hand to hand
    deck = list(DECK[hand * 7 % 52:] + DECK[:hand * 7 % 52])
    n = len(seats) * 2
    assert t.deal(ctx, deck[:n]) == []
    rest = iter(deck[n:])
    dealt = ctx.deal_order
    # pre-flop: first to speak is after the big blind (heads-up: the button)
    bb = dealt[0] if heads_up else dealt[1 % len(dealt)]
    i = dealt.index(bb)
    speaking = list(dealt[i + 1:] + dealt[:i + 1])
    live = list(speaking)
    acts = []
    for k, seat in enumerate(speaking):
        if k % 3 == 1 and len(live) > 2:
            acts.append((seat, "fold"))
            live.remove(seat)
        else:
            acts.append((seat, "call"))
    assert t.round(Street.PREFLOP, acts) == []
    postflop = [s for s in dealt if s in live]
    for street, count in ((Street.FLOP, 3), (Street.TURN, 1), (Street.RIVER, 1)):
        assert t.burn(next(rest)) == []
        assert t.board(*[next(rest) for _ in range(count)]) == []
        assert t.round(street, [(s, "check") for s in postflop]) == []
    # showdown: the losers muck once no one is to act
    for seat in postflop[1:]:
        assert t.muck(seat) == []
    t.monitor.end_hand()
    t.clear()


def test_clean_six_handed_session_with_rotating_button() -> None:
    t = TableScript(DealingMonitor(table="t1"))
    seats = (1, 2, 3, 4, 5, 6)
    for hand in range(1, 13):
        play_clean_hand(t, hand, seats, button=seats[(hand - 1) % 6])
    assert t.faults == []


def test_clean_short_tables_and_heads_up() -> None:
    t = TableScript(DealingMonitor(table="t1"))
    play_clean_hand(t, 1, (2, 5, 7, 9), button=9)
    play_clean_hand(t, 2, (2, 5, 9), button=2)
    play_clean_hand(t, 3, (5, 9), button=5)
    play_clean_hand(t, 4, (5, 9), button=9)
    assert t.faults == []


def test_plo_four_hole_cards_clean() -> None:
    t = TableScript(DealingMonitor(table="t1"))
    ctx = HandContext(hand=1, seats=(1, 3, 4, 8), button=8, first_to_deal=1, hole_cards=4)
    t.monitor.start_hand(ctx)
    assert t.deal(ctx, DECK[:16]) == []
    assert t.round(Street.PREFLOP, [(4, "call"), (8, "call"), (1, "call"), (3, "check")]) == []
    assert t.burn(DECK[16]) == [] and t.board(*DECK[17:20]) == []
    assert t.faults == []
