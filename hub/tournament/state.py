"""The tournament's state and `apply(event)`, the only code that changes it (hub, floor).

Consumes the records of `events.py` in order; a state rebuilt from the stored events of a killed
hub equals the one it had. Commands that decide what happens live in `tournament.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from hub.tournament.balancing import stopped_tables
from hub.tournament.clock import ClockState
from hub.tournament.errors import EventError
from hub.tournament.events import (
    ButtonDrawn,
    ChipsColouredUp,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    DayEnded,
    DealAgreed,
    EliminationAsked,
    Event,
    FinalTableDrawn,
    HandEnded,
    HandForHandEnded,
    HandForHandStarted,
    HandStarted,
    HeadsUpStarted,
    LevelStarted,
    MoveAsked,
    MoveConfirmed,
    MoveLapsed,
    MoveOrdered,
    PenaltyGiven,
    PlacesCorrected,
    PlayerArrived,
    PlayerEliminated,
    PlayerReentered,
    PlayerRegistered,
    PlayerRemoved,
    PlayerWentAway,
    RemovalReason,
    SeatDrawn,
    StacksCorrected,
    TableBroken,
    TimeAdjusted,
    TournamentCreated,
    WaitListEntered,
    WaitListJoined,
)
from hub.tournament.penalties import PenaltyKind
from hub.tournament.policy import floor_policy
from hub.tournament.results import OutGroup, Standing, standings
from hub.tournament.rulesets import FloorPolicy
from hub.tournament.structure import Structure, from_toml
from hub.tournament.view_scope import ONE_PLAYER, SAME_PLAYERS_IN, touched_tables


class PlayerStatus(StrEnum):
    REGISTERED = "registered"  # entered, not seated yet
    SEATED = "seated"
    MOVING = "moving"  # move ordered, not yet dealt in at the new table
    OUT = "out"
    WAITING = "waiting"  # on the wait-list (brest II.2)


@dataclass
class PlayerState:
    name: str
    status: PlayerStatus
    entries: int = 0
    table: int | None = None
    seat: int | None = None
    chips: int = 0
    present: bool = True
    arrived: bool = True
    dead_hands: int = 0
    suspended_until: float = 0.0
    penalties: list[PenaltyKind] = field(default_factory=list)
    waits_one_hand: bool = False

    @property
    def alive(self) -> bool:
        return self.status in (PlayerStatus.SEATED, PlayerStatus.MOVING)


@dataclass
class TableState:
    number: int
    seats: dict[int, str] = field(default_factory=dict)
    button: int | None = None  # button of the last hand (or the drawn one if `fresh_button`)
    big_blind: int | None = None
    fresh_button: bool = False
    hand_no: int = 0
    in_hand: bool = False
    level: int = 0  # level number of the current (or last) hand
    ante: int = 0
    dead_seats: tuple[int, ...] = ()
    start_stacks: dict[int, int] = field(default_factory=dict)
    played_round: bool = False  # hand-for-hand: this table has played the current round
    dead_hands_taken: tuple[str, ...] = ()  # the players whose penalty's dead hand this hand is


@dataclass(frozen=True, slots=True)
class DrawnSeat:
    """A player the final table's or the next day's draw seats elsewhere, and where he sat before it: a move
    still to make until his new table deals its first hand (`FloorState.drawn_seats`)."""

    player: str
    from_table: int  # 0: he had no seat
    from_seat: int
    to_table: int
    to_seat: int
    reason: str  # "final" (the final table's draw) or "day" (the next day's)
    article: str


@dataclass
class OutRecord:
    player: str
    group: int
    start_stack: int
    by_stack: bool
    happened: float  # when he went out (his hand's end at his table, in hub time): ranks the groups
    place: int = 0  # his provisional place (an elimination's, as corrected since); 0: a player removed
    by: tuple[str, ...] = ()  # who knocked him out (`PlayerEliminated.by`)


@dataclass
class FloorState:
    name: str
    policy: FloorPolicy
    structure: Structure
    seats_per_table: int
    buy_in_cents: int
    paid_places: int
    clock: ClockState
    players: dict[str, PlayerState] = field(default_factory=dict)
    tables: dict[int, TableState] = field(default_factory=dict)
    entries: int = 0
    drawn: bool = False
    wait_list: list[str] = field(default_factory=list)
    outs: list[OutRecord] = field(default_factory=list)
    ranked_last: list[str] = field(default_factory=list)
    hand_for_hand: bool = False
    h4h_group: int | None = None
    heads_up: bool = False
    final_table: int | None = None
    chips_total: int = 0  # chips that should be on the tables
    next_group: int = 0
    pending_moves: dict[str, MoveOrdered] = field(default_factory=dict)
    # The last draw's reseatings (final table, next day) not yet carried out: cleared at the new table's first
    # hand, taken by a player's next move or his going out; what a restarted hub and the moves box say
    drawn_seats: dict[str, DrawnSeat] = field(default_factory=dict)
    eliminations_asked: set[str] = field(default_factory=set)  # out when their table's hand ends
    moves_asked: dict[str, MoveAsked] = field(default_factory=dict)  # the TD's moves made when their hand ends
    deal: dict[str, int] = field(default_factory=dict)  # the final table's deal: player -> prize (cents)
    days: list[DayEnded] = field(default_factory=list)  # the days played out, each with its bags and draw
    day_over: bool = False  # a day has ended and the clock has not resumed since (the players are bagged)
    now: float = 0.0
    # Tables the hub cannot reach now (their agent's will said offline; heard live again: reachable): no
    # record, the hub's knowledge of its network; the floor moves no one from or to them meanwhile
    unreachable: set[int] = field(default_factory=set, compare=False)
    # The players still in, worked out again after a record that can change a player's status (not a hand's
    # start or end): a hand's end asks it twice, and a festival has thousands of players
    _alive: dict[str, PlayerState] | None = field(default=None, repr=False, compare=False)
    # What views build from the players and tables (the clock's snapshot, once a second), kept until the
    # next record applied: a quiet second of a festival rebuilds nothing
    views: dict[str, object] = field(default_factory=dict, repr=False, compare=False)
    # Each table's part of that snapshot, kept until a record touches that table (`touched_tables`): a festival's
    # hand ends each redraw one table of a thousand, not the whole room
    table_views: dict[int, object] = field(default_factory=dict, repr=False, compare=False)
    highest_table: int = 0  # the highest table number ever in play (its retained view is cleared when gone)
    # The players per table, kept across the records that seat no one (a hand's start and end: a festival's
    # every hand asks it, and the tables play stops at), changed table by table where a record seats or
    # unseats; then the tables it stops (cdc 3.3) and the re-entries (changed only with `entries`)
    _counts: dict[int, int] | None = field(default=None, repr=False, compare=False)
    _stopped: tuple[FloorPolicy, set[int]] | None = field(default=None, repr=False, compare=False)
    _reentries: tuple[int, int] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def created(cls, event: TournamentCreated) -> FloorState:
        structure = from_toml(event.structure_toml)
        return cls(event.name, floor_policy(event.ruleset, event.rulebook), structure, event.seats_per_table,
                   event.buy_in_cents, event.paid_places, ClockState(structure), now=event.at)

    def alive(self) -> list[PlayerState]:
        if self._alive is None:
            self._alive = {p.name: p for p in self.players.values() if p.alive}
        return list(self._alive.values())  # the caller's own list

    def counts(self) -> dict[int, int]:
        """Players seated per table, in the tables' order (kept: see `_counts`)."""
        if self._counts is None:
            self._counts = {n: len(t.seats) for n, t in self.tables.items()}
        return dict(self._counts)  # the caller's own dict

    def stopped(self) -> set[int]:
        """The tables where play stops waiting for players (`balancing.stopped_tables`), worked out again
        only when the counts changed. Shared: read only. A table cut off is left out: its count is stale and
        no player can come from it or go to it, so no table stops for it (nor is it stopped: it deals on)."""
        kept = self._stopped
        if kept is None or kept[0] is not self.policy:
            counts = self.counts()
            for number in self.unreachable:
                counts.pop(number, None)
            kept = self._stopped = (self.policy, stopped_tables(counts, self.policy))
        return kept[1]

    def reach(self, table: int, reachable: bool) -> None:
        """The hub lost table `table` or hears it again (`unreachable`): the views and stops follow."""
        if (table not in self.unreachable) is not reachable:
            self.unreachable.symmetric_difference_update({table})
            self.views.clear()
            self._stopped = None  # counted without the tables cut off

    def reentries(self) -> int:
        """Entries past each player's first: every entry adds to `entries`, so counted again only then."""
        kept = self._reentries
        if kept is None or kept[0] != self.entries:
            kept = self._reentries = (self.entries, sum(max(0, p.entries - 1) for p in self.players.values()))
        return kept[1]

    def apply(self, event: Event) -> None:
        at = getattr(event, "at", self.now)
        self.now = max(self.now, at)
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise EventError(f"cannot apply {type(event).__name__}")
        kind = type(event)
        player = getattr(event, "player", None) if kind in ONE_PLAYER else None
        before = self.players.get(player) if player is not None else None
        was_alive = before is not None and before.alive
        self.views.clear()
        touched = touched_tables(self.players, event)
        handler(self, event)
        if kind not in SAME_PLAYERS_IN:
            self._players_in_changed(kind, before, was_alive, self.players.get(player) if player else None)
        if touched is None:
            self.table_views.clear()
            self._counts = self._stopped = self._reentries = None
        else:
            player = getattr(event, "player", None)
            if player is not None and player in self.players:
                touched.add(self.players[player].table)  # where he sits now
            for number in touched:
                self.table_views.pop(number, None)  # type: ignore[arg-type]
            self._recount(touched)

    def _recount(self, touched: set[int | None]) -> None:
        """The kept counts after a record that touched these tables: a table's new count in place, or
        all of them afresh (in the tables' order) when a table came or went."""
        counts = self._counts
        if counts is None:
            return
        for number in touched:
            if number is None:
                continue
            table = self.tables.get(number)
            if table is None or number not in counts:
                if table is not None or number in counts:
                    self._counts = self._stopped = None
                    return
                continue
            if counts[number] != len(table.seats):
                counts[number] = len(table.seats)
                self._stopped = None

    def _players_in_changed(self, kind: type[Event], before: PlayerState | None, was_alive: bool,
                            after: PlayerState | None) -> None:
        """The players still in after a record: the same list if its one player stayed in or out, less him
        if he went out (a festival's eliminations: not every player walked again), else worked out anew."""
        if kind in ONE_PLAYER and before is not None and before is after:
            if was_alive == before.alive:
                return
            if was_alive and self._alive is not None:
                del self._alive[before.name]  # the order kept: the players' own
                return
        self._alive = None

    def _unseat(self, player: PlayerState) -> None:
        if player.table is not None and player.table in self.tables:
            table = self.tables[player.table]
            if table.seats.get(player.seat or 0) == player.name:
                del table.seats[player.seat or 0]
        player.table = player.seat = None
        self.pending_moves.pop(player.name, None)
        self.drawn_seats.pop(player.name, None)

    def _drawn(self, draw: Iterable[tuple[str, int, int]], reason: str, article: str) -> None:
        """Before a draw seats them: each player it seats elsewhere, and where he sat (`drawn_seats`)."""
        self.drawn_seats = {}
        for name, table, seat in draw:
            p = self.players[name]
            if (p.table, p.seat) != (table, seat):
                self.drawn_seats[name] = DrawnSeat(name, p.table or 0, p.seat or 0, table, seat, reason, article)

    def capacity(self, table: int) -> int:
        """Seats at a table: the room's tables, the final one included (see `final_size`)."""
        return self.seats_per_table

    def final_size(self) -> int:
        """The players at the final table: the ruleset's number (cdc 3.6, pouques 40, cpt87 3.3), never
        more than the room's tables have seats. cpt87 3.3 seats 10 at the final of a 9-handed
        tournament; a table whose reader has nine seat antennas cannot deal a tenth seat, so such a room
        plays its final nine-handed (a room with a 10-seat final table declares 10 seats)."""
        return min(self.policy.final_table_size(self.seats_per_table), self.seats_per_table)

    def standings(self) -> list[Standing]:
        """Places now: players still in by chips, then the eliminated, latest first (`results.standings`)."""
        alive = [p.name for p in sorted(self.alive(), key=lambda p: (-p.chips, p.name))]
        groups: dict[int, list[tuple[str, int, bool]]] = {}
        when: dict[int, float] = {}
        for o in self.outs:
            groups.setdefault(o.group, []).append((o.player, o.start_stack, o.by_stack))
            when[o.group] = min(when.get(o.group, o.happened), o.happened)
        # by when they went out: a table heard late ranks its busts before those heard first that happened
        # after them (heard live, the groups' own order)
        ordered = [OutGroup(tuple(g[0] for g in rows), tuple(g[1] for g in rows), all(g[2] for g in rows))
                   for _, rows in sorted(groups.items(), key=lambda item: (when[item[0]], item[0]))]
        return standings(alive, ordered, list(self.ranked_last))

    @property
    def day(self) -> int:
        """The day of play in progress (1 until the first day ends; the next one once it has)."""
        return len(self.days) + 1

    def round_complete(self) -> bool:
        """Hand-for-hand: every table has played the round and none is in a hand (pouques 39)."""
        return all(not t.in_hand and (t.played_round or len(t.seats) < 2) for t in self.tables.values())


