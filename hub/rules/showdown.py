"""The end of a hand: who shows first, who wins each pot, finishing stacks.

Called by `Hand.showdown` and when all but one hand fold. Takes the hand's contributions,
live seats, board and the hole cards shown; emits a `HandResult` whose pots are listed main pot
first and awarded outermost first (cdc 11.7), odd chips from the button's left (cdc 11.8).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Set
from typing import Protocol

from hub.rules.evaluator import _CARDS, counted, evaluate, parse_card, parse_cards
from hub.rules.games import Evaluation, Game
from hub.rules.positions import Positions, clockwise
from hub.rules.pots import build_pots, split_pot
from hub.rules.records import HandEndKind, HandResult, PotResult, Street, hand_result, pot_result
from hub.rules.rulesets import OddChips, Ruleset, ShowdownOrder
from hub.rules.variant_eval import scorer

# Members bound once: an enum class's attribute goes through its metaclass's `__getattr__` hook.
_FIRST_RAISER, _ONE_EACH = ShowdownOrder.FIRST_RAISER, OddChips.ONE_EACH
_SHOWDOWN, _UNCONTESTED = HandEndKind.SHOWDOWN, HandEndKind.UNCONTESTED
_HOLDEM = Evaluation.HOLDEM


class ShowdownHand(Protocol):
    """What the showdown reads of a hand (`hub.rules.hand.Hand`, which calls this module: declared
    here so the two import one way)."""

    @property
    def rules(self) -> Ruleset: ...
    @property
    def game(self) -> Game: ...
    @property
    def positions(self) -> Positions: ...
    @property
    def seats(self) -> Sequence[int]: ...  # in dealing order, from the button's left
    @property
    def live(self) -> Set[int]: ...
    @property
    def board(self) -> Sequence[int]: ...
    @property
    def stack(self) -> Mapping[int, int]: ...
    @property
    def contributed(self) -> Mapping[int, int]: ...
    @property
    def returned(self) -> Mapping[int, int]: ...
    @property
    def dead(self) -> Mapping[int, int]: ...
    @property
    def ante_capped(self) -> Set[int]: ...
    @property
    def aggressors(self) -> Mapping[Street, list[int]]: ...
    @property
    def last_round_street(self) -> Street: ...
    @property
    def pot(self) -> int: ...


def order(rules: Ruleset, live: Set[int], button: int, aggressors: Mapping[Street, list[int]],
          last_round: Street, in_turn: list[int] | None = None) -> list[int]:
    """Showdown order: the last aggressor of the last betting round (cdc 11.5) or its first
    raiser (pouques 55), else the first live seat on the button's left; then clockwise.
    `in_turn`: the live seats from the button's left when the caller has them already."""
    seats = clockwise(live, button) if in_turn is None else in_turn
    aggr = aggressors.get(last_round)
    if not aggr:
        return seats
    start = aggr[0] if rules.showdown_order is _FIRST_RAISER else aggr[-1]
    if start not in live:
        return clockwise(live, start)
    i = seats.index(start)
    return seats[i:] + seats[:i]


def uncontested(hand: ShowdownHand, winner: int) -> HandResult:
    stacks = dict(hand.stack)
    amount = hand.pot
    stacks[winner] += amount
    pot = pot_result(amount, (winner,), (winner,), ((winner, amount),))
    return hand_result(_UNCONTESTED, (pot,), stacks, dict(hand.returned), (),
                       hand.rules.article("showdown_order"))


_CARD_OF = _CARDS.get
# Hold'em's two hole cards as usually spelt, `("As", "Kd")`, to their ints: one look-up of the pair (its
# strings' hashes are cached) instead of checking each text's type and looking each card up (#35).
_PAIR_OF = {(a, b): (_CARDS[a], _CARDS[b]) for a in _CARDS for b in _CARDS if a != b}.get


def _cards(cards: Iterable[int | str] | None) -> tuple[int, ...] | None:
    if cards is None:
        return None
    if isinstance(cards, str):  # "AsKd"
        return parse_cards(cards) if "?" not in cards else None
    if type(cards) is tuple and len(cards) == 2 and type(cards[0]) is str and type(cards[1]) is str:
        first, second = _CARD_OF(cards[0]), _CARD_OF(cards[1])  # hold'em's two, as usually spelt
        if first is not None and second is not None:
            return (first, second)
    out = tuple([parse_card(c) if isinstance(c, str) else c for c in cards])
    return out or None


def award(hand: ShowdownHand, hole_cards: Mapping[int, Iterable[int | str] | None]) -> HandResult:
    contributed = hand.contributed
    live = hand.live
    # The hand's seats are in dealing order: its live ones are already clockwise from the button.
    live_in_seat_order = list(filter(live.__contains__, hand.seats))
    button = hand.positions.button
    rules = hand.rules
    aggressors = hand.aggressors
    # `order`, called only when the last betting round had a bet (a round checked through: dealing order).
    shown = (order(rules, live, button, aggressors, hand.last_round_street, live_in_seat_order)
             if aggressors.get(hand.last_round_street) else live_in_seat_order)
    board = tuple(hand.board)
    scores: dict[int, int] = {}
    if hand.game.evaluation is _HOLDEM:  # `scorer`'s hold'em case in line: the board counted once (#35)
        counts, size = counted(board), len(board)
        for s in shown:
            held = hole_cards.get(s)
            cards: tuple[int, ...] | None = _PAIR_OF(held) if type(held) is tuple else None  # as usually spelt
            if cards is None:
                cards = _cards(held)
            if cards is not None and len(cards) + size >= 5:
                scores[s] = evaluate(cards, counts)
    else:
        scored = scorer(hand.game, board)
        for s in shown:
            cards = _cards(hole_cards.get(s))
            value = None if cards is None else scored(cards)
            if value is not None:
                scores[s] = value
    layers = build_pots(contributed, live_in_seat_order, hand.dead, hand.ante_capped)
    stacks = dict(hand.stack)
    results: list[PotResult] = []
    one_each = rules.odd_chips is _ONE_EACH
    for amount, eligible in reversed(layers):  # outermost pot first (cdc 11.7)
        contenders = list(filter(scores.__contains__, eligible))
        if len(contenders) == 1:
            winners = contenders
        elif contenders:
            best = max(map(scores.__getitem__, contenders))
            winners = [s for s in contenders if scores[s] == best]
        else:  # nobody showed: the hands mucked last stand in showdown order
            winners = [next(s for s in shown if s in eligible)]
        if len(winners) == 1:  # one winner, most pots: `split_pot`'s first case in line
            winner = winners[0]
            stacks[winner] += amount
            results.append(pot_result(amount, eligible, (winner,), ((winner, amount),)))
            continue
        # Already clockwise from the button: `build_pots` keeps the order of the live seats it is given, the
        # hand's in dealing order (no sort of the winners, `clockwise`).
        shares = split_pot(amount, winners, one_each)
        for s, chips in shares:
            stacks[s] += chips
        results.append(pot_result(amount, eligible, tuple(winners), tuple(shares)))
    results.reverse()
    return hand_result(_SHOWDOWN, tuple(results), stacks, dict(hand.returned), tuple(shown),
                       rules.article("odd_chip"))
