"""One table's game at the hub: the rules engine driven by what the table saw, and every ruling.

Consumes the table's facts (cards arriving in zones, panel actions, dealer presses, dealing faults)
and the hub's clock; runs `hub.rules` (betting, Time, showdown) and `hub.rulings` (dealing faults);
emits hub events (`spec/scenario.md` shapes: `action`, `fault`, `ruling`, `hand_end`...) and
commands for the table (hand context, betting state, rulings to remedy). Pure: the service does IO.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hub import rulebooks, rulings
from hub.room.hand_cancel import KIND as CANCEL_KIND
from hub.room.hand_cancel import cancel_ruling
from hub.rules import (
    ActionRecord,
    ActionStatus,
    Hand,
    Level,
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
from hub.rules.pots import build_pots, split_pot
from hub.rules.records import FaultKind as EngineFaultKind
from hub.rules.rulesets import OddChips, TimeCaller, get_ruleset
from hub.rules.timecall import TimeCall
from tablewire import wire
from tablewire.faults import FaultDetected, FaultKind

log = logging.getLogger(__name__)

Event = dict[str, Any]
Command = wire.AnyCommand
_BETTING_STREETS = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)
_STREET_CARDS = {0: 3, 3: 4, 4: 5}  # board cards the engine holds -> cards once the next street is out
_BOARD_FAULTS = frozenset({
    FaultKind.FLOP_WITHOUT_BURN, FaultKind.FLOP_TWO_BURNS, FaultKind.FLOP_FOUR_CARDS, FaultKind.PREMATURE_FLOP,
    FaultKind.TURN_WITHOUT_BURN, FaultKind.RIVER_WITHOUT_BURN, FaultKind.PREMATURE_TURN,
    FaultKind.PREMATURE_RIVER, FaultKind.BOARD_REMOVED,
})
_VOID = {
    rulings.Decision.MISDEAL: "misdeal",
    rulings.Decision.HAND_CANCELLED_BETS_RETURNED: "cancelled",
    rulings.Decision.HAND_CANCELLED_POT_SPLIT: "cancelled",
}


@dataclass(frozen=True)
class TableSetup:
    """What the floor tells the hub about a table: the ruleset, the level, the button, the players."""

    players: Mapping[int, int]  # seat -> stack
    button: int
    level: Level = Level(50, 100)
    ruleset: str = rulings.DEFAULT_RULESET
    seats: int = 10
    decks: tuple[str, str] | None = None  # the table's two deck ids; None: `wire.table_deck_ids`
    lang: str = "fr"
    croupier: bool | None = None  # None: as the ruleset's rooms do (pouques: croupiers; others: players)
    game: str | None = None  # hub/rules/games.toml (nlhe, plo, plo5, short_deck...); None: the level's

    def __post_init__(self) -> None:
        get_ruleset(self.ruleset)  # UnknownRuleset (a KeyError) names the known ids
        get_game(self.game or self.level.game)  # UnknownGame (a ValueError) names the known ids
        if len([s for s, v in self.players.items() if v > 0]) < 2:
            raise ValueError("a table needs at least two players with chips")
        if any(not 1 <= s <= self.seats for s in self.players):
            raise ValueError(f"players' seats must be within 1..{self.seats}")


@dataclass
class Output:
    events: list[Event] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)

    def extend(self, other: Output) -> Output:
        self.events += other.events
        self.commands += other.commands
        return self


class TableGame:
    def __init__(self, table: str, setup: TableSetup) -> None:
        self.table = table
        self.setup = setup
        self.ruleset = setup.ruleset
        self.level = setup.level
        self.stacks: dict[int, int] = {s: v for s, v in setup.players.items() if v > 0}
        self.away: set[int] = set()
        self.hand_no = 0
        self.hand: Hand | None = None
        self.positions: Positions | None = None
        self._keep_positions = False  # a misdeal or a hand cancelled is dealt again: button and blinds stay
        self._dealt_dead: dict[int, str] = {}  # seat -> article: the floor deals this hand dead (absent, penalty)
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

    @property
    def waiting_td(self) -> bool:
        """A fault of this hand is left to the TD and not yet decided: play at the table stops (no
        action, no Time) until he does, from the dashboard or `tapis tournament`."""
        return self.in_hand and any(e.get("hand") == self.hand_no for e in self.pending_td)

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
            away=sorted((self.away | set(dealt_dead)) & set(players)), table_seats=self.setup.seats,
            deadline=str(rulings.deadline(self.ruleset)), dealer=self._dealer(positions))
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

    def _dealer(self, positions: Positions) -> int | None:
        """Dealerless rooms: the player on the button deals (cdc, brest, pcpm, cpt87)."""
        croupier = self.setup.croupier
        if croupier is None:  # a club's file follows the rooms of the text it inherits
            croupier = rulebooks.seed_of(self.ruleset) == "pouques-2020"
        return None if croupier else positions.button

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

    def dealer(self, button: str, seat: int | None, now: float) -> Output:
        if button == "new_hand":
            return self.new_hand(now)
        if seat is None:
            return Output([self._event("dealer_refused", button=button, reason="no seat given")])
        if button == "away":
            self.away.add(seat)
            return Output([self._event("seat", seat=seat, state="away")]).extend(self._left_the_table(seat))
        if button == "back":
            self.away.discard(seat)
            return Output([self._event("seat", seat=seat, state="back")])
        return self._call_time(seat, now)

    def fault(self, fault: wire.FaultSeen) -> Output:
        if self.hand is None or fault.hand != self.hand_no:
            return Output()  # a late fact from a hand already over
        if fault.kind == FaultKind.OUT_OF_TURN:
            return Output()  # the engine rules actions out of turn (it knows what is pending)
        if fault.kind in _BOARD_FAULTS:
            self._faulty_board = True  # the remedy reshapes the board: feed it at the first action
        detected = FaultDetected(kind=FaultKind(fault.kind), hand=fault.hand, seat=fault.seat,
                                 cards=tuple(fault.cards), at=fault.at, details=dict(fault.details))
        ruling = rulings.rule(detected, self.ruleset, self._situation(detected))
        described = self._ruling_dict(ruling)
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
        """The TD's undecided decision on `kind` in this hand, if any; `kind` empty: the oldest one that
        offers `option` (the TD named only what he decided)."""
        if not kind:
            return next((e for e in self.pending_td if e.get("hand") == self.hand_no
                         and option in e["ruling"].get("options", [])), None)
        return next((e for e in reversed(self.pending_td) if e.get("kind") == kind and e.get("hand") == self.hand_no),
                    None)

    def can_decide(self, kind: str, option: str) -> bool:
        """`decide(kind, option)` would be carried out (not refused)."""
        pending = self._pending(kind, option) if self.in_hand else None
        return pending is not None and option in pending["ruling"].get("options", [])

    def decide(self, kind: str, option: str, by: str) -> Output:
        """The TD settled a `td_decision` (on the dashboard): the chosen decision is applied as a ruling."""
        pending = self._pending(kind, option) if self.in_hand else None
        if pending is None:
            return Output([self._event("decision_refused", kind=kind, option=option,
                                       reason="no decision pending for the TD in this hand")])
        offered = pending["ruling"].get("options", [])
        if option not in offered:
            return Output([self._event("decision_refused", kind=kind, option=option,
                                       reason=f"the ruling offered {', '.join(offered)}")])
        self.pending_td.remove(pending)
        kind = str(pending["kind"])
        ruling = rulings.Ruling(
            decision=rulings.Decision(option), article=f"{pending['ruling']['article']} (TD)", ruleset=self.ruleset,
            kind=FaultKind(kind), hand=self.hand_no, seat=pending.get("seat"), cards=tuple(pending.get("cards", ())),
            dead_seats=(pending["seat"],) if option == "hand_dead" and pending.get("seat") else ())
        out = Output([self._event("ruling", seat=ruling.seat, kind=kind, decision=option, article=ruling.article,
                                  by=by)])
        out.commands.append(wire.RulingCmd(hand=self.hand_no, kind=kind, decision=option, seat=ruling.seat,
                                           cards=list(ruling.cards), dead_seats=list(ruling.dead_seats)))
        out.extend(self._apply_ruling(ruling))
        if self.in_hand and not any(isinstance(c, wire.BettingCmd) for c in out.commands):
            out.extend(self._after_engine())  # play resumes: the table is told at once
        return out

    def tick(self, now: float) -> Output:
        self._now = now
        if not self.in_hand:
            return Output()
        assert self.hand is not None
        if not self.hand.tick(now):
            return Output()  # nothing happened: the table is not told the same state again
        return self._after_engine()

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
                out.events.append(self._event("fault", kind="time_expired", seat=entry.ruling.seat, cards=[],
                                              ruling=entry.ruling.to_dict()))
                # the table carries it out too: the seat's light at fault, the dealer mucks that hand
                out.commands.append(wire.RulingCmd(hand=self.hand_no, kind="time_expired",
                                                   decision=str(entry.ruling.decision), seat=entry.ruling.seat))
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

    def _call_time(self, seat: int, now: float) -> Output:
        hand = self.hand
        if hand is None or hand.result is not None:
            return Output([self._event("time_refused", seat=seat, reason="no hand in progress",
                                       message=refusals.message("no_hand"))])
        self._now = now
        if self.waiting_td:
            return Output([self._event("time_refused", seat=seat, reason="waiting for the TD's decision",
                                       message=refusals.message("td_wait"))])
        out = self._feed_board()
        try:
            called = hand.call_time(seat, now, TimeCaller.PLAYER)
        except RulesError as err:
            why = "time_not_to_act" if not hand.round_open or seat != hand.to_act else "time_not_allowed"
            out.events.append(self._event("time_refused", seat=seat, reason=str(err), message=refusals.message(why)))
            return out
        if isinstance(called, TimeCall):
            out.events.append(self._event("time", seat=seat, countdown_at=called.countdown_at,
                                          expires_at=called.expires_at, article=called.article))
        else:
            out.events.append(self._event("ruling", seat=seat, decision=str(called.decision),
                                          article=called.article, options=list(called.options)))
        return out.extend(self._after_engine())

    # -- rulings ---------------------------------------------------------------------------------

    def _situation(self, fault: FaultDetected) -> rulings.Situation:
        hand = self.hand
        assert hand is not None
        return rulings.Situation(
            substantial_action=rulings.is_substantial(self.ruleset, self.actions),
            betting_possible=hand.round_open or not hand.cards_face_up,
            rounds_open=(str(hand.street),) if hand.round_open else (),
            live_seats=tuple(sorted(hand.live)),
            committed=dict(hand.contributed),
            pot_opened=hand.max_bet > 0 and hand.street is not Street.PREFLOP,
            recoverable=not (fault.kind is FaultKind.MIXED_DECKS and self._has_acted(fault.seat)),
        )

    def _has_acted(self, seat: int | None) -> bool:
        """The seat played with the cards it holds: a card of the other deck read only now (an
        antenna missed it when dealt) was in an action, so the hand is no longer recoverable (cdc 6.4)."""
        hand = self.hand
        assert hand is not None
        return seat is not None and any(
            isinstance(e, ActionRecord) and e.seat == seat and e.status is not ActionStatus.REJECTED
            for e in hand.log)

    def _apply_ruling(self, ruling: rulings.Ruling) -> Output:
        hand = self.hand
        assert hand is not None
        void = _VOID.get(ruling.decision)
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
        article = next(a for _, a in rulings.clauses_for(FaultKind.BOARD_REMOVED, self.ruleset))
        decision = rulings.Decision.HAND_CANCELLED_BETS_RETURNED
        self._keep_positions = True
        ruling = rulings.Ruling(decision=decision, article=article, ruleset=self.ruleset,
                                kind=FaultKind.BOARD_REMOVED, hand=self.hand_no, seat=None, cards=())
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
        stacks = dict(hand.starting_stacks)
        pots: list[dict[str, Any]] = []
        if split:
            # The unfinished round goes back; the pot of finished rounds is shared by the live hands
            # (brest III.11, cpt87 6.4). A round whose betting is over is finished, even before the
            # next street's first card: its bets and the folded players' blinds stay in the pot.
            unfinished = hand.bet if hand.round_open else dict.fromkeys(hand.seats, 0)
            finished = {s: hand.contributed[s] - unfinished[s] for s in hand.seats}
            for s in hand.seats:
                stacks[s] -= finished[s]
            # Each pot to the live hands that may win it: an all-in player shares the main pot only.
            live = clockwise(hand.live, hand.positions.button)
            for amount, eligible in build_pots(finished, live, hand.dead, hand.ante_capped):
                sharing = [s for s in live if s in eligible]
                for seat, share in split_pot(amount, sharing, hand.rules.odd_chips is OddChips.ONE_EACH):
                    stacks[seat] += share
                pots.append({"amount": amount, "winners": sharing})
            if not pots:
                pots = [{"amount": 0, "winners": live}]
        hand.result = None
        self.stacks.update(stacks)
        self.hand = None
        self.pending_td = [e for e in self.pending_td if e.get("hand") != self.hand_no]  # moot now
        out = Output([self._event("hand_end", result=result, stacks=self._all_stacks(), pots=pots, why=why)])
        out.commands.append(wire.HandOverCmd(hand=self.hand_no, result=result))
        return out

    def _ruling_dict(self, ruling: rulings.Ruling) -> dict[str, Any]:
        d: dict[str, Any] = {"decision": str(ruling.decision), "article": ruling.article, "seat": ruling.seat,
                             "cards": list(ruling.cards)}
        if ruling.dead_seats:
            d["dead_seats"] = list(ruling.dead_seats)
        if ruling.options:
            d["options"] = [str(o) for o in ruling.options]
        if ruling.refunds:
            d["refunds"] = {str(s): v for s, v in ruling.refunds.items()}
        d["text"] = ruling.text(self.setup.lang)
        return d

    def _all_stacks(self) -> dict[str, int]:
        return {str(s): v for s, v in sorted(self.stacks.items())}

    def _event(self, event_type: str, /, **fields: Any) -> Event:
        return wire.hub_event(self.table, event_type, hand=self.hand_no, **fields)
