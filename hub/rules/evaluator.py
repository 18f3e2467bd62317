"""Cards and hold'em hand evaluation: best five of five to seven cards as one comparable int.

Consumed by `showdown` (and the PHH replayer through it). Pure Python with two 8192-entry tables
built at import (straight tops, top-five ranks), so it runs the same on aarch64 without wheels.
Cards are ints `rank * 4 + suit` (rank 0 = deuce .. 12 = ace); strings read `As`, `Td`, `7c`.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

from hub.rules.records import InvalidCard

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # trèfle, carreau, cœur, pique
_RANK_INDEX = {ch: i for i, ch in enumerate(RANKS)}
_SUIT_INDEX = {ch: i for i, ch in enumerate(SUITS)}


class Category(IntEnum):
    HIGH_CARD = 0  # hauteur
    PAIR = 1  # paire
    TWO_PAIR = 2  # double paire
    TRIPS = 3  # brelan
    STRAIGHT = 4  # quinte
    FLUSH = 5  # couleur
    FULL_HOUSE = 6  # full
    QUADS = 7  # carré
    STRAIGHT_FLUSH = 8  # quinte flush


_CARDS = {r + s: i * 4 + j for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)}


def parse_card(text: str) -> int:
    """`As` -> 51. Case of the rank letter is ignored; the suit is lower case."""
    card = _CARDS.get(text)  # the usual spelling, one lookup; other cases below
    if card is not None:
        return card
    if len(text) != 2:
        raise InvalidCard(f"a card is rank then suit, like 'As' or 'Td': {text!r}")
    r = _RANK_INDEX.get(text[0].upper())
    s = _SUIT_INDEX.get(text[1].lower())
    if r is None or s is None:
        raise InvalidCard(f"a card is rank then suit, like 'As' or 'Td': {text!r}")
    return r * 4 + s


def parse_cards(text: str) -> tuple[int, ...]:
    """`AsKd` or `As Kd` -> two cards."""
    compact = text.replace(" ", "").replace(",", "")
    if len(compact) % 2:
        raise InvalidCard(f"cards are written two characters each: {text!r}")
    return tuple(parse_card(compact[i : i + 2]) for i in range(0, len(compact), 2))


def card_str(card: int) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def _straight_top(mask: int) -> int:
    for top in range(12, 3, -1):
        window = 0b11111 << (top - 4)
        if mask & window == window:
            return top
    if mask & 0b1000000001111 == 0b1000000001111:  # the wheel, A-2-3-4-5
        return 3
    return -1


def _top_ranks(mask: int, n: int) -> int:
    packed = 0
    taken = 0
    for r in range(12, -1, -1):
        if mask >> r & 1:
            packed = packed << 4 | r
            taken += 1
            if taken == n:
                break
    return packed << 4 * (n - taken)


_STRAIGHT = tuple(_straight_top(m) for m in range(1 << 13))
_TOP5 = tuple(_top_ranks(m, 5) for m in range(1 << 13))
_FIVE = tuple(m.bit_count() >= 5 for m in range(1 << 13))  # five ranks or more: a suit's flush, one look-up


# Each category's bits, shifted once here rather than on every hand (the same ints).
_CAT_STRAIGHT_FLUSH = Category.STRAIGHT_FLUSH << 20
_CAT_FLUSH = Category.FLUSH << 20
_CAT_QUADS = Category.QUADS << 20
_CAT_FULL_HOUSE = Category.FULL_HOUSE << 20
_CAT_STRAIGHT = Category.STRAIGHT << 20
_CAT_TRIPS = Category.TRIPS << 20
_CAT_TWO_PAIR = Category.TWO_PAIR << 20
_CAT_PAIR = Category.PAIR << 20
_CAT_HIGH_CARD = Category.HIGH_CARD << 20


# Each card's rank as a bit, and one in its suit's byte: the four suits counted in one int, a byte each (#35).
# A count of five or more shows as the byte's top bit once 123 is added to each byte (no carry: at most 52).
_RANK_BIT = tuple(1 << (c >> 2) for c in range(52))
_SUIT_ONE = tuple(1 << 8 * (c & 3) for c in range(52))
_PAST_FOUR = 0x7B7B7B7B
_FIVE_OF_A_SUIT = 0x80808080

# The ranks a few cards hold, as `evaluate` counts them: (once, twice, thrice, four, each suit's count, the
# cards). A showdown counts the board once (`counted`) and each hand's cards on top of it.
Counts = tuple[int, int, int, int, int, tuple[int, ...]]
NOTHING: Counts = (0, 0, 0, 0, 0, ())


def counted(cards: Sequence[int]) -> Counts:
    """The counts of `cards` (the board's), for `evaluate(hole, counts)`: the same climb as there."""
    once = twice = thrice = four = suits = 0
    for c in cards:
        bit = _RANK_BIT[c]
        suits += _SUIT_ONE[c]
        if once & bit:
            if twice & bit:
                if thrice & bit:
                    four |= bit
                else:
                    thrice |= bit
            else:
                twice |= bit
        else:
            once |= bit
    return (once, twice, thrice, four, suits, tuple(cards))


def evaluate(cards: Sequence[int], counts: Counts = NOTHING) -> int:
    """Strength of the best five-card hand of `cards` and the cards `counts` holds (`counted`):
    compare ints, higher wins, equal splits."""
    # One pass over the cards, no pass over the thirteen ranks: a rank's bit climbs from `once`
    # to `four` as its copies come; the highest rank of a kind is then a bit length.
    once, twice, thrice, four, suits, before = counts
    for c in cards:
        bit = _RANK_BIT[c]
        suits += _SUIT_ONE[c]
        if once & bit:
            if twice & bit:
                if thrice & bit:
                    four |= bit
                else:
                    thrice |= bit
            else:
                twice |= bit
        else:
            once |= bit
    flush = -1
    if (suits + _PAST_FOUR) & _FIVE_OF_A_SUIT:  # five cards of a suit: each suit's ranks, then as ever
        ranks = [0, 0, 0, 0]
        for c in (*before, *cards):
            ranks[c & 3] |= _RANK_BIT[c]
        for m in ranks:
            if _FIVE[m]:
                top = _STRAIGHT[m]
                if top >= 0:
                    return _CAT_STRAIGHT_FLUSH | top << 16
                flush = _CAT_FLUSH | _TOP5[m]
                break
    mask = once
    if four:
        quads = four.bit_length() - 1
        kicker = _TOP5[mask & ~(1 << quads)] >> 16
        return _CAT_QUADS | quads << 16 | kicker << 12
    trips = thrice & ~four
    pairs = twice & ~thrice
    if trips:
        trips1 = trips.bit_length() - 1
        second = max((trips & ~(1 << trips1)).bit_length(), pairs.bit_length()) - 1
        if second >= 0:
            return _CAT_FULL_HOUSE | trips1 << 16 | second << 12
    if flush >= 0:
        return flush
    top = _STRAIGHT[mask]
    if top >= 0:
        return _CAT_STRAIGHT | top << 16
    if trips:
        kickers = _TOP5[mask & ~(1 << trips1)] >> 12
        return _CAT_TRIPS | trips1 << 16 | kickers << 8
    if pairs:
        pair1 = pairs.bit_length() - 1
        rest = pairs & ~(1 << pair1)
        if rest:
            pair2 = rest.bit_length() - 1
            kicker = _TOP5[mask & ~(1 << pair1) & ~(1 << pair2)] >> 16
            return _CAT_TWO_PAIR | pair1 << 16 | pair2 << 12 | kicker << 8
        kickers = _TOP5[mask & ~(1 << pair1)] >> 8
        return _CAT_PAIR | pair1 << 16 | kickers << 4
    return _CAT_HIGH_CARD | _TOP5[mask]


def category(score: int) -> Category:
    return Category(score >> 20)


def evaluate_hand(hole: Sequence[int], board: Sequence[int]) -> int:
    return evaluate((*hole, *board))