def _registered(s: FloorState, e: PlayerRegistered) -> None:
    s.players[e.player] = PlayerState(e.player, PlayerStatus.REGISTERED, 1, present=e.present,
                                      arrived=e.present)
    s.entries += 1


def _arrived(s: FloorState, e: PlayerArrived) -> None:
    s.players[e.player].present = s.players[e.player].arrived = True


def _reentered(s: FloorState, e: PlayerReentered) -> None:
    p = s.players[e.player]
    p.status, p.entries, p.chips, p.present = PlayerStatus.REGISTERED, p.entries + 1, 0, True
    s.outs = [o for o in s.outs if o.player != e.player]  # his first bullet is not ranked
    s.entries += 1


def _wait_joined(s: FloorState, e: WaitListJoined) -> None:
    s.players[e.player] = PlayerState(e.player, PlayerStatus.WAITING)
    s.wait_list.append(e.player)


def _wait_entered(s: FloorState, e: WaitListEntered) -> None:
    p = s.players[e.player]
    s.wait_list.remove(e.player)
    p.status, p.entries = PlayerStatus.REGISTERED, p.entries + 1
    s.entries += 1


def _seat_drawn(s: FloorState, e: SeatDrawn) -> None:
    p = s.players[e.player]
    table = s.tables.setdefault(e.table, TableState(e.table))
    table.seats[e.seat] = e.player
    s.highest_table = max(s.highest_table, e.table)
    p.table, p.seat, p.status = e.table, e.seat, PlayerStatus.SEATED
    p.chips += e.chips
    s.chips_total += e.chips
    s.drawn = True


