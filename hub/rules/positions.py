"""Button and blinds from one hand to the next: the dead button rule and heads-up.

Consumed by `hand.start_hand` and by the hub's floor when it starts the next hand; takes the
previous hand's positions and the seats now occupied, emits the new `Positions` with the article
that placed them (cdc 5.2 dead button, 5.3 heads-up; brest VI.3, VI.13-14; pouques 72, 80).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from hub.rules.records import HandSetupError

_RING = 1024  # any modulus above the highest seat number keeps the clockwise order


@dataclass(frozen=True, slots=True)
class Level:
    """A blind level; `bb_ante` means the big blind pays the ante for every player (cpt87 8.8);
    `game` the game dealt at this level (hub/rules/games.toml: mixed-game tournaments change it)."""

    sb: int
    bb: int
    ante: int = 0
    bb_ante: bool = False
    game: str = "nlhe"


@dataclass(frozen=True, slots=True)
class Positions:
    """`button` may be an empty seat (dead button); `small_blind` None means no small blind."""

    button: int
    small_blind: int | None
    big_blind: int


def clockwise(seats: Collection[int], after: int) -> list[int]:
    """The seats in dealing order, from the first one on the left of `after`."""
    return sorted(seats, key=lambda s: (s - after - 1) % _RING)


# (seats, button) -> the dealing order, per seat every seat in turn after it (itself last): the
# search for the next to act, and each seat at 0 (a street's bets, copied). The same few tables deal
# hand after hand, so it is computed once per seating rather than per hand; never changed once made.
TurnOrder = tuple[list[int], dict[int, list[int]], dict[int, int]]
_TURN_ORDERS: dict[tuple[tuple[int, ...], int], TurnOrder] = {}


def turn_order(seats: tuple[int, ...], button: int) -> TurnOrder:
    """`clockwise(seats, button)`, per seat the seats in turn after it (itself last), and each seat
    at 0 in dealing order (a template: copied, never changed)."""
    known = _TURN_ORDERS.get((seats, button))
    if known is None:
        order = clockwise(seats, button)
        known = (order, {s: order[i + 1:] + order[:i + 1] for i, s in enumerate(order)},
                 dict.fromkeys(order, 0))
        if len(_TURN_ORDERS) >= 4096:  # a long-lived hub sees many seatings: keep it bounded
            _TURN_ORDERS.clear()
        _TURN_ORDERS[(seats, button)] = known
    return known


def next_seat(seats: Collection[int], after: int) -> int:
    return min(seats, key=lambda s: (s - after - 1) % _RING)


def default_positions(button: int, seats: Collection[int]) -> Positions:
    """Positions when nobody's history matters: blinds on the button's left; heads-up the
    button posts the small blind (cdc 5.3)."""
    if len(seats) < 2:
        raise HandSetupError(f"a hand needs two players, seats {sorted(seats)}")
    if len(seats) == 2:
        if button not in seats:
            raise HandSetupError(f"heads-up, the button must be a player's seat: {button}")
        other = next_seat(seats, button)
        return Positions(button=button, small_blind=button, big_blind=other)
    sb = next_seat(seats, button)
    return Positions(button=button, small_blind=sb, big_blind=next_seat(seats, sb))


def next_positions(previous: Positions, seats: Collection[int], table_size: int = 10
                   ) -> Positions:
    """The dead button rule: the big blind moves on to the next player, the small blind goes to
    the previous big blind when he is still there (otherwise no small blind), and the button to
    the previous small blind's seat, even if it is now empty (cdc 5.2)."""
    live = set(seats)
    if len(live) < 2:
        raise HandSetupError(f"a hand needs two players, seats {sorted(live)}")
    big = next_seat(live, previous.big_blind)
    if len(live) == 2:
        # Heads-up: nobody is big blind twice running; the other player has button and SB.
        other = next_seat(live, big)
        return Positions(button=other, small_blind=other, big_blind=big)
    small = previous.big_blind if previous.big_blind in live else None
    if small == big:
        small = None
    if previous.small_blind is not None:
        button = previous.small_blind
    else:  # no small blind last hand: the button still moves one seat, towards the big blind
        button = previous.button % table_size + 1
        if button == previous.big_blind:
            button = previous.button
    if small is not None and button == small:
        button = previous.button
    return Positions(button=button, small_blind=small, big_blind=big)
