"""Hand evaluation of the other games: Omaha (exactly two from the hand) and short deck.

Consumed by `showdown` through `score(game, hole, board)`. Omaha looks each two-plus-three combination up
(60 for four cards, 100 for five) in tables of every five-card hand, built once from the hold'em
evaluator. Short deck has its own order, PokerKit's and the clubs': a flush beats a full house, and
A-6-7-8-9 is the lowest straight. Scores of one game compare among themselves only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations, combinations_with_replacement

from hub.rules.evaluator import _TOP5, Category, counted, evaluate
from hub.rules.games import Evaluation, Game

_SHORT_WHEEL = 1 << 12 | 0b11110000  # A, 6, 7, 8, 9


def _short_straight_top(mask: int) -> int:
    for top in range(12, 7, -1):  # 6-7-8-9-T (top T) up to the broadway
        window = 0b11111 << (top - 4)
        if mask & window == window:
            return top
    if mask & _SHORT_WHEEL == _SHORT_WHEEL:
        return 7  # A-6-7-8-9 ranks just under 6-7-8-9-T
    return -1


_STRAIGHT_SHORT = tuple(_short_straight_top(m) for m in range(1 << 13))
# Short deck's categories: the flush changes place with the full house.
_SHORT_FLUSH = Category.FULL_HOUSE
_SHORT_FULL = Category.FLUSH


def evaluate_short_deck(cards: Iterable[int]) -> int:
    """Best five of a 36-card game; higher wins. `category` does not read these scores."""
    counts = [0] * 13
    suits = [0, 0, 0, 0]
    for c in cards:
        r = c >> 2
        counts[r] += 1
        suits[c & 3] |= 1 << r
    flush = -1
    for m in suits:
        if m.bit_count() >= 5:
            top = _STRAIGHT_SHORT[m]
            if top >= 0:
                return Category.STRAIGHT_FLUSH << 20 | top << 16
            flush = _SHORT_FLUSH << 20 | _TOP5[m]
            break
    ranks = [r for r in range(12, -1, -1) if counts[r]]
    mask = 0
    for r in ranks:
        mask |= 1 << r
    quads = [r for r in ranks if counts[r] == 4]
    trips = [r for r in ranks if counts[r] == 3]
    pairs = [r for r in ranks if counts[r] == 2]
    if quads:
        kicker = _TOP5[mask & ~(1 << quads[0])] >> 16
        return Category.QUADS << 20 | quads[0] << 16 | kicker << 12
    if flush >= 0:
        return flush
    if trips and (len(trips) > 1 or pairs):
        second = max([*trips[1:], *pairs])
        return _SHORT_FULL << 20 | trips[0] << 16 | second << 12
    top = _STRAIGHT_SHORT[mask]
    if top >= 0:
        return Category.STRAIGHT << 20 | top << 16
    if trips:
        return Category.TRIPS << 20 | trips[0] << 16 | (_TOP5[mask & ~(1 << trips[0])] >> 12) << 8
    if len(pairs) >= 2:
        kicker = _TOP5[mask & ~(1 << pairs[0]) & ~(1 << pairs[1])] >> 16
        return Category.TWO_PAIR << 20 | pairs[0] << 16 | pairs[1] << 12 | kicker << 8
    if pairs:
        return Category.PAIR << 20 | pairs[0] << 16 | (_TOP5[mask & ~(1 << pairs[0])] >> 8) << 4
    return Category.HIGH_CARD << 20 | _TOP5[mask]


_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_five: dict[int, int] = {}  # prime product of five ranks -> hold'em score, suits mixed
_flush: dict[int, int] = {}  # rank mask of five suited cards -> hold'em score


def _tables() -> tuple[dict[int, int], dict[int, int]]:
    """Every five-card hand's score, computed once on first use (7,462 classes, well under a second)."""
    if not _five:
        for ranks in combinations_with_replacement(range(13), 5):
            if max(ranks.count(r) for r in ranks) > 4:
                continue
            key = 1
            for r in ranks:
                key *= _PRIMES[r]
            _five[key] = evaluate([r * 4 + i % 4 for i, r in enumerate(ranks)])  # never five of a suit
            if len(set(ranks)) == 5:
                _flush[sum(1 << r for r in ranks)] = evaluate([r * 4 for r in ranks])
    return _five, _flush


def _parts(cards: Sequence[int]) -> tuple[int, int, int]:
    """Prime product, rank mask and common suit (-1 when mixed) of a few cards."""
    key, mask, suit = 1, 0, cards[0] & 3
    for c in cards:
        key *= _PRIMES[c >> 2]
        mask |= 1 << (c >> 2)
        if c & 3 != suit:
            suit = -1
    return key, mask, suit


def evaluate_omaha(hole: Sequence[int], board: Sequence[int]) -> int:
    """Best hand using exactly two hole cards and three board cards, by table lookups."""
    five, flush = _tables()
    threes = [_parts(t) for t in combinations(board, 3)]
    best = -1
    for pair in combinations(hole, 2):
        hk, hm, hs = _parts(pair)
        for bk, bm, bs in threes:
            s = flush[hm | bm] if hs >= 0 and hs == bs else five[hk * bk]
            if s > best:
                best = s
    return best


_OMAHA, _SHORT_DECK = Evaluation.OMAHA, Evaluation.SHORT_DECK


def scorer(game: Game, board: Sequence[int]) -> Callable[[Sequence[int]], int | None]:
    """`score(game, hole, board)` as a function of the hole cards, for every hand of one showdown:
    a hold'em-scored game counts the board once, not once per hand (the same scores)."""
    if game.evaluation is _OMAHA or game.evaluation is _SHORT_DECK:
        return lambda hole: score(game, hole, board)
    size, counts = len(board), counted(board)
    return lambda hole: None if len(hole) + size < 5 else evaluate(hole, counts)


def score(game: Game, hole: Sequence[int], board: Sequence[int]) -> int | None:
    """The hand's strength in its game, or None when the cards cannot make a hand there."""
    if game.evaluation is _OMAHA:
        if len(hole) < 2 or len(board) < 3:
            return None
        return evaluate_omaha(hole, board)
    if len(hole) + len(board) < 5:
        return None
    if game.evaluation is _SHORT_DECK:
        return evaluate_short_deck((*hole, *board))
    return evaluate((*hole, *board))