def _button(s: FloorState, e: ButtonDrawn) -> None:
    for number, table in s.tables.items():
        if e.table in (0, number):
            table.button, table.fresh_button = e.seat, True


def _clock(s: FloorState, e: Event) -> None:
    s.clock.apply(e)


def _resumed(s: FloorState, e: ClockResumed) -> None:
    s.day_over = False  # the next day starts
    s.clock.apply(e)


def _day_ended(s: FloorState, e: DayEnded) -> None:
    """The next day's draw seats everyone at once (tables numbered afresh, a fresh button at each)."""
    s._drawn(e.draw, "day", f"jour {e.day + 1} / day {e.day + 1}")
    s.days.append(e)
    s.day_over = True
    s.tables = {}
    for name, table, seat in e.draw:
        s.tables.setdefault(table, TableState(table)).seats[seat] = name
        s.highest_table = max(s.highest_table, table)
        p = s.players[name]
        p.table, p.seat, p.status, p.waits_one_hand = table, seat, PlayerStatus.SEATED, False
    for table, seat in e.buttons:
        s.tables[table].button, s.tables[table].fresh_button = seat, True
    s.pending_moves.clear()
    if s.final_table is not None and s.final_table not in s.tables:
        s.final_table = min(s.tables, default=None)


def _heads_up(s: FloorState, e: HeadsUpStarted) -> None:
    s.heads_up = True
    s.clock.apply(e)


