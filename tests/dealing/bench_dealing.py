"""Benchmark: dealing monitor and rulings throughput (prints figures; not a test).

Run: python tests/dealing/bench_dealing.py
A card reaches the felt every 0.3-0.5 s, so a table needs a few events per second; the reader
board's scan takes tens of ms, and software should add under a tenth of that per event.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hub.rulings import Situation, rule  # noqa: E402
from table_agent.dealing import DealingMonitor, FaultDetected, FaultKind, HandContext, Street  # noqa: E402
from table_agent.dealing_script import DECK, card_tag  # noqa: E402
from table_agent.events import BOARD, BURN, MUCK, CardArrived, CardLeft, Zone  # noqa: E402

Step = CardArrived | CardLeft | tuple[str, Any]  # a card event, or ("close", street) / ("act", seat)


def events_for_hand(hand: int, seats: tuple[int, ...], button: int) -> tuple[HandContext, list[Step]]:
    """Pre-built events of one clean 9-handed hand to the river (the monitor's work only)."""
    order = sorted(seats)
    after = [s for s in order if s > button] + [s for s in order if s <= button]
    ctx = HandContext(hand=hand, seats=seats, button=button, first_to_deal=after[0])
    deck = DECK[hand % 52:] + DECK[:hand % 52]
    steps: list[Step] = []
    n = 0
    for i, seat in enumerate(ctx.deal_order * 2):
        n += 1
        steps.append(CardArrived(Zone.seat_zone(seat), card_tag(deck[i]), n * 0.4, n))
    dealt = ctx.deal_order
    steps.append(("close", Street.PREFLOP))
    k = 2 * len(seats)
    for street, count in ((Street.FLOP, 3), (Street.TURN, 1), (Street.RIVER, 1)):
        n += 1
        steps.append(CardArrived(BURN, card_tag(deck[k]), n * 0.4, n))
        k += 1
        for _ in range(count):
            n += 1
            steps.append(CardArrived(BOARD, card_tag(deck[k]), n * 0.4, n))
            k += 1
        for seat in dealt[:3]:
            steps.append(("act", seat))
        steps.append(("close", street))
    for i, seat in enumerate(dealt[1:]):
        for j in (i + 1, i + 1 + len(seats)):
            n += 1
            steps.append(CardLeft(Zone.seat_zone(seat), card_tag(deck[j]), n * 0.4, n))
            steps.append(CardArrived(MUCK, card_tag(deck[j]), n * 0.4, n))
    return ctx, steps


def main() -> None:
    seats = tuple(range(1, 10))
    hands = [events_for_hand(h, seats, button=seats[h % 9]) for h in range(1, 2001)]
    m = DealingMonitor(table="t1")
    n_events = 0
    faults: list[FaultDetected] = []
    t0 = time.perf_counter()
    for ctx, steps in hands:
        m.start_hand(ctx)
        for step in steps:
            if isinstance(step, (CardArrived, CardLeft)):
                faults += m.observe(step)
                n_events += 1
            elif step[0] == "close":
                m.betting_closed(step[1])
            else:
                m.set_to_act(step[1])
                faults += m.action_seen(step[1], step[1])
        m.end_hand()
    elapsed = time.perf_counter() - t0
    assert not faults, faults[:3]
    print(f"dealing monitor: {len(hands)} clean 9-handed hands, {n_events} zone events in {elapsed:.3f} s")
    print(f"  {len(hands) / elapsed:,.0f} hands/s, {n_events / elapsed:,.0f} events/s, "
          f"{elapsed / n_events * 1e6:.1f} us per event")

    sample = [FaultDetected(k, 1, 3, ("7h",), 0.0, {"deal_position": 5, "exposed_count": 1}) for k in FaultKind]
    rulesets = ("cdc-2013", "brest-2011", "pouques-2020", "pcpm", "cpt87")
    s = Situation()
    t0 = time.perf_counter()
    count = 0
    for _ in range(200):
        for r in rulesets:
            for f in sample:
                rule(f, r, s).text()
                count += 1
    elapsed = time.perf_counter() - t0
    print(f"rulings: {count} rulings with French text in {elapsed:.3f} s, {elapsed / count * 1e6:.1f} us each")


if __name__ == "__main__":
    main()
