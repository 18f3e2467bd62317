"""Benchmark of the delayed stream's feed (hub/dashboard/stream.py): the cost per hub event on the dashboard's
consumer thread, the memory held for a delay, and the release, for a room of tables at a steady pace.

Feeds `StreamFeed.offer` the shape of message the dashboard gives it (a hub event and a 9-seat TD snapshot
with hole cards) on a manual clock: `--tables` tables, `--rate` events per second per table, for `--delay`
minutes of simulated time, hands of `--hand` seconds; then one `tick()` per simulated second. Prints figures;
asserts nothing about speed. Run: python benchmarks/bench_stream_delay.py [--tables 10] [--rate 1] [--delay 30]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hub.dashboard.stream import StreamFeed  # noqa: E402
from hw.ports import ManualClock  # noqa: E402

FACES = [r + s for r in "23456789TJQKA" for s in "shdc"]


def snapshot(table: str, hand: int, rng: random.Random) -> dict[str, object]:
    cards = rng.sample(FACES, 23)
    seats = [{"seat": s, "player": f"Joueur {table}-{s}", "stack": rng.randrange(1000, 90000), "bet": 0,
              "live": True, "away": False, "hole": cards[2 * s - 2:2 * s], "hole_count": 2} for s in range(1, 10)]
    return {"table": table, "online": True, "reader": "connected", "reader_detail": "", "hand": hand,
            "hand_open": True, "zones": {f"seat:{s}": cards[2 * s - 2:2 * s] for s in range(1, 10)} | {
                "board": cards[18:21], "burn": cards[21:22]}, "board": cards[18:21], "gaps": 0, "managed": True,
            "seats": seats, "street": "flop", "to_act": 4, "pot": 4200, "button": 1, "closed": False,
            "refused": "", "hand_since": 1.0, "noted_at": 2.0, "held": 0, "pending_td": 0}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--tables", type=int, default=10)
    p.add_argument("--rate", type=float, default=1.0, help="events per second per table")
    p.add_argument("--delay", type=float, default=30.0, help="minutes")
    p.add_argument("--hand", type=float, default=150.0, help="seconds per hand")
    args = p.parse_args()
    rng = random.Random(1)
    clock = ManualClock(0.0)
    feed = StreamFeed(args.delay * 60, clock=clock)
    seconds = int(args.delay * 60 * 1.5)
    per_second = max(1, round(args.tables * args.rate))
    offer_time = tick_time = 0.0
    offered = released = peak_bytes = peak_held = 0
    snaps = {f"t{i}": snapshot(f"t{i}", 1, rng) for i in range(1, args.tables + 1)}
    for second in range(seconds):
        for n in range(per_second):
            table = f"t{n % args.tables + 1}"
            hand = 1 + int(second // args.hand)
            ended = (second + 1) % int(args.hand) == 0 and n < args.tables
            snap = snaps[table] | {"hand": hand, "hand_open": not ended}
            event = ({"type": "hand_end", "table": table, "hand": hand, "result": "showdown"} if ended
                     else {"type": "action", "table": table, "hand": hand, "seat": 4, "action": "call", "to": 200})
            start = time.perf_counter()
            feed.offer(event, snap)
            offer_time += time.perf_counter() - start
            offered += 1
        peak_bytes = max(peak_bytes, feed.line.held_bytes)
        peak_held = max(peak_held, feed.line.held)
        start = time.perf_counter()
        released += feed.tick()
        tick_time += time.perf_counter() - start
        clock.advance(1.0)
    print(f"{args.tables} tables x {args.rate:g} events/s, {args.delay:g}-min delay, hands of {args.hand:g} s, "
          f"{seconds} s simulated")
    print(f"offered {offered}, released {released}, dropped {feed.line.dropped}")
    print(f"offer: {offer_time / offered * 1e6:.1f} us/event; tick: {tick_time / max(released, 1) * 1e6:.1f} "
          f"us/released event")
    print(f"held at most: {peak_held} events, {peak_bytes / 2**20:.1f} MiB "
          f"({peak_bytes / max(peak_held, 1):.0f} bytes each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
