"""Pots: the main pot and side pots from what each seat put in, and how a pot is split.

Consumed by `hand` and `showdown`; takes chip totals per seat (antes, blinds and bets together)
and the seats still live, emits (amount, eligible seats) layers from the main pot outwards,
the uncalled bet to hand back, and per-seat shares with the odd chip rule of the ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def uncalled_bet(contributed: Mapping[int, int]) -> tuple[int | None, int]:
    """The seat whose chips nobody matched, and how many go back to it."""
    top_seat: int | None = None
    top = second = 0
    for seat, c in contributed.items():
        if c > top:
            top, second, top_seat = c, top, seat
        elif c > second:
            second = c
    if top_seat is None or top == second:
        return None, 0
    return top_seat, top - second


def build_pots(
    contributed: Mapping[int, int], live: Sequence[int]
) -> list[tuple[int, tuple[int, ...]]]:
    """Layers of the pot, main pot first: each live all-in level caps one pot.

    Dead money (folded seats) is spread over the layers it reaches; anything a folded seat put
    in above the highest live level joins the last pot.
    """
    levels = sorted({contributed[s] for s in live if contributed[s] > 0})
    pots: list[tuple[int, tuple[int, ...]]] = []
    prev = 0
    total_taken = 0
    for level in levels:
        amount = 0
        for c in contributed.values():
            if c > prev:
                amount += (c if c < level else level) - prev
        eligible = tuple(s for s in live if contributed[s] >= level)
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        else:
            pots.append((amount, eligible))
        total_taken += amount
        prev = level
    rest = sum(contributed.values()) - total_taken
    if rest:
        if pots:
            amount, eligible = pots[-1]
            pots[-1] = (amount + rest, eligible)
        else:  # only dead money (every live seat put nothing in): it goes to the live seats
            pots.append((rest, tuple(live)))
    return pots


def clockwise_from_button(seats: Sequence[int], button: int, table_size: int = 10) -> list[int]:
    """Seats sorted from the first on the button's left, clockwise (seat numbers increase)."""
    return sorted(seats, key=lambda s: (s - button - 1) % max(table_size, max(seats, default=0)))


def split_pot(amount: int, winners_in_order: Sequence[int]) -> list[tuple[int, int]]:
    """Equal shares; the odd chips go one each from the first winner on (the button's left)."""
    n = len(winners_in_order)
    share, odd = divmod(amount, n)
    return [(seat, share + (1 if i < odd else 0)) for i, seat in enumerate(winners_in_order)]
