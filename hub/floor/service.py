"""The tournament floor as a running service (hub: table facts and TD commands in, clock and moves out).

Wraps the pure `Tournament` aggregate and the durable `EventStore`: every command's events are
appended (in one transaction) before they count, and `FloorService.open(store)` rebuilds the same
tournament after a kill. Publishes the clock snapshot retained through an injected link (`tablewire.mqtt.Link`) every
second and on every change; accepts TD commands from MQTT, executed on the owner's thread by `pump`.
"""

from __future__ import annotations

import datetime
import logging
import queue
import random
import threading
from collections.abc import Callable, Mapping
from contextlib import nullcontext
from typing import TypeVar

from hub import rulebooks
from hub.floor.bag_sheet import sheet as bag_sheet
from hub.floor.clock_topics import ClockTopics
from hub.floor.command_words import in_english, in_french
from hub.floor.commands import (
    COMMAND_TYPES,
    TOURNAMENT_CMD,
    TOURNAMENT_RESULT,
    AnyCommand,
    Bags,
    CancelHand,
    ClockCmd,
    CommandError,
    CommandResult,
    Decide,
    Eliminate,
    EndDay,
    Move,
    NewTournament,
    Register,
    Results,
    Seat,
    Start,
    Status,
    Undo,
    decode_command,
)
from hub.floor.desk_actions import desk_action
from hub.floor.moves import MoveInstruction, move_instructions, seat_changes, table_number
from hub.floor.moves import table_id as table_id  # re-exported: where it was imported from before the split
from hub.floor.payouts import deal_offer, guarantee, parse_payouts, payout_rule, prizes_to_play, prizes_won
from hub.floor.results_view import results as results_view
from hub.floor.store import JSON, EventStore, StoreError
from hub.floor.td_actions import UNDO_KEY, td_actions
from hub.rules import Level as HandLevel
from hub.tournament.errors import FloorError, TournamentError, table_label
from hub.tournament.events import Event, event_from_dict
from hub.tournament.results import PayoutRule, Standing
from hub.tournament.state import PlayerStatus
from hub.tournament.structure import AnteKind, Level, from_toml
from hub.tournament.tournament import Tournament
from hub.tournament.undo import opens_action
from hw.ports import Clock
from tablewire.mqtt import Link, Message

log = logging.getLogger(__name__)
T = TypeVar("T")

_SEED_KEY = "floor/seed"
_PAYOUT_KEY = "floor/payouts"
_TABLES_KEY = "floor/draw_tables"
_DATE_KEY = "floor/date"  # the night's date (ISO), for the results


def hand_level(level: Level) -> HandLevel:
    """The rules engine's level for a structure level (cpt87 8.8: the big blind posts every ante)."""
    return HandLevel(level.small_blind, level.big_blind, level.ante, level.ante_kind is AnteKind.BIG_BLIND,
                     level.game)


