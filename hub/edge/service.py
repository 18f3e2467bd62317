"""The hub service: every table's events in from MQTT, table views and hand events out.

Everything runs on one asyncio loop, on one thread (`hub.edge.service_loop`): the link's own with
`hub.edge.link.HubLink` (the link reads a burst of messages, the service applies each to its
`TableView` and the games, and the retained states, hub events and acknowledgements leave in the same
turn, no thread hand-over), or a thread of the service's own, named `hub`, with another link (paho's
`MqttLink`: its thread only validates and hands each message over). A malformed payload is logged
and counted (`stats.malformed`), never a crash; one too big is dropped unread (`stats.oversized`),
one of a table the room does not have is dropped (`stats.unknown_table`). With a store, an event is
acknowledged only once stored (`hub.edge.service_store`): a store that cannot write holds the events
back, stops every acknowledgement, says so (`health`, retained on `hub/health`) and tries again on the
clock. The clock's turn (the floor's, the Time countdowns) is `hub.edge.service_clock`'s. Listeners
(the demo's terminal view, `--json` output, later the dashboard) are called on the consumer thread with
every hub event. With a `shard`, the service is one worker of several and serves only its tables
(`hub.edge.shard`).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Collection

from hub.edge.service_clock import GameClock
from hub.edge.service_loop import (
    GATHER_SECONDS,
    MAX_BACKLOG,
    STATE_WINDOW,
    AckRead,
    Cancel,
    Configure,
    Decide,
    FloorCommand,
    Item,
    Reconnected,
    SayMoves,
    ServiceLoop,
    Settle,
    Tick,
)
from hub.edge.service_store import ERROR_CHARS, HubStats, Publisher, StoreFirst, Turn
from hub.edge.shard import Shard, hub_health_topic, hub_status_topic, shard_of, subscriptions
from hub.floor.commands import CommandResult
from hub.floor.store import JSON
from hub.floor.tables import FloorTables
from hub.room.game import Output, TableGame, TableSetup
from hub.room.table_rulings import decision_in_words, refusal_in_french
from hub.room.tables import HubEvent, TableView, public
from hub.tournament.errors import FloorError, table_label
from hw.ports import Clock, MonotonicClock
from tablewire import wire
from tablewire.mqtt import Link, Message

log = logging.getLogger(__name__)

# A table's event is well under 2 kB; anything bigger on a table's topic is refused before it is
# decoded or queued (counted in `stats.oversized`). The shipped brokers refuse far bigger packets.
MAX_TABLE_PAYLOAD = 16 * 1024
# Made once, compact: the hub encodes ~3 documents per table event (benchmarks/bench_mqtt_path.py)
_JSON = json.JSONEncoder(separators=(",", ":"))


class HubService(StoreFirst, GameClock, ServiceLoop):
    def __init__(self, *, link: Link, clock: Clock | None = None, tick: float = 0.2,
                 floor_tables: FloorTables | None = None, wall: Callable[[], float] = time.time,
                 shard: Shard | None = None, tables: Callable[[str], bool] | None = None,
                 state_window: float = STATE_WINDOW, subscribe: Collection[str] | None = None,
                 ack_qos: int = 1, max_backlog: int = MAX_BACKLOG) -> None:
        """`floor_tables`: a tournament runs the room; its tables' events are stored first (SQLite)
        and played under the floor, which is ticked on the wall clock (`wall`). `shard`: this
        worker serves only the tables that hash to it; the floor is room-wide, so not with a shard.
        `tables`: which table ids the room has (`room_tables`); others are counted and dropped
        (`stats.unknown_table`), never stored nor shown. None: every table (demos, tests).
        `state_window`: seconds a table's retained states wait for the next change (0: one per change).
        `subscribe`: the room's table ids (the floor's or the profiles' list): the service subscribes to
        the topics of those it serves, one by one, instead of every table's wildcard, so a worker
        receives nothing of the other workers' tables. A table missing from it is never heard.
        `ack_qos`: of the acknowledgements; 0 measured no better at a room's pace (docs/scale-out.md).
        `max_backlog`: messages waiting before a link that can pause stops reading (`HubLink.pause_reading`).
        A room whose time is simulated and that waits for `idle` at each step passes `state_window=0`."""
        if shard is not None and floor_tables is not None:
            raise ValueError(f"hub shard {shard}: the tournament floor is room-wide (it seats and balances "
                             "every table), so it runs on one unsharded hub (docs/scale-out.md)")
        self._link = link
        self.shard = shard
        self._owned: dict[str, bool] = {}  # table id -> served here (the hash, once per table)
        self.floor_tables = floor_tables
        if floor_tables is not None:  # `tapis tournament cancel-hand` and the page's button reach the hub
            floor_tables.floor.on_cancel_hand = self._cancel_for_floor
            floor_tables.floor.on_decide = self._decide_for_floor
            floor_tables.floor.on_moves = lambda moves: self._submit(SayMoves(moves))  # said on the loop
            # on the loop already, in the turn that stored the fact: its packets go out with the turn's COMMIT
            floor_tables.say_elsewhere = lambda moves: self._say_moves([m.to_dict() for m in moves])
        self._wall = wall
        # the floor is single-threaded: the dashboard holds this too; the hub, a whole turn (`_open_turn`)
        self.floor_lock = threading.RLock()
        self._clock = clock or MonotonicClock()
        super().__init__(link, tick=tick, state_window=state_window, max_backlog=max_backlog,
                         gather=GATHER_SECONDS if floor_tables is not None else 0.0)
        self.tables: dict[str, TableView] = {}
        self.games: dict[str, TableGame] = {}
        self._countdowns: dict[str, None] = {}  # own games where a Time countdown started (`hub.edge.service_clock`)
        self.commands_sent: dict[str, int] = {}
        self._acks_due: dict[str, str] = {}  # table -> the boot to acknowledge
        self._acked: dict[str, tuple[str, int]] = {}  # table -> (boot, seq) last published
        self._floor_store_error: str | None = None  # the floor's clock could not be stored (said once)
        self._time_store_error: str | None = None  # a Time run out could not be counted by the floor (said once)
        self._resend_due: set[str] = set()  # tables back online (or resending): their hand's commands again
        self._moves_due = False  # a hub started on its store: the floor's pending moves, said at its first connect
        self._ack_qos = ack_qos
        self.stats = HubStats()
        self._knows = tables
        self.store_down: str | None = None  # why the event store cannot write; None while it can
        self._health_sent: dict[str, object] | None = None
        self._health_at = 0.0
        self.health_topic = hub_health_topic(shard)
        self._listeners: list[Callable[[HubEvent], None]] = []  # called once the turn is stored
        self._store_listeners: list[Callable[[HubEvent], None]] = []  # called as played, inside the turn
        self._turn: Turn | None = None  # the burst's table events in one transaction (`hub.edge.service_store`)
        self._out: Publisher = link  # where the games' packets go: the turn holds them until its COMMIT
        self.status_topic = hub_status_topic(shard)
        link.on_connect(self._connected)
        receive = self._receive if shard is None else self._receive_own
        table_topics, ack_topics = subscriptions(shard, subscribe)
        for topic in table_topics:
            link.subscribe(topic, receive)
        # Its own retained acknowledgements, read back once at subscribe (never its live ones): a hub
        # that starts afresh learns where each table's outbox starts (see `TableView.resume_after`).
        for topic in ack_topics:
            link.subscribe(topic, self._receive_ack, no_local=True)

    def add_listener(self, listener: Callable[[HubEvent], None], *, reads_store: bool = False) -> None:
        """`listener` hears every hub event, on the hub's thread, once the events that made it are stored
        (a turn's, after its COMMIT). `reads_store`: it reads or writes the store as the event is
        played, inside the turn's transaction (the hand histories: `hub.history.recorder`)."""
        (self._store_listeners if reads_store else self._listeners).append(listener)

    def start(self) -> None:
        if self.floor_tables is not None:
            self._resume_from_store()
        self._start_loop()

    def knows(self, table: str) -> bool:
        """The room has this table (see `tables` in the constructor)."""
        if self._knows is None:
            return True
        with self.floor_lock:  # a floor-backed answer reads the tournament, which the dashboard changes
            return self._knows(table)

    def serves(self, table: str) -> bool:
        """This worker serves `table` (always, unsharded)."""
        owned = self._owned.get(table)
        if owned is None:
            owned = self._owned[table] = self.shard is None or self.shard.owns(table)
        return owned

    def configure_table(self, table: str, setup: TableSetup) -> None:
        """Players, button, level and ruleset of a table (from the floor, a scenario or the demo)."""
        if self.shard is not None and not self.serves(table):
            raise ValueError(f"table {table} is served by hub shard {shard_of(table, self.shard.count)}/"
                             f"{self.shard.count}, not by this one ({self.shard})")
        self._submit(Configure(table, setup))

    def decide(self, table: str, kind: str, option: str, by: str = "td") -> None:
        """A TD's choice for a pending `td_decision` (the dashboard's `on_decision`), any thread. A
        tournament table's goes through the floor, store-first (`floor_command`), answered in the events."""
        if self.floor_tables is not None and table not in self.games:
            self._submit(FloorCommand({"cmd": "decide", "table": table, "kind": kind, "option": option,
                                       "by": by[:64] or "TD"}, lambda result: None))
            return
        self._submit(Decide(table, kind, option, by))

    def cancel_hand(self, table: str, by: str = "td") -> None:
        """The TD cancels the table's hand in progress ("annuler la donne"), any thread; a tournament
        table's through the floor, store-first, as `decide`."""
        if self.floor_tables is not None and table not in self.games:
            self._submit(FloorCommand({"cmd": "cancel_hand", "table": table, "by": by[:64] or "TD"},
                                      lambda result: None))
            return
        self._submit(Cancel(table, by))

    def floor_command(self, command: dict[str, JSON], timeout: float = 5.0) -> CommandResult | None:
        """A TD's command run by the floor on the hub's thread (any thread may ask: the dashboard's); None
        when it is not answered within `timeout` (a cancel or a decision waits for the store to write:
        it is played, and its events said, once it can)."""
        done = threading.Event()
        answers: list[CommandResult] = []

        def answer(result: CommandResult) -> None:
            answers.append(result)
            done.set()

        self._submit(FloorCommand(command, answer))
        done.wait(timeout)
        return answers[0] if answers else None

    # On the loop: the hooks of `ServiceLoop` ----------------------------------------------------

    def _on_clock(self) -> None:
        self._tick_games()
        if self.store_down is not None:
            self._retry_store()
        self._publish_health()
        if self._acks_due:
            self._publish_acks()

    def _burst_applied(self) -> None:
        self._close_turn()

    def _after_burst(self) -> None:
        if self._acks_due:
            self._publish_acks()
        if self._resend_due:
            self._resend()  # once what the tables sent meanwhile is applied

    def _between_bursts(self) -> None:
        if self._acks_due:
            self._publish_acks()

    def _state_due(self, table: str) -> None:
        self._publish_state(self.tables[table])

    def _on_stop(self) -> None:
        for table in self._states.take_all():  # none left stale on the broker
            self._publish_state(self.tables[table])
        if self._acks_due:
            self._publish_acks()

    def _apply_item(self, item: Item) -> None:
        try:
            table_event = isinstance(item, Message) and item.topic.endswith("/event")
            if not table_event:
                self._close_turn()  # what any other item does comes after the turn's events, stored
            if isinstance(item, Tick):
                self._tick_games()
                if self._acks_due:
                    self._publish_acks()
                if item.done is not None:
                    item.done.set()
            elif isinstance(item, Settle):
                item.done.set()
            elif isinstance(item, Configure):
                self._configure(item.table, item.setup)
            elif isinstance(item, Reconnected):
                self._acked.clear()  # a broker that restarted may have lost them: all again
                self._resend_due.update(self.tables)  # and the commands published while it was down
                self._publish_health(force=True)
                self._states.take_all()  # published just below
                for table, view in self.tables.items():
                    self._publish_state(view)
                    if view.boot is not None:
                        self._acks_due[table] = view.boot
                if self._moves_due:
                    self._moves_due = False
                    self._say_pending_moves()
            elif isinstance(item, AckRead):
                self._ack_read(item.message)
            elif isinstance(item, Cancel):
                self._cancel(item)
            elif isinstance(item, FloorCommand):
                if self.floor_tables is not None:
                    with self.floor_lock:
                        self.floor_tables.floor.submit(item.command, self._wall(), item.answer)
            elif isinstance(item, Decide):
                self._decide(item)
            elif isinstance(item, SayMoves):
                self._say_moves(item.moves)
            else:
                if table_event:
                    self._open_turn()  # stored in the burst's transaction, played as it is stored
                self._handle_message(item)
        except Exception as err:  # noqa: BLE001 - the loop serves every table: one failure stops none
            log.exception("hub: failed on %r", type(item).__name__)
            self._internal_error(f"internal error {err!r}")

    def _decide(self, item: Decide) -> None:
        """A tournament table's decision goes through the floor (stored, a hand it ends counted); a cash
        table's straight to its game."""
        game = self.games.get(item.table)
        if game is not None:
            out = game.decide(item.kind, item.option, item.by, self._clock.now())  # its own games count on it
        elif self.floor_tables is not None:
            with self.floor_lock:
                out = self.floor_tables.decide(item.table, item.kind, item.option, item.by, self._wall())
        else:
            return
        view = self._view(item.table)
        game = self._games().get(item.table)
        if game is not None:
            view.hand, view.hand_open = game.hand_no, game.in_hand
        self._emit(view, out)

    def _cancel_for_floor(self, table: str, by: str, hand: int) -> dict[str, JSON]:
        """The floor's `on_cancel_hand`, on this thread with the floor's lock held: played store-first
        (`FloorTables.cancel_hand`; a StoreError goes back to the floor, which holds the command)."""
        assert self.floor_tables is not None
        out = self.floor_tables.cancel_hand(table, by, self._wall(), hand=hand)
        self._emit_played(table, out)
        for event in out.events:
            if event["type"] == "cancel_refused":
                raise FloorError(_cancel_refusal(table, hand, str(event.get("reason", ""))))
        ruling = next(e for e in out.events if e["type"] == "ruling")
        return {k: ruling[k] for k in ("decision", "article", "text", "text_en") if k in ruling}

    def _decide_for_floor(self, table: str, kind: str, option: str, by: str, hand: int) -> dict[str, JSON]:
        """The floor's `on_decide`, as `_cancel_for_floor`; a choice the game refuses is refused in words."""
        assert self.floor_tables is not None
        out = self.floor_tables.decide(table, kind, option, by, self._wall(), hand=hand)
        self._emit_played(table, out)
        for event in out.events:
            if event["type"] == "decision_refused":
                reason = str(event.get("reason", ""))
                raise FloorError(f"décision refusée par le hub : {refusal_in_french(reason)} / decision refused by the "
                                 f"hub: {reason}")
        ruling = next((e for e in out.events if e["type"] == "ruling"), None)
        if ruling is None:
            return {}
        if isinstance(ruling.get("message"), dict):  # a Time granted or refused says so (cpt87 4.5)
            return {"text": str(ruling["message"]["fr"]), "text_en": str(ruling["message"]["en"])}
        fr, en = decision_in_words(ruling)  # the TD reads what he decided, not its id
        return {"text": fr, "text_en": en}

    def _emit_played(self, table: str, out: Output) -> None:
        view = self._view(table)
        game = self._games().get(table)
        if game is not None:
            view.hand, view.hand_open = game.hand_no, game.in_hand
        self._emit(view, out)

    def _cancel(self, item: Cancel) -> None:
        game = self.games.get(item.table)
        if game is not None:
            out = game.cancel(item.by)
        elif self.floor_tables is not None:
            with self.floor_lock:
                out = self.floor_tables.cancel_hand(item.table, item.by, self._wall())
        else:
            out = Output([wire.hub_event(item.table, "cancel_refused", by=item.by, reason="no such table")])
        view = self._view(item.table)
        game = self._games().get(item.table)
        if game is not None:
            view.hand, view.hand_open = game.hand_no, game.in_hand
        self._emit(view, out)

    def _resend(self) -> None:
        """Each table back (online again, resending, or the broker restarted) is sent its hand's betting
        state again, and its context before the hand's first card (`TableGame.resend`): a command lost
        with a clean session or a broker that died is not waited for. Not while the store cannot write:
        the table's held events come first."""
        if self.store_down is not None:
            return
        tables, self._resend_due = self._resend_due, set()
        games = self._games()
        if self._tick_resent(tables, games):
            games = self._games()  # a game the store could not follow is rebuilt: another one now
        for table in sorted(tables):
            game = games.get(table)
            if game is None:
                continue
            out = game.resend()
            if out.commands:
                self._emit(self._view(table), out)

    def _connected(self) -> None:
        """The link's thread, every (re)connect: the hub's birth now, every table's state after (a broker
        that restarted lost them, and they go at QoS 0: see `_publish_state`)."""
        self._link.publish(self.status_topic, wire.ONLINE, retain=True)
        self._submit(Reconnected())

    def _too_big(self, message: Message) -> bool:
        """The link's thread: a payload no table sends is dropped before it is queued or decoded."""
        if len(message.payload) <= MAX_TABLE_PAYLOAD:
            return False
        self.stats.oversized += 1
        if self.stats.oversized == 1 or self.stats.oversized % 1000 == 0:
            log.warning("hub: dropped %d payload(s) over %d bytes (last on %s, %d bytes)",
                        self.stats.oversized, MAX_TABLE_PAYLOAD, message.topic[:120], len(message.payload))
        return True

    def _receive(self, message: Message) -> None:
        if not self._too_big(message):
            self._submit(message)

    def _receive_ack(self, message: Message) -> None:
        """The link's thread: another worker's table is dropped here, by its topic, before any decoding."""
        if self._too_big(message):
            return
        if self.shard is not None and not self.serves(message.topic.rsplit("/", 1)[-1]):
            self.stats.other_shards += 1
            return
        self._submit(AckRead(message))

    def _receive_own(self, message: Message) -> None:
        """The link's thread, sharded: enqueue this worker's tables only (a bad topic goes on, to be counted)."""
        if self._too_big(message):
            return
        try:
            table = wire.table_of(message.topic)
        except wire.PayloadError:
            self._submit(message)
            return
        if self.serves(table):
            self._submit(message)
        else:
            self.stats.other_shards += 1

    def _ack_read(self, message: Message) -> None:
        """A retained acknowledgement of an earlier run of this hub (or worker): start the table there."""
        table = message.topic.rsplit("/", 1)[-1]
        try:
            ack = wire.decode_ack(message.topic, message.payload)
        except wire.PayloadError as err:
            self._malformed(str(err))
            return
        if not self.serves(table):
            return
        if not self.knows(table):
            self.stats.unknown_table += 1
            return
        view = self._view(table)
        self._acked.setdefault(table, (ack.boot, ack.seq))
        ready = view.resume_after(ack.boot, ack.seq)
        if ready:
            self._apply_all(table, view, ready)
            self._acks_due[table] = ack.boot

    def _handle_message(self, message: Message) -> None:
        try:
            self._handle(message)
        except wire.PayloadError as err:
            self._malformed(str(err))
        except Exception as err:  # noqa: BLE001 - the hub keeps serving the other tables
            log.exception("hub: failed on %s", message.topic)
            self._internal_error(f"{message.topic}: internal error {err!r}")

    def _configure(self, table: str, setup: TableSetup) -> None:
        self.games[table] = TableGame(table, setup, on_countdown=self._countdowns.setdefault)
        self._view(table).managed = True

    def _games(self) -> dict[str, TableGame]:
        """Every table's game: those configured here and the tournament's."""
        games = dict(self.games)
        if self.floor_tables is not None:
            games.update({t: g for t in self.floor_tables.tables if (g := self.floor_tables.game(t))})
        return games

    def _malformed(self, why: str) -> None:
        self.stats.malformed += 1
        self.stats.errors = (self.stats.errors + [why[:ERROR_CHARS]])[-20:]
        log.warning("hub: ignored a malformed message: %s", why[:ERROR_CHARS])

    def _internal_error(self, why: str) -> None:
        self.stats.internal_errors += 1
        self.stats.errors = (self.stats.errors + [why[:ERROR_CHARS]])[-20:]

    # --- a table's message, stored first (`hub.edge.service_store`), then played -------------------

    def _handle(self, message: Message) -> None:
        self.stats.received += 1
        table = wire.table_of(message.topic)
        if not self.knows(table):
            self.stats.unknown_table += 1  # junk or a typo: never stored, never shown
            return
        if message.topic == wire.table_status(table):
            if message.payload not in (wire.ONLINE, wire.OFFLINE):
                raise wire.PayloadError(f"{message.topic}: status must be online or offline, "
                                        f"got {message.payload[:40]!r}")
            if message.payload == wire.OFFLINE and self.floor_tables is not None and table not in self.games:
                with self.floor_lock:  # the floor moves no one from or to it until it is heard live again
                    self.floor_tables.lost(table)
            self._publish(self._view(table), self._view(table).set_online(message.payload == wire.ONLINE))
            if message.payload == wire.ONLINE:
                self._resend_due.add(table)  # a clean session lost what was sent while it was away
            return
        event = wire.decode_table_event(message.topic, message.payload)
        view = self._view(table)
        duplicates = view.duplicates
        ready = view.admit(event, message.payload)
        if ready:
            self._apply_all(table, view, ready)
        self._acks_due[table] = event.boot  # a dead run's events are acknowledged as that run's
        if view.duplicates > duplicates:
            self._acked.pop(table, None)  # sent again: our acknowledgement did not reach it, say it again
            self._resend_due.add(table)  # nor, maybe, the commands that answered it

    def _apply(self, table: str, view: TableView, event: wire.AnyTableEvent, payload: bytes) -> None:
        """Store first (a StoreError leaves the view as it was), then the card view, then the game."""
        game = self.games.get(table)
        played: Output | None = None
        if game is None and self.floor_tables is not None:
            view.managed = True
            with self.floor_lock:
                played = self.floor_tables.receive(table, event, payload, self._wall())
            if played is None:
                return  # stored and played before (a resend after a reconnect)
        out = Output(view.apply(event))
        if game is not None:
            out.extend(self._play(game, event))
        elif played is not None:
            out.extend(played)
            game = self.floor_tables.game(table)  # type: ignore[union-attr]
        if game is not None:
            view.hand, view.hand_open = game.hand_no, game.in_hand
        self._emit(view, out)

    def _play(self, game: TableGame, event: wire.AnyTableEvent) -> Output:
        if isinstance(event, wire.CardEvent):
            return game.card(event)
        if isinstance(event, wire.SeatActed):
            return game.action(event.seat, event.action, event.to)
        if isinstance(event, wire.DealerPressed):
            return game.dealer(event.button, event.seat, self._clock.now())
        if isinstance(event, wire.FaultSeen):
            return game.fault(event)
        return Output()

    def _emit(self, view: TableView, out: Output) -> None:
        for command in out.commands:
            self._out.publish(wire.table_commands(view.table), wire.encode(command))
            self.commands_sent[view.table] = self.commands_sent.get(view.table, 0) + 1
        self._publish(view, out.events)

    def _view(self, table: str) -> TableView:
        view = self.tables.get(table)
        if view is None:
            view = self.tables[table] = TableView(table)
        return view

    def _publish(self, view: TableView, events: list[HubEvent]) -> None:
        if not events:
            return
        view.note(events, self._wall())
        out = self._out
        turn = self._turn
        for event in events:
            out.publish(wire.hub_table_events(view.table), _JSON.encode(public(event)).encode())
            self.stats.events_out += 1
            for listener in self._store_listeners:
                try:
                    listener(event)
                except Exception:
                    log.exception("hub: listener failed")
            if turn is not None:
                turn.heard.append(event)
            else:
                self._hear(event)
        if self._states.window == 0 or any(e.get("type") == "hand_end" for e in events):
            self._states.take(view.table)  # a hand's end is shown at once (results, the floor's view)
            self._publish_state(view)
        else:
            self._states.mark(view.table, time.monotonic())

    def _publish_state(self, view: TableView) -> None:
        """The table's retained public and TD states, at QoS 0: each replaces the last, so a lost one
        is mended by the next or by the republish on reconnect, and the PUBACKs of QoS 1 were the
        hub's largest cost at room scale (2 of its ~4.5 messages per table event; docs/scale-out.md)."""
        out = self._out
        out.publish(wire.hub_table_state(view.table), _JSON.encode(view.state(hole_cards=False)).encode(),
                    retain=True, qos=0)
        out.publish(wire.hub_td_state(view.table), _JSON.encode(view.state(hole_cards=True)).encode(),
                    retain=True, qos=0)

    def _hear(self, event: HubEvent) -> None:
        for listener in self._listeners:
            try:
                listener(event)
            except Exception:
                log.exception("hub: listener failed")


def _cancel_refusal(table: str, hand: int, reason: str) -> str:
    """The hub's refusal of a TD's cancel, French then English."""
    label = table_label(table)
    if reason.startswith("hand ") and reason.endswith(" is over"):
        return f"la donne {hand} de la {label} est finie / hand {hand} at {label} is over"
    return f"pas de donne en cours à la {label} / no hand in progress at {label}"
