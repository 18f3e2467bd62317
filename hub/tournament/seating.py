"""Seats: the random draw, positions around a table, and where a moved player sits (hub, floor).

Pure functions over seat numbers (1..seats_per_table, clockwise); randomness comes from the
caller's `random.Random`. Used by the aggregate for the initial draw (pouques 21, cdc 3.1), late
entries, broken tables, balancing (cdc 3.3, brest VI.6, pouques 36) and the final-table redraw.
"""

from __future__ import annotations

import random

from hub.tournament.rulesets import ArrivalWait, SeatChoice


def clockwise_after(occupied: set[int], seat: int, seats_per_table: int) -> list[int]:
    """Occupied seats in dealing order starting just after `seat` (which may be empty)."""
    order = [(seat + step - 1) % seats_per_table + 1 for step in range(1, seats_per_table + 1)]
    return [s for s in order if s in occupied]


def next_occupied(occupied: set[int], seat: int, seats_per_table: int) -> int:
    after = clockwise_after(occupied, seat, seats_per_table)
    if not after:
        raise ValueError("no occupied seat")
    return after[0]


def positions(occupied: set[int], last_button: int | None, fresh: bool,
              seats_per_table: int) -> tuple[int, int]:
    """(button, big blind) of the next hand: the button moves one occupied seat clockwise.

    An approximation of the dead-button rules (cdc 5.2): the hand engine is authoritative and the
    hub may pass the real positions to `hand_started`.
    """
    start = min(occupied) if last_button is None else last_button
    if fresh and start in occupied:
        button = start
    else:
        button = next_occupied(occupied, start, seats_per_table)
    after = clockwise_after(occupied, button, seats_per_table)
    if len(occupied) == 2:
        return button, after[0]  # heads-up: the button posts the small blind (cdc 5.3)
    return button, after[1] if len(after) > 1 else after[0]


def future_big_blind(occupied: set[int], big_blind: int, seats_per_table: int) -> int:
    """The player who would post the big blind next hand (cdc 3.3; pouques 36 'juste après la GB')."""
    return next_occupied(occupied, big_blind, seats_per_table)


def free_seats(occupied: set[int], seats_per_table: int) -> list[int]:
    return [s for s in range(1, seats_per_table + 1) if s not in occupied]


def choose_seat(choice: SeatChoice, occupied: set[int], seats_per_table: int, button: int | None,
                big_blind: int | None, rng: random.Random) -> int:
    """The seat a moved player takes at his new table."""
    free = free_seats(occupied, seats_per_table)
    if not free:
        raise ValueError("table is full")
    if len(free) == 1 or choice is SeatChoice.DRAWN or button is None:
        return free[0] if len(free) == 1 else rng.choice(free)
    if choice is SeatChoice.LEFT_OF_BUTTON:
        return clockwise_after(set(free), button, seats_per_table)[0]
    if choice is SeatChoice.LEFT_OF_BIG_BLIND:
        anchor = big_blind if big_blind is not None else button
        if anchor in free:
            return anchor
        return clockwise_after(set(free), anchor, seats_per_table)[0]

    def distance(seat: int) -> tuple[int, int]:
        cw = (seat - button) % seats_per_table
        return min(cw, seats_per_table - cw), cw

    return max(free, key=distance)  # pouques 36: as far from the button as possible


def waits_one_hand(rule: ArrivalWait, seat: int, occupied: set[int], button: int | None,
                   seats_per_table: int) -> bool:
    """Whether a player arriving at `seat` sits out the next hand (dead-button consequences).

    cdc 3.4 / brest VI.7 / pcpm: a new seat between the next button and the small blind waits.
    pouques 37: he is dealt in unless the button is just to his right or just to his left.
    """
    others = occupied - {seat}
    if button is None or len(others) < 2:
        return False
    next_button = next_occupied(others, button, seats_per_table)
    ring = clockwise_after(others | {seat}, next_button, seats_per_table)
    if rule is ArrivalWait.BESIDE_BUTTON:
        return ring[0] == seat or ring[-2] == seat
    return ring[0] == seat


def draw_seats(players: list[str], tables: list[int], seats_per_table: int,
               rng: random.Random) -> list[tuple[str, int, int]]:
    """Random (player, table, seat), table sizes within one player (pouques 21, cdc 3.1)."""
    if len(players) > len(tables) * seats_per_table:
        raise ValueError(f"{len(players)} players do not fit {len(tables)} tables")
    order = list(players)
    rng.shuffle(order)
    base, extra = divmod(len(order), len(tables))
    bigger = set(rng.sample(tables, extra))
    out: list[tuple[str, int, int]] = []
    pos = 0
    for table in tables:
        size = base + (1 if table in bigger else 0)
        seats = sorted(rng.sample(range(1, seats_per_table + 1), size))
        for seat in seats:
            out.append((order[pos], table, seat))
            pos += 1
    return out
