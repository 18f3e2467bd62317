"""The showdown's shortcuts of issue #35 (ninth round) against the general way they stand in for: hold'em scored
in line, the showdown order without `order` after a round checked through, a lone winner paid without
`split_pot` (the other shortcuts: `test_fast_paths_agree.py`)."""

from __future__ import annotations

import random

import pytest

from hub.rules import ActionKind, Hand, HandResult, Level, start_hand
from hub.rules.evaluator import RANKS, SUITS
from hub.rules.game_file import get_game
from hub.rules.pots import build_pots
from hub.rules.records import HandEndKind, hand_result, pot_result

DECK = [r + s for r in RANKS for s in SUITS]


def _award_the_general_way(hand: Hand, hole_cards: dict[int, object]) -> HandResult:
    """`showdown.award` before issue #35's ninth round: `order` always, `scorer` for every game, `split_pot` for
    every pot."""
    from hub.rules import showdown
    from hub.rules.positions import clockwise
    from hub.rules.pots import split_pot
    from hub.rules.variant_eval import scorer

    live_in_seat_order = list(filter(hand.live.__contains__, hand.seats))
    button = hand.positions.button
    shown = showdown.order(hand.rules, hand.live, button, hand.aggressors, hand.last_round_street,
                           live_in_seat_order)
    scored = scorer(hand.game, tuple(hand.board))
    scores = {}
    for s in shown:
        cards = showdown._cards(hole_cards.get(s))  # type: ignore[arg-type]
        value = None if cards is None else scored(cards)
        if value is not None:
            scores[s] = value
    layers = build_pots(hand.contributed, live_in_seat_order, hand.dead, hand.ante_capped)
    stacks = dict(hand.stack)
    results = []
    for amount, eligible in reversed(layers):
        contenders = [s for s in eligible if s in scores]
        if len(contenders) == 1:
            winners = contenders
        elif contenders:
            best = max(scores[s] for s in contenders)
            winners = [s for s in contenders if scores[s] == best]
        else:
            winners = [next(s for s in shown if s in eligible)]
        in_order = winners if len(winners) == 1 else clockwise(winners, button)
        shares = split_pot(amount, in_order, hand.rules.odd_chips.value == "one_each")
        for s, chips in shares:
            stacks[s] += chips
        results.append(pot_result(amount, eligible, tuple(in_order), tuple(shares)))
    results.reverse()
    return hand_result(HandEndKind.SHOWDOWN, tuple(results), stacks, dict(hand.returned), tuple(shown),
                       hand.rules.article("odd_chip"))


@pytest.mark.parametrize("seed", range(3))
def test_the_showdown_in_line_awards_what_the_general_way_awards(seed: int) -> None:
    """`showdown.award`'s hold'em scores in line, its showdown order without `order` after a round checked
    through and its one-winner pots without `split_pot` give the result the general way gives: random hands
    of the five rulebooks, hold'em, PLO and short deck, hole cards shown as texts, ints, face down or mucked,
    ties and side pots among them."""
    rng = random.Random(100 + seed)
    rulesets = ("cdc-2013", "pcpm", "pouques-2020", "brest-2011", "cpt87")
    showdowns = split = side = checked_through = 0
    for _ in range(300):
        n = rng.randint(2, 8)
        bb = 100
        stacks = {s: rng.choice((bb, bb * 3, bb * 10, bb * 40)) + rng.choice((0, 0, 50)) for s in range(1, n + 1)}
        level = Level(bb // 2, bb, rng.choice((0, 0, bb // 4)), rng.random() < 0.2)
        game = get_game(rng.choice(("nlhe", "nlhe", "nlhe", "plo", "short_deck")))
        hand = start_hand(rng.choice(rulesets), level, rng.randint(1, n), stacks, game=game)
        deck = [c for c in DECK if game.deck == 52 or c[0] not in "2345"]
        rng.shuffle(deck)
        while hand.result is None and (hand.to_act is not None or len(hand.board) < 5):
            if hand.to_act is not None:
                seat = hand.to_act
                r = rng.random()
                kind = ActionKind.FOLD if r < 0.1 else ActionKind.ALLIN if r < 0.15 else ActionKind.CALL
                hand.act(seat, kind)
            else:
                hand.deal_board(*[deck.pop() for _ in range(3 if not hand.board else 1)])
        if hand.result is not None:
            continue
        holes: dict[int, object] = {}
        for s in hand.live:
            cards = [deck.pop() for _ in range(game.hole_cards)]
            way = rng.random()
            oddly_spelt = (cards[0][0].lower() + cards[0][1], *cards[1:])  # `parse_card` reads it, not the table
            holes[s] = (tuple(cards) if way < 0.5 else "".join(cards) if way < 0.6 else None if way < 0.65
                        else "??" * game.hole_cards if way < 0.7 else oddly_spelt if way < 0.8
                        else tuple(DECK.index(c) for c in cards))
        if rng.random() < 0.3 and len(hand.live) > 1:  # a tie: two hands of the same ranks (the board plays)
            a, b = rng.sample(sorted(hand.live), 2)
            holes[b] = holes[a]
        expected = _award_the_general_way(hand, holes)
        assert hand.showdown(holes) == expected  # type: ignore[arg-type]
        showdowns += 1
        split += any(len(p.winners) > 1 for p in expected.pots)
        side += len(expected.pots) > 1
        checked_through += not hand.aggressors.get(hand.last_round_street)
    counts = (showdowns, split, side, checked_through)
    assert showdowns > 100 and split > 5 and side > 5 and checked_through > 20, counts
