"""Out-of-turn and simultaneous actions: held, then bound or released when the turn comes.

Called by `Hand.act` when the seat is not the one to act, and after every applied action.
Consumes the hand's pending actions; emits `action_binding` / `action_released` /
`call_or_fold_only` / `hand_dead` / `td_decision` rulings with the ruleset's article
(cdc 10.2, 10.16; brest VII.20-21; pouques 59, 60, 70; pcpm; cpt87 8.2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Protocol

from hub.rules.records import (
    ActionKind,
    ActionRecord,
    ActionStatus,
    Decision,
    FaultKind,
    Ruling,
    RulingGiven,
    Street,
)
from hub.rules.rulesets import Ruleset, SimultaneousRule, SkippedRule

_WAGERS = (ActionKind.BET, ActionKind.RAISE, ActionKind.ALLIN)


@dataclass(frozen=True, slots=True)
class Pending:
    """An out-of-turn action waiting for its turn; `max_bet_at` tells whether action changed."""

    seat: int
    action: ActionKind
    to: int | None
    announced: bool
    chips: tuple[int, ...] | None
    max_bet_at: int


@dataclass(frozen=True, slots=True)
class Restriction:
    """The seat may only call or fold until a full raise comes from outside `group`."""

    ruling: Ruling
    group: frozenset[int]


class OutOfTurnHand(Protocol):
    """What the out-of-turn rules read, change and call of a hand (`hub.rules.hand.Hand`, which
    calls this module: declared here so the two import one way)."""

    dark: dict[int, Pending]

    @property
    def rules(self) -> Ruleset: ...
    @property
    def seats(self) -> Sequence[int]: ...
    @property
    def live(self) -> Set[int]: ...
    @property
    def stack(self) -> Mapping[int, int]: ...
    @property
    def bet(self) -> Mapping[int, int]: ...
    @property
    def max_bet(self) -> int: ...
    @property
    def street(self) -> Street: ...
    @property
    def round_open(self) -> bool: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def aggressors(self) -> Mapping[Street, list[int]]: ...
    @property
    def pending(self) -> dict[int, Pending]: ...
    @property
    def restricted(self) -> dict[int, Restriction]: ...
    @property
    def log(self) -> list[ActionRecord | RulingGiven]: ...

    def act(self, seat: int, action: ActionKind | str, to: int | None = None, *, announced: bool = False,
            chips: Sequence[int] | None = None) -> ActionRecord: ...
    def kill_hand(self, seat: int, ruling: Ruling) -> RulingGiven: ...
    def _record(self, seat: int, kind: ActionKind, to: int | None, status: ActionStatus,
                applied: ActionKind | None, reason: str | None, ruling: Ruling | None = None,
                added: int = 0, pending: bool = False) -> ActionRecord: ...
    def _apply(self, seat: int, kind: ActionKind, to: int | None, announced: bool,
               chips: Sequence[int] | None, ruling: Ruling | None = None) -> ActionRecord: ...


def hold(hand: OutOfTurnHand, seat: int, kind: ActionKind, to: int | None, announced: bool,
         chips: Sequence[int] | None) -> ActionRecord:
    rules = hand.rules
    if seat in hand.pending:
        return hand._record(seat, kind, to, ActionStatus.REJECTED, None, "already_pending")
    topic = "out_of_turn_fold" if kind is ActionKind.FOLD else "out_of_turn"
    ruling = Ruling(Decision.ACTION_BINDING, rules.article(topic), seat, FaultKind.OUT_OF_TURN)
    hand.pending[seat] = Pending(seat, kind, to, announced, tuple(chips) if chips else None,
                                 _seen(hand))
    rec = hand._record(seat, kind, to, ActionStatus.ACCEPTED, None, FaultKind.OUT_OF_TURN,
                       ruling, pending=True)
    _check_skipped(hand)
    return rec


def in_the_dark(hand: OutOfTurnHand, seat: int, kind: ActionKind, to: int | None, announced: bool,
                chips: Sequence[int] | None) -> ActionRecord:
    """An action before the street's cards are out (cdc 10.14 « in the dark », brest VII.7):
    allowed, held until the round opens; then it is treated as announced before his turn."""
    if seat in hand.dark:
        return hand._record(seat, kind, to, ActionStatus.REJECTED, None, "already_pending")
    hand.dark[seat] = Pending(seat, kind, to, announced, tuple(chips) if chips else None, 0)
    return hand._record(seat, kind, to, ActionStatus.ACCEPTED, None, "in_the_dark", pending=True)


def release_dark(hand: OutOfTurnHand) -> None:
    """The street is out: actions in the dark wait for their turn like actions out of turn
    (they stand unless someone bets before them) and apply at once if the turn is theirs."""
    dark, hand.dark = hand.dark, {}
    if not hand.round_open:
        return
    for seat, p in dark.items():
        if seat in hand.live and hand.stack[seat] > 0:
            hand.pending[seat] = p
    if hand.pending:
        resolve(hand)


def _seen(hand: OutOfTurnHand) -> int:
    """The bet the player faced when he acted: held wagers made before his count too (brest
    VII.21: the actions of those who forgot a player are maintained as they were made)."""
    seen = hand.max_bet
    for p in hand.pending.values():
        if p.action is ActionKind.ALLIN:
            seen = max(seen, hand.bet[p.seat] + hand.stack[p.seat])
        elif p.action in _WAGERS:
            seen = max(seen, p.to if p.to is not None else hand.bet[p.seat] + sum(p.chips or ()))
    return seen


def restrict(hand: OutOfTurnHand, seat: int, ruling: Ruling) -> None:
    hand.restricted[seat] = Restriction(ruling, frozenset(hand.pending))
    hand.log.append(RulingGiven(ruling, hand.street))


def _check_skipped(hand: OutOfTurnHand) -> None:
    """Once enough players acted after the skipped one, his options shrink (cdc 10.2)."""
    rules = hand.rules
    skipped = hand.to_act
    if skipped is None or skipped in hand.restricted or len(hand.pending) < rules.skipped_after:
        return
    article = rules.article("skipped")
    cof = Ruling(Decision.CALL_OR_FOLD_ONLY, article, skipped, FaultKind.OUT_OF_TURN)
    if rules.skipped is SkippedRule.CALL_OR_FOLD:
        restrict(hand, skipped, cof)
    elif rules.skipped is SkippedRule.TD_DECISION:
        # Late wake-up (pouques 70): the floor may kill the hand; until then call or fold.
        hand.log.append(RulingGiven(Ruling(Decision.TD_DECISION, article, skipped,
                                           FaultKind.OUT_OF_TURN,
                                           (str(Decision.HAND_DEAD),
                                            str(Decision.CALL_OR_FOLD_ONLY))), hand.street))
        restrict(hand, skipped, cof)
    elif hand.aggressors.get(hand.street):  # pcpm: the pot was opened, the hand is dead
        hand.kill_hand(skipped, Ruling(Decision.HAND_DEAD, article, skipped,
                                       FaultKind.OUT_OF_TURN))
    else:  # pcpm: not opened, he loses the right to bet
        restrict(hand, skipped, cof)


def lift_restrictions(hand: OutOfTurnHand, raiser: int) -> None:
    """A full raise from a player outside the out-of-turn group frees the skipped seat."""
    for seat in [s for s, r in hand.restricted.items() if raiser != s and raiser not in r.group]:
        del hand.restricted[seat]


def resolve(hand: OutOfTurnHand) -> None:
    """Apply pending actions whose turn has come, or release them if the action changed."""
    rules = hand.rules
    while hand.round_open and hand.to_act in hand.pending:
        seat = hand.to_act
        p = hand.pending.pop(seat)
        if p.action is ActionKind.FOLD or hand.max_bet <= p.max_bet_at:
            topic = "out_of_turn_fold" if p.action is ActionKind.FOLD else "out_of_turn"
            ruling = Ruling(Decision.ACTION_BINDING, rules.article(topic), seat,
                            FaultKind.OUT_OF_TURN)
            rec = hand._apply(seat, p.action, p.to, p.announced, p.chips, ruling)
            if rec.status is ActionStatus.REJECTED:
                break  # e.g. a held raise no longer allowed: the player chooses again
            continue
        released = Ruling(Decision.ACTION_RELEASED, rules.article("out_of_turn"), seat,
                          FaultKind.OUT_OF_TURN)
        hand.log.append(RulingGiven(released, hand.street))
        if rules.released_raise_only_if_wagered and p.action not in _WAGERS:
            # pcpm, brest VII.20: free again, but may raise only if his own out-of-turn action
            # was a wager (« que s'ils l'avaient eux-mêmes déjà changée »).
            restrict(hand, seat, Ruling(Decision.CALL_OR_FOLD_ONLY,
                                        rules.article("out_of_turn"), seat, FaultKind.OUT_OF_TURN))
        break


def act_together(hand: OutOfTurnHand, requests: Sequence[tuple[int, ActionKind | str, int | None]]
                 ) -> list[ActionRecord]:
    """Simultaneous actions: in turn order (cdc 10.16), or the second out of turn (pcpm)."""
    to_act = hand.to_act
    if to_act is None:
        return [hand.act(s, a, t) for s, a, t in requests]
    seats = hand.seats
    start = seats.index(to_act) if to_act in seats else 0

    def turn_order(req: tuple[int, ActionKind | str, int | None]) -> int:
        return (seats.index(req[0]) - start) % len(seats) if req[0] in seats else len(seats)

    ordered = sorted(requests, key=turn_order)
    if hand.rules.simultaneous is SimultaneousRule.IN_ORDER:
        return [hand.act(s, a, t) for s, a, t in ordered]
    mine = [r for r in ordered if r[0] == to_act]
    others = [r for r in ordered if r[0] != to_act]
    out = [hand.act(s, a, t) for s, a, t in others]  # held: out of turn (pcpm)
    out += [hand.act(s, a, t) for s, a, t in mine]
    return out
