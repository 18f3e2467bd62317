"""Balancing and breaking tables as a plan over head counts (hub, tournament floor).

Consumes the players per active table (incoming movers included) and which tables are between
hands; emits which table to break, whether the final table is due, and (from, to) moves. Who moves
and where he sits come from `seating.py`; the thresholds and articles from `rulesets.py`.
"""

from __future__ import annotations

from hub.tournament.rulesets import FloorPolicy


def final_table_due(counts: dict[int, int], final_size: int) -> bool:
    """Several tables left and everyone fits the final table (cdc 3.6, pouques 40, cpt87 3.3)."""
    return len(counts) > 1 and sum(counts.values()) <= final_size


def table_to_break(counts: dict[int, int], seats_per_table: int) -> int | None:
    """The table to break when the others can take its players (pouques 35: tables of 9-10).

    Tables close in a predetermined order, highest number first (cdc 3.4, cpt87 3.2). The last
    two tables are never broken this way: they merge by the final-table redraw.
    """
    if len(counts) < 3 or sum(counts.values()) > (len(counts) - 1) * seats_per_table:
        return None
    return max(counts)


def balance_moves(counts: dict[int, int], idle: set[int], gap: int) -> list[tuple[int, int]]:
    """Moves (from, to) until the tables are within `gap - 1` players of each other.

    Only a table between hands gives players (brest VI.5: he leaves once out of the hand in
    progress); the fullest table gives, the shortest receives, lowest table number first.
    """
    left = dict(counts)
    moves: list[tuple[int, int]] = []
    while len(left) > 1:
        most, least = max(left.values()), min(left.values())
        if most - least < gap:
            break
        givers = sorted(t for t, n in left.items() if n == most and t in idle)
        if not givers:
            break  # the fullest table is mid-hand: it gives when its hand ends
        taker = min((n, t) for t, n in left.items())[1]
        left[givers[0]] -= 1
        left[taker] += 1
        moves.append((givers[0], taker))
    return moves


def stopped_tables(counts: dict[int, int], policy: FloorPolicy) -> set[int]:
    """Tables where play stops waiting for players (cdc 3.3, cpt87 3.2: three short)."""
    if policy.stop_gap is None or not counts:
        return set()
    most = max(counts.values())
    return {t for t, n in counts.items() if most - n >= policy.stop_gap}