class FloorService:
    """One tournament over one store. Every method runs on the owner's (the hub's consumer) thread."""

    def __init__(self, store: EventStore, *, link: Link | None = None) -> None:
        self.store = store
        self.tournament: Tournament | None = None
        self._rng = random.Random(0)
        self._seed = 0
        self._payouts: PayoutRule | None = None
        self._guarantee = 0  # cents: a guaranteed prize pool
        self._link = link
        self._inbox: queue.Queue[bytes] = queue.Queue()
        self._changed = True
        self._published_at: float | None = None
        self._topics = ClockTopics(link) if link is not None else None
        self.listeners: list[Callable[[list[Event]], None]] = []  # called with every batch stored
        # The hub's, where the hands live; called on the hub's thread, the floor's lock held. Each plays the
        # command (table, by[, kind, option], hand) store-first and returns the answer's data, raises a
        # FloorError (refused, in words) or a StoreError (not kept: the floor holds it and tries again).
        self.on_cancel_hand: Callable[[str, str, int], dict[str, JSON]] | None = None
        self.on_decide: Callable[[str, str, str, str, int], dict[str, JSON]] | None = None
        # The hub's, told the moves a TD's command or the clock made (a move, a bust between hands that
        # unbalances, a broken table, a late arrival's deadline, the next day's draw...), to say them to the
        # tables as a hand's end does. Called once they are stored, on the thread that ran them (the dashboard's
        # too).
        self.on_moves: Callable[[list[dict[str, JSON]]], None] | None = None
        # TD commands the store could not keep (cancel, decide): (command, hand meant, answer), tried again
        self._held: list[tuple[CancelHand | Decide, int, Callable[[CommandResult], None]]] = []
        self._undo: int | None = None  # the TD action the last command took, for its result
        self._in_command = False  # only a TD's command may be undone, not what the floor did on its own
        if link is not None:
            link.subscribe(TOURNAMENT_CMD, self._enqueue)
            # republish everything after a reconnect: the broker may have lost its retained messages
            link.on_connect(lambda: setattr(self, "_changed", True))
            link.on_connect(self._topics.forget)  # type: ignore[union-attr]

    # --- lifecycle --------------------------------------------------------------------------------

    @classmethod
    def open(cls, store: EventStore, *, link: Link | None = None) -> FloorService:
        """The floor as stored: the same tournament (clock, seats, stacks, hands) after a kill."""
        floor = cls(store, link=link)
        floor._load()
        return floor

    def _load(self) -> None:
        seed = self.store.get_config(_SEED_KEY)
        self._seed = seed if isinstance(seed, int) else 0
        self._payouts = parse_payouts(self.store.get_config(_PAYOUT_KEY))
        self._guarantee = guarantee(self.store.get_config(_PAYOUT_KEY))
        cut = self.tournament.state.unreachable if self.tournament is not None else set()  # not in the store
        try:
            events = [event_from_dict(d) for d in self.store.tournament_events()]
            # a club's rulebook is read again from the text stored with the tournament, not from its file
            self.tournament = Tournament.replay(events, rng=self._rng) if events else None
            if self.tournament is not None:
                self.tournament.state.unreachable = cut
        except TournamentError as err:
            raise StoreError(f"the event store {self.store.path} holds a bad tournament event: {err}") from err
        self._changed = True

    def create(self, command: NewTournament, now: float) -> list[Event]:
        """A new tournament in an empty store (`tapis tournament new`)."""
        if self.tournament is not None or self.store.count_tournament_events():
            raise FloorError(f"{self.store.path} already holds a tournament: use a new --db file")
        try:
            structure = from_toml(command.structure_toml)
        except TournamentError as err:
            raise FloorError(str(err)) from err
        self._seed = command.seed
        self._reseed(0)
        try:  # a club's rulebook is read again from the texts sent, as a restart will read it
            t = Tournament(name=command.name, ruleset=command.ruleset, structure=structure, now=now,
                           rng=self._rng, seats_per_table=command.seats_per_table,
                           buy_in_cents=command.buy_in_cents, paid_places=command.paid_places,
                           rulebook=command.rulebook)
        except TournamentError as err:
            raise FloorError(str(err)) from err
        rule: dict[str, JSON] = {"payouts": command.payouts, "pool_percent": command.pool_percent,
                                 "guarantee_cents": command.guarantee_cents}
        # a bad payout table is refused before anything is stored; so is a pool nobody would be paid
        if parse_payouts(rule) is None and t.state.policy.payouts is None and command.buy_in_cents > 0:
            raise FloorError(f"{command.ruleset} has no payout table of its own: give the TD's "
                             "(--payouts 50,30,20, or pouques), or the prize pool would not be paid")
        with self.store.atomic():
            if self.store.count_tournament_events():  # another `new` on the same file won the race
                raise FloorError(f"{self.store.path} already holds a tournament: use a new --db file")
            self.store.put_config(_SEED_KEY, command.seed)
            self.store.put_config(_PAYOUT_KEY, rule)
            self.store.put_config(_TABLES_KEY, command.tables)
            self.store.put_config(_DATE_KEY, (command.date or datetime.date.today()).isoformat())
            self.store.append_tournament_events([e.to_dict() for e in t.events])
        self.tournament, self._payouts, self._guarantee = t, parse_payouts(rule), command.guarantee_cents
        self._changed = True
        return list(t.events)

    def _reseed(self, position: int) -> None:
        # The draws of the command after `position` events depend only on the seed and the
        # position, so a tournament rebuilt from the store draws exactly what the original would.
        self._rng.seed(f"{self._seed}/{position}")

    def _run(self, command: Callable[[Tournament], T], *, by_table: bool = False) -> tuple[T, list[Event]]:
        """Run a command on the aggregate; store its events before anyone sees them. `by_table`: a table's
        hand started or ended: the clock's snapshot shows it within the second (`publish_clock`), not at
        once: it holds every seat of the room, and a festival's tables change it many times a second."""
        t = self.require()
        before = len(t.events)
        try:
            # BEGIN IMMEDIATE: one writer decides at a time. Another TD process (or the hub's floor)
            # may have appended since we read the file: decide on the tournament as stored now.
            with self.store.atomic():
                self._refresh()
                t = self.require()
                before = len(t.events)
                self._reseed(before)
                result = command(t)
                new = t.events[before:]
                if new:
                    self.store.append_tournament_events([e.to_dict() for e in new], expected=before)
                opener = next((i for i, e in enumerate(new) if opens_action(e)), None)
                if opener is not None and self._in_command:  # the TD may undo it: where it starts and ends in the log
                    self._undo = before + opener
                    self.store.put_config(f"{UNDO_KEY}{self._undo}", before + len(new) - 1)
        except StoreError:
            self._load()  # the events did not count: back to what the store holds
            raise
        except TournamentError:
            if t.events[before:]:
                self._load()  # a refused command left no trace in memory either
            raise
        if new:
            self._changed = self._changed or not by_table
            for listener in self.listeners:
                listener(list(new))
        return result, list(new)

    def _refresh(self) -> None:
        """Re-read the store when another writer appended since (a TD's command line beside the hub)."""
        held = len(self.tournament.events) if self.tournament is not None else 0
        if self.store.count_tournament_events() != held:
            self._load()

    def require(self) -> Tournament:
        if self.tournament is None:
            raise FloorError(f"no tournament in {self.store.path}: create one with `tapis tournament new`")
        return self.tournament

    # --- table facts (called by the hub per table) ------------------------------------------------

    def can_start_hand(self, table: str, now: float) -> bool:
        t = self.require()
        number = table_number(table)
        return number in t.state.tables and t.can_start_hand(number, now)

    def players_for_hand(self, table: str) -> dict[int, int]:
        """Seat -> chips of the players dealt in at `table`'s next hand (a mover who waits a hand is not)."""
        s = self.require().state
        tb = s.tables.get(table_number(table))
        if tb is None:
            return {}
        return {seat: s.players[name].chips for seat, name in sorted(tb.seats.items())
                if not s.players[name].waits_one_hand and s.players[name].chips > 0}

    def fresh_button(self, table: str) -> int | None:
        """The drawn button when the table's first hand (or the final table's) is next, else None."""
        tb = self.require().state.tables.get(table_number(table))
        return tb.button if tb is not None and tb.fresh_button else None

    def hand_started(self, table: str, hand_no: int, now: float, *, button: int | None = None,
                     big_blind: int | None = None, as_of: float | None = None) -> HandLevel:
        """The level for this hand (cdc 4.1: a level that ends mid-hand applies from the next one).

        Raises FloorError when the floor stops the table (break, hand for hand, short table).
        Players who moved here and are dealt in are confirmed at their new seat. `as_of`: when the
        hand started at the table, if the hub hears it late (`Tournament.hand_started`)."""
        number = table_number(table)

        def start(t: Tournament) -> Level:
            dealt = set(self.players_for_hand(table))
            level = t.hand_started(number, hand_no, now, button=button, big_blind=big_blind, as_of=as_of)
            for seat, name in sorted(t.state.tables[number].seats.items()):
                if seat in dealt and t.state.players[name].status is PlayerStatus.MOVING:
                    t.move_confirmed(name, number, now)
            return level

        level, _ = self._run(start, by_table=True)
        return hand_level(level)

    def hand_ended(self, table: str, hand_no: int, stacks: Mapping[int, int], now: float, *,
                   void: bool = False, as_of: float | None = None,
                   knocked_out_by: Mapping[int, tuple[int, ...]] | None = None) -> list[MoveInstruction]:
        """Stacks after the hand: eliminations, then moves and broken tables; `void`: dealt again; `as_of`: when
        it ended at the table, if the hub hears it late; `knocked_out_by`: a bust's winners
        (`Tournament.hand_ended`)."""
        number = table_number(table)
        before = self._seat_map() if self._final_draw_possible(number) else {}
        _, events = self._run(lambda t: t.hand_ended(number, hand_no, dict(stacks), now, void=void, as_of=as_of,
                                                     knocked_out_by=knocked_out_by), by_table=True)
        return move_instructions(events, before)

    def reachable(self, table: str, now: float, *, heard: bool) -> list[MoveInstruction]:
        """The hub lost the table (`heard` False: its will) or hears it live again: the floor moves no one
        from or to it meanwhile, then orders what waited (`Tournament.table_unreachable`, `table_reachable`)."""
        t, number = self.require(), table_number(table)
        if not heard:
            t.table_unreachable(number)
            self._changed = True  # the clock's snapshot says why the floor waits
            return []
        if number not in t.state.unreachable:
            return []
        before = self._seat_map()  # a final-table draw may follow
        _, events = self._run(lambda t: t.table_reachable(number, now))
        self._changed = True
        return move_instructions(events, before)

    def _final_draw_possible(self, number: int) -> bool:
        """Whether this table's hand end can bring the final table's draw, the only instruction that needs
        every player's seat before it (`move_instructions`): the seated players, less every one who can
        be out at its end (this table's, and those the TD asked out elsewhere), fit the final table. The
        seat map costs every player's seat at every hand end (23 ms at 9,000 players); this, the tables."""
        s = self.require().state
        here = len(s.tables[number].seats) if number in s.tables else 0
        seated = sum(len(t.seats) for t in s.tables.values())
        return len(s.tables) > 1 and seated - here - len(s.eliminations_asked) <= s.final_size()

    def _seat_map(self) -> dict[str, tuple[int, int]]:
        return {p.name: (p.table, p.seat) for p in self.require().state.alive()
                if p.table is not None and p.seat is not None}

    def in_hand(self, table: str) -> int | None:
        """The hand number the floor has in progress at `table` (None between hands)."""
        tb = self.require().state.tables.get(table_number(table))
        return tb.hand_no if tb is not None and tb.in_hand else None

    # --- TD commands ------------------------------------------------------------------------------

    def execute(self, command: AnyCommand | bytes | dict[str, JSON], now: float, *,
                hand: int | None = None) -> CommandResult:
        """Run one TD command; refusals come back as a result with `ok=False`, never as an exception
        (a store failure is the exception: the caller must know its command was not kept). `hand`: for a
        cancel or a decision tried again, the hand the TD meant (the table's then)."""
        cmd_name = "?"
        ident = ""
        try:
            cmd = command if isinstance(command, COMMAND_TYPES) else decode_command(command)
            cmd_name, ident = cmd.cmd, cmd.id
            self._undo, self._in_command = None, True
            reads_only = isinstance(cmd, (Status, Results, Bags))
            hub_only = isinstance(cmd, CancelHand | Decide)  # played by the hub, store-first, in its own COMMIT
            # A command that writes holds the file from here (BEGIN IMMEDIATE; `_run` nests in it), so
            # what another writer stored while this one waited is what it decides on, its time included.
            with nullcontext() if reads_only or hub_only else self.store.atomic():
                self._refresh()
                if self.tournament is not None:
                    now = max(now, self.tournament.state.now)  # a wall clock stepped back is held, not refused
                    if not reads_only and not hub_only and self.tournament.state.clock.started:
                        # what the clock did by now is the floor's, stored apart: an undo takes back the TD's alone
                        self._in_command = False
                        self._run(lambda t: t.tick(now))
                        self._in_command = True
                events, data = self._dispatch(cmd, now, hand)
        except (CommandError, TournamentError) as err:
            return CommandResult(id=ident, cmd=cmd_name, ok=False, error=str(err), error_fr=in_french(str(err)),
                                 error_en=in_english(str(err)))
        finally:
            self._in_command = False
        if self._undo is not None:
            data = {**data, "undo": self._undo}
        moves = data.get("moves")
        if moves and isinstance(moves, list) and self.on_moves is not None:
            self.on_moves([m for m in moves if isinstance(m, dict)])
        return CommandResult(id=ident, cmd=cmd_name, ok=True, events=[type(e).__name__ for e in events],
                             data=data)

    def _dispatch(self, cmd: AnyCommand, now: float, hand: int | None = None) -> tuple[list[Event], dict[str, JSON]]:
        if isinstance(cmd, NewTournament):
            return self.create(cmd, now), {}
        if isinstance(cmd, Register):
            return self._register(cmd, now)
        if isinstance(cmd, Seat):
            return self._seat(cmd, now)
        if isinstance(cmd, Start):
            return self._run(lambda t: t.start(now))[1], {}
        if isinstance(cmd, ClockCmd):
            return self._clock(cmd, now)
        if isinstance(cmd, Eliminate):
            return self._eliminate(cmd, now)
        if isinstance(cmd, Move):
            return self._move(cmd, now)
        if isinstance(cmd, CancelHand):
            return [], self._cancel_hand(cmd, hand)
        if isinstance(cmd, Decide):
            return [], self._decide(cmd, hand)
        if isinstance(cmd, Status):
            return [], self.snapshot(now)
        if isinstance(cmd, Results):
            return [], self.results()
        if isinstance(cmd, Bags):
            return [], self.bags(cmd.day)
        if isinstance(cmd, EndDay):
            before = self._seat_map()
            _, events = self._run(lambda t: t.end_day(now))
            return events, {"moves": [m.to_dict() for m in move_instructions(events, before)]}
        return self._desk(cmd, now)

    def _desk(self, cmd: AnyCommand, now: float) -> tuple[list[Event], dict[str, JSON]]:
        """The registration desk and the floor's rulings: each may move players (answered as moves)."""
        before = self._seat_map()
        action = desk_action(cmd, now, still_to_pay=lambda: sum(self.prizes_to_play()),
                             undone_through=lambda action: self.store.get_config(f"{UNDO_KEY}{action}"))
        _, events = self._run(action)
        moves = seat_changes(before, self._seat_map()) if isinstance(cmd, Undo) else move_instructions(events, before)
        return events, {"moves": [m.to_dict() for m in moves]}

    def _cancel_hand(self, cmd: CancelHand, meant: int | None = None) -> dict[str, JSON]:
        """Played by the hub, which holds the table's hand: answered once stored and played, with the
        ruling applied (a StoreError: not kept, `hold` tries it again)."""
        hand = self.in_hand(cmd.table) if meant is None else meant
        if hand is None:
            label = table_label(cmd.table)
            raise FloorError(f"pas de donne en cours à la {label} / no hand in progress at {label}")
        if self.on_cancel_hand is None:
            raise FloorError("la donne vit dans le hub : envoyez la commande au hub en marche (--broker) / the hand "
                             "lives in the hub: send the command to the running hub (--broker)")
        ruling = self.on_cancel_hand(cmd.table, cmd.by, hand)
        return {"table": cmd.table, "hand": hand, **ruling}

    def _decide(self, cmd: Decide, meant: int | None = None) -> dict[str, JSON]:
        """Played by the hub, which holds the table's hand and carries the decision out (refused in words
        when nothing of the kind is pending); answered once stored and played, as `_cancel_hand`."""
        hand = self.in_hand(cmd.table) if meant is None else meant
        if hand is None:
            label = table_label(cmd.table)
            raise FloorError(f"pas de donne en cours à la {label} / no hand in progress at {label}")
        if self.on_decide is None:
            raise FloorError("la donne vit dans le hub : envoyez la commande au hub en marche (--broker) / the hand "
                             "lives in the hub: send the command to the running hub (--broker)")
        said = self.on_decide(cmd.table, cmd.kind, cmd.option, cmd.by, hand)  # the ruling's words, if it has any
        return {"table": cmd.table, "hand": hand, "kind": cmd.kind, "option": cmd.option, **said}

    def submit(self, command: AnyCommand | bytes | dict[str, JSON], now: float,
               answer: Callable[[CommandResult], None]) -> None:
        """Run a TD command and answer it; a cancel or a decision the store could not keep is held and
        tried again on every `pump` (oldest first): the TD's command goes the way of the tables' events.
        It is answered twice: at once "not stored yet" (`ok` false, `data.held`), and once played.
        Any other command the store refused is answered "not kept"."""
        try:
            cmd = command if isinstance(command, COMMAND_TYPES) else decode_command(command)
        except CommandError:
            cmd = None
        meant = None
        if isinstance(cmd, CancelHand | Decide) and self.tournament is not None:
            try:
                meant = self.in_hand(cmd.table)
            except TournamentError:
                meant = None
        try:
            result = self.execute(command if cmd is None else cmd, now)
        except StoreError as err:
            if isinstance(cmd, CancelHand | Decide) and meant is not None:
                log.warning("floor: %s at %s not kept (%s): tried again once the store writes", cmd.cmd,
                            cmd.table, err)
                self._held.append((cmd, meant, answer))
                fr = "pas encore enregistré : la commande sera jouée dès que le stockage écrira"
                en = "not stored yet: the command is played as soon as the store writes"
                answer(CommandResult(id=cmd.id, cmd=cmd.cmd, ok=False, error=f"{fr} / {en}", error_fr=fr, error_en=en,
                                     data={"held": True, "table": cmd.table, "hand": meant}))
                return
            result = CommandResult(id=cmd.id if cmd else "", cmd=cmd.cmd if cmd else "?", ok=False,
                                   error=f"not kept: {err}", error_fr=f"non enregistré : {err}",
                                   error_en=f"not kept: {err}")
        answer(result)

    @property
    def held(self) -> int:
        """TD commands (cancel, decide) waiting for the store to write."""
        return len(self._held)

    def _try_held(self, now: float) -> None:
        while self._held:
            cmd, meant, answer = self._held[0]
            try:
                result = self.execute(cmd, now, hand=meant)
            except StoreError:
                return  # still down: the next pump tries again
            self._held.pop(0)
            answer(result)

    def _register(self, cmd: Register, now: float) -> tuple[list[Event], dict[str, JSON]]:
        def register(t: Tournament) -> None:
            for name in cmd.players:
                t.register(name, now, present=cmd.present)
        return self._run(register)[1], {}

    def _seat(self, cmd: Seat, now: float) -> tuple[list[Event], dict[str, JSON]]:
        tables = self.store.get_config(_TABLES_KEY)
        count = tables if isinstance(tables, int) else None
        return self._run(lambda t: t.draw_seats(now, tables=count))[1], {}

    def _clock(self, cmd: ClockCmd, now: float) -> tuple[list[Event], dict[str, JSON]]:
        seconds, level = cmd.seconds or 0.0, cmd.level or 0
        actions: dict[str, Callable[[Tournament], list[Event]]] = {
            "pause": lambda t: t.pause(now, cmd.reason), "resume": lambda t: t.resume(now),
            "add": lambda t: t.add_time(seconds, now), "remove": lambda t: t.remove_time(seconds, now),
            "level": lambda t: t.jump_to_level(level, now), "set": lambda t: t.set_time_left(seconds, now)}
        return self._run(actions[cmd.action])[1], {}

    def _eliminate(self, cmd: Eliminate, now: float) -> tuple[list[Event], dict[str, JSON]]:
        before = self._seat_map()
        _, events = self._run(lambda t: t.eliminate(cmd.player, now))
        return events, {"moves": [m.to_dict() for m in move_instructions(events, before)]}

    def _move(self, cmd: Move, now: float) -> tuple[list[Event], dict[str, JSON]]:
        number = table_number(cmd.table)
        before = self._seat_map()
        _, events = self._run(lambda t: t.move_player(cmd.player, number, cmd.seat, now))
        return events, {"moves": [m.to_dict() for m in move_instructions(events, before)]}

    # --- views ------------------------------------------------------------------------------------

    def snapshot(self, now: float) -> dict[str, JSON]:
        """The clock screen's JSON (schema 1 of `hub.tournament.snapshot`), payouts included."""
        t = self.require()
        snap = t.snapshot(max(now, t.state.now))
        rule = self.payout_rule()
        if rule is not None:
            s = t.state
            snap["prize_pool_cents"] = rule.prize_pool(s.entries, s.buy_in_cents)
            snap["payouts_cents"] = list(rule.payouts(s.entries, s.buy_in_cents, players=len(s.players)))
        return snap

    def payout_rule(self) -> PayoutRule | None:
        """The TD's payouts, else the ruleset's, with the guaranteed pool (`hub.floor.payouts`)."""
        return payout_rule(self.require(), self._payouts, self._guarantee)

    def prizes(self) -> dict[str, int]:
        """Cents won per player for the standings now, a deal's included (`hub.floor.payouts`)."""
        return prizes_won(self.require(), self.payout_rule())

    def prizes_to_play(self) -> list[int]:
        """The prizes of the places the players left still play for, 1st first."""
        return prizes_to_play(self.require(), self.payout_rule())

    def deal_offer(self) -> dict[str, JSON]:
        """What the desk shows before a deal (`hub.floor.payouts.deal_offer`)."""
        return deal_offer(self.require(), self.payout_rule())

    def standings(self) -> list[Standing]:
        return self.require().standings()

    def history(self, limit: int = 40) -> list[dict[str, JSON]]:
        """The TD's latest actions, newest first (`hub.floor.td_actions`)."""
        return td_actions(self.require(), self.store, limit)

    def bags(self, day: int | None = None) -> dict[str, JSON]:
        """The bag sheet (`hub.floor.bag_sheet`): a day's end as recorded, or the chip counts now."""
        return bag_sheet(self.require().state, day=day)

    def results(self) -> dict[str, JSON]:
        """Places and prizes of the players out; the players still in, unranked (`results_view`)."""
        t = self.require()
        rule = self.payout_rule()
        pool = rule.prize_pool(t.state.entries, t.state.buy_in_cents) if rule else 0
        out = results_view(t.state, t.standings(), self.prizes(), pool)
        date = self.store.get_config(_DATE_KEY)
        ruleset = str(t.state.policy.ruleset)  # a seed's id, or a club's
        try:
            ruleset_name = rulebooks.get(ruleset).name
        except ValueError:
            ruleset_name = ruleset
        # what the printed sheet says of the night: its date, its rulebook, its buy-in
        out.update(date=date if isinstance(date, str) else None, ruleset_name=ruleset_name,
                   buy_in_cents=t.state.buy_in_cents)
        return out

    # --- MQTT ---------------------------------------------------------------------------------------

    def _enqueue(self, message: Message) -> None:
        self._inbox.put(message.payload)  # paho's thread: only enqueue

    def pump(self, now: float) -> None:
        """On the owner's thread, about every 0.2 s: TD commands from MQTT, the clock, the retained snapshot."""
        self._try_held(now)
        while not self._inbox.empty():  # this thread alone takes from it
            self.submit(self._inbox.get_nowait(), now, self._answer)
        if self.tournament is not None and self.tournament.state.clock.started:
            # A tick with nothing due (nearly every one) takes no write lock: its empty COMMIT would mark the
            # store for a sync with nothing to sync. The store is read again all the same (another writer's).
            self._refresh()
            if (t := self.require()).tick_due(max(now, t.state.now)):
                before = self._seat_map()  # what the clock did may move players (a late arrival's deadline)
                _, events = self._run(lambda t: t.tick(max(now, t.state.now)))
                moves = move_instructions(events, before)
                if moves and self.on_moves is not None:
                    self.on_moves([m.to_dict() for m in moves])
        self.publish_clock(now)

    def _answer(self, result: CommandResult) -> None:
        if self._link is not None:
            self._link.publish(TOURNAMENT_RESULT, result.model_dump_json().encode())

    def publish_clock(self, now: float, *, force: bool = False) -> bool:
        """The retained clock and tables (`clock_topics`) on every change (a table's hand: within the second)
        and at least every second."""
        if self._topics is None or self.tournament is None:
            return False
        if not (force or self._changed or self._published_at is None or now - self._published_at >= 1.0):
            return False
        self._topics.publish(self.snapshot(now), self.tournament.state.highest_table, now)
        self._changed, self._published_at = False, now
        return True

    def serve(self, clock: Clock, stop: threading.Event, *, period: float = 0.2) -> None:
        """Run the floor alone (no tables): `tapis tournament serve`, tests. Returns when `stop` is set."""
        while not stop.wait(period):
            try:
                self.pump(clock.now())
            except Exception:  # noqa: BLE001 - the floor keeps serving the TD
                log.exception("floor: pump failed")
