"""The tournament's tables at the hub: each table's events stored, then played under the floor.

Consumes validated table events (`tablewire.wire`) with their raw payloads; stores each one first
(deduplicated), plays it on the table's `TableGame`, asks the `FloorService` for the level when a
hand starts (as of when the dealer pressed "new hand", `hub.floor.table_clock`: a table heard late is set
up as it was dealt) and gives it the stacks when one ends; emits the game's `Output` plus move
instructions. `FloorTables.open` rebuilds every table, the hand in progress included, from the store
after a kill.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass, field

from hub import rulings
from hub.floor.hand_context import dealt_again, from_context, hand_context
from hub.floor.moves import MoveInstruction, table_number, told_at
from hub.floor.service import FloorService
from hub.floor.store import JSON, EventStore, StoreError, TableRow
from hub.floor.table_clock import TableClock
from hub.room.game import Output, TableGame, TableSetup
from hub.room.table_rulings import decision_refused
from hub.rules import Level as HandLevel
from hub.rules import Positions, default_positions, next_positions
from hub.tournament.errors import TournamentError, table_label
from hub.tournament.hands import knocked_out_by
from hub.tournament.penalties import PenaltyKind
from tablewire import wire
from tablewire.faults import FaultKind

_CONTEXT = "game/"  # config key prefix: the table's context at the start of its current hand
_CLOCK = "table_clock/"  # config key prefix: the table's clock offset per boot (`TableClock`)
_CANCEL = "td_cancel/"  # config key prefix: the table's last hand the TD cancelled, and when
_DECIDED = "td_decided/"  # config key prefix: the TD's decisions in the table's last hand, in order


@dataclass
class TableSeat:
    """What the hub keeps per table besides its game: the last positions and the last result."""

    game: TableGame | None = None
    positions: Positions | None = None
    misdealt: bool = False  # a misdeal or a hand cancelled, bets returned: redealt, same button and blinds
    moves: list[MoveInstruction] = field(default_factory=list)


class FloorTables:
    """The hub side of every tournament table; one thread (the hub's consumer) calls it."""

    def __init__(self, floor: FloorService, store: EventStore, *, seats: int = 10,
                 decks: tuple[str, str] | None = None) -> None:
        """`decks`: the same two deck ids for every table (tests); None: each table's own
        (`wire.table_deck_ids`), as its profile and the deck registry name them."""
        self.floor = floor
        self.store = store
        self.seats = seats
        self.decks = decks
        self.tables: dict[str, TableSeat] = {}
        self.clock = TableClock()
        self._countdowns: dict[str, None] = {}  # tables where a Time countdown started (`timed`), in that order
        self.on_moves: list[Callable[[list[MoveInstruction]], None]] = []
        # the hub says on their own tables' streams the moves a table's fact ordered elsewhere (a hand's end
        # at one table may move a player of another, or draw the final table or the next day's seats)
        self.say_elsewhere: Callable[[list[MoveInstruction]], None] | None = None
        self._replaying = False
        self._context_rows: dict[str, int] = {}
        self._last_row = 0
        self._unplayed: dict[tuple[str, str, int], int] = {}  # stored, its play failed on the store: row
        self._turn_unplayed: dict[tuple[str, str, int], int] = {}  # `_unplayed` as the hub's turn began
        self._redecided: dict[tuple[str, int], int] = {}  # replaying: (table, hand) -> its decisions played again
        self._boots: dict[str, set[str]] = {}  # table -> the agent's boots played since its hand's context
        # `open`'s replay of each table's current hand: its hub events, for the hand's history (hub.history)
        self.replayed: list[dict[str, object]] = []
        self._collect = False

    def hand_rows(self) -> dict[str, int]:
        """Table -> the store row of the "new hand" that started its current (or last) hand."""
        rows: dict[str, int] = {}
        for key in self.store.config_keys(_CONTEXT):
            ctx = self.store.get_config(key)
            if isinstance(ctx, dict) and isinstance(ctx.get("row"), int):
                rows[key[len(_CONTEXT):]] = int(ctx["row"])  # type: ignore[arg-type]
        return rows

    def facts_since(self, starts: dict[str, int]) -> Iterator[tuple[TableRow, wire.AnyTableEvent]]:
        """Each table's stored facts from its row in `starts` on (tables not in it: none), in order."""
        if not starts:
            return
        if len(starts) == 1:  # one table (a rebuild): its rows only, by the table's index
            ((table, start),) = starts.items()
            rows = self.store.table_rows(table=table, after=start - 1)
        else:
            rows = self.store.table_rows(after=min(starts.values()) - 1)
        for row in rows:
            if row.table not in starts or row.row < starts[row.table]:
                continue
            try:
                yield row, wire.decode_table_event(wire.table_events(row.table), row.payload)
            except wire.PayloadError:
                continue

    def knows(self, table: str) -> bool:
        """The tournament has (or had, and played on) this table: seated by the floor, or dealt here."""
        if self.game(table) is not None:
            return True
        try:
            number = table_number(table)
        except TournamentError:
            return False
        tournament = self.floor.tournament
        return tournament is not None and number in tournament.state.tables

    def game(self, table: str) -> TableGame | None:
        seat = self.tables.get(table)
        return seat.game if seat is not None else None

    def seated(self, table: str) -> dict[int, str]:
        """Seat -> the player the floor seats there now (none at a table it does not have): whose seat is away,
        the names in a hand's history (`hub.history.recorder`)."""
        tournament = self.floor.tournament
        try:
            tb = tournament.state.tables.get(table_number(table)) if tournament is not None else None
        except TournamentError:
            return {}
        return dict(tb.seats) if tb is not None else {}

    def hand_started_at(self, table: str) -> float | None:
        """When the table's current hand began: the hub's wall clock at which its "new hand" was stored (None:
        none stored). A hub restarted during the hand says when it began, not the restart (the dashboard's
        "hand running since", the hand's history)."""
        ctx = self.store.get_config(_CONTEXT + table)
        row = ctx.get("row") if isinstance(ctx, dict) else None
        if not isinstance(row, int):
            return None
        first = next(self.store.table_rows(table=table, after=row - 1), None)
        return first.at if first is not None and first.row == row else None

    def timed(self) -> list[tuple[str, TableGame]]:
        """The games where a Time countdown runs (`TableGame.timing`): the only ones the clock can change.
        Those whose countdown started (a game rebuilt from the store starts its own again as it replays),
        not every table: a festival's thousand, five times a second, held the loop for milliseconds."""
        games = []
        for table in list(self._countdowns):
            game = self.game(table)
            if game is not None and game.timing:
                games.append((table, game))
            else:
                del self._countdowns[table]  # run out, answered, or its hand over: asked no more
        return games

    def tick(self, table: str, now: float) -> Output:
        """The hub's clock at a table of `timed`: a countdown that ran out is ruled, and a hand it ends is
        counted by the floor as any other (`_after`). A StoreError leaves the game as the store holds it,
        its countdown running (`_rebuild`), for the next tick to try again."""
        state = self.tables[table]
        game = state.game
        assert game is not None
        try:
            return self._after(table, state, game.tick(now), now)
        except StoreError:
            self._rebuild(table, self.store.last_table_row() + 1)
            raise

    def _countdown_started(self, table: str) -> None:
        self._countdowns[table] = None

    # --- live ---------------------------------------------------------------------------------------

    def receive(self, table: str, event: wire.AnyTableEvent, payload: bytes, now: float) -> Output | None:
        """Store then play one event; None for a duplicate (already stored and played).

        A StoreError while playing (a full disk as the floor stores what the event caused) leaves the
        event stored but unplayed: the floor is reloaded from the store (its memory may be ahead of
        what was rolled back) and the hub's retry of the same event plays it then, not as a duplicate."""
        key = (table, event.boot, event.seq)
        # the offset learned is stored with the event that taught it; in the hub's turn, the turn's transaction
        # does (a write that fails there undoes the whole turn: a savepoint per event would cost two statements)
        with nullcontext() if self.store.in_turn else self.store.atomic():
            if self.store.append_table_event(table, event.boot, event.seq, payload, now):
                if self.clock.learn(table, event.boot, event.at, now):
                    offsets: dict[str, JSON] = dict(self.clock.offsets(table))
                    self.store.put_config(_CLOCK + table, offsets)
                row = self.store.appended_row  # its row, without a query per event
            elif key in self._unplayed:
                row = self.store.table_event_row(table, event.boot, event.seq)
            else:
                return None
        self._unplayed[key] = row
        try:
            out = self.play(table, event, now, row=row)
        except StoreError:
            self._rebuild(table, row)  # the game and the floor back to what the store holds, together
            raise
        except BaseException:
            del self._unplayed[key]  # not the store's doing: trying again would fail the same way
            raise
        del self._unplayed[key]
        tournament = self.floor.tournament
        if tournament is not None and tournament.state.unreachable:  # a table cut off (rare): heard again?
            out.extend(self._heard_again(table, event, now))
        return out

    def lost(self, table: str) -> None:
        """The table's agent went offline (its will): until it is heard live again the floor sends no one to
        it nor takes anyone from it (`FloorService.reachable`); it deals on with the players it has."""
        if self.floor.tournament is not None and self.knows(table):
            self.floor.reachable(table, 0.0, heard=False)

    def _heard_again(self, table: str, event: wire.AnyTableEvent, now: float) -> Output:
        """A fact of a table the floor had lost, heard live (`TableClock.hub_time`: its backlog is played, in
        order, before it): what the floor waited for is ordered now, once the table dealt what it had."""
        tournament = self.floor.tournament
        try:
            cut = tournament is not None and table_number(table) in tournament.state.unreachable
        except TournamentError:
            return Output()
        if not cut or self.clock.hub_time(table, event.boot, event.at, now) < now:
            return Output()
        moves = self.floor.reachable(table, now, heard=True)
        out = Output()
        if moves:
            game = self.game(table)
            out.events += self._moves_said(table, game.hand_no if game is not None else 0, moves)
        return out

    def _moves_said(self, table: str, hand: int, moves: list[MoveInstruction]) -> list[dict[str, object]]:
        """The moves a fact of `table` ordered: those its own stream says (`told_at`) as its `floor_moves`; the
        others handed to the hub for their tables' streams (not while replaying the store: a restarted hub
        says what is still to do once, `pending_instructions`)."""
        said = [m.to_dict() for m in moves]
        here = [d for d in said if told_at(d) == table]
        elsewhere = [m for m, d in zip(moves, said, strict=True) if told_at(d) != table]
        if elsewhere and self.say_elsewhere is not None and not self._replaying:
            self.say_elsewhere(elsewhere)
        for listener in self.on_moves:
            listener(moves)
        return [wire.hub_event(table, "floor_moves", hand=hand, moves=here)] if here else []

    def play(self, table: str, event: wire.AnyTableEvent, now: float, *, row: int) -> Output:
        state = self.tables.setdefault(table, TableSeat())
        boots = self._boots.setdefault(table, set())
        if event.boot not in boots:
            if boots and state.game is not None:
                state.game.felt_reported_afresh()  # the agent restarted: its felt as it reports it now
            boots.add(event.boot)
        game = state.game
        # A Time countdown that ran out before this fact is ruled first, at the fact's stored time: the
        # hub's clock rules it live, and nothing else stores it, so a hub rebuilt from its store (`open`)
        # plays the facts after it on the same hand (the player's hand dead, the next to act)
        timed = self._after(table, state, game.tick(now), now) if game is not None and game.timing else Output()
        if isinstance(event, wire.DealerPressed) and event.button == "new_hand":
            return timed.extend(self._new_hand(table, state, now, row,
                                               self.clock.hub_time(table, event.boot, event.at, now)))
        if game is None:
            return timed
        if isinstance(event, wire.CardEvent):
            out = game.card(event)
        elif isinstance(event, wire.SeatActed):
            out = game.action(event.seat, event.action, event.to)
        elif isinstance(event, wire.DealerPressed):
            # an "away" is the seated player's (`TableGame.away`): not the seat of whoever sits there after him
            who = self.seated(table).get(event.seat, "") if event.button == "away" and event.seat is not None else ""
            out = game.dealer(event.button, event.seat, now, who=who)
        elif isinstance(event, wire.FaultSeen):
            out = game.fault(event)
        else:
            return timed
        # a hand this fact ends is counted as of when it ended at the table (its busts ranked by then)
        return timed.extend(self._after(table, state, out, now, fact=event))

    def cancel_hand(self, table: str, by: str, now: float, *, hand: int | None = None) -> Output:
        """The TD cancels the table's hand in progress (`TableGame.cancel`); stored with the row of the
        table facts it follows, so a rebuilt hub cancels it again at the same point. `hand`: the hand the
        TD meant (the floor's when he sent it): a later hand is not cancelled by a command played late.
        A StoreError (the COMMIT failed) leaves the game and the floor as the store holds them, the hand
        in progress in both: the caller tries again once the store writes."""
        state = self.tables.get(table)
        game = state.game if state is not None else None
        if state is None or game is None or not game.in_hand:
            return Output([wire.hub_event(table, "cancel_refused", by=by, reason="no hand in progress")])
        if hand is not None and game.hand_no != hand:
            return Output([wire.hub_event(table, "cancel_refused", by=by, reason=f"hand {hand} is over")])
        return self._store_first(table, state, _CANCEL + table, lambda: {
            "hand": game.hand_no, "row": self.store.last_table_row(), "by": by}, lambda: game.cancel(by), now)

    def decide(self, table: str, kind: str, option: str, by: str, now: float, *, hand: int | None = None) -> Output:
        """The TD decides a fault the ruleset left to him (`TableGame.decide`), carried out at the table and
        by the floor (a hand it ends is counted, chips and all); stored with the row of the table facts it
        follows, so a rebuilt hub decides it again at the same point. A choice the game would refuse
        is answered and not stored; `hand` and a StoreError as for `cancel_hand`."""
        state = self.tables.get(table)
        game = state.game if state is not None else None
        if game is not None and hand is not None and game.hand_no != hand:
            return Output([decision_refused(table, kind, option, f"hand {hand} is over")])
        if state is None or game is None or not game.can_decide(kind, option):
            if game is not None:
                return game.decide(kind, option, by)  # refused, in words
            return Output([decision_refused(table, kind, option, "no hand in progress")])
        # `at`: when he decided, so a rebuilt hub counts a Time he granted from then (cpt87 4.5), not from the replay
        return self._store_first(table, state, _DECIDED + table, lambda: [
            *self._decisions(table, game.hand_no),
            {"hand": game.hand_no, "row": self.store.last_table_row(), "kind": kind, "option": option, "by": by,
             "at": now}],
            lambda: game.decide(kind, option, by, now), now)

    def _store_first(self, table: str, state: TableSeat, key: str, mark: Callable[[], JSON],
                     play: Callable[[], Output], now: float) -> Output:
        """The TD's mark (`mark()` under `key`) and what it plays, the floor's stacks after it, in one
        transaction; a failed COMMIT rebuilds the table from the store (`_rebuild`) and raises."""
        try:
            with self.store.atomic():
                self.store.put_config(key, mark())
                return self._after(table, state, play(), now)
        except StoreError:
            self._rebuild(table, self.store.last_table_row() + 1)
            raise

    # --- the hub's turn (`hub.edge.service_store`): a burst's events in one transaction ------------------

    def begin_turn(self) -> None:
        """The store's transaction for the hub's turn (`EventStore.begin_turn`): `receive` inside it."""
        self.store.begin_turn()
        self._turn_unplayed = dict(self._unplayed)

    def commit_turn(self) -> None:
        self.store.commit_turn()

    def turn_failed(self, tables: Iterable[str]) -> None:
        """The turn was rolled back (`EventStore.rollback_turn`): the floor and the games of the turn's
        `tables` back to what the store holds, their clocks' offsets too; what the turn had left stored
        but unplayed is not stored any more."""
        self._unplayed = self._turn_unplayed
        self.floor._load()  # noqa: SLF001 - back to what the store holds
        before = self.store.last_table_row() + 1
        for table in tables:
            raw = self.store.get_config(_CLOCK + table)
            self.clock.restore(table, _offsets(_CLOCK + table, raw, self.store) if raw is not None else {})
            self._rebuild(table, before, load=False)

    def _rebuild(self, table: str, before_row: int, *, load: bool = True) -> None:
        """After a failed COMMIT: the floor reloaded and the table's game rebuilt from the store (its last
        hand's context, its facts before `before_row`, the TD's marks), so a game that played ahead of
        what was rolled back (a hand ended, cancelled, decided) is never apart from the floor. Facts
        stored but not played yet (`_unplayed`) stay unplayed: the hub tries them again. A store that
        cannot even be read leaves the table as it was (and the error to the caller). `load`: the floor
        too (False: reloaded already)."""
        if load:
            self.floor._load()  # noqa: SLF001 - back to what the store holds
        old, boots = self.tables.pop(table, None), self._boots.pop(table, None)
        redecided = dict(self._redecided)
        self._redecided = {k: v for k, v in self._redecided.items() if k[0] != table}
        try:
            self._replay_table(table, before_row)
        except BaseException:
            if old is not None:
                self.tables[table] = old
            if boots is not None:
                self._boots[table] = boots
            self._redecided = redecided
            raise

    def _replay_table(self, table: str, before_row: int) -> None:
        start = self.hand_rows().get(table)
        if start is None:
            self.tables[table] = TableSeat()
            return
        unplayed = {r for (t, _, _), r in self._unplayed.items() if t == table}
        saved = self._replaying, self._context_rows, self._last_row
        self._replaying, self._context_rows, self._last_row = True, {table: start}, before_row
        try:
            for row, event in self.facts_since({table: start}):
                if row.row >= before_row:
                    break
                self._redecide(table, row.row, row.at)
                self._recancel(table, row.row, row.at)
                if row.row not in unplayed:
                    self.play(table, event, row.at, row=row.row)
            self._redecide(table, before_row, 0.0)
            self._recancel(table, before_row, 0.0)
        finally:
            self._replaying, self._context_rows, self._last_row = saved

    def _decisions(self, table: str, hand_no: int) -> list[JSON]:
        """The TD's stored decisions in hand `hand_no` of the table (those of an earlier hand are moot)."""
        stored = self.store.get_config(_DECIDED + table)
        if not isinstance(stored, list):
            return []
        return [m for m in stored if isinstance(m, dict) and m.get("hand") == hand_no]

    def _redecide(self, table: str, before_row: int, now: float) -> None:
        """Replaying: the TD's decisions in the table's hand, each at its place among the table's facts."""
        state = self.tables.get(table)
        game = state.game if state is not None else None
        if state is None or game is None or not game.in_hand:
            return
        marks = self._decisions(table, game.hand_no)
        key = (table, game.hand_no)
        for mark in marks[self._redecided.get(key, 0):]:
            row = mark.get("row") if isinstance(mark, dict) else None
            if not isinstance(mark, dict) or not isinstance(row, int) or row >= before_row:
                break
            self._redecided[key] = self._redecided.get(key, 0) + 1
            at = mark.get("at")  # stored before decisions kept their time: the replay's
            when = float(at) if isinstance(at, int | float) and not isinstance(at, bool) else now
            self._collected(self._after(table, state, game.decide(str(mark.get("kind")), str(mark.get("option")),
                                                                  str(mark.get("by", "TD")), when), when))

    def _recancel(self, table: str, before_row: int, now: float) -> None:
        """Replaying: the TD's cancel of the table's hand, at its place among the table's facts."""
        state = self.tables.get(table)
        game = state.game if state is not None else None
        mark = self.store.get_config(_CANCEL + table)
        if state is None or game is None or not game.in_hand or not isinstance(mark, dict):
            return
        if mark.get("hand") == game.hand_no and isinstance(mark.get("row"), int) and mark["row"] < before_row:  # type: ignore[operator]
            self._collected(self._after(table, state, game.cancel(str(mark.get("by", "TD"))), now))

    def _collected(self, out: Output) -> Output:
        if self._collect:
            self.replayed += out.events
        return out

    def _new_hand(self, table: str, state: TableSeat, now: float, row: int, pressed: float) -> Output:
        """`pressed`: when the dealer pressed "new hand", in hub time (`now` unless heard late)."""
        game = state.game
        if self._replaying and row == self._context_rows.get(table):
            return self._resume(table, state, now)  # the last hand started before the kill
        given_up = Output()
        if game is not None and game.in_hand:
            if game.undealt:  # pressed again before any card: dealt again (`TableGame.dealt_again`)
                given_up = self._after(table, state, game.dealt_again(), now, as_of=pressed)
            elif game.felt_cleared:
                # The dealer gave the hand up (the hub was silent) and cleared the felt: the rulebook's
                # ruling (cdc 8.6, `TableGame.given_up`), counted by the floor, then this press deals.
                given_up = self._after(table, state, game.given_up(), now, as_of=pressed)
            else:
                return Output([wire.hub_event(table, "hand_refused", hand=game.hand_no,
                                              reason="the hand in progress has not ended")])
        if self._replaying and row < self._last_row:
            # Not the last hand's start (that is the context), not the last event stored (the one
            # a kill may have left unplayed): a press the floor refused, which changed nothing.
            return given_up
        return given_up.extend(self._start_hand(table, state, now, row, pressed))

    def _start_hand(self, table: str, state: TableSeat, now: float, row: int, pressed: float) -> Output:
        floor = self.floor
        game = state.game
        hand_no = (game.hand_no if game is not None else 0) + 1
        try:
            players = floor.players_for_hand(table)
            if len(players) < 2 or not floor.can_start_hand(table, pressed):
                floor.require().verify_start_hand(table_number(table), pressed)
                label = table_label(table)
                raise TournamentError(f"{label} a moins de deux joueurs / {label} has fewer than two players")
            fresh = floor.fresh_button(table)
            if fresh is not None or state.positions is None:
                button = fresh if fresh is not None else min(players)
                positions = default_positions(button, players)
            elif state.misdealt:
                positions = dealt_again(state.positions, players)
            else:
                positions = next_positions(state.positions, players, self.seats)
            seated = self.seated(table)
            # a seat away stays away for the player who left it (kept in the hand's context for a rebuilt hub)
            away = {s: name for s, name in game.away.items() if seated.get(s) == name} if game is not None else {}
            with self.store.atomic():
                level = floor.hand_started(table, hand_no, now, button=positions.button,
                                           big_blind=positions.big_blind, as_of=pressed)
                dead = self._dealt_dead(table)
                self.store.put_config(_CONTEXT + table, hand_context(hand_no, players, positions, level, row, dead,
                                                                 away=away))
        except (TournamentError, ValueError) as err:
            return Output([wire.hub_event(table, "hand_refused", hand=hand_no, reason=str(err))])
        return self._deal(table, state, hand_no, players, positions, level, now, dead, away)

    def _deal(self, table: str, state: TableSeat, hand_no: int, players: dict[int, int],
              positions: Positions, level: HandLevel, now: float, dead: dict[int, str],
              away: dict[int, str]) -> Output:
        """`away`: the seats away in this hand, as its context stores them (`TableGame.away`)."""
        setup = TableSetup(players=players, button=positions.button, level=level,
                           ruleset=self.floor.require().state.policy.ruleset, seats=self.seats,
                           decks=self.decks or wire.table_deck_ids(table))
        game = state.game
        if game is None:
            game = state.game = TableGame(table, setup, on_countdown=self._countdown_started)
        state.positions, state.misdealt = positions, False
        game.away = away
        return self._after(table, state, game.deal_hand(hand_no, setup, positions, now, dead=dead), now)

    def _dealt_dead(self, table: str) -> dict[int, str]:
        """Seat -> article of the seats the floor dealt dead in the table's hand: a player registered and
        not arrived yet (the ruleset's absent player: cdc 5.1, brest III.13...), or under a penalty."""
        tournament = self.floor.require()
        number = table_number(table)
        s = tournament.state
        ruleset = s.policy.ruleset
        absent = rulings.clauses_for(FaultKind.ABSENT_PLAYER, ruleset)[0][1]
        penalty = {step.kind: step.article for step in s.policy.penalties}
        seats = s.tables[number].seats if number in s.tables else {}
        out: dict[int, str] = {}
        for seat in tournament.dead_seats(number):
            player = s.players.get(seats.get(seat, ""))
            if player is None or not player.present:
                out[seat] = absent
            elif player.suspended_until > 0:
                out[seat] = penalty.get(PenaltyKind.SUSPENSION, absent)
            else:
                out[seat] = penalty.get(PenaltyKind.MISSED_HANDS) or penalty.get(PenaltyKind.MISSED_ROUNDS) or \
                    penalty.get(PenaltyKind.WARNING, absent)
        return out

    def _resume(self, table: str, state: TableSeat, now: float) -> Output:
        ctx = self.store.get_config(_CONTEXT + table)
        hand_no, players, positions, level, dead = from_context(ctx)
        away = ctx.get("away") if isinstance(ctx, dict) else None  # stored before away seats were kept: none
        return self._deal(table, state, hand_no, players, positions, level, now, dead,
                          away={int(s): str(n) for s, n in away.items()} if isinstance(away, dict) else {})

    def _after(self, table: str, state: TableSeat, out: Output, now: float, *, as_of: float | None = None,
               fact: wire.AnyTableEvent | None = None) -> Output:
        """A hand that ended goes to the floor (once: a replay finds it already counted); `as_of`: when it
        ended at the table, in hub time (`TableClock.hub_time`: `now` unless heard late), or the table's
        `fact` that ended it (converted only then: not for every fact)."""
        game = state.game
        assert game is not None
        for event in out.events:
            if event["type"] != "hand_end":
                continue
            state.misdealt = game.replays_hand
            if self.floor.in_hand(table) != event["hand"]:
                continue
            if fact is not None:
                as_of = self.clock.hub_time(table, fact.boot, fact.at, now)
            stacks = {int(s): int(v) for s, v in event["stacks"].items()}
            moves = self.floor.hand_ended(table, event["hand"], stacks, now, void=state.misdealt,
                                          as_of=as_of if as_of is not None and as_of < now else None,
                                          knocked_out_by=None if state.misdealt else knocked_out_by(
                                              # a pot shared by a ruling names no eligible seats: no bounty
                                              ((p.get("eligible", ()), p["winners"]) for p in event["pots"]), stacks))
            if moves:
                out.events += self._moves_said(table, event["hand"], moves)
        return out

    # --- rebuild ------------------------------------------------------------------------------------

    @classmethod
    def open(cls, floor: FloorService, store: EventStore, *, seats: int = 10,
             decks: tuple[str, str] | None = None) -> FloorTables:
        """Every table as it was: each from its last hand's context, then its events since, replayed.

        The last fact stored may never have been played (a kill between `receive`'s store and its
        play; one thread does both, so no other can be): it is played too, also for a table that has
        no hand context yet (its very first "new hand" press)."""
        tables = cls(floor, store, seats=seats, decks=decks)
        for key in store.config_keys(_CLOCK):
            tables.clock.restore(key[len(_CLOCK):], _offsets(key, store.get_config(key), store))
        contexts = tables.hand_rows()
        last = store.last_table_row()
        starts = dict(contexts)  # table -> first row to replay
        for row in store.table_rows(after=last - 1):
            starts.setdefault(row.table, row.row)  # earlier facts of a table without a hand changed nothing
        if not starts:
            return tables
        tables._replaying, tables._context_rows, tables._last_row = True, contexts, last
        tables._collect = True
        try:
            for row, event in tables.facts_since(starts):
                tables._redecide(row.table, row.row, row.at)
                tables._recancel(row.table, row.row, row.at)
                tables._collected(tables.play(row.table, event, row.at, row=row.row))
            for table in list(tables.tables):
                tables._redecide(table, last + 1, 0.0)
                tables._recancel(table, last + 1, 0.0)
        finally:
            tables._replaying = tables._collect = False
        return tables


def _offsets(key: str, raw: JSON | None, store: EventStore) -> dict[str, float]:
    """A table's stored clock offsets, checked (`TableClock.offsets`)."""
    if not isinstance(raw, dict) or not all(isinstance(v, int | float) and not isinstance(v, bool)
                                            for v in raw.values()):
        raise StoreError(f"the event store {store.path} holds a bad table clock under {key!r}: {raw!r}")
    return {boot: float(v) for boot, v in raw.items() if isinstance(v, int | float)}  # all are, checked above