def _hand_started(s: FloorState, e: HandStarted) -> None:
    if s.hand_for_hand and s.round_complete():
        for other in s.tables.values():  # a new hand-for-hand round opens
            other.played_round = False
        s.h4h_group = None
    t = s.tables[e.table]
    t.in_hand, t.hand_no, t.level, t.ante = True, e.hand_no, e.level, e.ante
    t.button, t.big_blind, t.fresh_button, t.dead_seats = e.button, e.big_blind, False, e.dead_seats
    t.start_stacks = {seat: s.players[name].chips for seat, name in t.seats.items()}
    if s.drawn_seats:  # its players are dealt in at the seats the last draw gave them
        for name in t.seats.values():
            s.drawn_seats.pop(name, None)
    taken = []
    for seat, name in t.seats.items():
        p = s.players[name]
        if seat in e.dead_seats and p.dead_hands > 0:
            p.dead_hands -= 1
            taken.append(name)
        p.waits_one_hand = False
    t.dead_hands_taken = tuple(taken)
    if s.hand_for_hand:
        t.played_round = True


def _hand_ended(s: FloorState, e: HandEnded) -> None:
    t = s.tables[e.table]
    t.in_hand = False
    for seat, chips in e.stacks:
        s.players[t.seats[seat]].chips = chips
    if e.void:  # dealt again: its redeal is the table's hand of the round, and the penalised players' dead hand
        for name in t.dead_hands_taken:
            s.players[name].dead_hands += 1
        if s.hand_for_hand:
            t.played_round = False  # dealt at once, not after the other tables


