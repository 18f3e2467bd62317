"""Random hands under all five rulesets, with wrong, early and simultaneous actions mixed in:
chips are never created or lost, stacks never go negative, every action gets a status, and
every hand ends. Who wins what is not checked here (a wrong winner keeps every chip too): the
PokerKit differential and the worked examples compare the amounts with a reference."""

from __future__ import annotations

import random

import pytest

from hub.rules import RULESETS, ActionKind, ActionStatus, Hand, Level, start_hand
from hub.rules.evaluator import RANKS, SUITS
from hub.rules.records import ActionRecord

DECK = [r + s for r in RANKS for s in SUITS]
KINDS = list(ActionKind)


def random_action(rng: random.Random, h: Hand) -> tuple[int, ActionKind, int | None]:
    seat = h.to_act if rng.random() < 0.8 else rng.choice(h.seats)
    assert seat is not None
    kind = rng.choice(KINDS)
    to = None
    if kind in (ActionKind.BET, ActionKind.RAISE) or rng.random() < 0.1:
        to = rng.randint(0, h.bet[seat] + h.stack[seat] + 50)
    return seat, kind, to


def play(rng: random.Random, ruleset: str) -> Hand:
    n = rng.randint(2, 9)
    seats = rng.sample(range(1, 11), n)
    bb = rng.choice((20, 100, 300))
    level = Level(bb // 2, bb, ante=rng.choice((0, bb // 10)), bb_ante=rng.random() < 0.3)
    stacks = {s: rng.randint(1, bb * 60) for s in seats}
    h = start_hand(ruleset, level, rng.choice(seats), stacks)
    total = sum(stacks.values())
    deck = DECK[:]
    rng.shuffle(deck)
    now = 0.0
    for _ in range(400):
        if h.result is not None:
            break
        assert sum(h.stack.values()) + h.pot == total
        assert min(h.stack.values()) >= 0
        if h.betting_open:
            r = rng.random()
            if r < 0.05 and h.to_act is not None:
                h.call_time(h.to_act, now) if ruleset != "cpt87" else None
            elif r < 0.1:
                now += rng.choice((5.0, 80.0))
                h.tick(now)
            elif r < 0.15:
                reqs = [random_action(rng, h) for _ in range(2)]
                if reqs[0][0] != reqs[1][0]:
                    for rec in h.act_together(reqs):
                        assert rec.status in ActionStatus
            else:
                seat, kind, to = random_action(rng, h)
                rec = h.act(seat, kind, to, announced=rng.random() < 0.2,
                            chips=(rng.choice((100, 500, 1000)),) * rng.randint(1, 3)
                            if to is None and rng.random() < 0.1 else None)
                assert isinstance(rec, ActionRecord) and rec.status in ActionStatus
                if rec.status is ActionStatus.REJECTED:
                    assert rec.added == 0
        elif len(h.board) < 5:
            h.deal_board(deck.pop() if h.board else deck.pop(), *([deck.pop(), deck.pop()]
                                                                 if not h.board else []))
        else:
            shown = {s: deck.pop() + deck.pop() for s in h.live if rng.random() < 0.9}
            h.showdown(shown)
    assert h.result is not None, "the hand did not end"
    assert sum(h.result.stacks.values()) == total
    assert min(h.result.stacks.values()) >= 0
    return h


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_random_hands_keep_every_chip(ruleset: str, seed: int) -> None:
    rng = random.Random(f"{ruleset}/{seed}")  # new hands every run; the seed is printed with a failure
    for _ in range(300):
        play(rng, ruleset)
