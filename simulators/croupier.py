"""A simulated croupier and players: whole hands dealt and played through the real pipeline.

The croupier moves cards on the reader simulator (`Felt`) and the players press their panels
(`TableAgent.player_action`, as the seat panel does). They follow what the table itself knows from
the hub (the hand context, whose turn it is, what is owed, the hand over: `agent.watch`), as a croupier
follows the LEDs, so they run in any process, apart from the hub. Used by `tapis demo` and the
benchmarks; `boxed_rate` turns a card face up in the deck now and then, so rulings flow as well.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

from hw.decks import FULL_DECK
from simulators.dealer import Board, Burn, Clear, Felt, Hole, Muck, Tray
from table_agent.agent import TableAgent

_STREET = {"preflop": 3, "flop": 1, "turn": 1}  # board cards to deal once that street's betting is over


class Croupier:
    def __init__(self, *, agent: TableAgent, felt: Felt, rng: random.Random, pace: float,
                 stop: threading.Event, boxed_rate: float = 0.0, bet: int = 200,
                 on_fault_injected: Callable[[str], None] | None = None) -> None:
        self.agent = agent
        self.watch = agent.watch
        self.felt = felt
        self.rng = rng
        self.pace = pace
        self.stop = stop
        self.boxed_rate = boxed_rate
        self.bet = bet
        self._injected = on_fault_injected
        self.hands = 0

    def _wait(self, condition: Callable[[], bool], timeout: float = 5.0) -> bool:
        deadline = time.monotonic() + timeout
        while not condition():
            if self.stop.wait(0.01) or time.monotonic() > deadline:
                return False
        return True

    def _pause(self) -> bool:
        return not self.stop.wait(self.pace * self.rng.uniform(0.6, 1.4))

    def play_hand(self) -> bool:
        """One hand from "new hand" to the felt cleared; False when stopped or the hub does not answer."""
        watch = self.watch
        before = watch.hand
        self.agent.new_hand()
        if not self._wait(lambda: watch.context is not None and watch.hand != before):
            return False
        ctx = watch.context
        assert ctx is not None
        deck = list(FULL_DECK)
        self.rng.shuffle(deck)
        seats = sorted(ctx.seats)
        start = seats.index(ctx.first_to_deal)
        order = seats[start:] + seats[:start]
        board = 0
        for seat in order + order:  # two rounds from the button's left
            if self.boxed_rate and self.rng.random() < self.boxed_rate:
                card = deck.pop()
                if self._injected:
                    self._injected(self.felt.uid(card))
                self.felt.perform(Tray(card))
            if not self._pause():
                return False
            self.felt.perform(Hole(seat, deck.pop()))
        while watch.result is None and watch.hand == ctx.hand:
            betting = watch.betting
            if betting is None:
                pass
            elif betting.open and betting.to_act is not None:
                if not self._pause():
                    return False
                self._act(betting.to_act, betting.to_call)
            elif board < 5 and betting.street in betting.closed:
                street = _STREET.get(betting.street, 1)
                self.felt.perform(Burn(deck.pop()))
                for _ in range(street):
                    if not self._pause():
                        return False
                    self.felt.perform(Board(deck.pop()))
                board += street
            if not self._wait(lambda: watch.betting is not betting or watch.result is not None):
                return False
        self.stop.wait(self.pace * 4)  # the showdown is looked at
        self.felt.perform(Clear())
        self.hands += 1
        return not self.stop.wait(max(0.3, 3 * self.pace))

    def _act(self, seat: int, to_call: int) -> None:
        r = self.rng.random()
        if to_call == 0:
            if r < 0.85:
                self.agent.player_action(seat, "check")
            else:
                self.agent.player_action(seat, "bet", self.bet)
        elif r < 0.15:
            self.felt.perform(Muck(seat))  # cards thrown in: a fold by the muck
        elif r < 0.3:
            self.agent.player_action(seat, "fold")
        else:
            self.agent.player_action(seat, "call")
