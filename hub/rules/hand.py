"""The hand state machine: blinds and antes, betting rounds, streets, the end of the hand.

Driven by the hub from table events (actions from the seat panels, board cards from the felt)
and by the PHH replayer. Consumes `act(...)`, `deal_board(...)`, `showdown(...)`; emits frozen
`ActionRecord`s / `RulingGiven`s into `Hand.log` and a `HandResult`. Pure: time is passed in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import cast

from hub.rules import out_of_turn, showdown, timecall
from hub.rules.betting import full_raise_marker, judge_wager, min_raise_to, reopened
from hub.rules.evaluator import _CARDS, parse_card
from hub.rules.games import NLHE, Betting, Game
from hub.rules.positions import Level, Positions, clockwise, default_positions, turn_order
from hub.rules.records import (
    ActionKind,
    ActionRecord,
    ActionStatus,
    BettingRoundOpen,
    HandOver,
    HandResult,
    HandSetupError,
    Legal,
    NoBettingRound,
    Ruling,
    RulingGiven,
    Street,
    Unwritten,
    action_record,
    write_records,
)
from hub.rules.rulesets import MinRaiseRule, ReopenRule, Ruleset, TimeCaller, get_ruleset

_BOARD_STREET = {3: Street.FLOP, 4: Street.TURN, 5: Street.RIVER}
# Members bound once: the hot paths below compare against them on every action.
_FOLD, _CHECK, _CALL, _ALLIN = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.ALLIN
_BET, _RAISE = ActionKind.BET, ActionKind.RAISE
_NO_LIMIT = Betting.NO_LIMIT
_DOUBLE = MinRaiseRule.DOUBLE
_CARD_OF, _CUMULATIVE = _CARDS.get, ReopenRule.CUMULATIVE
_ACCEPTED, _REJECTED = ActionStatus.ACCEPTED, ActionStatus.REJECTED
_PREFLOP, _RIVER, _SHOWDOWN, _COMPLETE = Street.PREFLOP, Street.RIVER, Street.SHOWDOWN, Street.COMPLETE


class Hand:
    """One hand at one table. Seats are physical seat numbers; amounts are chips (ints)."""

    # Slots, not an instance dict: a hand's 32 attributes are past the 30 a shared-key dict holds, so
    # each hand built a dict of its own and every attribute read looked it up (issue #35: -4 % a replay).
    __slots__ = ("rules", "game", "_cumulative", "positions", "bb", "seats", "_after", "_zeros",
                 "starting_stacks", "stack", "bet", "contributed", "live", "board", "_log", "_unwritten", "result",
                 "street", "round_open", "to_act", "max_bet", "last_full", "full_seq", "_acted",
                 "aggressors", "last_round_street", "pending", "dark", "restricted", "time_call",
                 "returned", "dead", "ante_capped")

    def __init__(self, rules: Ruleset, *, stacks: Mapping[int, int], positions: Positions, sb: int, bb: int,
                 antes: Mapping[int, int] | None = None, straddles: Sequence[tuple[int, int]] = (),
                 dead: Mapping[int, int] | None = None, short_blind_is_full_bet: bool = True,
                 game: Game = NLHE) -> None:
        if len(stacks) < 2:
            raise HandSetupError(f"a hand needs two players, seats {sorted(stacks)}")
        if positions.big_blind not in stacks:
            raise HandSetupError(f"the big blind seat {positions.big_blind} has no player")
        needed = len(stacks) * game.hole_cards + 8  # five board cards and three burns
        if needed > game.deck:
            raise HandSetupError(f"{game.name_en} for {len(stacks)} players needs {needed} cards, "
                                 f"more than its {game.deck}-card deck")
        self.rules = rules
        self.game = game
        self._cumulative = rules.reopen is _CUMULATIVE  # needs the minimum when acted
        self.positions = positions
        self.bb = bb
        seats, self._after, self._zeros = turn_order(tuple(stacks), positions.button)  # _zeros: copied
        self.seats: list[int] = list(seats)  # dealing order
        self.starting_stacks: dict[int, int] = dict(stacks)
        self.stack: dict[int, int] = dict(stacks)
        self.bet: dict[int, int] = self._zeros.copy()
        self.contributed: dict[int, int] = self._zeros.copy()
        self.live: set[int] = set(seats)  # not folded
        self.board: list[int] = []
        self._log: list[ActionRecord | RulingGiven] = []
        # `play_in_turn`'s records, made in `log` when it is read: a replay that never reads it makes none (#35)
        self._unwritten: list[Unwritten] = []
        self.result: HandResult | None = None
        self.street = _PREFLOP
        self.round_open = False
        self.to_act: int | None = None
        self.max_bet = 0
        self.last_full = bb
        self.full_seq = 0
        # seat -> (full raises so far, minimum raise, highest bet) when it last acted
        self._acted: dict[int, tuple[int, int, int]] = {}
        self.aggressors: dict[Street, list[int]] = {}  # bettors and raisers, per street
        self.last_round_street = _PREFLOP
        self.pending: dict[int, out_of_turn.Pending] = {}
        self.dark: dict[int, out_of_turn.Pending] = {}  # announced before the street's cards
        self.restricted: dict[int, out_of_turn.Restriction] = {}
        self.time_call: timecall.TimeCall | None = None
        self.returned: dict[int, int] = {}  # uncalled bets given back
        self.dead: dict[int, int] = {}  # antes and dead blinds: dead money for the main pot
        self.ante_capped: set[int] = set()
        self._post_forced(antes or {}, dead or {}, sb, bb, straddles, short_blind_is_full_bet)

    # -- setup ------------------------------------------------------------------------------

    def _put(self, seat: int, amount: int, live_bet: bool) -> int:
        stack = self.stack[seat]
        if amount >= stack:
            if not live_bet and amount > stack:
                self.ante_capped.add(seat)  # all-in on the ante: plays for antes up to his
            amount = stack
        self.stack[seat] = stack - amount
        self.contributed[seat] += amount
        if live_bet:
            self.bet[seat] += amount
        else:
            self.dead[seat] = self.dead.get(seat, 0) + amount
        return amount

    def _post_forced(self, antes: Mapping[int, int], dead: Mapping[int, int], sb: int, bb: int,
                     straddles: Sequence[tuple[int, int]], short_is_full: bool) -> None:
        for seat in self.seats if antes else ():  # antes first, as dead money
            if antes.get(seat):
                self._put(seat, antes[seat], False)
        for seat, amount in dead.items() if dead else ():  # dead blinds: rare
            self._put(seat, amount, False)
        p = self.positions
        last_poster = p.big_blind
        if p.small_blind is not None and p.small_blind in self.stack:
            self._put(p.small_blind, sb, True)
        posted = self._put(p.big_blind, bb, True)  # a live bet
        # A big blind short of chips still sets the bet to call (cdc 10.6: the BB is a bet).
        self.max_bet = bb if short_is_full or posted == bb else max(self.bet.values())
        for seat, amount in straddles:
            self._put(seat, amount, True)
            self.max_bet = max(self.max_bet, self.bet[seat])
            self.last_full = amount
            last_poster = seat
        self._open_round(last_poster)

    @property
    def log(self) -> list[ActionRecord | RulingGiven]:
        """The records and rulings in order, `play_in_turn`'s written when read (every writer comes here first)."""
        if self._unwritten:
            write_records(self._log, self._unwritten)
        return self._log

    # -- queries ----------------------------------------------------------------------------

    @property
    def betting_open(self) -> bool:
        """True while a betting round waits for an action (the dealing monitor's question)."""
        return self.round_open

    @property
    def cards_face_up(self) -> bool:
        """All hands are turned up: two or more live hands and no more betting (cdc 11.4)."""
        return (self.result is None and not self.round_open and len(self.live) > 1
                and sum(1 for s in self.live if self.stack[s] > 0) <= 1)

    @property
    def pot(self) -> int:
        return sum(self.contributed.values())

    def min_raise_to(self) -> int:
        return min_raise_to(self.rules, self.max_bet, self.last_full, self.bb)

    def pot_limit_to(self, seat: int) -> int | None:
        """Pot-limit: the largest bet or raise as a street total, as the dealer announces it: the call first, then
        the pot that makes (every chip in the middle and in front of the players). None in a no-limit game. Never
        below the minimum raise; the stack may cap it lower."""
        if self.game.betting is not Betting.POT_LIMIT:
            return None
        call = self.max_bet - self.bet[seat]
        return max(self.min_raise_to(), self.max_bet + self.pot + call)

    def _can_be_called(self, seat: int) -> bool:
        """Someone else still in could put in a chip more than the highest bet."""
        top, stack, bet = self.max_bet, self.stack, self.bet
        for s in self.live:
            if s != seat and stack[s] > 0 and bet[s] + stack[s] > top:
                return True
        return False

    def _may_raise(self, seat: int) -> bool:
        if seat in self.restricted:
            return False
        if not self._can_be_called(seat):
            return False  # nobody else could put in a chip more: a raise means nothing
        acted = self._acted.get(seat)
        if acted is None:
            return True
        if acted[2] == 0 and self.max_bet > 0:
            return True  # he checked: facing the street's first bet, even a short one (10.8)
        return reopened(self.rules, full_since=self.full_seq > acted[0], max_bet=self.max_bet,
                        own_bet=self.bet[seat], min_to_when_acted=acted[1])

    def legal(self, seat: int | None = None) -> Legal:
        """What the seat to act (or `seat`) may do now."""
        seat = self.to_act if seat is None else seat
        if self.result is not None:
            raise HandOver("the hand is over")
        if seat is None or not self.round_open:
            raise NoBettingRound(f"no betting round is open ({self.street})")
        own, stack = self.bet[seat], self.stack[seat]
        call_to = min(self.max_bet, own + stack)
        can_raise = stack > self.max_bet - own and self._may_raise(seat)
        cap = self.pot_limit_to(seat)
        top = own + stack if cap is None else min(cap, own + stack)
        return Legal(seat=seat, can_check=own >= self.max_bet, call_to=call_to, call_amount=call_to - own,
                     can_raise=can_raise, min_raise_to=min(self.min_raise_to(), own + stack), max_raise_to=top,
                     call_or_fold_only=seat in self.restricted)

    def showdown_order(self) -> list[int]:
        return showdown.order(self.rules, self.live, self.positions.button, self.aggressors,
                              self.last_round_street)

    # -- betting ----------------------------------------------------------------------------

    def _open_round(self, first_after: int) -> None:
        if self._acted:  # the tables emptied when there is something in them (restrictions rarely)
            self._acted.clear()
        if self.restricted or self.pending:
            self.restricted.clear()
            self.pending.clear()
        self.round_open = True
        self.to_act = self._next_to_act(first_after)
        if self.to_act is not None:
            self.last_round_street = self.street
        else:
            self.round_open = False
            self._close_round()

    def _next_to_act(self, after: int) -> int | None:
        order = self._after.get(after)
        if order is None:  # a dead button: start from the first seat on its left
            order = self._after[clockwise(self.seats, after)[-1]]
        live, stack, bet, acted, top = self.live, self.stack, self.bet, self._acted, self.max_bet
        other = False  # a live seat with chips passed (one that acted): a seat found has someone to face
        seats = iter(order)
        for s in seats:
            if s in live and stack[s]:  # live with chips (a stack is never below 0)
                if bet[s] < top:
                    return s
                if s not in acted:
                    if other:
                        return s
                    for t in seats:  # a lone seat with chips has nobody to face: another one after him?
                        if t in live and stack[t]:
                            return s
                    return None
                other = True
        return None

    def _return_uncalled(self) -> None:
        """The part of the highest bet nobody matched goes back to its owner (not antes), if his hand is still live:
        a dead hand's chips stay in the pot (cdc 5.1, an absent player's blinds; in the last pot, `build_pots`)."""
        second, top = sorted(self.bet.values())[-2:]  # in C: this runs at the end of every round (two seats or more)
        if top == second:
            return  # nothing bet, or the highest bet matched
        top_seat = next(seat for seat, b in self.bet.items() if b == top)
        if top_seat in self.live:
            back = top - second
            self.bet[top_seat] -= back
            self.contributed[top_seat] -= back
            self.stack[top_seat] += back
            self.returned[top_seat] = self.returned.get(top_seat, 0) + back

    def _close_round(self) -> None:
        self._return_uncalled()
        self.round_open = False
        self.to_act = None
        self.time_call = None
        if self.street is _RIVER:
            self.street = _SHOWDOWN

    def act(self, seat: int, action: ActionKind | str, to: int | None = None, *, announced: bool = False,
            chips: Sequence[int] | None = None) -> ActionRecord:
        """Apply a player's action; `to` is the street total for bet/raise ("raise to")."""
        kind = action if type(action) is ActionKind else ActionKind(action)
        if self.round_open and self.result is None:  # the common case first: a round waits
            if seat not in self.live or self.stack.get(seat, 0) == 0:
                return self._record(seat, kind, to, _REJECTED, None, "not_in_hand")
            if seat != self.to_act:
                return out_of_turn.hold(self, seat, kind, to, announced, chips)
            if not chips and self.play_in_turn(((kind, seat, to, (), ""),)):
                rec = cast(ActionRecord, self.log[-1])
            else:
                rec = self._apply(seat, kind, to, announced, chips)
            if self.pending and rec.status is not _REJECTED:
                out_of_turn.resolve(self)
            return rec
        if self.result is None and not self.round_open and self._street_to_come():
            if seat not in self.live or self.stack.get(seat, 0) == 0:
                return self._record(seat, kind, to, ActionStatus.REJECTED, None, "not_in_hand")
            return out_of_turn.in_the_dark(self, seat, kind, to, announced, chips)
        # Here the round is closed or the hand over (an open round was the first case).
        return self._record(seat, kind, to, ActionStatus.REJECTED, None, "betting_closed")

    def act_together(self, requests: Sequence[tuple[int, ActionKind | str, int | None]]
                     ) -> list[ActionRecord]:
        """Simultaneous actions (cdc 10.16: taken in turn; pcpm: the second is out of turn)."""
        return out_of_turn.act_together(self, requests)

    def _street_to_come(self) -> bool:
        """Between rounds, a street still to be dealt with betting on it (cdc 10.14)."""
        return (self.street in (Street.PREFLOP, Street.FLOP, Street.TURN) and len(self.live) > 1
                and sum(1 for s in self.live if self.stack[s] > 0) > 1)

    def _record(self, seat: int, kind: ActionKind, to: int | None, status: ActionStatus,
                applied: ActionKind | None, reason: str | None, ruling: Ruling | None = None,
                added: int = 0, pending: bool = False) -> ActionRecord:
        rec = action_record(seat, kind, to, status, applied, self.bet.get(seat, 0), added, reason,
                            ruling, pending, self.street)
        self.log.append(rec)
        return rec

    def play_in_turn(self, steps: Sequence[tuple[object, int, int | None, object, object]],
                     i: int = 0) -> int:
        """Apply `steps[i:]`, players' actions written (kind, seat, to, cards, text) as a PHH replay's steps are
        (the last two unread: one unpacking of five costs less than three look-ups), while each is its seat's
        turn and has nothing to judge: a fold, a check or call, a full bet or raise, an all-in. Each leaves the
        state and the record `act` would (the record written when the log is read), without its chain of calls.
        Returns the index of the first step not applied (another kind of step, out of turn, a bet to judge)."""
        bet, stack, live, acted, after = self.bet, self.stack, self.live, self._acted, self._after
        contributed, unwritten = self.contributed, self._unwritten.append
        n = len(steps)
        if not self.round_open or self.result is not None or self.pending:
            return i  # none of the run stays so: a round that closes leaves nobody to act
        # Within the run only this loop changes the seat to act, the highest bet and the street (it
        # returns once the round closes): kept in locals. The seat it finds to act is live with chips.
        to_act, top, street = self.to_act, self.max_bet, self.street
        if to_act not in live or not stack.get(to_act):
            return i
        while i < n:
            kind, seat, to, _, _ = steps[i]
            if type(kind) is not ActionKind or seat != to_act:
                return i
            own = bet[seat]
            if kind is _FOLD:
                live.discard(seat)
                unwritten((seat, kind, None, _FOLD, own, 0, street))  # its record, made when read
                if len(live) == 1:
                    self._finish_uncontested()
                    return i + 1
            else:
                requested = None
                if kind is _CALL and to is None:
                    if own == top:
                        applied, to = _CHECK, own
                    elif own < top:
                        all_in = own + stack[seat]
                        applied, to = _CALL, top if top < all_in else all_in
                    else:  # a bet above the highest (a small blind above a short big blind): the general way's
                        return i
                elif kind is _CHECK and own == top:
                    applied, to = _CHECK, own
                elif ((kind is _RAISE or kind is _BET) and to is not None and to > top and to > own
                      and self.game.betting is _NO_LIMIT):
                    all_in = own + stack[seat]
                    last_full, bb = self.last_full, self.bb
                    min_to = top + (last_full if last_full > bb else bb)  # `min_raise_to`, in line
                    if to > all_in or (to < all_in and to < min_to):
                        return i  # to judge: more than he has, short of a full raise
                    if seat in acted or self.restricted:
                        if not self._may_raise(seat):
                            return i  # not his to raise: to judge
                    else:  # `_may_raise` of a seat yet to act on the street: someone else can call
                        for s in live:
                            if s != seat and stack[s] > 0 and bet[s] + stack[s] > top:
                                break
                        else:
                            return i
                    applied = _ALLIN if to == all_in else _RAISE if top else _BET
                    requested = to
                else:
                    return i
                added = to - own
                if added:
                    stack[seat] -= added
                    contributed[seat] += added
                    bet[seat] = to
                if to > top:  # `_advance`'s bet or raise, with the same minimum
                    if to >= min_to:  # a full bet or raise reopens the betting (`full_raise_marker`, in line)
                        self.last_full = to if self.rules.min_raise is _DOUBLE else to - top
                        self.full_seq += 1
                        if self.restricted:
                            out_of_turn.lift_restrictions(self, seat)
                    self.max_bet = top = to
                    aggressors = self.aggressors.get(street)
                    if aggressors is None:
                        self.aggressors[street] = [seat]
                    else:
                        aggressors.append(seat)
                acted[seat] = (self.full_seq, self.min_raise_to() if self._cumulative else 0, top)
                unwritten((seat, kind, requested, applied, to, added, street))  # its record, made when read
            self.time_call = None
            # `_next_to_act(seat)` in line; the live seats with chips counted only if he folded or is all-in.
            able = -1
            for s in after[seat]:
                if s in live and stack[s] and (bet[s] < top or s not in acted and (able > 1 or able < 0 and (
                        able := 2 if kind is not _FOLD and stack[seat] else len(list(filter(stack.get, live)))) > 1)):
                    self.to_act = to_act = s
                    break
            else:
                self._close_round()
                return i + 1
            i += 1
        return i

    def _apply(self, seat: int, kind: ActionKind, to: int | None, announced: bool,
               chips: Sequence[int] | None, ruling: Ruling | None = None) -> ActionRecord:
        own = self.bet[seat]
        max_bet = self.max_bet
        if kind is _FOLD:
            return self._fold(seat, kind, ruling)
        if kind is _CHECK or (kind is _CALL and to is None and not chips):
            if own >= max_bet:
                return self._advance(seat, kind, _CHECK, own, _ACCEPTED, None, ruling)
            if kind is _CHECK:
                return self._record(seat, kind, to, _REJECTED, None, "cannot_check")
            call_to = min(max_bet, own + self.stack[seat])
            return self._advance(seat, kind, _CALL, call_to, _ACCEPTED, None, ruling)
        if kind is _ALLIN and not self._may_raise(seat):
            # He may not raise (everyone else is all-in for less, the betting was not reopened, or
            # a ruling left him call or fold): the chips he pushes in are a call of what can be
            # called, the excess never wagered. The panel never leaves him without a way forward.
            call_to = min(max_bet, own + self.stack[seat])
            applied = ActionKind.CALL if call_to > own else ActionKind.CHECK
            return self._advance(seat, kind, applied, call_to, ActionStatus.ACCEPTED, None, ruling)
        j = judge_wager(self.rules, seat=seat, kind=kind, to=to, own_bet=own,
                        stack=self.stack[seat], max_bet=max_bet, min_to=self.min_raise_to(),
                        may_raise=self._may_raise(seat), announced=announced, chips=chips,
                        max_to=self.pot_limit_to(seat))
        if j.applied is None:
            reason = j.reason
            if reason == "raise_not_allowed" and seat in self.restricted:
                reason = "call_or_fold_only"
            return self._record(seat, kind, to, ActionStatus.REJECTED, None, reason)
        return self._advance(seat, kind, j.applied, j.to, j.status, j.reason, j.ruling or ruling,
                             requested=to)

    def _fold(self, seat: int, kind: ActionKind, ruling: Ruling | None) -> ActionRecord:
        self.live.discard(seat)
        rec = self._record(seat, kind, None, _ACCEPTED, _FOLD, None, ruling)
        if len(self.live) == 1:
            self._finish_uncontested()
        elif seat == self.to_act:
            self._after_action(seat)
        return rec

    def _advance(self, seat: int, kind: ActionKind, applied: ActionKind, to: int,
                 status: ActionStatus, reason: str | None, ruling: Ruling | None,
                 requested: int | None = None) -> ActionRecord:
        bet = self.bet
        added = to - bet[seat]
        if added:  # `_put` of a live bet, inline: this runs on every call, bet and raise
            stack = self.stack[seat]
            put = added if added < stack else stack
            self.stack[seat] = stack - put
            self.contributed[seat] += put
            bet[seat] += put
        max_bet = self.max_bet
        if to > max_bet:
            if to >= min_raise_to(self.rules, max_bet, self.last_full, self.bb):
                # a full bet or raise reopens the betting
                self.last_full = full_raise_marker(self.rules, max_bet, to)
                self.full_seq += 1
                if self.restricted:
                    out_of_turn.lift_restrictions(self, seat)
            self.max_bet = max_bet = to
            aggressors = self.aggressors.get(self.street)
            if aggressors is None:
                self.aggressors[self.street] = [seat]
            else:
                aggressors.append(seat)
        self._acted[seat] = (self.full_seq, self.min_raise_to() if self._cumulative else 0, max_bet)
        rec = action_record(seat, kind, requested, status, applied, bet[seat], added, reason,
                            ruling, False, self.street)
        self.log.append(rec)
        self.time_call = None  # `_after_action`, inline
        nxt = self._next_to_act(seat)
        if nxt is None:
            self._close_round()
        else:
            self.to_act = nxt
        return rec

    def _after_action(self, seat: int) -> None:
        self.time_call = None
        nxt = self._next_to_act(seat)
        if nxt is None:
            self._close_round()
        else:
            self.to_act = nxt

    def kill_hand(self, seat: int, ruling: Ruling) -> RulingGiven:
        """A ruling made the seat's hand dead (time expired, late wake-up, TD decision)."""
        given = RulingGiven(ruling, self.street)
        self.log.append(given)
        was_to_act = seat == self.to_act
        self.pending.pop(seat, None)
        self.dark.pop(seat, None)
        if seat in self.live:
            self.live.discard(seat)
            if len(self.live) == 1:
                self._finish_uncontested()
            elif was_to_act:
                self._after_action(seat)
                if self.pending:
                    out_of_turn.resolve(self)
        return given

    # -- time -------------------------------------------------------------------------------

    def call_time(self, seat: int, now: float,
                  caller: TimeCaller = TimeCaller.PLAYER) -> timecall.TimeCall | Ruling:
        """Time is called on `seat` (who must be the one to act) at `now` seconds."""
        return timecall.call(self, seat, now, caller)

    def tick(self, now: float) -> list[RulingGiven]:
        """Advance the injected clock: a Time countdown that ran out kills the hand."""
        return timecall.tick(self, now)

    # -- streets and the end ----------------------------------------------------------------

    def deal_board(self, *cards: int | str) -> Street:
        """Board cards seen on the felt. A street's betting starts once its cards are out."""
        if self.result is not None:
            raise HandOver("the hand is over")
        if self.round_open:
            raise BettingRoundOpen(f"the {self.street} betting round is still open")
        board = self.board
        for c in cards:  # the usual spelling looked up, `parse_card` for the others
            card = _CARD_OF(c) if type(c) is str else None
            board.append(card if card is not None else parse_card(c) if isinstance(c, str) else c)
        size = len(board)
        street = _BOARD_STREET.get(size)
        if size > 5:
            raise HandSetupError("a hold'em board has five cards")
        if street is None or street is self.street:
            return self.street
        self.street = street
        self.bet.update(self._zeros)
        self.max_bet = 0
        self.last_full = 0
        self._open_round(self.positions.button)
        if self.dark:  # actions in the dark are rare: no call for nothing on every street
            out_of_turn.release_dark(self)
        return self.street

    def _finish_uncontested(self) -> None:
        self.round_open = False
        self.to_act = None
        self.time_call = None
        self._return_uncalled()
        self.result = showdown.uncontested(self, next(iter(self.live)))
        self.street = _COMPLETE

    def showdown(self, hole_cards: Mapping[int, Iterable[int | str] | None] | None = None,
                 board: Iterable[int | str] | None = None) -> HandResult:
        """Award every pot. Seats missing from `hole_cards` (or None) have mucked."""
        if self.result is not None:
            return self.result
        if self.round_open:
            raise BettingRoundOpen(f"the {self.street} betting round is still open")
        if board is not None:
            self.board = [parse_card(c) if isinstance(c, str) else c for c in board]
        self.result = showdown.award(self, hole_cards or {})
        self.street = _COMPLETE
        return self.result


def start_hand(
    ruleset_id: str,
    level: Level,
    button: int,
    stacks: Mapping[int, int],
    *,
    positions: Positions | None = None,
    game: Game = NLHE,
) -> Hand:
    """A new hand from the tournament's numbers; antes per player or on the big blind."""
    rules = get_ruleset(ruleset_id)
    players = {s: v for s, v in stacks.items() if v > 0}
    pos = positions or default_positions(button, players)
    antes: dict[int, int] = {}
    heads_up = len(players) == 2
    if level.ante and not (heads_up and rules.no_ante_heads_up):
        if level.bb_ante or rules.bb_ante:
            antes[pos.big_blind] = level.ante * len(players)  # cpt87 8.8
        else:
            antes = dict.fromkeys(players, level.ante)
    return Hand(rules, stacks=players, positions=pos, sb=level.sb, bb=level.bb, antes=antes, game=game)

