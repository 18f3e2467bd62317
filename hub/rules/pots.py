"""Pots: the main pot and side pots from what each seat put in, and how a pot is split.

Consumed by `hand` and `showdown`; takes chip totals per seat (antes, blinds and bets together)
and the seats still live, emits (amount, eligible seats) layers from the main pot outwards
and per-seat shares with the odd chip rule of the ruleset (the uncalled bet goes back in `hand`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set


def build_pots(
    contributed: Mapping[int, int],
    live: Sequence[int],
    dead: Mapping[int, int] | None = None,
    capped: Set[int] = frozenset(),
) -> list[tuple[int, tuple[int, ...]]]:
    """Layers of the pot, main pot first: each live all-in level caps one pot.

    `contributed` is everything a seat put in, `dead` the part of it that is dead money (antes,
    dead blinds): it goes to the main pot, whoever paid it (a big-blind ante is everyone's),
    except that a seat all-in on its ante (`capped`) only plays for antes up to its own.
    Chips a folded seat bet above the highest live level join the last pot.
    """
    if not dead and not capped:  # no antes, no dead blind: one pot when every live seat put in as much
        put_in = set(map(contributed.__getitem__, live))
        if len(put_in) == 1 and 0 not in put_in:  # every live seat put in as much: all eligible
            return [(sum(contributed.values()), tuple(live))]
        put_in.discard(0)
        if len(put_in) == 1:
            level = put_in.pop()
            return [(sum(contributed.values()), tuple([s for s in live if contributed[s] >= level]))]
    dead = dead or {}
    # A live seat with nothing in play beyond its dead money put in exactly its ante and is all-in on
    # it (`hand` marks only a seat short of its ante): it too plays for the antes up to its own.
    capped = set(capped) | {s for s in live if dead.get(s, 0) and contributed.get(s, 0) <= dead[s]}
    pots: list[tuple[int, tuple[int, ...]]] = []

    def add(amount: int, eligible: tuple[int, ...]) -> None:
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        elif amount:
            pots.append((amount, eligible))

    prev = 0
    dead_taken = 0
    for level in sorted({dead[s] for s in capped if s in live}):
        amount = sum((d if d < level else level) - prev for d in dead.values() if d > prev)
        add(amount, tuple(s for s in live if s not in capped or dead[s] >= level))
        dead_taken += amount
        prev = level
    rest_dead = sum(dead.values()) - dead_taken
    bets = {s: c - dead.get(s, 0) for s, c in contributed.items()}
    in_play = [s for s in live if s not in capped]
    levels = sorted({bets[s] for s in in_play if bets[s] > 0})
    prev = 0
    for level in levels:
        amount = rest_dead
        rest_dead = 0
        for c in bets.values():
            if c > prev:
                amount += (c if c < level else level) - prev
        add(amount, tuple(s for s in in_play if bets[s] >= level))
        prev = level
    rest = sum(contributed.values()) - sum(p[0] for p in pots)
    if rest:
        if pots:
            amount, eligible = pots[-1]
            pots[-1] = (amount + rest, eligible)
        else:  # nothing but dead money: it goes to the live seats
            pots.append((rest, tuple(live)))
    return pots


def split_pot(amount: int, winners_in_order: Sequence[int], one_each: bool = False) -> list[tuple[int, int]]:
    """Equal shares; the chips left over go to the first winner on the button's left (cdc 11.8), or
    one each from him on (`one_each`: brest VIII.13, pcpm)."""
    n = len(winners_in_order)
    if n == 1:  # one winner, most pots
        return [(winners_in_order[0], amount)]
    share, odd = divmod(amount, n)
    if not one_each:
        return [(seat, share + (odd if i == 0 else 0)) for i, seat in enumerate(winners_in_order)]
    return [(seat, share + (1 if i < odd else 0)) for i, seat in enumerate(winners_in_order)]
