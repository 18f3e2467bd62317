"""A simulated croupier and players: whole hands dealt and played through the real pipeline.

The croupier moves cards on the reader simulator (`Felt`) and the players press their panels
(`TableAgent.player_action`, as the seat panel does; or the panel itself: `act`, `new_hand`). They
follow what the table itself knows from the hub (the hand context, whose turn it is, what is owed, the
hand over: `agent.watch`), as a croupier follows the LEDs, so they run in any process, apart from the
hub. Used by `tapis demo`, `tapis sim table` and the benchmarks; `boxed_rate` turns a card face up in
the deck now and then, and a `FaultPlan` makes the other dealing faults (`simulators.fault_plan`): the
croupier then carries out the hub's ruling as the table receives it (`agent.watch.rulings`), as a
dealer does what the floor says.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable

from hw.decks import FULL_DECK
from simulators.dealer import Board, Burn, CardStep, Clear, Felt, Hole, Muck, Tray
from simulators.fault_plan import FaultPlan
from table_agent.agent import TableAgent
from tablewire.faults import FaultKind
from tablewire.wire import BettingCmd, HandContextCmd, RulingCmd

log = logging.getLogger(__name__)

_STREET = {"preflop": 3, "flop": 1, "turn": 1}  # board cards to deal once that street's betting is over


class Croupier:
    def __init__(self, *, agent: TableAgent, felt: Felt, rng: random.Random, pace: float,
                 stop: threading.Event, boxed_rate: float = 0.0, bet: int = 200,
                 on_fault_injected: Callable[[str], None] | None = None, stuck_after: float = 5.0,
                 faults: FaultPlan | None = None, allin_rate: float = 0.0,
                 act: Callable[[int, int], None] | None = None, new_hand: Callable[[], None] | None = None) -> None:
        """`faults`: the dealing faults to make (None: none but `boxed_rate`); `allin_rate`: the chance
        that a player pushes all in when he acts (a tournament's short stacks; 0: never); `act` and
        `new_hand`: a simulated table's fingers on its panel (`simulators.sim_table`), instead of the
        agent's own calls."""
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
        self.faults = faults
        self.allin_rate = allin_rate
        self._order: list[int] = []  # this hand's seats from the first dealt (first to act after the flop)
        self._out: set[int] = set()  # seats this croupier folded or pushed all in this hand
        self._opening: int | None = None  # the first amount to call this hand (about the big blind)
        self._act_on_panel = act
        self._new_hand = new_hand or agent.new_hand
        self.td_waits = 0  # times this table stopped for the TD's decision

    def _wait(self, condition: Callable[[], bool]) -> bool:
        deadline = time.monotonic() + self.stuck_after
        while not condition():
            if self.stop.wait(0.01) or time.monotonic() > deadline:
                return False
        return True

    def _wait_for_td(self, ctx: HandContextCmd) -> bool:
        """The table waits for the TD (a fault the ruleset leaves to him): no card, no action, however long
        he takes (a croupier does not give the hand up while the floor decides). False when stopped."""
        watch = self.watch

        def waiting() -> bool:
            betting = watch.betting
            return betting is not None and betting.td_wait and watch.result is None and watch.hand == ctx.hand

        if waiting():
            self.td_waits += 1
            log.info("table %s: hand %s waits for the TD's decision", self.agent.table, ctx.hand)
        while waiting():
            if self.stop.wait(0.02):
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
        self._new_hand()
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
        self._order, self._out, self._opening = order, set(), None
        fault = self.faults.for_hand() if self.faults is not None else None
        # cdc 7.1: one of the first two cards exposed is a misdeal; later ones are replaced (7.3)
        expose_at = self.rng.randrange(2, len(order)) if fault is FaultKind.EXPOSED_CARD and len(order) > 2 \
            else None
        boxed_at = self.rng.randrange(ctx.hole_cards * len(order)) if fault is FaultKind.BOXED_CARD else None
        exposed: tuple[int, str] | None = None
        board = 0
        for i, seat in enumerate(order * ctx.hole_cards):  # a card a round from the button's left, a round a card
            if (self.boxed_rate and self.rng.random() < self.boxed_rate) or i == boxed_at:
                card = deck.pop()
                if self._injected:
                    self._injected(self.felt.uid(card))
                boxed = len([r for r in watch.rulings if r.kind == FaultKind.BOXED_CARD and r.hand == ctx.hand])
                if not self._place(Tray(card)):
                    return self._gave_up()
                if i == boxed_at:
                    self._made(FaultKind.BOXED_CARD)
                # the ruling before the next card: a ruleset may stop the deal for the TD (cpt87 6.3)
                self._ruling(FaultKind.BOXED_CARD, ctx, after=boxed)
                if watch.result is not None or watch.hand != ctx.hand:
                    return True  # the TD (or the ruling) ended the hand
            if not self._pause():
                return None
            card = deck.pop()
            if not self._place(Hole(seat, card)):
                return self._gave_up()
            if i == expose_at:  # the card turned over as it was dealt: it goes to the dead-card tray
                if not self._pause() or not self._place(Tray(card)):
                    return self._gave_up()
                exposed = (seat, card)
                self._made(FaultKind.EXPOSED_CARD)
        first_burn = None
        if exposed is not None:
            ruling = self._ruling(FaultKind.EXPOSED_CARD, ctx)
            if ruling is None and watch.result is None:
                return self._gave_up()
            if ruling is not None and ruling.decision == "replace_with_burn":
                # cdc 7.3: the would-be first burn goes to the player; the exposed card is the first burn
                if not self._pause() or not self._place(Hole(exposed[0], deck.pop())):
                    return self._gave_up()
                first_burn = exposed[1]
        while watch.result is None and watch.hand == ctx.hand:
            betting = watch.betting
            if betting is None:
                pass
            elif betting.td_wait:
                if not self._wait_for_td(ctx):
                    return None
                continue
            elif betting.open and betting.to_act is not None:
                if not self._pause():
                    return None
                if self._opening is None:
                    self._opening = betting.to_call
                if fault is FaultKind.OUT_OF_TURN and self._act_out_of_turn(betting):
                    fault = None
                else:
                    self._act(betting.to_act, betting.to_call, betting.max_to)
            elif board < 5 and betting.street in betting.closed:
                street = _STREET.get(betting.street, 1)
                # A wrong flop only where the flop is bet on (no all-in run-out): its remedy waits for an action.
                if board == 0 and fault in (FaultKind.FLOP_WITHOUT_BURN, FaultKind.FLOP_TWO_BURNS) \
                        and "flop" not in betting.closed:
                    assert fault is not None
                    played = self._wrong_flop(fault, deck, ctx)
                    if played is not True:
                        return played
                    fault = None
                else:
                    if not self._place(Burn(first_burn or deck.pop())):
                        return self._gave_up()
                    first_burn = None
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

    # --- faults made on purpose, and their rulings carried out -------------------------------------

    def _made(self, kind: FaultKind) -> None:
        if self.faults is not None:
            self.faults.made_it(kind)

    def _ruling(self, kind: FaultKind, ctx: HandContextCmd, after: int = 0) -> RulingCmd | None:
        """The hub's ruling on the fault this croupier just made (None: the hand ended or none came); the
        `after` earlier rulings on that kind in this hand are not it. A ruling left to the TD is waited
        for: his decision is the one carried out."""
        watch = self.watch

        def ruled() -> RulingCmd | None:
            return next(iter([r for r in watch.rulings if r.kind == kind and r.hand == ctx.hand][after:]), None)

        self._wait(lambda: ruled() is not None or watch.result is not None or watch.hand != ctx.hand)
        ruling = ruled() if watch.result is None else None
        if ruling is None or ruling.decision != "td_decision":
            return ruling
        at = watch.rulings.index(ruling)

        def decided() -> RulingCmd | None:
            return next((r for r in watch.rulings[at + 1:] if r.kind == kind and r.decision != "td_decision"), None)

        self.td_waits += 1
        log.info("table %s: hand %s waits for the TD's decision on %s", self.agent.table, ctx.hand, kind)
        while decided() is None and watch.result is None and watch.hand == ctx.hand:  # however long he takes
            if self.stop.wait(0.02):
                return None
        return decided() if watch.result is None else None

    def _wrong_flop(self, kind: FaultKind, deck: list[str], ctx: HandContextCmd) -> bool | None:
        """The flop dealt without its burn, or after two burns; then the ruling carried out (cdc 8.3:
        the first flop card becomes the burn / the second burn becomes the first flop card)."""
        if kind is FaultKind.FLOP_WITHOUT_BURN:
            flop = [deck.pop() for _ in range(3)]
            for card in flop:
                if not self._pause() or not self._place(Board(card)):
                    return self._gave_up()
            self._made(kind)
            ruling = self._ruling(kind, ctx)
            if ruling is not None and ruling.decision == "designate_burn":
                if not self._pause() or not self._place(Burn(flop[0])) or not self._place(Board(deck.pop())):
                    return self._gave_up()
        else:
            burns = [deck.pop(), deck.pop()]
            for card in burns:
                if not self._pause() or not self._place(Burn(card)):
                    return self._gave_up()
            self._made(kind)
            ruling = self._ruling(kind, ctx)
            steps: list[CardStep] = [Board(deck.pop()) for _ in range(3)]
            if ruling is not None and ruling.decision == "burn_to_flop":
                steps = [Board(burns[1]), *steps[:2]]
            for step in steps:
                if not self._pause() or not self._place(step):
                    return self._gave_up()
        if self.watch.result is not None:
            return True
        # After a board fault the hub deals the flop to the game at the first action: the first
        # seat in hand from the button's left speaks (an all-in one is refused, and the flop is out).
        first = next((s for s in self._order if s not in self._out), None)
        if first is not None and self._pause():
            self.agent.player_action(first, "check")
        return True

    def _act_out_of_turn(self, betting: BettingCmd) -> bool:
        """A player further round the table acts before the one whose turn it is (cdc 10.2)."""
        to_act = betting.to_act
        assert to_act is not None
        if to_act not in self._order:
            return False
        at = self._order.index(to_act)
        later = [s for s in self._order[at + 1:] + self._order[:at] if s not in self._out]
        if not later:
            return False
        self.agent.player_action(later[0], "check" if betting.to_call == 0 else "call")
        self._made(FaultKind.OUT_OF_TURN)
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
        if self._act_on_panel is not None:  # the players' own choices, pressed on the panel
            self._act_on_panel(seat, to_call)
            return
        if self.allin_rate and self.rng.random() < self.allin_rate:
            self._out.add(seat)
            self.agent.player_action(seat, "allin")
            return
        r = self.rng.random()
        if to_call == 0:
            if r < 0.85:
                self.agent.player_action(seat, "check")
            else:  # at least the big blind (about twice the first amount to call), as the level rises
                # pot-limit: never above the pot the dealer announces (`max_to`)
                amount = max(self.bet, 2 * (self._opening or 0))
                self.agent.player_action(seat, "bet", amount if max_to is None else min(amount, max_to))
        elif r < 0.15 or (to_call > 5 * (self._opening or to_call) and r < 0.75):  # most fold to a push
            self._out.add(seat)
            self.felt.perform(Muck(seat))  # cards thrown in: a fold by the muck
        elif r < 0.3:
            self._out.add(seat)
            self.agent.player_action(seat, "fold")
        else:
            self.agent.player_action(seat, "call")
