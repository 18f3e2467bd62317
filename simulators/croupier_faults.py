"""The faults a croupier makes on the board and while a round is open, and the remedies he carries out.

`simulators.croupier` deals the hand and plays its streets; when its `FaultPlan` asks for a fault of the
board (a flop without its burn or with two, four flop cards, a turn or river unburned, a burn from the
other deck) or of an open round (a premature street, a board card lifted, a dead card pushed onto a
hand, Time run out, a short raise, an action out of turn), these make it on the felt, wait for the
hub's ruling as the table receives it, and carry it out as a dealer does what the floor says. They act
through the croupier's hands (`Hands`): put a card down, lift it, wait for the table, press a panel.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from simulators.dealer import Board, Burn, CardStep, Felt
from table_agent.agent import TableAgent
from table_agent.events import BOARD, BURN, Zone
from table_agent.hand_watch import HandWatch
from tablewire.faults import FaultKind
from tablewire.wire import BettingCmd, HandContextCmd, RulingCmd


@dataclass
class HandCards:
    """A hand's cards as the croupier holds them, and the remedies in progress (new at each hand)."""

    deck: list[str] = field(default_factory=list)  # the stub, dealt from its end
    order: list[int] = field(default_factory=list)  # seats from the first dealt (first to act after the flop)
    out: set[int] = field(default_factory=set)  # seats this croupier folded or pushed all in this hand
    board: list[str] = field(default_factory=list)  # faces on the board, as dealt
    burned: set[str] = field(default_factory=set)  # streets whose burn already lies in the burn zone (a remedy's)
    early: str | None = None  # a street already on the board when its round opens (pouques 77)
    aside: str | None = None  # a premature turn set aside, reshuffled for the river (cdc 8.4)
    first_burn: str | None = None  # an exposed card that is the first burn (cdc 7.3)
    # a board fault whose street the hub holds: it deals it to the game at its first action (a street
    # the game already had bets out as usual once the felt's board is the game's again)
    faulty: bool = False


class Hands(Protocol):
    """What a fault needs of the croupier (`simulators.croupier.Croupier`): his table, felt and cards, and
    his moves, each waiting until the table has seen it (False: the hand stopped moving)."""

    agent: TableAgent
    watch: HandWatch
    felt: Felt
    rng: random.Random
    stop: threading.Event
    cards: HandCards

    def wait(self, condition: Callable[[], bool]) -> bool: ...
    def pause(self) -> bool: ...
    def place(self, step: CardStep) -> bool: ...
    def put(self, zone: Zone, uid: str) -> bool: ...
    def take_off(self, uid: str) -> bool: ...
    def board_card(self, card: str) -> bool: ...
    def live(self) -> list[int]: ...
    def first_action(self) -> bool | None: ...
    def made(self, kind: FaultKind) -> None: ...
    def ruling(self, kind: FaultKind, ctx: HandContextCmd, after: int = 0) -> RulingCmd | None: ...
    def carry_out(self, ruling: RulingCmd, seat: int, uid: str | None) -> bool: ...
    def gave_up(self) -> bool | None: ...


def four_card_flop(c: Hands, ctx: HandContextCmd) -> bool | None:
    """A fourth card on the board at the flop; ruled (cdc 8.3) it becomes the turn's burn."""
    if "flop" not in c.cards.burned and not c.place(Burn(c.cards.first_burn or c.cards.deck.pop())):
        return c.gave_up()
    c.cards.first_burn = None
    for _ in range(4):
        if not c.pause() or not c.board_card(c.cards.deck.pop()):
            return c.gave_up()
    c.made(FaultKind.FLOP_FOUR_CARDS)
    ruling = c.ruling(FaultKind.FLOP_FOUR_CARDS, ctx)
    if ruling is not None and ruling.decision == "extra_card_burn":
        extra = c.cards.board.pop()
        if not c.pause() or not c.place(Burn(extra)):
            return c.gave_up()
        c.cards.burned.add("turn")
    if c.watch.result is not None:
        return True
    return c.first_action()


def unburned(c: Hands, kind: FaultKind, name: str, ctx: HandContextCmd) -> bool | None:
    """The turn or the river dealt without its burn; ruled, that card becomes the burn and the next
    one is dealt (cdc 8.3's principle, brest III.17, pouques 77)."""
    card = c.cards.deck.pop()
    if not c.pause() or not c.board_card(card):
        return c.gave_up()
    c.made(kind)
    ruling = c.ruling(kind, ctx)
    if ruling is not None and ruling.decision == "burn_and_next":
        c.cards.board.remove(card)
        if not c.pause() or not c.place(Burn(card)) or not c.board_card(c.cards.deck.pop()):
            return c.gave_up()
    if c.watch.result is not None:
        return True
    return c.first_action()


