"""A simulated croupier and players: whole hands dealt and played through the real pipeline.

The croupier moves cards on the reader simulator (`Felt`) and the players press their panels
(`TableAgent.player_action`, as the seat panel does), following the hub's engine for whose turn it
is. Used by `tapis demo` and the benchmarks. `inject` adds a dealing fault now and then (a boxed
card) so rulings flow as well.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

from hub.game import TableGame
from hub.rules import Hand
from hw.decks import FULL_DECK
from simulators.dealer import Board, Burn, Clear, Felt, Hole, Muck, Tray
from table_agent.agent import TableAgent


class Croupier:
    def __init__(self, *, agent: TableAgent, felt: Felt, game: Callable[[], TableGame | None],
                 rng: random.Random, pace: float, stop: threading.Event, boxed_rate: float = 0.0,
                 on_fault_injected: Callable[[str], None] | None = None) -> None:
        self.agent = agent
        self.felt = felt
        self._game = game
        self.rng = rng
        self.pace = pace
        self.stop = stop
        self.boxed_rate = boxed_rate
        self._injected = on_fault_injected
        self.hands = 0

    def _wait(self, condition: Callable[[], bool], timeout: float = 5.0) -> bool:
        deadline = time.monotonic() + timeout
        while not condition():
            if self.stop.wait(0.005) or time.monotonic() > deadline:
                return False
        return True

    def _pause(self) -> bool:
        return not self.stop.wait(self.pace * self.rng.uniform(0.6, 1.4))

    def play_hand(self) -> bool:
        """One hand from "new hand" to the felt cleared; False when stopped or the hub is gone."""
        game = self._game()
        if game is None:
            return False
        before = game.hand_no
        self.agent.new_hand()
        if not self._wait(lambda: game.hand_no > before and game.hand is not None):
            return False
        hand = game.hand
        assert hand is not None
        deck = list(FULL_DECK)
        self.rng.shuffle(deck)
        for seat in [s for _ in range(2) for s in hand.seats]:  # two rounds from the button's left
            if self.boxed_rate and self.rng.random() < self.boxed_rate:
                card = deck.pop()
                if self._injected:
                    self._injected(self.felt.uid(card))
                self.felt.perform(Tray(card))
            if not self._pause():
                return False
            self.felt.perform(Hole(seat, deck.pop()))
        while hand.result is None and game.hand is hand:
            if hand.round_open:
                if not self._act(hand):
                    return False
            elif len(game.board) < 5:
                street = 3 if not game.board else 1
                want = len(game.board) + street
                self.felt.perform(Burn(deck.pop()))
                for _ in range(street):
                    if not self._pause():
                        return False
                    self.felt.perform(Board(deck.pop()))
                if not self._wait(lambda: len(game.board) >= want or hand.result is not None):
                    return False
                self._wait(lambda: hand.round_open or hand.result is not None, timeout=0.5)
            elif not self._wait(lambda: hand.result is not None, timeout=1.0):
                return False
        self.stop.wait(self.pace * 4)  # the showdown is looked at
        self.felt.perform(Clear())
        self.hands += 1
        return not self.stop.wait(max(0.3, 3 * self.pace))

    def _act(self, hand: Hand) -> bool:
        seat = hand.to_act
        if seat is None or not self._pause():
            return not self.stop.is_set()
        logged = len(hand.log)
        legal = hand.legal(seat)
        r = self.rng.random()
        if legal.can_check:
            if r < 0.8 or not legal.can_raise:
                self.agent.player_action(seat, "check")
            else:
                self.agent.player_action(seat, "bet", legal.min_raise_to)
        elif r < 0.3:
            if r < 0.15:
                self.felt.perform(Muck(seat))  # cards thrown in: a fold by the muck
            else:
                self.agent.player_action(seat, "fold")
        elif r < 0.9 or not legal.can_raise:
            self.agent.player_action(seat, "call")
        else:
            self.agent.player_action(seat, "raise", legal.min_raise_to)
        return self._wait(lambda: len(hand.log) > logged or hand.result is not None) or not self.stop.is_set()