def _corrected(s: FloorState, e: StacksCorrected) -> None:
    t = s.tables[e.table]
    for seat, chips in e.stacks:
        p = s.players[t.seats[seat]]
        s.chips_total += chips - p.chips
        p.chips = chips


def _deal_agreed(s: FloorState, e: DealAgreed) -> None:
    s.deal = dict(e.prizes)


def _elimination_asked(s: FloorState, e: EliminationAsked) -> None:
    s.eliminations_asked.add(e.player)


def _move_asked(s: FloorState, e: MoveAsked) -> None:
    s.moves_asked[e.player] = e


def _move_lapsed(s: FloorState, e: MoveLapsed) -> None:
    s.moves_asked.pop(e.player, None)


def _eliminated(s: FloorState, e: PlayerEliminated) -> None:
    s.eliminations_asked.discard(e.player)
    p = s.players[e.player]
    s._unseat(p)
    p.status, p.chips = PlayerStatus.OUT, 0
    s.outs.append(OutRecord(e.player, e.group, e.start_stack, e.by_stack,
                            e.at if e.happened is None else e.happened, e.place, e.by))
    s.next_group = max(s.next_group, e.group + 1)
    if s.hand_for_hand:
        s.h4h_group = e.group


def _removed(s: FloorState, e: PlayerRemoved) -> None:
    p = s.players[e.player]
    s._unseat(p)
    p.status, p.chips = PlayerStatus.OUT, 0
    s.chips_total -= e.chips
    if e.reason in (RemovalReason.LEFT_NOTIFIED, RemovalReason.DISQUALIFIED):
        s.outs.append(OutRecord(e.player, s.next_group, 0, True, e.at))  # ranked when he leaves
        s.next_group += 1
    else:
        s.ranked_last.append(e.player)