def second_deck_burn(c: Hands, ctx: HandContextCmd) -> bool | None:
    """The flop's burn taken from the table's other deck (cdc 6.4): set aside, burned again from the
    right deck."""
    other = next(d for d in ctx.table_decks if d != c.felt.deck)
    uid = c.felt.uid(c.cards.deck[-1], deck=other)
    if not c.put(BURN, uid):
        return c.gave_up()
    c.made(FaultKind.MIXED_DECKS)
    ruling = c.ruling(FaultKind.MIXED_DECKS, ctx)
    if c.watch.result is not None or ruling is None:
        return True if c.watch.result is not None else c.gave_up()
    if not c.pause() or not c.take_off(uid):
        return c.gave_up()
    return True


def in_round_due(c: Hands, kind: FaultKind, betting: BettingCmd, board: int) -> bool:
    """A premature street while the round before it is open; a card taken off the board or a dead
    card to a hand while the flop is bet on."""
    if kind is FaultKind.PREMATURE_FLOP:
        return betting.street == "preflop" and board == 0
    if kind is FaultKind.PREMATURE_TURN:
        return betting.street == "flop" and board == 3 and c.cards.early is None
    if kind is FaultKind.PREMATURE_RIVER:
        return betting.street == "turn" and board == 4 and c.cards.early is None
    return betting.street == "flop" and board == 3 and len(c.live()) > 2 and not c.cards.faulty


def in_round(c: Hands, kind: FaultKind, ctx: HandContextCmd) -> bool | None:
    if kind is FaultKind.BOARD_REMOVED:
        return board_removed(c, ctx)
    if kind is FaultKind.DEAD_CARD_IN_HAND:
        return dead_card(c, ctx)
    return premature(c, kind, ctx)


def premature(c: Hands, kind: FaultKind, ctx: HandContextCmd) -> bool | None:
    """The next street burned and dealt while this round is still open; then its ruling."""
    name = {FaultKind.PREMATURE_FLOP: "flop", FaultKind.PREMATURE_TURN: "turn"}.get(kind, "river")
    burn = c.cards.first_burn or c.cards.deck.pop() if name not in c.cards.burned else None
    if burn is not None and not c.place(Burn(burn)):
        return c.gave_up()
    c.cards.first_burn = None
    early = [c.cards.deck.pop() for _ in range(3 if name == "flop" else 1)]
    for card in early:
        if not c.pause() or not c.place(Board(card)):
            return c.gave_up()
    c.made(kind)
    ruling = c.ruling(kind, ctx)
    if c.watch.result is not None or c.watch.hand != ctx.hand:
        return True
    if ruling is None:
        return c.gave_up()
    decision = ruling.decision
    if decision in ("reshuffle_board", "river_as_turn"):
        # cdc 8.3 / 8.5: back into the stub, reshuffled; the burn already made stays (no new one).
        # cdc 8.4: the premature turn set aside, reshuffled for the river; the turn burned again.
        for card in early:
            if not c.take_off(c.felt.uid(card)):
                return c.gave_up()
        if decision == "river_as_turn":
            c.cards.aside = early[0]
        else:
            c.cards.deck.extend(early)
            c.rng.shuffle(c.cards.deck)
            c.cards.burned.add(name)
    elif decision == "bottom_card" and burn is not None:
        # pouques 77: the turn's burn back on the stub, the exposed turn burned, a new turn from the
        # bottom of the stub at once
        if not c.take_off(c.felt.uid(burn)):
            return c.gave_up()
        c.cards.deck.append(burn)
        if not c.pause() or not c.place(Burn(early[0])) or not c.board_card(c.cards.deck.pop(0)):
            return c.gave_up()
        c.cards.early = name
    elif decision == "burn_premature" and burn is not None:
        # pouques 77: the burn back on top of the stub, the exposed river burned; burn and deal the
        # river when the turn's round is over
        if not c.take_off(c.felt.uid(burn)):
            return c.gave_up()
        c.cards.deck.append(burn)
        if not c.pause() or not c.place(Burn(early[0])):
            return c.gave_up()
    else:
        c.cards.board.extend(early)  # a ruling that leaves the cards where they are
        c.cards.faulty = True  # more cards on the felt than in the game when the round ends: held
    return True


def board_removed(c: Hands, ctx: HandContextCmd) -> bool | None:
    """A flop card taken off the board during its round; ruled (cdc 8.6: the board is known) it goes back."""
    card = c.cards.board[0]
    if not c.pause() or not c.take_off(c.felt.uid(card)):
        return c.gave_up()
    c.made(FaultKind.BOARD_REMOVED)
    ruling = c.ruling(FaultKind.BOARD_REMOVED, ctx)
    if c.watch.result is not None or ruling is None:
        return True if c.watch.result is not None else c.gave_up()
    if ruling.decision != "continue":
        c.cards.faulty = True  # a card short on the felt when the round ends: the hub holds the next street
    elif not c.pause() or not c.place(Board(card)):
        return c.gave_up()
    return True


