"""The hub service's store-first path: an event is acknowledged only once stored.

With a tournament's event store (`hub.floor.store`), each table's event is stored before it is played
and acknowledged; a store that cannot write holds the events back in their table views, stops every
acknowledgement, says so (`health`, retained on `hub/health`) and tries again on the clock. A hub that
starts afresh learns from the store where each table's outbox stands, and the cards on each felt. A
part of `hub.edge.service.HubService`, which owns the state named below and plays each event (`_apply`).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field

from hub.floor.store import StoreError
from hub.floor.tables import FloorTables
from hub.room.tables import TableView
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


class StoreFirst(ABC):
    """Stored, then acknowledged; held back while the store cannot write; health said."""

    # the service's state this path reads and changes (set by `HubService.__init__`)
    _link: Link
    _wall: Callable[[], float]
    floor_tables: FloorTables | None
    floor_lock: threading.Lock
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
                view.hand_since = view.noted_at = self._wall()
                if not game.in_hand:
                    view.hand_since = None
        self._felt_from_store()

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
        wait in the view again (`TableView.hold_back`), so no acknowledgement passes them."""
        for i, (event, payload) in enumerate(ready):
            try:
                self._apply(table, view, event, payload)
            except StoreError as err:
                view.hold_back(ready[i:])
                self._store_failed(err)
                return False
            except Exception as err:  # noqa: BLE001 - one bad event does not stop the ones after it
                log.exception("hub: table %s failed on seq %d", table, event.seq)
                self._internal_error(f"{table} seq {event.seq}: internal error {err!r}")
        return True

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
