"""The chips of a hand that ends void (hub, one table's game: a misdeal or a cancelled hand).

Consumes the engine's `Hand` as it stands; gives each seat's stack once the hand is void: every bet
back (a misdeal, a hand cancelled with the bets returned), or the pot of the finished rounds shared
among the live hands (brest III.11, cpt87 6.4) with the unfinished round returned. Pure: no IO.
"""

from __future__ import annotations

from typing import Any

from hub.rules import Hand
from hub.rules.positions import clockwise
from hub.rules.pots import build_pots, split_pot
from hub.rules.rulesets import OddChips


def void_stacks(hand: Hand, *, split: bool) -> tuple[dict[int, int], list[dict[str, Any]]]:
    """Each seat's stack after the void hand, and the pots shared (empty when every bet goes back)."""
    stacks = dict(hand.starting_stacks)
    pots: list[dict[str, Any]] = []
    if not split:
        return stacks, pots
    # The unfinished round goes back; the pot of finished rounds is shared by the live hands
    # (brest III.11, cpt87 6.4). A round whose betting is over is finished, even before the
    # next street's first card: its bets and the folded players' blinds stay in the pot.
    unfinished = hand.bet if hand.round_open else dict.fromkeys(hand.seats, 0)
    finished = {s: hand.contributed[s] - unfinished[s] for s in hand.seats}
    for s in hand.seats:
        stacks[s] -= finished[s]
    # Each pot to the live hands that may win it: an all-in player shares the main pot only.
    live = clockwise(hand.live, hand.positions.button)
    for amount, eligible in build_pots(finished, live, hand.dead, hand.ante_capped):
        sharing = [s for s in live if s in eligible]
        for seat, share in split_pot(amount, sharing, hand.rules.odd_chips is OddChips.ONE_EACH):
            stacks[seat] += share
        pots.append({"amount": amount, "winners": sharing})
    if not pots:
        pots = [{"amount": 0, "winners": live}]
    return stacks, pots
