"""Results: final ranking, payouts, chip race and wait-list stacks (hub, tournament floor).

Pure functions over records kept by the aggregate: eliminations in order become standings
(ties per cdc 2.10, pouques 82; leavers without notice last per pcpm, cpt87 2.12); payouts per
pouques 81; the chip race of cdc 4.2 / brest X / cpt87 4.2; brest II.2 wait-list stack.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from hub.tournament.errors import FloorError
from hub.tournament.structure import Level


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    player: str
    tied: int = 1  # players sharing this place (ex aequo)


@dataclass(frozen=True, slots=True)
class OutGroup:
    """Players out together, in the order groups happened; `start_stacks` ranks inside the group."""

    players: tuple[str, ...]
    start_stacks: tuple[int, ...]
    by_stack: bool  # False: every player of the group is ex aequo (cdc 2.10, different tables)


def standings(alive_by_chips: list[str], groups: list[OutGroup], ranked_last: list[str]) -> list[Standing]:
    """Places 1..n: alive players by chips, then groups latest first, then leavers without notice.

    `ranked_last` is in order of leaving: the first to leave is the very last (cpt87 2.12: a later
    one takes the place just before).
    """
    out: list[Standing] = []
    place = 1
    for player in alive_by_chips:
        out.append(Standing(place, player))
        place += 1
    for group in reversed(groups):
        if group.by_stack:
            pairs = sorted(zip(group.start_stacks, group.players), key=lambda p: (-p[0], p[1]))
            idx = 0
            while idx < len(pairs):
                same = [p for p in pairs[idx:] if p[0] == pairs[idx][0]]
                for _, player in same:
                    out.append(Standing(place, player, len(same)))
                place += len(same)
                idx += len(same)
        else:
            for player in sorted(group.players):
                out.append(Standing(place, player, len(group.players)))
            place += len(group.players)
    for player in reversed(ranked_last):
        out.append(Standing(place, player))
        place += 1
    return out


@dataclass(frozen=True, slots=True)
class PayoutTier:
    min_entries: int
    basis_points: tuple[int, ...]  # hundredths of a percent of the prize pool, 1st place first


@dataclass(frozen=True, slots=True)
class PayoutRule:
    pool_percent: int  # share of the entry fees that goes to the prize pool
    tiers: tuple[PayoutTier, ...]  # highest min_entries first
    article: str
    guarantee_cents: int = 0  # a guaranteed prize pool: the club pays what the entries do not reach

    def tier(self, entries: int) -> PayoutTier:
        for tier in self.tiers:
            if entries >= tier.min_entries:
                return tier
        return self.tiers[-1]

    def prize_pool(self, entries: int, buy_in_cents: int) -> int:
        return max(entries * buy_in_cents * self.pool_percent // 100, self.guarantee_cents)

    def payouts(self, entries: int, buy_in_cents: int, *, players: int | None = None) -> tuple[int, ...]:
        """Cents per place (1st first), adding up to the prize pool exactly, to the cent.

        At most `players` places (default: one per entry) are paid: with fewer players than the
        table's places, the unused places' shares go to the paid places in proportion to their own
        (no rulebook says otherwise; the money is never left unpaid). Each amount is rounded down to
        the cent and the cents left over go to 1st.
        """
        pool = self.prize_pool(entries, buy_in_cents)
        cap = entries if players is None else players
        shares = self.tier(entries).basis_points[:max(cap, 0)]
        if not shares or pool <= 0:
            return ()
        total = sum(shares)
        amounts = [pool * bp // total for bp in shares]
        amounts[0] += pool - sum(amounts)
        return tuple(amounts)


# Pouques 81: 96 % of the entry fees; 15 places from 120 entries, 12 below.
POUQUES_PAYOUTS = PayoutRule(96, (
    PayoutTier(120, (2250, 1600, 1200, 950, 800, 650, 500, 400, 300, 250, 250, 250, 200, 200, 200)),
    PayoutTier(0, (2435, 1745, 1250, 975, 800, 630, 525, 436, 361, 281, 281, 281)),
), "pouques-2020 81")


def prizes(rule: PayoutRule, entries: int, buy_in_cents: int, table: list[Standing]) -> dict[str, int]:
    """Cents won by each player; ex-aequo players share the prizes of the places they cover.

    Every cent of the pool is paid: a shared prize's odd cents go one each to the tied players in
    name order, and places are paid only as far as there are players to take them."""
    amounts = rule.payouts(entries, buy_in_cents, players=min(entries, len(table)))
    won: dict[str, int] = {}
    by_place: dict[int, list[str]] = {}
    for st in table:
        by_place.setdefault(st.place, []).append(st.player)
    for place, players in by_place.items():
        covered = sum(amounts[p - 1] for p in range(place, place + len(players)) if p <= len(amounts))
        share, odd = divmod(covered, len(players))
        for i, player in enumerate(sorted(players)):
            if covered:
                won[player] = share + (1 if i < odd else 0)
    return won


class ChipRaceRounding(StrEnum):
    HALF_UP = "half_up"  # cdc 4.2, cpt87 4.2: one more big chip from 50 % of one
    ALWAYS_UP = "always_up"  # brest X.5


RANKS = "23456789TJQKA"
SUITS = "cdhs"  # brest X.3 tie order: spades, hearts, diamonds, clubs (highest last here)


def card_strength(card: str) -> tuple[int, int]:
    return RANKS.index(card[0]), SUITS.index(card[1])


@dataclass(frozen=True, slots=True)
class ChipRaceResult:
    big_chips: int  # big chips handed out by the race
    winners: tuple[str, ...]
    new_stacks: dict[str, int]


def chip_race(small_value: int, big_value: int, stacks: dict[str, int], leftovers: dict[str, int],
              cards: dict[str, list[str]], rounding: ChipRaceRounding,
              min_chip_after: int) -> ChipRaceResult:
    """Colour-up of `small_value` chips into `big_value` chips at one table.

    `leftovers[player]` counts the small chips left after the exact exchange (4.2); each player
    holds one card per leftover chip; the best cards win one big chip each, no one wins two.
    A player left with nothing gets one chip of `min_chip_after` (cdc 4.2, brest X.6).
    """
    if big_value % small_value or big_value <= small_value:
        raise FloorError(f"cannot colour {small_value} up into {big_value}")
    total = sum(leftovers.values()) * small_value
    count, rest = divmod(total, big_value)
    if rest and (rounding is ChipRaceRounding.ALWAYS_UP or 2 * rest >= big_value):
        count += 1
    contenders = [p for p, n in leftovers.items() if n > 0]
    for player in contenders:
        if len(cards.get(player, [])) != leftovers[player]:
            raise FloorError(f"{player} must hold one card per leftover chip")
    best = sorted(contenders, key=lambda p: max(card_strength(c) for c in cards[p]), reverse=True)
    winners = tuple(best[:count])
    new: dict[str, int] = {}
    for player, stack in stacks.items():
        left = leftovers.get(player, 0)
        value = stack - left * small_value + (big_value if player in winners else 0)
        new[player] = value if value > 0 else min_chip_after
    return ChipRaceResult(min(count, len(contenders)), winners, new)


def deal_chip_race(order: list[str], leftovers: dict[str, int], rng: random.Random) -> dict[str, list[str]]:
    """Deal one card per leftover chip, player by player from the left of the button (brest X.2)."""
    deck = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(deck)
    dealt: dict[str, list[str]] = {}
    for player in order:
        n = leftovers.get(player, 0)
        dealt[player], deck = deck[:n], deck[n:]
    return dealt


def wait_list_stack(starting_stack: int, levels: tuple[Level, ...], current: int) -> int:
    """brest II.2: start stack minus SB+BB of the current round and 3 BB per completed round."""
    done = [lv for lv in levels if lv.number < current]
    now = next(lv for lv in levels if lv.number == current)
    return starting_stack - (now.small_blind + now.big_blind) - 3 * sum(lv.big_blind for lv in done)
