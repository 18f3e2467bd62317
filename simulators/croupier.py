"""A simulated croupier and players: whole hands dealt and played through the real pipeline.

The croupier moves cards on the reader simulator (`Felt`) and the players press their panels
(`TableAgent.player_action`, as the seat panel does; or the panel itself: `act`, `new_hand`). They
follow what the table itself knows from the hub (the hand context, whose turn it is, what is owed, the
hand over: `agent.watch`), as a croupier follows the LEDs, so they run in any process, apart from the
hub. Used by `tapis demo`, `tapis sim table` and the benchmarks; `boxed_rate` turns a card face up in
the deck now and then, and a `FaultPlan` makes the other faults, every kind of spec/faults.md a dealer's
hands or a player can make (`simulators.fault_plan`; docs/faults.md, "Rehearsing every ruling"): the
croupier then carries out the hub's ruling as the table receives it (`agent.watch.rulings`), as a
dealer does what the floor says, waiting for the TD's decision where the rulebook leaves it to him.
Here: the deal, its hole-card faults and the streets; the faults of the board and of an open round, and
their remedies, are in `simulators.croupier_faults`, which acts through this croupier's hands.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable

from hw.decks import FULL_DECK
from simulators import croupier_faults
from simulators.croupier_faults import HandCards
from simulators.dealer import Board, Burn, CardStep, Clear, Felt, Hole, Muck, Tray
from simulators.fault_plan import FaultPlan
from table_agent.agent import TableAgent
from table_agent.events import BURN, Zone
from tablewire.faults import FaultKind
from tablewire.wire import BettingCmd, HandContextCmd, RulingCmd

log = logging.getLogger(__name__)

_NEXT = {0: "flop", 3: "turn", 4: "river"}  # the street dealt next, by board cards out
# Faults of the hole cards: made (and ruled) during the deal.
_DEAL_FAULTS = frozenset({
    FaultKind.CARD_TO_EMPTY_SEAT, FaultKind.WRONG_DEAL_ORDER, FaultKind.SEAT_SKIPPED, FaultKind.EXTRA_HOLE_CARD,
    FaultKind.MISSING_HOLE_CARD, FaultKind.UNKNOWN_TAG, FaultKind.FOREIGN_CARD, FaultKind.ABSENT_PLAYER,
    FaultKind.BOXED_CARD, FaultKind.EXPOSED_CARD,
})
# Those ruled at their card, before the next one is dealt.
_RULED_AT_ONCE = frozenset({
    FaultKind.CARD_TO_EMPTY_SEAT, FaultKind.WRONG_DEAL_ORDER, FaultKind.SEAT_SKIPPED, FaultKind.EXTRA_HOLE_CARD,
    FaultKind.UNKNOWN_TAG, FaultKind.FOREIGN_CARD,
})
# Faults made while a betting round is open, before its next action.
_IN_ROUND = frozenset({
    FaultKind.PREMATURE_FLOP, FaultKind.PREMATURE_TURN, FaultKind.PREMATURE_RIVER, FaultKind.BOARD_REMOVED,
    FaultKind.DEAD_CARD_IN_HAND,
})
_NEXT_NAME = {3: "flop", 4: "turn", 5: "river"}  # the street open once that many board cards are out
_GATE = {"flop": "preflop", "turn": "flop", "river": "turn"}  # the round that must be over first
_WITHOUT_BURN = {"turn": FaultKind.TURN_WITHOUT_BURN, "river": FaultKind.RIVER_WITHOUT_BURN}


def _before(betting: BettingCmd | None, pressed: tuple[str, int] | None) -> bool:
    """`betting` still asks the seat whose action was just pressed, on the same street: the hub sent it
    before that action reached it (after it, that seat cannot be the next to act: another seat acts, or
    the round closes, or the TD is waited for)."""
    return (pressed is not None and betting is not None and betting.open and not betting.td_wait
            and (betting.street, betting.to_act) == pressed)


class Croupier:
    def __init__(self, *, agent: TableAgent, felt: Felt, rng: random.Random, pace: float,
                 stop: threading.Event, boxed_rate: float = 0.0, bet: int = 200,
                 on_fault_injected: Callable[[str], None] | None = None, stuck_after: float = 5.0,
                 faults: FaultPlan | None = None, allin_rate: float = 0.0,
                 act: Callable[[int, int, int | None], str | None] | None = None,
                 new_hand: Callable[[], None] | None = None, away_hands: int = 1) -> None:
        """`faults`: the dealing faults to make (None: none but `boxed_rate`); `allin_rate`: the chance
        that a player pushes all in when he acts (a tournament's short stacks; 0: never); `act` and
        `new_hand`: a simulated table's fingers on its panel (`simulators.sim_table`), instead of the
        agent's own calls (`act` returns what the player did: `fold`, `muck`, `allin`...); `away_hands`:
        the hands a player the dealer marks away (`absent_player`) stays away, that one included (1: back
        after it)."""
        if away_hands < 1:
            raise ValueError(f"away for {away_hands} hands: at least 1 (back after the hand he left in)")
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
        self._opening: int | None = None  # the first amount to call this hand (about the big blind)
        # The street and seat of the action just pressed, until the hub is seen past it (`_before`)
        self._pressed: tuple[str, int] | None = None
        self._act_on_panel = act
        self._new_hand = new_hand or agent.new_hand
        self.td_waits = 0  # times this table stopped for the TD's decision
        self.cards = HandCards()  # this hand's cards and remedies in progress (new at each `_deal_and_play`)
        self._away: int | None = None  # the seat this croupier marked away (absent_player), back after `away_hands`
        self.away_hands = away_hands
        self._away_left = 0  # hands still to start before the seat away is back

    def wait(self, condition: Callable[[], bool]) -> bool:
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
        return self._hold(waiting)

    def _hold(self, condition: Callable[[], bool]) -> bool:
        """Wait while `condition` holds, however long (the TD's decision has no deadline); False when stopped."""
        while condition():
            if self.stop.wait(0.02):
                return False
        return True

    def pause(self) -> bool:
        return not self.stop.wait(self.pace * self.rng.uniform(0.6, 1.4))

    def play_hand(self) -> bool:
        """One hand from "new hand" to the felt cleared; False when stopped or the hub does not answer.

        A hand that stops moving for `stuck_after` seconds (a ruling this croupier cannot carry out,
        a lost command) is given up as a croupier would call the floor: the felt is cleared and the
        next "new hand" cancels it on the hub. Counted in `stuck` and logged, never silent."""
        watch = self.watch
        before = watch.hand
        self._new_hand()
        if not self.wait(lambda: watch.context is not None and watch.hand != before):
            return False
        ctx = watch.context
        assert ctx is not None
        played = self._deal_and_play(ctx)
        self._away_left -= 1
        if self._away is not None and self._away_left <= 0:  # the player is back for the next hand
            self.agent.dealer_press("back", self._away)
            self._away = None
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
        self.cards, self._opening, self._pressed = HandCards(deck=deck, order=order), None, None
        fault = self.faults.for_hand() if self.faults is not None else None
        if fault is not None and not self._can_make(fault, ctx):
            assert self.faults is not None
            self.faults.pass_on(fault)
            fault = None
        dealt = self._deal(ctx, fault)
        if dealt is not True or watch.result is not None or watch.hand != ctx.hand:
            return dealt
        missing = fault is FaultKind.MISSING_HOLE_CARD
        if fault in _DEAL_FAULTS:
            fault = None
        board = 0
        while watch.result is None and watch.hand == ctx.hand:
            betting = watch.betting
            if _before(betting, self._pressed):
                # A betting state the hub sent before it had the action just pressed (a card event's, on
                # its way meanwhile) still shows that seat to act: a dealer does not take it for a second turn
                if not self.wait(lambda: watch.result is not None or watch.hand != ctx.hand
                                 or not _before(watch.betting, self._pressed)):
                    return self.gave_up()
                continue
            self._pressed = None  # the hub is past it: that seat may be asked again (a raise came round)
            if betting is None:
                pass
            elif betting.td_wait:
                if not self._wait_for_td(ctx):
                    return None
                continue
            elif betting.open and betting.to_act is not None:
                if fault is not None and fault in _IN_ROUND \
                        and croupier_faults.in_round_due(self, fault, betting, board):
                    played = croupier_faults.in_round(self, fault, ctx)
                    if played is not True:
                        return played
                    fault = None
                    continue
                if not self.pause():
                    return None
                if self._opening is None:
                    if fault is FaultKind.INSUFFICIENT_BET and croupier_faults.short_raise(self, betting):
                        fault = None
                        self._opening = betting.to_call
                        self._pressed = (betting.street, betting.to_act)
                        self.wait(lambda: watch.betting is not betting or watch.result is not None)  # noqa: B023
                        continue
                    self._opening = betting.to_call
                if fault is FaultKind.TIME_EXPIRED and betting.street == "preflop" and len(self.live()) > 2:
                    fault = None
                    played = croupier_faults.time_runs_out(self, betting, ctx)
                    if played is not True:
                        return played
                    continue
                if fault is FaultKind.OUT_OF_TURN and croupier_faults.act_out_of_turn(self, betting):
                    fault = None
                else:
                    self._act(betting.to_act, betting.to_call, betting.max_to)
                    self._pressed = (betting.street, betting.to_act)
                if missing:  # the table sees the short hand at this first action: play stops for the ruling
                    missing = False
                    ruling = self.ruling(FaultKind.MISSING_HOLE_CARD, ctx)
                    if ruling is not None and not self.carry_out(ruling, betting.to_act, None):
                        return self.gave_up()
                    continue
            elif board < 5 and _GATE[_NEXT.get(board, "river")] in betting.closed:
                name = _NEXT.get(board, "river")
                played, made = self._street(name, fault, ctx, betting)
                if played is not True:
                    return played
                if made:
                    fault = None
                board += 3 if name == "flop" else 1
            if not self.wait(lambda: watch.betting is not betting or watch.result is not None):  # noqa: B023
                return self.gave_up()
        if self.stop.wait(self.pace * 4):  # the showdown is looked at
            return None
        return True

    # --- the deal ----------------------------------------------------------------------------------

    def _can_make(self, kind: FaultKind, ctx: HandContextCmd) -> bool:
        """Whether this table, as seated now, can make `kind` in this hand (a kind it can never make
        here is passed on, not kept due for ever)."""
        players = len(ctx.seats)
        if kind is FaultKind.CARD_TO_EMPTY_SEAT:
            return self._empty_seat(ctx) is not None
        if kind is FaultKind.FOREIGN_CARD:
            return self.felt.foreign_deck() is not None
        if kind is FaultKind.MIXED_DECKS:
            return len(ctx.table_decks) > 1
        if kind is FaultKind.ABSENT_PLAYER and self._away is not None:
            return False  # one player away at a time
        if kind in (FaultKind.SEAT_SKIPPED, FaultKind.ABSENT_PLAYER, FaultKind.INSUFFICIENT_BET,
                    FaultKind.EXPOSED_CARD):
            return players > 2  # heads-up: nothing to skip, the hand would end; the small blind acts first
        return True

    def _empty_seat(self, ctx: HandContextCmd) -> int | None:
        seats = ctx.table_seats or len(self.felt.seats())
        return next((s for s in range(1, seats + 1) if s not in ctx.seats and s in self.felt.seats()), None)

    def _deal(self, ctx: HandContextCmd, fault: FaultKind | None) -> bool | None:
        """The hole cards, round by round from the first seat, with the deal's fault if one is due and its
        ruling carried out: True once dealt (or the hand ended by the ruling)."""
        watch, order, deck = self.watch, self.cards.order, self.cards.deck
        cards: list[tuple[int, str | None]] = [(seat, None) for seat in order * ctx.hole_cards]
        at = 0  # where the fault's card lies in the deal
        if fault is FaultKind.WRONG_DEAL_ORDER:
            cards[0], cards[1] = cards[1], cards[0]  # the second seat served first
        elif fault is FaultKind.SEAT_SKIPPED:
            del cards[1]
            at = 1
        elif fault is FaultKind.CARD_TO_EMPTY_SEAT:
            empty = self._empty_seat(ctx)
            assert empty is not None
            cards.insert(1, (empty, None))
            at = 1
        elif fault is FaultKind.EXTRA_HOLE_CARD:
            at = len(cards)
            cards.append((ctx.small_blind if ctx.small_blind is not None else order[0], None))
        elif fault is FaultKind.MISSING_HOLE_CARD:
            cards.pop()  # the last seat's last card never comes: seen at the first action
        elif fault is FaultKind.UNKNOWN_TAG:
            cards[1] = (cards[1][0], self.felt.stray_uid())
            at = 1
        elif fault is FaultKind.FOREIGN_CARD:
            cards[1] = (cards[1][0], self.felt.foreign_uid(deck[-1]))
            at = 1
        elif fault is FaultKind.ABSENT_PLAYER:
            self._away, self._away_left = order[1], self.away_hands  # pressed before the first card (every deadline)
            self.agent.dealer_press("away", self._away)
            self.made(fault)
        elif self._away is not None and self._away in ctx.seats and self._away not in ctx.away:
            # still away, and the hub deals him in: said, not put right (the dealer's second press would hide
            # it), so his hand is played as the hub dealt it
            log.warning("table %s: hand %s deals seat %s in, away since an earlier hand", self.agent.table,
                        ctx.hand, self._away)
        # cdc 7.1: one of the first two cards exposed is a misdeal; later ones are replaced (7.3)
        expose_at = self.rng.randrange(2, len(order)) if fault is FaultKind.EXPOSED_CARD else None
        boxed_at = self.rng.randrange(ctx.hole_cards * len(order)) if fault is FaultKind.BOXED_CARD else None
        exposed: tuple[int, str] | None = None
        for i, (seat, uid) in enumerate(cards):  # a card a round from the button's left, a round a card
            if (self.boxed_rate and self.rng.random() < self.boxed_rate) or i == boxed_at:
                card = deck.pop()
                if self._injected:
                    self._injected(self.felt.uid(card))
                boxed = len([r for r in watch.rulings if r.kind == FaultKind.BOXED_CARD and r.hand == ctx.hand])
                if not self.place(Tray(card)):
                    return self.gave_up()
                if i == boxed_at:
                    self.made(FaultKind.BOXED_CARD)
                # the ruling before the next card: a ruleset may stop the deal for the TD (cpt87 6.3)
                self.ruling(FaultKind.BOXED_CARD, ctx, after=boxed)
                if watch.result is not None or watch.hand != ctx.hand:
                    return True  # the TD (or the ruling) ended the hand
            if not self.pause():
                return None
            dealt = deck.pop() if uid is None else None
            if not self.put(Zone.seat_zone(seat), uid or self.felt.uid(dealt or "")):
                return self.gave_up()
            if i == expose_at and dealt is not None:  # the card turned over as it was dealt: to the dead-card tray
                if not self.pause() or not self.place(Tray(dealt)):
                    return self.gave_up()
                exposed = (seat, dealt)
                self.made(FaultKind.EXPOSED_CARD)
            if fault in _RULED_AT_ONCE and i == at:
                assert fault is not None
                self.made(fault)
                ruling = self.ruling(fault, ctx)
                if watch.result is not None or watch.hand != ctx.hand:
                    return True  # a misdeal, a hand cancelled: the hub deals the next one
                if ruling is None:
                    return self.gave_up()
                if not self.carry_out(ruling, seat, uid or self.felt.uid(dealt or "")):
                    return self.gave_up()
        if fault is FaultKind.MISSING_HOLE_CARD:
            self.made(fault)
        if exposed is not None:
            ruling = self.ruling(FaultKind.EXPOSED_CARD, ctx)
            if ruling is None and watch.result is None:
                return self.gave_up()
            if ruling is not None and ruling.decision == "replace_with_burn":
                # cdc 7.3: the would-be first burn goes to the player; the exposed card is the first burn
                if not self.pause() or not self.place(Hole(exposed[0], deck.pop())):
                    return self.gave_up()
                self.cards.first_burn = exposed[1]
            elif ruling is not None and ruling.decision == "card_kept":
                # pcpm "La donne": the dealing player's own exposed card is not exchanged, he keeps it
                if not self.pause() or not self.place(Hole(exposed[0], exposed[1])):
                    return self.gave_up()
        if self._away is not None and (fault is FaultKind.ABSENT_PLAYER or self._away in ctx.away):
            # away since the deal began or an earlier hand: the table rules his hand dead at the deadline
            ruling = self.ruling(FaultKind.ABSENT_PLAYER, ctx)
            if ruling is not None and not self.carry_out(ruling, self._away, None):
                return self.gave_up()
        return True

    def carry_out(self, ruling: RulingCmd, seat: int, uid: str | None) -> bool:
        """What a hole-card ruling asks of the dealer: the extra card as the first burn (brest III.7), a
        dead hand to the muck; the others (a hand voided, a fault only noted) ask nothing of him."""
        if ruling.decision == "burn_as_first" and uid is not None:
            if not self.pause() or not self.put(BURN, uid):
                return False
            self.cards.burned.add("flop")
        elif ruling.decision == "hand_dead":
            self._kill(ruling.seat if ruling.seat is not None else seat)
        elif ruling.decision == "continue" and ruling.kind == FaultKind.MISSING_HOLE_CARD and ruling.seat is not None \
                and ruling.seat not in ruling.dead_seats:
            # cpt87 6.5, the TD's "no misdeal" for the last seat served: he gets his card now (the button may
            # get two in a row)
            if not self.pause() or not self.place(Hole(ruling.seat, self.cards.deck.pop())):
                return False
        for dead in ruling.dead_seats:  # substantial action: the hand plays on, the faulty hands dead (cdc 7.7)
            self._kill(dead)
        return True

    def _kill(self, seat: int) -> None:
        """A dead hand: its cards to the muck."""
        self.cards.out.add(seat)
        if self.felt.cards_at(Zone.seat_zone(seat)):
            self.felt.perform(Muck(seat))

    # --- the board ---------------------------------------------------------------------------------

    def _street(self, name: str, fault: FaultKind | None, ctx: HandContextCmd, betting: BettingCmd
                ) -> tuple[bool | None, bool]:
        """Deal the next street (its fault if one is due there, its ruling carried out); (played, made)."""
        n = 3 if name == "flop" else 1
        made = False
        # A wrong street only where it is bet on (no all-in run-out): its remedy waits for an action.
        bet_on = name not in betting.closed and "river" not in betting.closed and len(self.live()) > 1
        if self.cards.early == name:  # already out (pouques 77's new turn, dealt at once)
            self.cards.early = None
            return self.first_action(), False
        if name == "river" and self.cards.aside is not None:  # cdc 8.4: the old turn reshuffled for the river
            self.cards.deck.append(self.cards.aside)
            self.rng.shuffle(self.cards.deck)
            self.cards.aside = None
        if bet_on and name == "flop" and fault in (FaultKind.FLOP_WITHOUT_BURN, FaultKind.FLOP_TWO_BURNS) \
                and "flop" not in self.cards.burned:
            assert fault is not None
            return croupier_faults.wrong_flop(self, fault, self.cards.deck, ctx), True
        if bet_on and name == "flop" and fault is FaultKind.MIXED_DECKS and "flop" not in self.cards.burned:
            played = croupier_faults.second_deck_burn(self, ctx)
            if played is not True:
                return played, True
            made = True
        if bet_on and name == "flop" and fault is FaultKind.FLOP_FOUR_CARDS:
            return croupier_faults.four_card_flop(self, ctx), True
        if bet_on and fault is not None and fault is _WITHOUT_BURN.get(name) and name not in self.cards.burned:
            assert fault is not None
            return croupier_faults.unburned(self, fault, name, ctx), True
        if name not in self.cards.burned:
            if not self.place(Burn(self.cards.first_burn or self.cards.deck.pop())):
                return self.gave_up(), made
            self.cards.first_burn = None
        for _ in range(n):
            if not self.pause():
                return None, made
            if not self.board_card(self.cards.deck.pop()):
                return self.gave_up(), made
        if self.cards.faulty and self.watch.result is None:
            return self.first_action(), made
        return True, made

    def live(self) -> list[int]:
        return [s for s in self.cards.order if s not in self.cards.out]

    def board_card(self, card: str) -> bool:
        self.cards.board.append(card)
        return self.place(Board(card))

    def first_action(self) -> bool | None:
        """After a board fault the hub deals the street to the game at its first action: the first seat
        in hand from the button's left speaks (an all-in one is refused, and the street is out)."""
        betting = self.watch.betting
        if betting is not None and betting.open and betting.street not in betting.closed \
                and len(self.cards.board) in (3, 4, 5) and betting.street == _NEXT_NAME[len(self.cards.board)]:
            # the street was out before the fault (a fourth flop card): the hub dealt it already; once
            # it is bet out with the board put right, the next one is dealt as usual
            self.cards.faulty = False
            return True
        self.cards.faulty = False
        first = next(iter(self.live()), None)
        if first is not None:
            if not self.pause():
                return None
            self.agent.player_action(first, "check")
            street = _NEXT_NAME.get(len(self.cards.board))
            self._pressed = None if street is None else (street, first)
        return True

    # --- faults made on purpose, and their rulings carried out -------------------------------------

    def made(self, kind: FaultKind) -> None:
        if self.faults is not None:
            self.faults.made_it(kind)

    def ruling(self, kind: FaultKind, ctx: HandContextCmd, after: int = 0) -> RulingCmd | None:
        """The hub's ruling on the fault this croupier just made (None: the hand ended or none came); the
        `after` earlier rulings on that kind in this hand are not it. A ruling left to the TD is waited
        for: his decision is the one carried out."""
        watch = self.watch

        def ruled() -> RulingCmd | None:
            return next(iter([r for r in watch.rulings if r.kind == kind and r.hand == ctx.hand][after:]), None)

        self.wait(lambda: ruled() is not None or watch.result is not None or watch.hand != ctx.hand)
        ruling = ruled() if watch.result is None else None
        if ruling is None or ruling.decision != "td_decision":
            return ruling
        at = watch.rulings.index(ruling)

        def decided() -> RulingCmd | None:
            return next((r for r in watch.rulings[at + 1:] if r.kind == kind and r.decision != "td_decision"), None)

        self.td_waits += 1
        log.info("table %s: hand %s waits for the TD's decision on %s", self.agent.table, ctx.hand, kind)
        if not self._hold(lambda: decided() is None and watch.result is None and watch.hand == ctx.hand):
            return None
        return decided() if watch.result is None else None

    def place(self, step: CardStep) -> bool:
        """Put a card down and wait until the table has read it there. This croupier deals 20 ms
        apart in tests, faster than the reader's 50 ms scan: no hand is that fast, and the table
        would rightly see cards out of order (docs/faults.md, "The reader's resolution")."""
        uid, zone = self.felt.uid(step.card), self.felt.zone_of(step)
        self.felt.perform(step)
        return self.wait(lambda: self.agent.zones.zone_of(uid) == zone)

    def put(self, zone: Zone, uid: str) -> bool:
        """`_place` for a tag named by its UID (another deck's, or in no deck)."""
        self.felt.put(zone, uid)
        return self.wait(lambda: self.agent.zones.zone_of(uid) == zone)

    def take_off(self, uid: str) -> bool:
        """Lift a card off the felt (back into the stub, or set aside) and wait until the table has seen it go."""
        self.felt.lift(uid)
        return self.wait(lambda: self.agent.zones.zone_of(uid) is None)

    def gave_up(self) -> bool | None:
        return None if self.stop.is_set() else False

    def _act(self, seat: int, to_call: int, max_to: int | None = None) -> None:
        if self._act_on_panel is not None:  # the players' own choices, pressed on the panel
            if self._act_on_panel(seat, to_call, self._opening) in ("fold", "muck", "allin"):
                self.cards.out.add(seat)
            return
        if self.allin_rate and self.rng.random() < self.allin_rate:
            self.cards.out.add(seat)
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
            self.cards.out.add(seat)
            self.felt.perform(Muck(seat))  # cards thrown in: a fold by the muck
        elif r < 0.3:
            self.cards.out.add(seat)
            self.agent.player_action(seat, "fold")
        else:
            self.agent.player_action(seat, "call")
