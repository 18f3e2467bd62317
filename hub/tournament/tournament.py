"""The tournament aggregate: TD commands and table facts in, event records out (hub, floor).

Every command validates, emits frozen events (`events.py`) and applies them to `FloorState`;
`Tournament.replay(events)` rebuilds the same state. The hub calls `hand_started` /
`hand_ended` per table, publishes `snapshot(now)` and sends `pending_moves()` to the tables.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping

from hub.tournament import days, entries, floor, hands, seating, td_moves
from hub.tournament.clock import ClockHistory, ClockState
from hub.tournament.errors import ClockError, FloorError, RegistrationError, table_label
from hub.tournament.events import (
    JSON,
    ActionReverted,
    ButtonDrawn,
    ChipsColouredUp,
    ClockPaused,
    DealAgreed,
    EliminationAsked,
    Event,
    HandEnded,
    HandForHandEnded,
    HandForHandStarted,
    HandStarted,
    MoveAsked,
    MoveConfirmed,
    MoveOrdered,
    PenaltyGiven,
    PlayerArrived,
    PlayerReentered,
    PlayerRegistered,
    PlayerRemoved,
    PlayerWentAway,
    RemovalReason,
    SeatDrawn,
    StacksCorrected,
    TournamentCreated,
    WaitListEntered,
    WaitListJoined,
)
from hub.tournament.penalties import PenaltyKind, PenaltyStep, next_step, resolve
from hub.tournament.results import Standing, chip_race, deal_chip_race, prizes
from hub.tournament.rulesets import ButtonDraw, LeaveWithoutNotice
from hub.tournament.snapshot import build_snapshot
from hub.tournament.state import FloorState, PlayerState, PlayerStatus, TableState
from hub.tournament.structure import Level, Structure, to_toml
from hub.tournament.undo import counting, verify_undo


class Tournament:
    def __init__(self, *, name: str, ruleset: str, structure: Structure, now: float,
                 rng: random.Random, seats_per_table: int = 10, buy_in_cents: int = 0,
                 paid_places: int = 0, rulebook: tuple[str, ...] = ()) -> None:
        """`ruleset`: a seed's id, or a club's with `rulebook` its stored texts (`rulebooks.stored`)."""
        created = TournamentCreated(name, str(ruleset), to_toml(structure), seats_per_table, buy_in_cents,
                                    paid_places, now, tuple(rulebook))
        self._rng = rng
        self._now = now  # latest time seen, kept outside the state: ticks record no event
        self.state = FloorState.created(created)
        self.events: list[Event] = [created]
        self._clock_log = ClockHistory()  # the clock at a past time (`_clock_at`)

    @classmethod
    def replay(cls, events: Iterable[Event], *, rng: random.Random | None = None) -> Tournament:
        """Rebuild a tournament from its stored events (a killed hub comes back the same)."""
        it = iter(events)
        first = next(it)
        if not isinstance(first, TournamentCreated):
            raise FloorError("an event log starts with TournamentCreated")
        self = cls.__new__(cls)
        self._rng = rng if rng is not None else random.Random(0)
        self.state = FloorState.created(first)
        self.events = [first]
        self._clock_log = ClockHistory()
        for event in it:
            self.apply(event)
        self._now = self.state.now
        return self

    def apply(self, event: Event) -> None:
        if isinstance(event, ActionReverted):
            self.events.append(event)
            self._rebuild()
            self.state.now = max(self.state.now, event.at)
            return
        self.state.apply(event)
        self.events.append(event)
        self._clock_log.record(event)

    def _rebuild(self) -> None:
        """The state from the records that count (an undo leaves the undone ones in the log)."""
        first, *rest = counting(self.events)
        assert isinstance(first, TournamentCreated)
        cut = self.state.unreachable
        self.state, self._clock_log = FloorState.created(first), ClockHistory()
        self.state.unreachable = cut
        for event in rest:
            self.state.apply(event)
            self._clock_log.record(event)

    def undo(self, first: int, last: int, now: float, *, by: str = "TD") -> list[Event]:
        """Undo one TD action (its records `first`..`last`) by a compensating record, the log kept whole."""
        out = self._advance(now)
        verify_undo(self.events, first, last)
        self._emit(out, ActionReverted(first, last, by, now))
        return out

    def _emit(self, out: list[Event], *events: Event) -> None:
        for event in events:
            self.apply(event)
            out.append(event)

    def _emitter(self, out: list[Event]) -> Callable[[Event], None]:
        return lambda event: self._emit(out, event)

    # --- time -------------------------------------------------------------------------------

    def tick(self, now: float) -> list[Event]:
        """Level changes and deadlines reached by `now` (the hub calls it every second)."""
        return self._advance(now)

    def tick_due(self, now: float) -> bool:
        """Whether `tick(now)` has anything to record (`_advance`'s three checks, none applied): most
        ticks have not, and the floor then takes no write lock for them (`FloorService.pump`)."""
        s = self.state
        return bool(s.clock.due(now) or floor.absent_at_deadline(s) or days.day_end_due(s))

    def _advance(self, now: float) -> list[Event]:
        if now < max(self._now, self.state.now):
            raise ClockError(f"time does not go backwards ({now} < {self._now})")
        self._now = now
        out: list[Event] = []
        self._emit(out, *self.state.clock.due(now))
        floor.late_arrival_deadline(self.state, self._rng, now, lambda event: self._emit(out, event))
        self._day_end_due(now, out)
        return out

    def _day_end_due(self, now: float, out: list[Event]) -> None:
        if days.day_end_due(self.state):  # the structure's day-end break, every hand over
            days.end_day(self.state, self._rng, now, lambda event: self._emit(out, event), reason="structure")

    def end_day(self, now: float) -> list[Event]:
        """The TD's "fin de journée": the clock stops, the chips are bagged and the next day drawn."""
        out = self._advance(now)
        days.verify_end_day(self.state)
        if self.state.clock.running:
            self._emit(out, ClockPaused(f"fin du jour {self.state.day}", now))
        days.end_day(self.state, self._rng, now, lambda event: self._emit(out, event), reason="td")
        return out

    def _clock_at(self, now: float) -> ClockState:
        """The clock at `now`: today's run forward, or before its last change (a hand that started at
        a table the hub could not hear) rebuilt from its history up to `now`."""
        return self._clock_log.at(self.state.clock, now)

    def start(self, now: float) -> list[Event]:
        """Draw the first button (pouques 23: one seat number for every table) and start the clock."""
        s = self.state
        if not s.drawn:
            raise FloorError("draw the seats before starting")
        out: list[Event] = []
        if s.policy.button_draw is ButtonDraw.SAME_SEAT:
            self._emit(out, ButtonDrawn(0, self._rng.randint(1, s.seats_per_table), s.policy.button_article, now))
        else:
            for number, table in sorted(s.tables.items()):
                self._emit(out, ButtonDrawn(number, self._rng.choice(sorted(table.seats)),
                                            s.policy.button_article, now))
        self._emit(out, *s.clock.start(now))
        return out

    def pause(self, now: float, reason: str = "TD") -> list[Event]:
        out = self._advance(now)
        self._emit(out, *self.state.clock.pause(now, reason))
        return out

    def resume(self, now: float) -> list[Event]:
        out = self._advance(now)
        self._emit(out, *self.state.clock.resume(now))
        return out

    def add_time(self, seconds: float, now: float) -> list[Event]:
        out = self._advance(now)
        self._emit(out, *self.state.clock.adjust(seconds, now))
        return out

    def remove_time(self, seconds: float, now: float) -> list[Event]:
        return self.add_time(-seconds, now)
    def set_time_left(self, seconds: float, now: float) -> list[Event]:
        out = self._advance(now)
        delta = seconds - self.state.clock.remaining(now)
        self._emit(out, *(self.state.clock.adjust(delta, now) if abs(delta) >= 0.001 else ()))
        return out

    def jump_to_level(self, number: int, now: float) -> list[Event]:
        out = self._advance(now)
        self._emit(out, *self.state.clock.jump(number, now))
        return out

    # --- players ----------------------------------------------------------------------------

    def register(self, player: str, now: float, *, present: bool = True) -> list[Event]:
        s, pol = self.state, self.state.policy
        out = self._advance(now)
        if player in s.players and s.players[player].status is PlayerStatus.OUT and pol.reentries:
            return out + self.reenter(player, now)  # the same person pays again: a re-entry (pouques 7)
        entries.verify_register(s, player, present)
        self._emit(out, PlayerRegistered(player, s.entries + 1, present, now))
        if s.drawn:
            self._seat_new(player, s.structure.starting_stack, now, out)
            self._reorganise(now, out)
        return out

    def player_arrived(self, player: str, now: float) -> list[Event]:
        s = self.state
        out = self._advance(now)
        p = self._player(player)
        entries.verify_arrival(s, p)
        self._emit(out, PlayerArrived(player, now))
        if p.status is PlayerStatus.REGISTERED and s.drawn:
            self._seat_new(player, s.structure.starting_stack, now, out)  # cpt87 3.4: full stack
            self._reorganise(now, out)
        return out

    def reenter(self, player: str, now: float) -> list[Event]:
        """Re-entry after elimination (pouques 7, 22: once, within the first 6 levels)."""
        s, pol = self.state, self.state.policy
        out = self._advance(now)
        entries.verify_reentry(s, self._player(player))
        self._emit(out, PlayerReentered(player, s.entries + 1, pol.reentry_article, now))
        self._seat_new(player, s.structure.starting_stack, now, out)
        self._reorganise(now, out)
        return out

    def join_wait_list(self, player: str, now: float) -> list[Event]:
        out = self._advance(now)
        entries.verify_join_wait_list(self.state, player)
        self._emit(out, WaitListJoined(player, now))
        return out

    def seat_from_wait_list(self, now: float) -> list[Event]:
        """The first waiting player enters with the brest II.2 stack after an elimination."""
        s = self.state
        out = self._advance(now)
        player, stack = entries.wait_list_entry(s)
        self._emit(out, WaitListEntered(player, s.entries + 1, stack, "brest-2011 II.2", now))
        self._seat_new(player, stack, now, out)
        self._reorganise(now, out)
        return out

    def player_left(self, player: str, now: float, *, notified: bool) -> list[Event]:
        """A player leaves for good: announced (cdc 2.9) or without notice (pcpm, cpt87 2.12)."""
        pol = self.state.policy
        out = self._advance(now)
        p = self._alive(player) if not notified and pol.leave_without_notice is \
            LeaveWithoutNotice.CHIPS_STAY else self._removable(player)
        if notified:
            self._emit(out, PlayerRemoved(player, RemovalReason.LEFT_NOTIFIED, p.chips, pol.leave_article, now))
        elif pol.leave_without_notice is LeaveWithoutNotice.RANKED_LAST:
            self._emit(out, PlayerRemoved(player, RemovalReason.LEFT_WITHOUT_NOTICE, p.chips,
                                          pol.leave_article, now))
        else:
            self._emit(out, PlayerWentAway(player, pol.leave_article, now))  # blinded away
        self._reorganise(now, out)
        return out

    def draw_seats(self, now: float, *, tables: int | None = None) -> list[Event]:
        """Random seats for everyone entered, tables within one player (pouques 21, cdc 3.1)."""
        s, pol = self.state, self.state.policy
        out = self._advance(now)
        if s.drawn:
            raise FloorError("seats are already drawn")
        names = sorted(p.name for p in s.players.values() if p.status is PlayerStatus.REGISTERED
                       and (p.arrived or not pol.late_arrival_full_stack))
        if not names:
            raise FloorError("nobody to seat")
        count = tables if tables is not None else math.ceil(len(names) / s.seats_per_table)
        try:
            draw = seating.draw_seats(names, list(range(1, count + 1)), s.seats_per_table, self._rng)
        except ValueError as err:
            raise FloorError(str(err)) from err
        for name, table, seat in draw:
            self._emit(out, SeatDrawn(name, table, seat, s.structure.starting_stack, now))
        return out

    def _seat_new(self, player: str, chips: int, now: float, out: list[Event]) -> None:
        entries.seat_new(self.state, self._rng, player, chips, now, lambda event: self._emit(out, event))

    # --- hands ------------------------------------------------------------------------------

    def verify_start_hand(self, table: int, now: float) -> None:
        hands.verify_start_hand(self.state, self._table(table), self._clock_at(now), table)

    def can_start_hand(self, table: int, now: float) -> bool:
        try:
            self.verify_start_hand(table, now)
        except FloorError:
            return False
        return True

    def hand_started(self, table: int, hand_no: int, now: float, *, button: int | None = None,
                     big_blind: int | None = None, as_of: float | None = None) -> Level:
        """Level for this hand: a level that ends mid-hand applies from the next one (cdc 4.1).

        `as_of`: when the dealer pressed "new hand", if earlier than `now` (a table the hub could not
        hear): the hand is set up with the level and the clock of that time (a hand dealt before a
        break was legal and is played), while the clock itself stays at `now`."""
        s = self.state
        self._advance(now)
        when = now if as_of is None else min(as_of, now)
        self.verify_start_hand(table, when)
        t = s.tables[table]
        if hand_no <= t.hand_no:
            raise FloorError(f"hand {hand_no} at {table_label(table)} follows hand {t.hand_no}")
        occupied = set(t.seats)
        auto_button, auto_bb = seating.positions(occupied, t.button, t.fresh_button, s.capacity(table))
        level = self._level_of(self._clock_at(when) if when < now else s.clock)
        dead = tuple(sorted(seat for seat, name in t.seats.items() if hands.dealt_dead(s.players[name], when)))
        self.apply(HandStarted(table, hand_no, level.number, level.ante,
                               auto_button if button is None else button,
                               auto_bb if big_blind is None else big_blind, dead, when))
        return level

    def current_level(self) -> Level:
        return self._level_of(self.state.clock)

    def _level_of(self, clock: ClockState) -> Level:
        level = clock.level()
        if clock.heads_up and not self.state.structure.heads_up_antes:
            return level.without_ante()  # pouques §G: no antes heads-up
        return level

    def hand_ended(self, table: int, hand_no: int, stacks: Mapping[int, int], now: float, *,
                   void: bool = False, as_of: float | None = None,
                   knocked_out_by: Mapping[int, tuple[int, ...]] | None = None) -> list[Event]:
        """Stacks after the hand: eliminations (cdc 2.9-2.10), then moves and broken tables. `void`: the hand
        is dealt again (a misdeal, cancelled with every bet returned): its redeal is the table's hand of the
        hand-for-hand round, and the dead hand of a penalty (`HandEnded.void`). `as_of`: when it ended at the
        table, if earlier than `now` (a table the hub could not hear): its busts are ranked as of then.
        `knocked_out_by`: for a seat the hand left at zero, the seats that won the last pot he was in (a bounty's
        winners, `PlayerEliminated.by`)."""
        out = self._advance(now)
        t = self._table(table)
        if not t.in_hand or t.hand_no != hand_no:
            raise FloorError(f"{table_label(table)} is not playing hand {hand_no}")
        unknown = set(stacks) - set(t.start_stacks)
        if unknown or any(chips < 0 for chips in stacks.values()):
            raise FloorError(f"bad stacks for {table_label(table)}: {dict(stacks)}")
        busted = sorted(seat for seat, chips in stacks.items() if chips == 0)
        start = {seat: t.start_stacks.get(seat, 0) for seat in busted}
        self._emit(out, HandEnded(table, hand_no, tuple(sorted(stacks.items())), now, void))
        self._eliminate_busted(table, start, now, out, happened=as_of, by=knocked_out_by)
        asked = {seat: self.state.players[name].chips for seat, name in sorted(t.seats.items())
                 if name in self.state.eliminations_asked and self.state.players[name].alive}
        if asked:  # the TD's eliminations asked during the hand, now that it is over
            self._emit(out, StacksCorrected(table, tuple((seat, 0) for seat in sorted(asked)), "TD", now))
            self._eliminate_busted(table, asked, now, out)
        td_moves.asked_moves(self.state, table, now, self._emitter(out))
        self._reorganise(now, out)
        self._day_end_due(now, out)  # the last hand of the day has ended
        return out

    def _eliminate_busted(self, table: int, start: dict[int, int], now: float, out: list[Event], *,
                          happened: float | None = None, by: Mapping[int, tuple[int, ...]] | None = None) -> None:
        hands.eliminate_busted(self.state, table, start, now, lambda event: self._emit(out, event),
                               happened=happened, by=by)

    def correct_stacks(self, table: int, stacks: Mapping[int, int], now: float) -> list[Event]:
        """TD's count correction between hands (chips in play change); a zero stack is out."""
        s = self.state
        out = self._advance(now)
        t = self._table(table)
        if t.in_hand:
            raise FloorError(f"{table_label(table)} is in a hand: correct its stacks when it ends")
        if set(stacks) - set(t.seats) or any(chips < 0 for chips in stacks.values()):
            raise FloorError(f"bad stacks for {table_label(table)}: {dict(stacks)}")
        before = {seat: s.players[t.seats[seat]].chips for seat in stacks}
        self._emit(out, StacksCorrected(table, tuple(sorted(stacks.items())), "TD", now))
        self._eliminate_busted(table, {seat: before[seat] for seat, chips in stacks.items() if chips == 0},
                               now, out)
        self._reorganise(now, out)
        return out

    def make_deal(self, prizes: Mapping[str, int], method: str, now: float) -> list[Event]:
        """The players left agree a deal: `prizes` names every one of them (and no one else), in cents."""
        s = self.state
        out = self._advance(now)
        alive = {p.name for p in s.alive()}
        if len(alive) < 2:
            raise FloorError("a deal needs at least two players left")
        if set(prizes) != alive:
            raise FloorError(f"a deal names every player left: {', '.join(sorted(alive))}")
        if any(cents < 0 for cents in prizes.values()):
            raise FloorError("a prize of a deal cannot be negative")
        self._emit(out, DealAgreed(tuple(sorted(prizes.items())), method, now))
        return out

    def eliminate(self, player: str, now: float) -> list[Event]:
        """TD rules a player out (his table could not report, he left); his chips leave play. Asked while
        his table is in a hand he is dealt in, it is done when that hand ends (`EliminationAsked`)."""
        p = self._alive(player)
        if p.table is None or p.seat is None:
            raise FloorError(f"{player} has no seat")
        t = self._table(p.table)
        if t.in_hand and p.seat in t.start_stacks:
            if player in self.state.eliminations_asked:
                raise FloorError(f"{player} is already out at the end of this hand")
            out = self._advance(now)
            self._emit(out, EliminationAsked(player, p.table, now))
            return out
        return self.correct_stacks(p.table, {p.seat: 0}, now)

    def move_player(self, player: str, table: int, seat: int, now: float) -> list[Event]:
        """TD's own move (cdc 3.3: tables designated at the TD's discretion). Asked while his table is in a
        hand he is dealt in, it is made when that hand ends (`MoveAsked`), as an elimination asked then."""
        p = self._alive(player)
        here = self.state.tables.get(p.table or 0)
        if here is not None and here.in_hand and p.seat in here.start_stacks:
            td_moves.verify_move(self.state, p, table, seat)
            if player in self.state.moves_asked:
                raise FloorError(f"{player} already moves when this hand ends (undo that move to change it)")
            out = self._advance(now)
            self._emit(out, MoveAsked(player, here.number, table, seat, now))
            return out
        out = self._advance(now)
        td_moves.order_move(self.state, self._removable(player, moving=True), table, seat, now, self._emitter(out))
        self._reorganise(now, out)
        return out

    def move_confirmed(self, player: str, table: int, now: float) -> list[Event]:
        """The moved player's cards were dealt at his new table."""
        out = self._advance(now)
        move = self.state.pending_moves.get(player)
        if move is None or move.to_table != table:
            raise FloorError(f"no move of {player} to {table_label(table)} is pending")
        self._emit(out, MoveConfirmed(player, table, now))
        return out

    # --- balancing, breaking, final table ---------------------------------------------------------

    def _reorganise(self, now: float, out: list[Event]) -> None:
        floor.reorganise(self.state, self._rng, now, lambda event: self._emit(out, event))

    def table_unreachable(self, table: int) -> None:
        """The hub lost table `table` (its agent's will: offline): it deals on with the players it has, and
        the floor sends no one to it nor takes anyone from it until it is heard again. Not a record: the hub's
        knowledge of its network; what the floor decides meanwhile is stored as always (a rebuilt hub has it)."""
        self.state.reach(table, False)

    def table_reachable(self, table: int, now: float) -> list[Event]:
        """Table `table` is heard live again (its backlog played): what the floor waited for is ordered now."""
        if table not in self.state.unreachable:
            return []
        out = self._advance(now)
        self.state.reach(table, True)
        self._reorganise(now, out)
        return out

    def waiting_for(self) -> set[int]:
        """The tables cut off that the floor waits for to balance, break or draw the final table."""
        return floor.waiting_for(self.state)

    def start_hand_for_hand(self, now: float) -> list[Event]:
        """The TD's call (brest I.12); automatic under pouques 39."""
        out = self._advance(now)
        if self.state.hand_for_hand or len(self.state.tables) < 2:
            raise FloorError("hand for hand needs several tables and is not already on")
        self._emit(out, HandForHandStarted("brest-2011 I.12", now))
        return out

    def stop_hand_for_hand(self, now: float) -> list[Event]:
        out = self._advance(now)
        if not self.state.hand_for_hand:
            raise FloorError("hand for hand is not on")
        self._emit(out, HandForHandEnded(now))
        self._reorganise(now, out)
        return out

    def redraw_final_table(self, now: float) -> list[Event]:
        """The final-table draw on the TD's word, once the players left fit it (it is also automatic)."""
        s = self.state
        out = self._advance(now)
        size = s.final_size()
        if s.final_table is not None:
            raise FloorError("the final table is already drawn")
        if not s.clock.started or len(s.alive()) > size:
            raise FloorError(f"the final table seats {size}: {len(s.alive())} players are left")
        if any(t.in_hand for t in s.tables.values()):
            raise FloorError("a table is in a hand: the final table is drawn when every hand has ended")
        floor.final_draw(s, self._rng, now, lambda event: self._emit(out, event))
        return out

    # --- penalties and chips --------------------------------------------------------------

    def suggested_penalty(self, player: str) -> PenaltyStep:
        return next_step(self.state.policy.penalties, self._player(player).penalties)

    def give_penalty(self, player: str, kind: PenaltyKind, amount: int, now: float) -> list[Event]:
        """A penalty from the ruleset's hierarchy, enforced through `dead_seats` at each hand."""
        s = self.state
        out = self._advance(now)
        p = self._removable(player) if kind is PenaltyKind.DISQUALIFICATION else self._alive(player)
        seated = len(s.tables[p.table].seats) if p.table is not None else 1
        penalty = resolve(s.policy.penalties, kind, amount, seated)
        until = now + penalty.minutes * 60.0 if penalty.minutes else 0.0
        self._emit(out, PenaltyGiven(player, kind, penalty.amount, penalty.dead_hands, until,
                                     penalty.article, now))
        if kind is PenaltyKind.DISQUALIFICATION:
            self._emit(out, PlayerRemoved(player, RemovalReason.DISQUALIFIED, p.chips, penalty.article, now))
            self._reorganise(now, out)
        return out

    def chip_race(self, table: int, small_value: int, big_value: int, leftovers: Mapping[str, int],
                  now: float, *, min_chip_after: int | None = None) -> list[Event]:
        """Colour-up at one table (cdc 4.2, brest X, cpt87 4.2); cards dealt with the injected rng."""
        s, pol = self.state, self.state.policy
        out = self._advance(now)
        t = self._table(table)
        if t.in_hand:
            raise FloorError(f"{table_label(table)} is in a hand")
        players = {name: s.players[name].chips for name in t.seats.values()}
        if set(leftovers) - set(players):
            raise FloorError(f"not at {table_label(table)}: {sorted(set(leftovers) - set(players))}")
        start = t.button if t.button is not None else min(t.seats)
        order = [t.seats[seat] for seat in seating.clockwise_after(set(t.seats), start, s.capacity(table))]
        cards = deal_chip_race(order, dict(leftovers), self._rng)
        result = chip_race(small_value, big_value, players, dict(leftovers), cards, pol.chip_race,
                           min_chip_after if min_chip_after is not None else big_value)
        self._emit(out, ChipsColouredUp(table, small_value, big_value, result.winners,
                                        tuple(sorted(result.new_stacks.items())), pol.chip_race_article, now))
        return out

    # --- queries --------------------------------------------------------------------------

    def _player(self, name: str) -> PlayerState:
        try:
            return self.state.players[name]
        except KeyError as err:
            raise RegistrationError(f"unknown player {name!r}") from err

    def _alive(self, name: str) -> PlayerState:
        p = self._player(name)
        if not p.alive:
            raise FloorError(f"{name} is not playing")
        return p

    def _removable(self, name: str, *, moving: bool = False) -> PlayerState:
        """A player whose chips leave his seat: not while his table is in a hand (stacks would lie). The
        refusal says what the TD asked: a move is not a removal."""
        p = self._alive(name)
        table = self.state.tables.get(p.table or 0)
        if table is not None and table.in_hand and p.seat in table.start_stacks:
            if moving:
                raise FloorError(f"{table_label(p.table or 0)} is in a hand: move {name} when it ends")
            raise FloorError(f"{table_label(p.table or 0)} is in a hand: remove {name} when it ends")
        return p

    def _table(self, number: int) -> TableState:
        try:
            return self.state.tables[number]
        except KeyError as err:
            raise FloorError(f"no {table_label(number)} in play") from err

    def dead_seats(self, table: int) -> tuple[int, ...]:
        """Seats dealt dead this hand (absent, penalised): blinds and antes still taken."""
        return self._table(table).dead_seats

    def hand_level(self, table: int) -> int:
        """Level number of the hand in progress (or last played) at `table`."""
        return self._table(table).level

    def pending_moves(self) -> list[MoveOrdered]:
        return sorted(self.state.pending_moves.values(), key=lambda m: (m.at, m.player))

    def chips_in_play(self) -> int:
        return sum(p.chips for p in self.state.alive())

    def standings(self) -> list[Standing]:
        return self.state.standings()

    def prizes(self) -> dict[str, int]:
        """Cents won per player for the current standings (pouques 81); empty without a payout table."""
        rule = self.state.policy.payouts
        if rule is None:
            return {}
        return prizes(rule, self.state.entries, self.state.buy_in_cents, self.standings())

    def snapshot(self, now: float) -> dict[str, JSON]:
        """What the clock screen and the dashboard show at `now` (does not change the state)."""
        return build_snapshot(self.state, self._clock_at(now), now, self.pending_moves())
