"""Writes the PLO and short-deck PHH files beside this script, played and recorded by PokerKit alone.

`python -m tests.rules.phh_games.make_phh` (re)writes them; they are committed, so `tapis phh` and
tests/rules/test_phh_games.py replay fixed histories. Actions are drawn among PokerKit's own legal
moves (fold, check/call, raises from its minimum to its pot-limit or all-in maximum), every hand is
played to its end, and PokerKit's finishing stacks are the record our replay must reach.
"""

from __future__ import annotations

import random
from pathlib import Path

import pokerkit

HERE = Path(__file__).resolve().parent
PER_GAME = 40
SEED = 19
GAMES = {"plo": pokerkit.PotLimitOmahaHoldem, "short_deck": pokerkit.NoLimitShortDeckHoldem}
A = pokerkit.Automation
AUTOMATIONS = (A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING, A.CARD_BURNING,
               A.HOLE_DEALING, A.BOARD_DEALING, A.HOLE_CARDS_SHOWING_OR_MUCKING, A.HAND_KILLING,
               A.CHIPS_PUSHING, A.CHIPS_PULLING)


def one_hand(cls: type, rng: random.Random) -> pokerkit.HandHistory:
    n = rng.randint(2, 6)
    bb = rng.choice((100, 200, 1_000))
    ante = rng.choice((0, 0, bb // 10))
    stacks = tuple(rng.randint(bb * 5, bb * 100) for _ in range(n))
    game = cls(AUTOMATIONS, True, ante, (bb // 2, bb), bb)
    state = game(stacks, n)
    while state.status:
        if state.can_fold() and rng.random() < 0.15:
            state.fold()
        elif state.can_complete_bet_or_raise_to() and rng.random() < 0.35:
            lo = state.min_completion_betting_or_raising_to_amount
            hi = state.max_completion_betting_or_raising_to_amount
            state.complete_bet_or_raise_to(hi if rng.random() < 0.35 else rng.randint(lo, hi))
        else:
            state.check_or_call()
    return pokerkit.HandHistory.from_game_state(game, state, finishing_stacks=list(state.stacks))


def main() -> None:
    rng = random.Random(SEED)
    for name, cls in GAMES.items():
        for i in range(1, PER_GAME + 1):
            hh = one_hand(cls, rng)
            (HERE / f"{name}_{i:02d}.phh").write_text(hh.dumps() + "\n")


if __name__ == "__main__":
    main()
