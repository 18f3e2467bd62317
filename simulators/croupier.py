"""A simulated croupier and players: whole hands dealt and played through the real pipeline.

The croupier moves cards on the reader simulator (`Felt`) and the players press their panels
(`TableAgent.player_action`, as the seat panel does). They follow what the table itself knows from
the hub (the hand context, whose turn it is, what is owed, the hand over: `agent.watch`), as a croupier
follows the LEDs, so they run in any process, apart from the hub. Used by `tapis demo` and the
benchmarks; `boxed_rate` turns a card face up in the deck now and then, so rulings flow as well.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable

from hw.decks import FULL_DECK
from simulators.dealer import Board, Burn, CardStep, Clear, Felt, Hole, Muck, Tray
from table_agent.agent import TableAgent
from tablewire.wire import HandContextCmd

log = logging.getLogger(__name__)

_STREET = {"preflop": 3, "flop": 1, "turn": 1}  # board cards to deal once that street's betting is over


class Croupier:
    def __init__(self, *, agent: TableAgent, felt: Felt, rng: random.Random, pace: float,
                 stop: threading.Event, boxed_rate: float = 0.0, bet: int = 200,
                 on_fault_injected: Callable[[str], None] | None = None, stuck_after: float = 5.0) -> None:
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
        self.stuck_after = stuck_after
        self.stuck = 0  # hands that stopped moving: the felt cleared and a new hand pressed (cancelled)

    def _wait(self, condition: Callable[[], bool]) -> bool:
        deadline = time.monotonic() + self.stuck_after
        while not condition():
            if self.stop.wait(0.01) or time.monotonic() > deadline:
                return False
        return True

    def _pause(self) -> bool:
        return not self.stop.wait(self.pace * self.rng.uniform(0.6, 1.4))

    def play_hand(self) -> bool:
        """One hand from "new hand" to the felt cleared; False when stopped or the hub does not answer.

        A hand that stops moving for `stuck_after` seconds (a ruling this croupier cannot carry out,
        a lost command) is given up as a croupier would call the floor: the felt is cleared and the
        next "new hand" cancels it on the hub. Counted in `stuck` and logged, never silent."""
        watch = self.watch
        before = watch.hand
        self.agent.new_hand()
        if not self._wait(lambda: watch.context is not None and watch.hand != before):
            return False
        ctx = watch.context
        assert ctx is not None
        played = self._deal_and_play(ctx)
        if played is None:
            return False
        if not played:
            self.stuck += 1
            log.warning("table %s: hand %s stopped moving (betting %s, result %s): felt cleared, new hand",
                        self.agent.table, ctx.hand, watch.betting, watch.result)
        self.felt.perform(Clear())
        self.hands += played  # a hand given up is not one played
        return not self.stop.wait(max(0.3, 3 * self.pace))

    def _deal_and_play(self, ctx: HandContextCmd) -> bool | None:
        """True: played to its end; False: it stopped moving; None: the croupier was stopped."""
        watch = self.watch
        deck = [c for c in FULL_DECK if c[0] not in ctx.excluded_ranks]  # short deck: 36 cards
        self.rng.shuffle(deck)
        seats = sorted(ctx.seats)
        start = seats.index(ctx.first_to_deal)
        order = seats[start:] + seats[:start]
        board = 0
        for seat in order * ctx.hole_cards:  # one card a round from the button's left, as many rounds as cards
            if self.boxed_rate and self.rng.random() < self.boxed_rate:
                card = deck.pop()
                if self._injected:
                    self._injected(self.felt.uid(card))
                if not self._place(Tray(card)):
                    return self._gave_up()
            if not self._pause():
                return None
            if not self._place(Hole(seat, deck.pop())):
                return self._gave_up()
        while watch.result is None and watch.hand == ctx.hand:
            betting = watch.betting
            if betting is None:
                pass
            elif betting.open and betting.to_act is not None:
                if not self._pause():
                    return None
                self._act(betting.to_act, betting.to_call, betting.max_to)
            elif board < 5 and betting.street in betting.closed:
                street = _STREET.get(betting.street, 1)
                if not self._place(Burn(deck.pop())):
                    return self._gave_up()
                for _ in range(street):
                    if not self._pause():
                        return None
                    if not self._place(Board(deck.pop())):
                        return self._gave_up()
                board += street
            if not self._wait(lambda: watch.betting is not betting or watch.result is not None):  # noqa: B023
                return self._gave_up()
        if self.stop.wait(self.pace * 4):  # the showdown is looked at
            return None
        return True

    def _place(self, step: CardStep) -> bool:
        """Put a card down and wait until the table has read it there. This croupier deals 20 ms
        apart in tests, faster than the reader's 50 ms scan: no hand is that fast, and the table
        would rightly see cards out of order (docs/faults.md, "The reader's resolution")."""
        uid, zone = self.felt.uid(step.card), self.felt.zone_of(step)
        self.felt.perform(step)
        return self._wait(lambda: self.agent.zones.zone_of(uid) == zone)

    def _gave_up(self) -> bool | None:
        return None if self.stop.is_set() else False

    def _act(self, seat: int, to_call: int, max_to: int | None = None) -> None:
        r = self.rng.random()
        if to_call == 0:
            if r < 0.85:
                self.agent.player_action(seat, "check")
            else:  # pot-limit: never above the pot the dealer announces
                self.agent.player_action(seat, "bet", self.bet if max_to is None else min(self.bet, max_to))
        elif r < 0.15:
            self.felt.perform(Muck(seat))  # cards thrown in: a fold by the muck
        elif r < 0.3:
            self.agent.player_action(seat, "fold")
        else:
            self.agent.player_action(seat, "call")
