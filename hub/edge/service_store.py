"""The hub service's store-first path: an event is acknowledged only once stored.

With a tournament's event store (`hub.floor.store`), each table's event is stored before it is played
and acknowledged; a store that cannot write holds the events back in their table views, stops every
acknowledgement, says so (`health`, retained on `hub/health`) and tries again on the clock. A hub that
starts afresh learns from the store where each table's outbox stands, and the cards on each felt. A
part of `hub.edge.service.HubService`, which owns the state named below and plays each event (`_apply`).

The turn: the table events of one burst of the loop (gathered a few milliseconds while the room is
busy: `hub.edge.service_loop.GATHER_SECONDS`) are stored in one transaction (`_open_turn`,
`_close_turn`: one COMMIT instead of one per event), each played as it is stored, and everything they
make (hub events, commands to the tables, states, the listeners' calls; the acknowledgements come after
the burst) waits for the COMMIT; the link then syncs the store before it writes them
(`EventStore.group_sync`). A write of the turn that fails rolls the whole turn back: its packets are
dropped, its events held back in their views (`TableView.hold_back`) and its tables' games and the
floor rebuilt from the store (`FloorTables.turn_failed`), as one event is today without a turn.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from hub.edge.coalesce import Coalescer
from hub.floor.moves import pending_instructions, told_at
from hub.floor.store import JSON, StoreError
from hub.floor.tables import FloorTables
from hub.room.tables import HubEvent, TableView
from tablewire import wire
from tablewire.mqtt import Link

log = logging.getLogger("hub.edge.service")  # the service's log, whichever of its modules speaks

ERROR_CHARS = 300  # each remembered error text, cut
_HEALTH_EVERY = 2.0  # seconds between health publishes while counters move


@dataclass
class HubStats:
    received: int = 0
    other_shards: int = 0  # messages about tables another worker serves, dropped on arrival
    malformed: int = 0
    oversized: int = 0  # payloads over MAX_TABLE_PAYLOAD (hub.edge.service), dropped before decoding
    unknown_table: int = 0  # messages about a table the room does not have, dropped
    store_errors: int = 0  # writes the event store refused (never counted as malformed)
    internal_errors: int = 0
    events_out: int = 0
    errors: list[str] = field(default_factory=list)  # the last few, for `status`


class Publisher(Protocol):
    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> object: ...


@dataclass
class Turn:
    """One burst's table events in the store's open transaction, and what they made, held until its COMMIT."""

    events: dict[str, list[tuple[wire.AnyTableEvent, bytes]]] = field(default_factory=dict)  # table -> applied
    packets: list[tuple[str, bytes, bool, int]] = field(default_factory=list)  # topic, payload, retain, qos
    heard: list[HubEvent] = field(default_factory=list)  # for the listeners that do not read the store

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> None:
        self.packets.append((topic, payload, retain, qos))


class StoreFirst(ABC):
    """Stored, then acknowledged; held back while the store cannot write; health said."""

    # the service's state this path reads and changes (set by `HubService.__init__`)
    _link: Link
    _wall: Callable[[], float]
    floor_tables: FloorTables | None
    floor_lock: threading.RLock
    tables: dict[str, TableView]
    stats: HubStats
    store_down: str | None
    health_topic: str
    _health_sent: dict[str, object] | None
    _health_at: float
    _acks_due: dict[str, str]
    _acked: dict[str, tuple[str, int]]
    _ack_qos: int
    _resend_due: set[str]
    _moves_due: bool  # the floor's pending moves are to be said at the next connect (`_say_pending_moves`)
    _turn: Turn | None
    _states: Coalescer
    _out: Publisher  # where the games' packets go: the link, or the turn until its COMMIT

    @abstractmethod
    def knows(self, table: str) -> bool: ...
    @abstractmethod
    def _view(self, table: str) -> TableView: ...
    @abstractmethod
    def _apply(self, table: str, view: TableView, event: wire.AnyTableEvent, payload: bytes) -> None: ...
    @abstractmethod
    def _internal_error(self, why: str) -> None: ...
    @abstractmethod
    def _resend(self) -> None: ...
    @abstractmethod
    def _hear(self, event: HubEvent) -> None: ...
    @abstractmethod
    def _publish(self, view: TableView, events: list[HubEvent]) -> None: ...

    def health(self) -> dict[str, object]:
        """What `hub/health` says (retained) and the dashboard shows: the store, what was refused."""
        s = self.stats
        return {"store": "down" if self.store_down else "ok", "store_error": self.store_down,
                "store_errors": s.store_errors, "received": s.received, "malformed": s.malformed,
                "oversized": s.oversized, "unknown_table": s.unknown_table,
                "held_dropped": sum(v.held_dropped for v in list(self.tables.values())),
                "internal_errors": s.internal_errors}

    def _resume_from_store(self) -> None:
        """A hub with a store knows where each table stands without its retained acks (a broker that
        died with it lost them): each boot's last stored sequence. The hub stores in order, so all
        before it is stored or forgotten by the outbox; waiting for it would stall the table for good.
        The acknowledgements go out on connect (`_Reconnected`). Before the consumer thread runs."""
        assert self.floor_tables is not None
        for table, boot, seq in self.floor_tables.store.last_seqs():
            if not self.knows(table):
                continue  # stored by an earlier hub that took every table: not shown again
            view = self._view(table)
            view.resume_after(boot, seq)
            view.boot, view.last_seq, view.managed = boot, seq, True
            game = self.floor_tables.game(table)
            if game is not None:
                view.hand, view.hand_open = game.hand_no, game.in_hand
                view.noted_at = self._wall()
                # since when the hand runs: its start as stored, not this restart (the dashboard's alarm)
                view.hand_since = (self.floor_tables.hand_started_at(table) or view.noted_at) if game.in_hand else None
        self._felt_from_store()
        self._moves_due = True

    def _say_pending_moves(self) -> None:
        """A hub started on its store, at its first connect: each table is told again, as a `floor_moves` of
        the table the player leaves, the floor's moves still to carry out (`pending_instructions`: ordered, the
        player not yet dealt in at his new seat; the final table's or the next day's draw before the new
        table's first hand). The floor already seats him there, but the instruction may never have left: the
        hub died between the COMMIT of the hand's end and its packets, the hand's end was played again from the
        store, or the hub was stopped overnight. Once per start, never a move carried out: a reconnect's own
        packets go again with the link (`HubLink._resend`)."""
        assert self.floor_tables is not None
        with self.floor_lock:
            tournament = self.floor_tables.floor.tournament
            moves = pending_instructions(tournament) if tournament is not None else []
        self._say_moves([m.to_dict() for m in moves], again=True)

    def _say_moves(self, moves: list[dict[str, JSON]], *, again: bool = False) -> None:
        """Each table told the moves from or to it as a hand's end tells them (`floor_moves`, on the stream of
        the table the player leaves): those a TD's command made (`FloorService.on_moves`), or, `again`, those
        still to carry out when a hub starts on its store. The next day's draw goes to the table the player
        sits at the next day: yesterday's may no longer play, and that day's dealer seats the players who come."""
        by_table: dict[str, list[dict[str, JSON]]] = {}
        for move in moves:
            by_table.setdefault(told_at(move), []).append(move)
        for table, batch in sorted(by_table.items()):
            view = self._view(table)
            # the table's last hand ended, as the first said the hand whose end ordered them
            hand = view.hand - 1 if view.hand_open else view.hand
            fields: dict[str, object] = {"again": True} if again else {}
            self._publish(view, [wire.hub_event(table, "floor_moves", hand=hand, moves=batch, **fields)])

    def _felt_from_store(self) -> None:
        """The cards on each felt, for the TD's view: the current hand's card events, replayed from the
        store into the table views (published on connect). A card left from an earlier hand and never
        moved since is not known until it moves or the agent restarts."""
        assert self.floor_tables is not None
        boots: dict[str, str] = {}
        for row, event in self.floor_tables.facts_since(self.floor_tables.hand_rows()):
            if not self.knows(row.table):
                continue
            view = self._view(row.table)
            if boots.setdefault(row.table, event.boot) != event.boot:
                view.zones.clear()  # the agent restarted mid-hand: it reported its felt afresh
                boots[row.table] = event.boot
            if isinstance(event, wire.CardEvent):
                view.apply(event)

    def _apply_all(self, table: str, view: TableView, ready: list[tuple[wire.AnyTableEvent, bytes]]) -> bool:
        """Apply admitted events in order; False if the store failed: that event and those after it
        wait in the view again (`TableView.hold_back`), so no acknowledgement passes them (in a turn,
        every event of the turn with them: `_turn_failed`)."""
        turn = self._turn
        for i, (event, payload) in enumerate(ready):
            try:
                self._apply(table, view, event, payload)
            except StoreError as err:
                if turn is not None:
                    self._turn_failed(turn, err, {table: ready[i:]})
                else:
                    view.hold_back(ready[i:])
                    self._store_failed(err)
                return False
            except Exception as err:  # noqa: BLE001 - one bad event does not stop the ones after it
                log.exception("hub: table %s failed on seq %d", table, event.seq)
                self._internal_error(f"{table} seq {event.seq}: internal error {err!r}")
            if turn is not None:
                turn.events.setdefault(table, []).append((event, payload))
        return True

    # --- the turn -------------------------------------------------------------------------------

    def _open_turn(self) -> None:
        """Before a table event: the burst's transaction, opened at its first. The floor's lock is held
        until it ends: the dashboard's thread neither writes into it nor reads what is not stored yet.
        Not while the store cannot write: each event is then tried on its own, as before."""
        if self._turn is not None or self.floor_tables is None or self.store_down is not None:
            return
        self.floor_lock.acquire()
        try:
            self.floor_tables.begin_turn()
        except StoreError as err:
            self.floor_lock.release()
            self._store_failed(err)
            return
        except BaseException:
            self.floor_lock.release()
            raise
        self._turn = self._out = Turn()

    def _close_turn(self) -> None:
        """The burst's events are committed, then what they made goes to the link (which syncs the store
        before it writes: `EventStore.group_sync`) and to the listeners; a failed COMMIT: `_turn_failed`."""
        turn = self._turn
        if turn is None:
            return
        self._turn, self._out = None, self._link
        assert self.floor_tables is not None
        try:
            self.floor_tables.commit_turn()
        except StoreError as err:
            self._turn_failed(turn, err, {})
            return
        except BaseException:
            self.floor_lock.release()
            raise
        self.floor_lock.release()
        link = self._link
        for topic, payload, retain, qos in turn.packets:
            link.publish(topic, payload, retain=retain, qos=qos)
        for event in turn.heard:
            self._hear(event)

    def _turn_failed(self, turn: Turn, err: StoreError, failing: dict[str, list[tuple[wire.AnyTableEvent, bytes]]]
                     ) -> None:
        """Nothing of the turn is kept: rolled back, its packets dropped, its events (then `failing`, the
        table's events not applied yet) held back in their views to be tried again once the store
        writes, its tables' games and the floor rebuilt from what the store holds. The floor's lock,
        held since `_open_turn`, is released."""
        self._turn, self._out = None, self._link
        assert self.floor_tables is not None
        try:
            self.floor_tables.store.rollback_turn()
            held = {table: list(events) for table, events in turn.events.items()}
            for table, events in failing.items():
                held.setdefault(table, []).extend(events)
            for table, events in held.items():
                view = self._view(table)
                for group in _by_boot(events):
                    view.hold_back(group)
                # its states wait for the events tried again (its card view has them: shown once stored)
                self._states.take(table)
            try:
                self.floor_tables.turn_failed(held)
            except Exception:  # noqa: BLE001 - a store that cannot even be read: said, the hub goes on
                log.exception("hub: the tables of a turn the store refused could not be rebuilt from it")
            for table in held:
                game = self.floor_tables.game(table)
                if game is not None:
                    view = self._view(table)
                    view.hand, view.hand_open = game.hand_no, game.in_hand
        finally:
            self.floor_lock.release()
        self._store_failed(err)

    def _store_failed(self, err: StoreError) -> None:
        self.stats.store_errors += 1
        if self.store_down is None:
            self.store_down = str(err)[:ERROR_CHARS]
            log.error("hub: THE EVENT STORE CANNOT WRITE, no table is acknowledged until it can (the "
                      "tables' outboxes keep every event): %s", err)
            self._publish_health(force=True)

    def _retry_store(self) -> None:
        """On the clock while the store is down: the events it refused, again, oldest first per table.
        When all went in, acknowledgements resume for every table."""
        for table, view in list(self.tables.items()):
            while ready := view.stalled():
                if not self._apply_all(table, view, ready):
                    return
                self._acks_due[table] = ready[0][0].boot
        log.warning("hub: the event store writes again; acknowledgements resume (was: %s)", self.store_down)
        self.store_down = None
        for table, view in self.tables.items():
            if view.boot is not None:
                self._acks_due.setdefault(table, view.boot)
        self._publish_health(force=True)
        if self._resend_due:
            self._resend()  # what waited behind the store: the tables that came back meanwhile

    def _publish_health(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._health_at < _HEALTH_EVERY:
            return
        health = self.health()
        if health == self._health_sent and not force:
            return
        self._health_sent, self._health_at = health, now
        self._link.publish(self.health_topic, json.dumps(health).encode(), retain=True)

    def _publish_acks(self) -> None:
        """After a burst: tell each table what is applied (and, with a store, stored), in order.
        None while the store cannot write: they wait in `_acks_due` until it can. At QoS 0 (`ack_qos`)
        a lost one would be said again when the table resends (a duplicate clears `_acked`) and on
        every reconnect; it saved no CPU measurably, so QoS 1 stays (docs/scale-out.md)."""
        if self.store_down is not None:
            return
        for table, boot in self._acks_due.items():
            view = self.tables.get(table)
            seq = view.last_by_boot.get(boot, 0) if view is not None else 0
            if seq and self._acked.get(table) != (boot, seq):
                self._acked[table] = (boot, seq)
                self._link.publish(wire.hub_ack(table), wire.encode(wire.Ack(boot=boot, seq=seq)), retain=True,
                                   qos=self._ack_qos)
        self._acks_due.clear()


def _by_boot(events: Iterable[tuple[wire.AnyTableEvent, bytes]]) -> list[list[tuple[wire.AnyTableEvent, bytes]]]:
    """A table's events in order, cut where the boot changes (`TableView.hold_back` takes one boot)."""
    groups: list[list[tuple[wire.AnyTableEvent, bytes]]] = []
    for item in events:
        if groups and groups[-1][0][0].boot == item[0].boot:
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups
