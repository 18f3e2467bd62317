"""A deal at the final table (accord, « deal »): the prize money still to pay shared by the players left,
by their chips (chip chop) or by their chances (ICM, Malmuth-Harville).

Consumes each player's chips and the prizes of the places still to play (1st first); emits cents per
player adding up exactly to those prizes. Pure: the TD compares both on the desk and confirms one
(`Tournament.make_deal`). No rulebook describes a deal; both are the field's usual methods.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

MAX_PLAYERS = 10  # ICM over every finishing order: 10 players is 3.6 million orders, folded to 1,024 sets


def _check(chips: Mapping[str, int], prizes: Sequence[int]) -> None:
    if not 2 <= len(chips) <= MAX_PLAYERS:
        raise ValueError(f"a deal is between 2 and {MAX_PLAYERS} players, not {len(chips)}")
    if len(prizes) != len(chips):
        raise ValueError(f"{len(chips)} players and {len(prizes)} prizes still to pay")
    if any(c <= 0 for c in chips.values()) or any(p < 0 for p in prizes):
        raise ValueError("every player in the deal has chips, every prize is positive")


def _to_cents(shares: Mapping[str, float], total: int, chips: Mapping[str, int]) -> dict[str, int]:
    """Rounded down to the cent; the cents left go one each to the biggest stacks (the fairest tie)."""
    out = {name: int(share) for name, share in shares.items()}
    left = total - sum(out.values())
    for name in sorted(chips, key=lambda n: (-chips[n], n))[:left]:
        out[name] += 1
    return out


def chip_chop(chips: Mapping[str, int], prizes: Sequence[int]) -> dict[str, int]:
    """Each player is sure of the last place's prize; the rest is shared in proportion to the chips."""
    _check(chips, prizes)
    floor = min(prizes)
    rest = sum(prizes) - floor * len(chips)
    total_chips = sum(chips.values())
    shares = {name: floor + rest * c / total_chips for name, c in chips.items()}
    return _to_cents(shares, sum(prizes), chips)


def icm(chips: Mapping[str, int], prizes: Sequence[int]) -> dict[str, int]:
    """Each player's expected prize when the chance to finish first is his share of the chips, then the
    same among those left for each next place (Malmuth-Harville)."""
    _check(chips, prizes)
    names = sorted(chips)
    stacks = tuple(chips[n] for n in names)
    paid = tuple(sorted(prizes, reverse=True))

    @cache
    def expected(left: frozenset[int]) -> tuple[float, ...]:
        """Expected prize of each player in `left`, the places from len(paid) - len(left) on to play."""
        place = len(paid) - len(left)
        out = [0.0] * len(stacks)
        total = sum(stacks[i] for i in left)
        for first in left:
            p = stacks[first] / total
            out[first] += p * paid[place]
            if len(left) > 1:
                after = expected(left - {first})
                for i in left - {first}:
                    out[i] += p * after[i]
        return tuple(out)

    values = expected(frozenset(range(len(names))))
    return _to_cents({name: values[i] for i, name in enumerate(names)}, sum(prizes), chips)