def _places_corrected(s: FloorState, e: PlacesCorrected) -> None:
    for o in s.outs:
        for player, place in e.places:
            if o.player == player:
                o.place = place


def _went_away(s: FloorState, e: PlayerWentAway) -> None:
    s.players[e.player].present = False


def _move_ordered(s: FloorState, e: MoveOrdered) -> None:
    s.moves_asked.pop(e.player, None)  # the move the TD asked during the hand, made at its end
    p = s.players[e.player]
    s._unseat(p)
    s.tables[e.to_table].seats[e.to_seat] = e.player
    s.highest_table = max(s.highest_table, e.to_table)
    p.table, p.seat, p.status, p.waits_one_hand = e.to_table, e.to_seat, PlayerStatus.MOVING, e.waits_one_hand
    s.pending_moves[e.player] = e


def _move_confirmed(s: FloorState, e: MoveConfirmed) -> None:
    s.players[e.player].status = PlayerStatus.SEATED
    s.pending_moves.pop(e.player, None)


def _table_broken(s: FloorState, e: TableBroken) -> None:
    del s.tables[e.table]


def _h4h_started(s: FloorState, e: HandForHandStarted) -> None:
    s.hand_for_hand = True
    for t in s.tables.values():
        t.played_round = True  # the hands in progress finish round 0


def _h4h_ended(s: FloorState, e: HandForHandEnded) -> None:
    s.hand_for_hand, s.h4h_group = False, None
    for t in s.tables.values():
        t.played_round = False


def _final_drawn(s: FloorState, e: FinalTableDrawn) -> None:
    s._drawn(((name, e.table, seat) for name, seat in e.seats), "final", e.article)
    s.tables = {e.table: TableState(e.table, {seat: name for name, seat in e.seats})}
    s.highest_table = max(s.highest_table, e.table)
    for name, seat in e.seats:
        p = s.players[name]
        p.table, p.seat, p.status, p.waits_one_hand = e.table, seat, PlayerStatus.SEATED, False
    s.pending_moves.clear()
    s.final_table = e.table
    s.hand_for_hand, s.h4h_group = False, None


def _penalty(s: FloorState, e: PenaltyGiven) -> None:
    p = s.players[e.player]
    p.penalties.append(e.kind)
    p.dead_hands += e.dead_hands
    p.suspended_until = max(p.suspended_until, e.until)


def _coloured_up(s: FloorState, e: ChipsColouredUp) -> None:
    for name, chips in e.stacks:
        p = s.players[name]
        s.chips_total += chips - p.chips
        p.chips = chips


_HANDLERS: dict[type[Event], Callable[..., None]] = {
    PlayerRegistered: _registered, PlayerArrived: _arrived, PlayerReentered: _reentered,
    WaitListJoined: _wait_joined, WaitListEntered: _wait_entered, SeatDrawn: _seat_drawn,
    ButtonDrawn: _button, ClockStarted: _clock, LevelStarted: _clock, ClockPaused: _clock,
    ClockResumed: _resumed, TimeAdjusted: _clock, HeadsUpStarted: _heads_up,
    HandStarted: _hand_started, HandEnded: _hand_ended, StacksCorrected: _corrected, PlayerEliminated: _eliminated,
    EliminationAsked: _elimination_asked, DealAgreed: _deal_agreed, MoveAsked: _move_asked, MoveLapsed: _move_lapsed,
    PlayerRemoved: _removed, PlayerWentAway: _went_away, MoveOrdered: _move_ordered,
    MoveConfirmed: _move_confirmed, TableBroken: _table_broken, HandForHandStarted: _h4h_started,
    HandForHandEnded: _h4h_ended, FinalTableDrawn: _final_drawn, PenaltyGiven: _penalty,
    ChipsColouredUp: _coloured_up, DayEnded: _day_ended, PlacesCorrected: _places_corrected,
}