def dead_card(c: Hands, ctx: HandContextCmd) -> bool | None:
    """The flop's burn pushed onto a live hand (cdc 7.5); ruled dead, the card goes back to the burn and
    the hand to the muck."""
    burns = c.felt.cards_at(BURN)
    seat = next((s for s in c.live() if c.felt.cards_at(Zone.seat_zone(s))), None)
    if not burns or seat is None:
        return True
    uid = burns[0]
    if not c.pause() or not c.put(Zone.seat_zone(seat), uid):
        return c.gave_up()
    c.made(FaultKind.DEAD_CARD_IN_HAND)
    ruling = c.ruling(FaultKind.DEAD_CARD_IN_HAND, ctx)
    if c.watch.result is not None or ruling is None:
        return True if c.watch.result is not None else c.gave_up()
    if not c.pause() or not c.put(BURN, uid):
        return c.gave_up()
    if not c.carry_out(ruling, seat, None):
        return c.gave_up()
    return True


def time_runs_out(c: Hands, betting: BettingCmd, ctx: HandContextCmd) -> bool | None:
    """The dealer calls Time on the player to act, who lets it run out (cdc 4.5: his hand is dead): the
    table waits the rulebook's minute and countdown, however long, as for the TD."""
    seat = betting.to_act
    assert seat is not None
    watch = c.watch
    c.agent.dealer_press("time", seat)
    if not c.wait(lambda: watch.betting is not None and watch.betting.time_seat == seat
                      or watch.result is not None):
        return True  # Time refused (cpt87 4.5: the TD grants it): the player acts as usual
    c.made(FaultKind.TIME_EXPIRED)

    def thinking() -> bool:
        now = watch.betting
        return now is not None and now.to_act == seat and watch.result is None and watch.hand == ctx.hand

    while thinking():
        if c.stop.wait(0.05):
            return None
    c.cards.out.add(seat)  # his hand is dead: the hub folded it (its ruling names the seat)
    return True


def short_raise(c: Hands, betting: BettingCmd) -> bool:
    """The first player to speak raises by a quarter of the big blind (cdc 10.9: below half the
    minimum increment, a call; pouques 52: below half over the bet, a call)."""
    seat = betting.to_act
    if seat is None or betting.street != "preflop" or betting.to_call <= 0 or len(c.cards.order) < 3:
        return False
    c.agent.player_action(seat, "raise", betting.to_call + max(1, betting.to_call // 4))
    c.made(FaultKind.INSUFFICIENT_BET)
    return True


def wrong_flop(c: Hands, kind: FaultKind, deck: list[str], ctx: HandContextCmd) -> bool | None:
    """The flop dealt without its burn, or after two burns; then the ruling carried out (cdc 8.3:
    the first flop card becomes the burn / the second burn becomes the first flop card)."""
    if kind is FaultKind.FLOP_WITHOUT_BURN:
        flop = [deck.pop() for _ in range(3)]
        for card in flop:
            if not c.pause() or not c.place(Board(card)):
                return c.gave_up()
        c.made(kind)
        ruling = c.ruling(kind, ctx)
        if ruling is not None and ruling.decision == "designate_burn":
            if not c.pause() or not c.place(Burn(flop[0])) or not c.place(Board(deck.pop())):
                return c.gave_up()
    else:
        burns = [c.cards.first_burn or deck.pop(), deck.pop()]
        c.cards.first_burn = None
        for card in burns:
            if not c.pause() or not c.place(Burn(card)):
                return c.gave_up()
        c.made(kind)
        ruling = c.ruling(kind, ctx)
        steps: list[CardStep] = [Board(deck.pop()) for _ in range(3)]
        if ruling is not None and ruling.decision == "burn_to_flop":
            steps = [Board(burns[1]), *steps[:2]]
        for step in steps:
            if not c.pause() or not c.place(step):
                return c.gave_up()
    c.cards.board = [c for c in c.felt.faces_at(BOARD)]
    if c.watch.result is not None:
        return True
    return c.first_action()


def act_out_of_turn(c: Hands, betting: BettingCmd) -> bool:
    """A player further round the table acts before the one whose turn it is (cdc 10.2)."""
    to_act = betting.to_act
    assert to_act is not None
    if to_act not in c.cards.order:
        return False
    at = c.cards.order.index(to_act)
    later = [s for s in c.cards.order[at + 1:] + c.cards.order[:at] if s not in c.cards.out]
    if not later:
        return False
    c.agent.player_action(later[0], "check" if betting.to_call == 0 else "call")
    c.made(FaultKind.OUT_OF_TURN)
    return True
