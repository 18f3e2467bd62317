"""Differential tests of the other games against PokerKit: pot-limit Omaha (4 and 5 cards) and
short deck, on random tournament hands, as tests/rules/test_differential_pokerkit.py does for hold'em.

Each hand is dealt and played in both engines with the same random actions; the seat to act, the
call, the raise bounds (the pot-limit maximum included) and the finishing stacks must agree, and so
must the evaluators. `TAPIS_GAME_HANDS=2000` is the documented large run (docs/games.md); CI plays
fewer hands per game to keep the suite fast on two cores.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

import pytest

pokerkit = pytest.importorskip("pokerkit")

from hub.rules import ActionKind, ActionStatus, Hand  # noqa: E402
from hub.rules.evaluator import RANKS, SUITS, parse_cards  # noqa: E402
from hub.rules.game_file import get_game  # noqa: E402
from hub.rules.games import Game  # noqa: E402
from hub.rules.phh import PhhHand, build_hand  # noqa: E402
from hub.rules.variant_eval import score  # noqa: E402

HANDS = int(os.environ.get("TAPIS_GAME_HANDS", "100"))
FULL_DECK = [r + s for r in RANKS for s in SUITS]
SHORT_DECK = [c for c in FULL_DECK if c[0] not in "2345"]


class PotLimitOmaha5(pokerkit.PotLimitOmahaHoldem):  # type: ignore[name-defined]
    """PokerKit has no five-card Omaha class; its Omaha hand takes any number of hole cards."""

    hole_dealing_count = 5


PK_GAME: dict[str, Any] = {
    "plo": pokerkit.PotLimitOmahaHoldem,
    "plo5": PotLimitOmaha5,
    "short_deck": pokerkit.NoLimitShortDeckHoldem,
}
PK_HAND: dict[str, Any] = {
    "plo": pokerkit.OmahaHoldemHand,
    "plo5": pokerkit.OmahaHoldemHand,
    "short_deck": pokerkit.ShortDeckHoldemHand,
}


def deck_of(game: Game) -> list[str]:
    return SHORT_DECK if game.deck == 36 else FULL_DECK


def random_setup(rng: random.Random, game: Game) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    most = min(9, (len(deck_of(game)) - 8) // game.hole_cards)  # board and burns must fit
    n = rng.randint(2, most)
    bb = rng.choice((100, 200, 400, 1_000))
    ante = bb // rng.choice((4, 8, 10))
    kind = rng.choice(("none", "each", "bb"))
    stacks = tuple(rng.choice((rng.randint(bb * 2, bb * 15), rng.randint(bb * 15, bb * 120))) + ante * n
                   for _ in range(n))
    antes = ((ante,) * n if kind == "each" else tuple(ante * n if i == 1 else 0 for i in range(n))
             if kind == "bb" else (0,) * n)
    return stacks, antes, (bb // 2, bb) + (0,) * (n - 2), bb


def play(rng: random.Random, game: Game) -> tuple[list[int], list[int]] | None:
    """One random hand in both engines; None when it reached a known difference (hold'em's list)."""
    stacks, antes, blinds, bb = random_setup(rng, game)
    a = pokerkit.Automation
    st = PK_GAME[game.id].create_state(
        (a.ANTE_POSTING, a.BET_COLLECTION, a.BLIND_OR_STRADDLE_POSTING, a.CARD_BURNING,
         a.HOLE_CARDS_SHOWING_OR_MUCKING, a.HAND_KILLING, a.CHIPS_PUSHING, a.CHIPS_PULLING),
        False, antes, blinds, bb, stacks, len(stacks))
    h: Hand = build_hand(PhhHand("random", 1, stacks, antes, blinds, bb, (), None, (), game))
    deck = deck_of(game)[:]
    rng.shuffle(deck)
    n = len(stacks)
    holes = {i + 1: "".join(deck.pop() for _ in range(game.hole_cards)) for i in range(n)}
    for i in range(n):
        st.deal_hole(holes[i + 1])
    while h.result is None:
        if h.betting_open:
            seat = h.to_act
            assert seat is not None and st.actor_index == seat - 1
            legal = h.legal()
            assert legal.call_amount == st.checking_or_calling_amount
            pk_can_raise = st.can_complete_bet_or_raise_to()
            acted = h._acted.get(seat)
            if (pk_can_raise and not legal.can_raise and acted is not None
                    and h.full_seq == acted[0] and h.max_bet >= acted[1]):
                return None  # PokerKit reopens on short all-ins adding up to a full raise
            assert legal.can_raise == pk_can_raise
            if legal.can_raise:
                assert legal.max_raise_to == st.max_completion_betting_or_raising_to_amount
                assert legal.min_raise_to == st.min_completion_betting_or_raising_to_amount
            r = rng.random()
            if r < 0.12 and legal.call_amount > 0:
                rec = h.act(seat, ActionKind.FOLD)
                st.fold()
            elif r < 0.65 or not legal.can_raise:
                rec = h.act(seat, ActionKind.CALL)
                st.check_or_call()
            else:
                lo, hi = legal.min_raise_to, legal.max_raise_to
                to = hi if rng.random() < 0.3 else rng.randint(lo, max(lo, min(hi, lo * 3)))
                rec = h.act(seat, ActionKind.RAISE, to)
                st.complete_bet_or_raise_to(to)
            assert rec.status is ActionStatus.ACCEPTED, rec
        elif len(h.board) < 5:
            count = 3 if not h.board else 1
            cards = [deck.pop() for _ in range(count)]
            h.deal_board(*cards)
            st.deal_board("".join(cards))
        else:
            h.showdown({seat: [holes[seat][i:i + 2] for i in range(0, len(holes[seat]), 2)]
                        for seat in h.live})
    assert not st.status
    assert h.result is not None
    pots = h.result.pots
    odd = [p.winners for p in pots if p.amount % len(p.winners)]
    if odd and any(sum(q.winners == w for q in pots) > 1 for w in odd):
        return None  # pots won by the same players: PokerKit merges them before the split
    return [h.result.stacks[i + 1] for i in range(n)], list(st.stacks)


@pytest.mark.parametrize("game_id", ["plo", "plo5", "short_deck"])
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_random_hands_agree_with_pokerkit(game_id: str, seed: int) -> None:
    game = get_game(game_id)
    rng = random.Random(seed)
    compared = 0
    for _ in range(HANDS):
        out = play(rng, game)
        if out is None:
            continue
        ours, theirs = out
        assert ours == theirs
        compared += 1
    assert compared > HANDS * 0.8, compared


def _compare(game: Game, rng: random.Random, count: int, hole: int) -> None:
    pk_hand: Callable[..., Any] = PK_HAND[game.id]
    for _ in range(count):
        deck = deck_of(game)[:]
        rng.shuffle(deck)
        board, a, b = deck[:5], deck[5:5 + hole], deck[5 + hole:5 + 2 * hole]
        sa = score(game, parse_cards("".join(a)), parse_cards("".join(board)))
        sb = score(game, parse_cards("".join(b)), parse_cards("".join(board)))
        assert sa is not None and sb is not None
        pa = pk_hand.from_game("".join(a), "".join(board))  # type: ignore[attr-defined]
        pb = pk_hand.from_game("".join(b), "".join(board))  # type: ignore[attr-defined]
        assert (sa > sb) - (sa < sb) == (pa > pb) - (pa < pb), (a, b, board)


@pytest.mark.parametrize("game_id,hole", [("plo", 4), ("plo5", 5), ("short_deck", 2)])
def test_evaluators_order_hands_like_pokerkit(game_id: str, hole: int, seed: int) -> None:
    _compare(get_game(game_id), random.Random(seed), max(300, HANDS * 3), hole)


def test_short_deck_order_pinned() -> None:
    """A-6-7-8-9 is the lowest straight; a flush beats a full house; quads still beat a flush."""
    sd = get_game("short_deck")

    def s(cards: str) -> int:
        v = score(sd, parse_cards(cards), ())
        assert v is not None
        return v

    assert s("As6c7d8h9s") < s("6c7d8h9sTs") < s("7c7d7hTsTc") < s("6s7s8sTsQs") < s("9c9d9h9sAs")
    assert s("AhAd6s6hTd") < s("As6c7d8h9s")  # two pair under the lowest straight
    assert s("AsKsQsJsTs") > s("As6s7s8s9s") > s("9c9d9h9sAs")  # straight flushes, the low one too


@pytest.mark.parametrize("hole", [4, 5])
def test_omaha_tables_agree_with_every_combination(hole: int, seed: int) -> None:
    """The lookup tables give what the hold'em evaluator gives on the best two-plus-three."""
    from itertools import combinations

    from hub.rules.evaluator import evaluate
    from hub.rules.variant_eval import evaluate_omaha

    rng = random.Random(seed)
    for _ in range(2_000):
        cards = parse_cards("".join(rng.sample(FULL_DECK, hole + 5)))
        h, b = cards[:hole], cards[hole:]
        brute = max(evaluate((*p, *t)) for p in combinations(h, 2) for t in combinations(b, 3))
        assert evaluate_omaha(h, b) == brute, cards


def test_omaha_plays_exactly_two_from_the_hand() -> None:
    """Four spades in the hand and one on the board is no flush: two from the hand, three from the
    board; a board straight needs two hand cards of it too."""
    plo = get_game("plo")
    flushless = score(plo, parse_cards("AsKsQsJs"), parse_cards("2s7d8c9hTd"))
    assert flushless is not None and flushless >> 20 == 4  # a straight (Q-J with 8-9-T), no flush
    board_straight = score(plo, parse_cards("KcKd9h9s"), parse_cards("4s5d6c7h8d"))
    assert board_straight is not None and board_straight >> 20 == 1  # a pair of kings: 5-6-7-8-9 would take one 9
