"""One table's game at the hub: the rules engine driven by what the table saw, and every ruling.

Consumes the table's facts (cards arriving in zones, panel actions, dealer presses, dealing faults)
and the hub's clock; runs `hub.rules` (betting, Time, showdown) and `hub.rulings` (dealing faults);
emits hub events (`spec/scenario.md` shapes: `action`, `fault`, `ruling`, `hand_end`...) and
commands for the table (hand context, betting state, rulings to remedy). Pure: the service does IO.
Beside it: `table_setup` (what it takes and gives back), `table_rulings` (the situation a fault is ruled
on, the TD's pending decisions), `shared_pot` (the chips of a void hand), `hand_cancel` (the TD's cancel),
`table_time` (Time called, its countdown, and the TD's wait that holds play: a part of the game).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from hub import rulebooks, rulings
from hub.room import table_rulings
from hub.room.hand_cancel import KIND as CANCEL_KIND
from hub.room.hand_cancel import cancel_ruling
from hub.room.shared_pot import void_stacks
from hub.room.table_setup import Event, Output, TableSetup
from hub.room.table_time import GRANT, TIME_REQUEST, TableTime
from hub.rules import (
    ActionRecord,
    ActionStatus,
    Hand,
    Positions,
    RulesError,
    RulingGiven,
    Street,
    refusals,
    start_hand,
)
from hub.rules import Decision as EngineDecision
from hub.rules import Ruling as EngineRuling
from hub.rules.game_file import get_game
from hub.rules.positions import clockwise, default_positions, next_positions
from hub.rules.records import FaultKind as EngineFaultKind
from tablewire import wire
from tablewire.faults import FaultDetected, FaultKind

log = logging.getLogger(__name__)

_BETTING_STREETS = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)
_STREET_CARDS = {0: 3, 3: 4, 4: 5}  # board cards the engine holds -> cards once the next street is out


class TableGame(TableTime):
    def __init__(self, table: str, setup: TableSetup, *, on_countdown: Callable[[str], object] | None = None) -> None:
        self.table = table
        # told the table's name when a Time countdown starts here: the owner's clock then asks this game
        # (`timing`) until it runs out, and no other (a festival's thousand tables, five times a second)
        self._on_countdown = on_countdown
        self.setup = setup
        self.ruleset = setup.ruleset
        self.level = setup.level
        self.stacks: dict[int, int] = {s: v for s, v in setup.players.items() if v > 0}
        # seat -> the player there when the dealer pressed "away" ("" where the game is not told who sits: a
        # cash table's): his seat stays away from hand to hand, told to the table in each hand's context
        self.away: dict[int, str] = {}
        self.hand_no = 0
        self.hand: Hand | None = None
        self.positions: Positions | None = None
        self._keep_positions = False  # a misdeal or a hand cancelled is dealt again: button and blinds stay
        self._dealt_dead: dict[int, str] = {}  # seat -> article: the floor deals this hand dead (absent, penalty)
        self._dead_at_start: frozenset[int] = frozenset()  # the seats of this hand the hub ruled dead as it began
        self.hole: dict[int, list[str]] = {}  # seat -> faces on its antenna, in arrival order
        self.board: list[str] = []  # faces on the board antenna, in arrival order
        self._last_seat: dict[str, int] = {}  # face -> last seat it lay on
        self.actions: list[str] = []  # voluntary actions since the deal (substantial action)
        self.closed: list[Street] = []
        self._faulty_board = False  # a board fault on the street being dealt: wait for the players
        self._logged = 0
        self._now = 0.0  # the hub's clock at the last tick or Time call
        self.pending_td: list[Event] = []
        self._dealt = False  # a card of the hand reached a seat or the board
        self._unconfirmed: set[str] = set()  # faces on the felt before the agent restarted, not reported since
        self._context: wire.HandContextCmd | None = None  # the last hand's context, sent again on a reconnect

    @property
    def in_hand(self) -> bool:
        return self.hand is not None and self.hand.result is None

    # -- hand lifecycle -------------------------------------------------------------------------

    def new_hand(self, now: float) -> Output:
        out = Output()
        if self.in_hand:
            out.extend(self._void("cancelled", "new hand pressed before the hand ended"))
        players = {s: v for s, v in self.stacks.items() if v > 0}
        if len(players) < 2:
            out.events.append(self._event("table_idle", reason="fewer than two players with chips"))
            return out
        game = get_game(self.setup.game or self.level.game)
        if len(players) * game.hole_cards + 8 > game.deck:  # hole cards, five board cards, three burns
            out.events.append(self._event("table_idle", reason=f"{game.name_en}: too many players for one deck "
                                          f"({len(players)} x {game.hole_cards} cards + 8)"))
            return out
        if self.positions is None:
            positions = default_positions(self.setup.button, players)
        elif self._keep_positions:
            positions = self.positions
        else:
            positions = next_positions(self.positions, players, self.setup.seats)
        self._keep_positions = False
        self.positions = positions
        self.hand_no += 1
        self.pending_td = []  # decisions of hands over are moot
        self.hand = start_hand(self.ruleset, self.level, positions.button, players, positions=positions,
                               game=game)
        dealt_dead = {s: a for s, a in self._dealt_dead.items() if s in players}
        self._dead_at_start = frozenset(dealt_dead)
        self.hole, self.board, self._last_seat, self._dealt = {}, [], {}, False
        self._unconfirmed = set()
        self.actions, self.closed, self._logged = [], [], len(self.hand.log)
        self._faulty_board = False
        first = clockwise(players, positions.button)[0]
        out.events.append(self._event(
            "hand_start", button=positions.button, small_blind=positions.small_blind,
            big_blind=positions.big_blind, level={"sb": self.level.sb, "bb": self.level.bb,
                                                  "ante": self.level.ante, "bb_ante": self.level.bb_ante},
            stacks={str(s): v for s, v in sorted(self.hand.stack.items())}, ruleset=self.ruleset,
            game=game.id))
        self._context = wire.HandContextCmd(
            hand=self.hand_no, seats=sorted(players), button=positions.button, first_to_deal=first,
            hole_cards=game.hole_cards, discards=game.discards,
            excluded_ranks=sorted(game.excluded_ranks),  # the four short-deck ranks (validated by the wire)
            small_blind=positions.small_blind, deck=self.decks[0], table_decks=list(self.decks),
            away=sorted((set(self.away) | set(dealt_dead)) & set(players)), table_seats=self.setup.seats,
            deadline=str(rulings.deadline(self.ruleset)), dealer=self.setup.dealer(positions.button))
        out.commands.append(self._context)
        for seat, article in sorted(dealt_dead.items()):
            # never to act: his blinds and antes are in, his cards are dealt and dead (cdc 5.1, 12.2)
            if seat in self.hand.live and self.hand.result is None:
                self.hand.kill_hand(seat, EngineRuling(EngineDecision.HAND_DEAD, article, seat,
                                                       EngineFaultKind.ABSENT_PLAYER))
        return out.extend(self._after_engine())

    def deal_hand(self, hand_no: int, setup: TableSetup, positions: Positions, now: float,
                  dead: Mapping[int, str] | None = None) -> Output:
        """Start hand `hand_no` exactly as the floor says: who sits here now (after moves and
        eliminations), the level, the button and blinds it recorded (dead button, redeal), and the seats
        it deals dead (`dead`: seat -> article; a player not arrived yet, a penalty), whose hands are
        dead from the start: blinds and antes taken, never asked to act."""
        self.setup, self.ruleset, self.level = setup, setup.ruleset, setup.level
        self._dealt_dead = dict(dead or {})
        self.stacks = {s: v for s, v in setup.players.items() if v > 0}
        self.hand_no = hand_no - 1
        self.positions, self._keep_positions = positions, True
        return self.new_hand(now)

    @property
    def replays_hand(self) -> bool:
        """The last hand ended void and is dealt again with the same button and blinds: a misdeal
        (cdc 7.1), or a hand cancelled with every bet returned (cdc 6.3 « un coup annulé doit être
        intégralement rejoué »). A hand whose pot was shared counts as played."""
        return self._keep_positions

    @property
    def decks(self) -> tuple[str, str]:
        return self.setup.decks or wire.table_deck_ids(self.table)

    # -- facts from the table -------------------------------------------------------------------

    def card(self, event: wire.CardEvent) -> Output:
        face = event.card
        if face is None or not self.in_hand:
            return Output()
        zone = event.zone
        self._dealt |= event.type == "card_arrived" and (zone == "board" or zone.startswith("seat:"))
        if face in self._unconfirmed:  # reported again by the restarted agent: where it lies now counts
            self._unconfirmed.discard(face)
            at = self.board.index(face) if face in self.board else None
            for cards in [*self.hole.values(), self.board]:
                if face in cards:
                    cards.remove(face)
            if event.type == "card_arrived" and zone == "board" and at is not None and self.hand is not None \
                    and at < len(self.hand.board):
                self.board.insert(at, face)  # a board card the engine holds: back in its place
                return Output()
        if zone.startswith("seat:"):
            seat = int(zone[5:])
            cards = self.hole.setdefault(seat, [])
            if event.type == "card_arrived":
                cards.append(face)
                self._last_seat[face] = seat
            elif face in cards:
                cards.remove(face)
            return Output()
        if zone == "board":
            if event.type == "card_arrived":
                self.board.append(face)
                if self._faulty_board:
                    return self._face_up_board()
                return self._feed_board()
            if face in self.board:
                self.board.remove(face)
            return Output()
        if zone == "muck" and event.type == "card_arrived":
            last = self._last_seat.get(face)
            assert self.hand is not None
            if last is not None and not self.hole.get(last) and last in self.hand.live:
                return self._mucked(last)
        return Output()

    def action(self, seat: int, action: str, to: int | None) -> Output:
        if not self.in_hand:
            return Output([self._event("action", seat=seat, action=action, to=to, status="rejected",
                                       reason="no hand in progress", message=refusals.message("no_hand"))])
        if self.waiting_td:
            return Output([self._event("action", seat=seat, action=action, to=to, status="rejected",
                                       reason="waiting for the TD's decision", message=refusals.message("td_wait"))])
        return self._act(seat, action, to, via="panel")

    def dealer(self, button: str, seat: int | None, now: float, *, who: str = "") -> Output:
        """A dealer's press; `who`: the player seated at `seat` (the floor's), whose seat an "away" is."""
        if button == "new_hand":
            return self.new_hand(now)
        if seat is None:
            return Output([self._event("dealer_refused", button=button, reason="no seat given")])
        if button == "away":
            self.away[seat] = who
            return Output([self._event("seat", seat=seat, state="away")]).extend(self._left_the_table(seat))
        if button == "back":
            self.away.pop(seat, None)
            return Output([self._event("seat", seat=seat, state="back")])
        return self._call_time(seat, now)

    def fault(self, fault: wire.FaultSeen) -> Output:
        if self.hand is None or fault.hand != self.hand_no:
            return Output()  # a late fact from a hand already over
        if fault.kind == FaultKind.OUT_OF_TURN:
            return Output()  # the engine rules actions out of turn (it knows what is pending)
        if fault.kind == FaultKind.ABSENT_PLAYER and fault.seat in self._dead_at_start:
            # the floor dealt him dead (not arrived, a penalty) and the hub ruled it as the hand began: the table
            # seeing his seat away at the deadline card is that ruling, told to the table, not a new incident
            return Output(commands=[wire.RulingCmd(hand=self.hand_no, kind=fault.kind, decision="hand_dead",
                                                   seat=fault.seat, cards=[], dead_seats=[fault.seat])])
        if fault.kind in table_rulings.BOARD_FAULTS:
            self._faulty_board = True  # the remedy reshapes the board: feed it at the first action
        detected = FaultDetected(kind=FaultKind(fault.kind), hand=fault.hand, seat=fault.seat,
                                 cards=tuple(fault.cards), at=fault.at, details=dict(fault.details))
        ruling = rulings.rule(detected, self.ruleset, table_rulings.situation(self.hand, self.ruleset, self.actions,
                                                                              detected))
        described = table_rulings.ruling_dict(ruling, self.setup.lang)
        joins = ruling.decision is rulings.Decision.TD_DECISION and self._pending(fault.kind) is not None
        if joins:
            described["joins"] = True  # the same fault again while the TD decides: his one decision covers it
        out = Output([self._event("fault", kind=fault.kind, seat=fault.seat, cards=list(fault.cards),
                                  ruling=described)])
        out.commands.append(wire.RulingCmd(hand=self.hand_no, kind=fault.kind, decision=str(ruling.decision),
                                           seat=ruling.seat, cards=list(ruling.cards),
                                           dead_seats=list(ruling.dead_seats)))
        if ruling.decision is rulings.Decision.TD_DECISION:
            if not joins:
                self.pending_td.append(out.events[-1])
                out.extend(self._after_engine())  # the table stops and says so until the TD decides
            return out
        return out.extend(self._apply_ruling(ruling))

    def _pending(self, kind: str, option: str | None = None) -> Event | None:
        return table_rulings.pending_decision(self.pending_td, self.hand_no, kind, option)

    def can_decide(self, kind: str, option: str) -> bool:
        """`decide(kind, option)` would be carried out (not refused)."""
        pending = self._pending(kind, option) if self.in_hand else None
        return pending is not None and option in pending["ruling"].get("options", []) and (
            option != GRANT or pending.get("kind") != TIME_REQUEST or self._cannot_grant(pending) is None)

    def _refused(self, kind: str, option: str, reason: str) -> Output:
        return Output([table_rulings.decision_refused(self.table, kind, option, reason, hand=self.hand_no)])

    def decide(self, kind: str, option: str, by: str, now: float | None = None) -> Output:
        """The TD settled a `td_decision` (on the dashboard): the chosen decision is applied as a ruling.
        `now`: the hub's clock when he decided (a Time he grants counts from then; None: the last tick)."""
        pending = self._pending(kind, option) if self.in_hand else None
        if pending is None:
            return self._refused(kind, option, "no decision pending for the TD in this hand")
        offered = pending["ruling"].get("options", [])
        if option not in offered:
            return self._refused(kind, option, f"the ruling offered {', '.join(offered)}")
        if pending.get("kind") == TIME_REQUEST:
            why = self._cannot_grant(pending) if option == GRANT else None
            if why is not None:
                return self._refused(kind, option, why)
            return self._decide_time(pending, option, by, self._now if now is None else now)
        self.pending_td.remove(pending)
        self._time_ends_with_td()
        kind = str(pending["kind"])
        ruling = table_rulings.td_ruling(pending, option, self.ruleset, self.hand_no)
        out = Output([self._event("ruling", seat=ruling.seat, kind=kind, decision=option, article=ruling.article,
                                  by=by)])
        out.commands.append(wire.RulingCmd(hand=self.hand_no, kind=kind, decision=option, seat=ruling.seat,
                                           cards=list(ruling.cards), dead_seats=list(ruling.dead_seats)))
        out.extend(self._apply_ruling(ruling))
        if self.in_hand and not any(isinstance(c, wire.BettingCmd) for c in out.commands):
            out.extend(self._after_engine())  # play resumes: the table is told at once
        return out

    # -- the engine ----------------------------------------------------------------------------

    def _act(self, seat: int, action: str, to: int | None, *, via: str) -> Output:
        hand = self.hand
        assert hand is not None
        out = self._feed_board()
        round_was_open = hand.round_open
        try:
            hand.act(seat, action, to)
        except RulesError as err:
            out.events.append(self._event("action", seat=seat, action=action, to=to, status="rejected",
                                          reason=str(err), message=refusals.message("refused")))
            return out
        if self._faulty_board and round_was_open and not hand.round_open and len(self.board) == len(hand.board):
            # the faulty street bet out with the felt's board the engine's: the fault's remedy is done, the
            # next street is fed as its cards land (the lights show who speaks), not at its first action
            self._faulty_board = False
        if action != "fold" or via == "panel":
            self.actions.append(action)
        return out.extend(self._after_engine(via=via))

    def _left_the_table(self, seat: int) -> Output:
        """A player who leaves the table with a live hand sees it thrown, unless he is all-in
        (cdc 5.1, cpt87 5.1 « verra sa main jetée automatiquement sauf s'il est à tapis »; the
        others are silent and follow cdc). His blinds and bets stay in the pot."""
        hand = self.hand
        if hand is None or hand.result is not None or seat not in hand.live or hand.stack.get(seat, 0) == 0:
            return Output()
        text = rulebooks.seed_of(self.ruleset)  # a club's file: the text it inherits says it
        article = f"{text} 5.1" if text in ("cdc-2013", "cpt87") else f"cdc-2013 5.1 ({text} silent)"
        out = self._feed_board()
        hand.kill_hand(seat, EngineRuling(EngineDecision.HAND_DEAD, article, seat, EngineFaultKind.ABSENT_PLAYER))
        return out.extend(self._after_engine())

    def _mucked(self, seat: int) -> Output:
        """Cards thrown in: a fold during a betting round (out of turn: binding); between rounds
        the hand is dead all the same (cdc 9.4: a hand thrown face down is dead)."""
        hand = self.hand
        assert hand is not None
        out = self._feed_board()
        if hand.round_open:
            return out.extend(self._act(seat, "fold", None, via="muck"))
        text = rulebooks.seed_of(self.ruleset)
        article = "cdc-2013 9.4" if text == "cdc-2013" else f"cdc-2013 9.4 ({text} silent)"
        hand.kill_hand(seat, EngineRuling(EngineDecision.HAND_DEAD, article, seat))
        return out.extend(self._after_engine(via="muck"))

    def _feed_board(self) -> Output:
        """Board cards reach the engine once a street's cards are out (so the LEDs show who speaks
        first), or, after a board fault, when the street's first action or Time comes: the
        remedy (burn designated, premature card taken back) reshapes the board on the felt first.
        The table sends a fault before the card that revealed it, so it is known in time."""
        hand = self.hand
        assert hand is not None
        out = Output()
        while not hand.round_open and hand.result is None and hand.street in _BETTING_STREETS:
            need = _STREET_CARDS.get(len(hand.board))
            if need is None or len(self.board) < need:
                break
            hand.deal_board(*self.board[len(hand.board):need])
            self._faulty_board = False
            out.extend(self._after_engine())
        return out

    def _face_up_board(self) -> Output:
        """No more betting possible (all-in): the board runs out, then the showdown."""
        hand = self.hand
        if hand is None or not hand.cards_face_up:
            return Output()
        return self._feed_board()

    def _after_engine(self, via: str = "panel") -> Output:
        """Publish what the engine logged since last time, then the betting state or the hand's end."""
        hand = self.hand
        assert hand is not None
        out = Output()
        for entry in hand.log[self._logged:]:
            if isinstance(entry, ActionRecord):
                out.events += self._action_events(entry, via)
            elif isinstance(entry, RulingGiven) and entry.ruling.kind == "time_expired":
                out.extend(self._time_expired(entry.ruling))
            elif isinstance(entry, RulingGiven) and entry.ruling.decision is EngineDecision.TD_DECISION:
                out.events.append(self._engine_td_decision(entry.ruling))
            elif isinstance(entry, RulingGiven):  # a ruling that changed after its fault
                out.events.append(self._event("ruling", seat=entry.ruling.seat, kind=entry.ruling.kind,
                                              decision=str(entry.ruling.decision), article=entry.ruling.article))
        self._logged = len(hand.log)
        for street in _BETTING_STREETS:
            if street not in self.closed and self._street_closed(street):
                self.closed.append(street)
        out.extend(self._showdown_if_due())
        if hand.result is not None:
            return out
        out.extend(self._time_request_lapsed())
        call = hand.time_call
        legal = hand.legal() if hand.round_open and hand.to_act is not None else None
        to_call = legal.call_amount if legal is not None else 0
        # pot-limit: the most `to_act` may bet or raise to, for the dealer's display
        max_to = legal.max_raise_to if legal is not None and legal.can_raise and hand.pot_limit_to(
            legal.seat) is not None else None
        out.commands.append(wire.BettingCmd(
            hand=self.hand_no, street=str(hand.street), open=hand.round_open, to_act=hand.to_act,
            closed=[str(s) for s in self.closed], to_call=to_call, opened=hand.max_bet > 0, max_to=max_to,
            time_seat=call.seat if call else None,
            time_left=max(0.0, call.expires_at - self._now) if call else None, td_wait=self.waiting_td))
        return out

    def _engine_td_decision(self, ruling: EngineRuling) -> Event:
        """A betting fault the ruleset leaves to the TD (pouques 70: a late wake-up): raised as a fault
        he decides, like a dealing one; until then the table waits."""
        kind = str(ruling.kind) if ruling.kind else "out_of_turn"
        described: dict[str, Any] = {"decision": str(ruling.decision), "article": ruling.article, "seat": ruling.seat,
                                     "cards": [], "options": list(ruling.options)}
        event = self._event("fault", kind=kind, seat=ruling.seat, cards=[], ruling=described)
        if self._pending(kind) is None:
            self.pending_td.append(event)
        else:
            described["joins"] = True
        return event

    def _street_closed(self, street: Street) -> bool:
        hand = self.hand
        assert hand is not None
        order = list(_BETTING_STREETS)
        current = hand.street
        if current in (Street.SHOWDOWN, Street.COMPLETE) or hand.cards_face_up:
            return True
        return order.index(street) < order.index(current) or (street is current and not hand.round_open)

    def _showdown_if_due(self) -> Output:
        hand = self.hand
        assert hand is not None
        if hand.result is None and hand.street is Street.SHOWDOWN and len(hand.board) == 5:
            hand.showdown({s: self.hole.get(s) or None for s in hand.live})
        if hand.result is None:
            return Output()
        result = hand.result.to_dict()
        self.stacks.update(hand.result.stacks)
        self.pending_td = []  # the hand is over: nothing left to decide
        out = Output([self._event("hand_end", result=result["result"], stacks=self._all_stacks(),
                                  pots=result["pots"], board=list(self.board[:5]))])
        out.commands.append(wire.HandOverCmd(hand=self.hand_no, result=str(result["result"])))
        return out

    def _action_events(self, rec: ActionRecord, via: str) -> list[Event]:
        d = rec.to_dict()
        event = self._event("action", seat=rec.seat, action=d["action"], to=d["to"], status=d["status"],
                            reason=d["reason"], applied=d["applied"], amount=d["amount"], street=d["street"],
                            pending=d["pending"], via=via)
        events = [event]
        if rec.status is ActionStatus.REJECTED:
            event["message"] = refusals.message(rec.reason)
            hand = self.hand
            if rec.reason == "above_pot_limit" and hand is not None and hand.to_act == rec.seat:
                event["max_to"] = hand.legal(rec.seat).max_raise_to  # the pot, as the dealer announces it
        if rec.ruling is not None:
            event["ruling"] = rec.ruling.to_dict()
            kind = str(rec.ruling.kind) if rec.ruling.kind else None
            # An out-of-turn action is a fault when it is held; applied later, its event says so.
            if kind == "insufficient_bet" or (kind == "out_of_turn" and rec.pending):
                events.append(self._event("fault", kind=kind, seat=rec.seat, cards=[],
                                          ruling=rec.ruling.to_dict()))
        return events

    # -- rulings ---------------------------------------------------------------------------------

    def _apply_ruling(self, ruling: rulings.Ruling) -> Output:
        hand = self.hand
        assert hand is not None
        void = table_rulings.VOID.get(ruling.decision)
        if void is not None:
            self._keep_positions = ruling.decision is not rulings.Decision.HAND_CANCELLED_POT_SPLIT
            split = ruling.decision is rulings.Decision.HAND_CANCELLED_POT_SPLIT
            return self._void(void, ruling.article, split=split)
        out = Output()
        for seat in ruling.dead_seats:
            if seat in hand.live and hand.result is None:
                hand.kill_hand(seat, EngineRuling(EngineDecision.HAND_DEAD, ruling.article, seat))
        if ruling.dead_seats:
            out.extend(self._after_engine())
        return out

    def cancel(self, by: str) -> Output:
        """The TD cancels the hand in progress (a table blocked mid-hand): the ruleset's cancelled
        hand decides the chips (`hub.room.hand_cancel`), cited in the ruling."""
        if not self.in_hand:
            return Output([self._event("cancel_refused", by=by, reason="no hand in progress")])
        ruling = cancel_ruling(self.ruleset)
        self._keep_positions = not ruling.split  # cancelled with every bet returned: dealt again
        out = Output([self._event("ruling", seat=None, kind=CANCEL_KIND, by=by, **ruling.to_dict())])
        return out.extend(self._void("cancelled", f"cancelled by the TD ({by})", split=ruling.split))

    @property
    def felt_cleared(self) -> bool:
        """The hand is in progress, it was dealt, and none of its cards lies on the felt any more (seats
        and board): the dealer gave it up (the hub was silent, the hand could not go on) and cleared it."""
        confirmed = [c for c in [*(c for cards in self.hole.values() for c in cards), *self.board]
                     if c not in self._unconfirmed]
        return self.in_hand and self._dealt and not confirmed

    @property
    def undealt(self) -> bool:
        """The hand is in progress and none of its cards reached a seat or the board yet."""
        return self.in_hand and not self._dealt

    def dealt_again(self) -> Output:
        """"New hand" pressed again before any card of the hand in progress was dealt (its context lost
        with a broker that restarted, presses queued while the hub was away, a bounced button): nothing
        was dealt, so nothing is ruled; the blinds go back and the hand is dealt again, same button."""
        if not self.undealt:
            return Output()
        self._keep_positions = True
        return self._void("cancelled", "new hand pressed again before any card was dealt")

    def given_up(self, by: str = "dealer") -> Output:
        """The felt was cleared before the hand ended and "new hand" pressed: no board and no hand is
        discernible any more, so the hand is cancelled and every bet returned (cdc-2013 8.6 « la main
        est annulée et toutes les enchères restituées »; brest-2011, pouques-2020, pcpm and cpt87 are
        silent on a board removed and follow cdc). Dealt again from the same button (cdc 6.3)."""
        if not self.in_hand:
            return Output()
        ruling = table_rulings.felt_cleared_ruling(self.ruleset, self.hand_no)
        article, decision = ruling.article, ruling.decision
        self._keep_positions = True
        out = Output([self._event("ruling", seat=None, kind=str(FaultKind.BOARD_REMOVED), decision=str(decision),
                                  article=article, by=by, why="felt_cleared", text=ruling.text("fr"),
                                  text_en=ruling.text("en"))])
        out.commands.append(wire.RulingCmd(hand=self.hand_no, kind=str(FaultKind.BOARD_REMOVED),
                                           decision=str(decision)))
        return out.extend(self._void("cancelled", f"felt cleared before the hand ended ({article})"))

    def felt_reported_afresh(self) -> None:
        """The table's agent restarted: it reports every card it sees again. Until it does, the cards of
        the hand stay where they were (a hand goes on, its showdown reads them), but do not count as on
        the felt: an empty felt and "new hand" is a hand given up (`felt_cleared`). A card reported again
        is taken where it lies now, never twice."""
        self._unconfirmed = {c for cards in self.hole.values() for c in cards} | set(self.board)

    def resend(self) -> Output:
        """What the table needs again when it comes back (a clean MQTT session loses what was sent while
        it was away): the betting state, and the hand's context while no card of the hand was dealt (a
        table that dealt one had it; an agent that restarted since ignores the betting of a hand it does
        not know, and its dealer gives that hand up: `given_up`). Nothing between hands."""
        context = self._context
        if not self.in_hand or context is None or context.hand != self.hand_no:
            return Output()
        out = Output(commands=[] if self._dealt else [context])
        logged = self._logged
        out.extend(self._after_engine())  # nothing new logged: the betting state alone
        self._logged = logged
        out.events = []
        return out

    def _void(self, result: str, why: str, *, split: bool = False) -> Output:
        """Misdeal or cancelled hand: chips go back (or the pot is shared among live hands)."""
        hand = self.hand
        assert hand is not None
        stacks, pots = void_stacks(hand, split=split)
        hand.result = None
        self.stacks.update(stacks)
        self.hand = None
        self.pending_td = [e for e in self.pending_td if e.get("hand") != self.hand_no]  # moot now
        out = Output([self._event("hand_end", result=result, stacks=self._all_stacks(), pots=pots, why=why)])
        out.commands.append(wire.HandOverCmd(hand=self.hand_no, result=result))
        return out

    def _all_stacks(self) -> dict[str, int]:
        return {str(s): v for s, v in sorted(self.stacks.items())}

    def _event(self, event_type: str, /, **fields: Any) -> Event:
        return wire.hub_event(self.table, event_type, hand=self.hand_no, **fields)
