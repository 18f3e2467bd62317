"""The tournament hub stores a burst of table events in one transaction (one COMMIT per turn of its loop,
`hub.edge.service_store`), and keeps "stored before acknowledged": no acknowledgement, hub event,
command or state of the turn leaves before its COMMIT, and a COMMIT that fails lets none of them out.
A busy hub's turn gathers the messages that follow its first for `GATHER_SECONDS` (one BEGIN, COMMIT and
fsync for more events: `hub.edge.service_loop`); a quiet room's message, and any message of a hub without
a store, is applied at once."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import cast

import pytest
from service_helpers import db, started_floor

from hub.edge import service, service_loop
from hub.edge.service import HubService
from hub.floor.service import FloorService
from hub.floor.store import EventStore, StoreError
from hub.floor.tables import FloorTables
from tablewire import wire
from tablewire.mqtt import Message, MqttLink
from tests.hub.fake_link import RecordingLink
from tests.support import wait_until

TABLES = ("t1", "t2")
ACKS = {wire.hub_ack(t) for t in TABLES}
COMMANDS = {wire.table_commands(t) for t in TABLES}
# what the hub makes of a table's events: its hand events, the table's commands, its states
MADE = COMMANDS | {f(t) for t in TABLES for f in (wire.hub_table_events, wire.hub_table_state, wire.hub_td_state)}


class CountedStore(EventStore):
    """Counts its COMMITs; fails them while `full` (SQLite on a full disk), reads going on."""

    full = False
    commits = 0

    def _exec(self, sql: str, params: tuple[object, ...] = ()) -> sqlite3.Cursor:
        if sql.strip().upper() == "COMMIT":
            if self.full:
                raise StoreError(f"the event store {self.path} failed: database or disk is full")
            self.commits += 1
        return super()._exec(sql, params)


class Room:
    """A started tournament of two tables on a hub whose link records each publish with what the store
    had committed at that moment, read on a second connection (it sees committed rows only)."""

    def __init__(self, tmp_path: Path) -> None:
        self.path = db(tmp_path)
        self.store = CountedStore(self.path)
        started_floor(self.store, 12, tables=2)
        self.link = RecordingLink()
        self.tables = FloorTables.open(FloorService.open(self.store, link=self.link), self.store)  # type: ignore[arg-type]
        self.hub = HubService(link=self.link, tick=0.05, floor_tables=self.tables, wall=lambda: 5.0)  # type: ignore[arg-type]
        self.reader = sqlite3.connect(self.path, check_same_thread=False)
        self.seen: list[tuple[str, bytes, set[tuple[str, int]], bool]] = []  # topic, payload, committed, open
        self.link.on_publish = self._published
        self.seqs = {"t1": 0, "t2": 0}

    def _published(self, topic: str) -> None:
        payload = self.link.published[-1][1]
        committed = {(str(t), int(s)) for t, s in self.reader.execute("SELECT tbl, seq FROM table_event")}
        self.seen.append((topic, payload, committed, self.store._db.in_transaction))  # noqa: SLF001

    def event(self, table: str, face: str | None = None) -> wire.AnyTableEvent:
        self.seqs[table] += 1
        head = {"table": table, "boot": "b1", "seq": self.seqs[table], "at": float(self.seqs[table])}
        if face is None:
            return wire.DealerPressed(**head, button="new_hand", seat=None)
        uid = face.encode().hex().upper()
        return wire.CardEvent(**head, type="card_arrived", zone="seat:1", uid=uid, card=face,
                              deck=wire.table_deck_ids(table)[0], order=self.seqs[table])

    def burst(self) -> list[wire.AnyTableEvent]:
        """A hand started at both tables and a card each, handed to the hub while its loop waits on the
        floor's lock: one drain, one turn."""
        events = [self.event("t1"), self.event("t2"), self.event("t1", "As"), self.event("t2", "Kd")]
        with self.hub.floor_lock:
            for event in events:
                self.link.handlers[wire.ALL_TABLE_EVENTS](
                    Message(wire.table_events(event.table), wire.encode(event), False))
            assert wait_until(lambda: self.hub.backlog() < len(events))  # the loop took the first: waits
        return events

    def close(self) -> None:
        self.hub.stop()
        self.reader.close()
        self.store.close()


def _acks(seen: list[tuple[str, bytes, set[tuple[str, int]], bool]]) -> list[tuple[str, int, set[tuple[str, int]]]]:
    out = []
    for topic, payload, committed, _ in seen:
        if topic in ACKS:
            out.append((topic.rsplit("/", 1)[-1], int(json.loads(payload)["seq"]), committed))
    return out


def test_nothing_of_a_turn_leaves_before_its_commit(tmp_path: Path) -> None:
    room = Room(tmp_path)
    try:
        room.hub.start()
        assert room.hub.settle()
        before = room.store.commits
        room.burst()
        # waited for without another item in the inbox: the turn ends with its burst, not before an item
        assert wait_until(lambda: {t for t, _, _ in _acks(room.seen)} == {"t1", "t2"})
        assert room.hub.settle()
        assert room.store.commits - before <= 2, "not one transaction per turn"
        for table, seq, committed in _acks(room.seen):
            assert all((table, s) in committed for s in range(1, seq + 1)), \
                f"{table} seq {seq} acknowledged before its turn was committed"
        made = [(topic, opened) for topic, _, _, opened in room.seen if topic in MADE]
        assert len([t for t, _ in made if t in COMMANDS]) >= 2, "the hands did not start"
        assert not any(opened for _, opened in made), "a hub event, command or state left inside the turn"
    finally:
        room.close()


def test_a_turn_whose_commit_fails_lets_nothing_out_and_is_played_once_it_writes(tmp_path: Path) -> None:
    room = Room(tmp_path)
    try:
        room.hub.start()
        assert room.hub.settle()
        room.store.full = True
        events = room.burst()
        assert wait_until(lambda: room.hub.store_down is not None)
        assert room.hub.settle() and room.hub.tick(5.0)
        leaked = [topic for topic, *_ in room.seen if topic in MADE | ACKS]
        assert leaked == [], f"sent for a turn that was not stored: {leaked}"
        with room.hub.floor_lock:  # the floor and the games back to what the store holds: no hand
            assert room.tables.floor.in_hand("t1") is None and room.tables.floor.in_hand("t2") is None
        room.store.full = False
        assert wait_until(lambda: room.hub.store_down is None)
        assert room.hub.settle()
        with room.hub.floor_lock:
            assert room.tables.floor.in_hand("t1") == 1 and room.tables.floor.in_hand("t2") == 1
        stored = sorted((r.table, r.seq) for r in room.store.table_rows())
        assert stored == sorted((e.table, e.seq) for e in events)
        assert wait_until(lambda: {(t, s) for t, s, _ in _acks(room.seen)} >= {("t1", 2), ("t2", 2)})
        contexts = [topic for topic, payload, *_ in room.seen if topic in COMMANDS
                    and json.loads(payload).get("type") == "hand_context"]
        assert sorted(contexts) == [wire.table_commands("t1"), wire.table_commands("t2")]  # once each
    finally:
        room.close()


def hand(link: RecordingLink, event: wire.AnyTableEvent) -> float:
    """`event` handed to the hub's link as the broker would; when."""
    at = time.monotonic()
    link.handlers[wire.ALL_TABLE_EVENTS](Message(wire.table_events(event.table), wire.encode(event), False))
    return at


def acked_at(room: Room, log: list[tuple[str, float]], table: str) -> float | None:
    return next((at for topic, at in log if topic == wire.hub_ack(table)), None)


def timed(room: Room) -> list[tuple[str, float]]:
    """Each publish of the room's hub, with when."""
    log: list[tuple[str, float]] = []
    published = room.link.on_publish

    def stamp(topic: str) -> None:
        log.append((topic, time.monotonic()))
        if published is not None:
            published(topic)

    room.link.on_publish = stamp
    return log


def on_the_loop(room: Room, event: wire.AnyTableEvent) -> float:
    """`event` handed on the hub's own loop, as `HubLink` hands the broker's messages (`_submit`'s path on the
    loop, not another thread's); when."""
    at: list[float] = []
    room.hub._loop.call_soon_threadsafe(lambda: at.append(hand(room.link, event)))
    assert wait_until(lambda: at)
    return at[0]


@pytest.mark.parametrize("handed_on", ["another thread", "the loop"])
def test_a_busy_rooms_turn_waits_for_the_next_messages_and_stores_them_in_one_commit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, handed_on: str) -> None:
    monkeypatch.setattr(service, "GATHER_SECONDS", 0.5)  # long enough to measure, on any machine
    monkeypatch.setattr(service_loop, "_GATHER_WHILE", 3600.0)  # busy once the loop has drained once
    room = Room(tmp_path)
    log = timed(room)
    give = (lambda event: hand(room.link, event)) if handed_on == "another thread" else \
        (lambda event: on_the_loop(room, event))
    try:
        room.hub.start()
        assert room.hub.settle(10)  # a drain: the room counts as busy from here
        before = room.store.commits
        handed = give(room.event("t1"))
        give(room.event("t2"))
        assert wait_until(lambda: acked_at(room, log, "t1") and acked_at(room, log, "t2"), timeout=10)
        assert room.store.commits - before == 1, "the two tables' hands were not stored in one turn"
        waited = cast(float, acked_at(room, log, "t1")) - handed
        assert waited >= 0.5, f"acknowledged {waited * 1000:.0f} ms after it came: the turn did not wait"
        stored = {(r.table, r.seq) for r in room.store.table_rows()}
        assert {("t1", 1), ("t2", 1)} <= stored
        assert all(opened is False for topic, _, _, opened in room.seen if topic in ACKS)
    finally:
        room.close()


def test_a_quiet_rooms_first_message_is_stored_and_acknowledged_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service, "GATHER_SECONDS", 60.0)  # a gathered turn would fail the wait below
    monkeypatch.setattr(service_loop, "_GATHER_WHILE", 3600.0)  # however long the window
    room = Room(tmp_path)
    log = timed(room)
    try:
        room.hub.start()  # nothing drained yet: quiet
        hand(room.link, room.event("t1"))
        assert wait_until(lambda: acked_at(room, log, "t1"), timeout=10), "a quiet room's message waited"
    finally:
        monkeypatch.setattr(service_loop, "_GATHER_WHILE", 0.0)  # the stop's turn at once
        room.close()


def test_a_backlogs_bursts_follow_at_once_each_stored_before_acknowledged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """More than a burst waiting: each burst is committed, then acknowledged (`_between_bursts`), and the next
    follows at once: a backlog is never gathered, though the room is busy then."""
    monkeypatch.setattr(service, "GATHER_SECONDS", 60.0)  # a gathered burst would fail the wait below
    monkeypatch.setattr(service_loop, "_BURST", 2)
    room = Room(tmp_path)
    events = [room.event("t1"), room.event("t2"), room.event("t1", "As"), room.event("t2", "Kd")]
    try:
        room.hub.start()  # nothing drained yet: the first drain at once, the four waiting for it
        before = room.store.commits
        room.hub._loop.call_soon_threadsafe(lambda: [hand(room.link, event) for event in events])
        assert wait_until(lambda: {(t, s) for t, s, _ in _acks(room.seen)} >= {("t1", 2), ("t2", 2)}, timeout=10), \
            f"the backlog's second burst waited: acknowledged {[(t, s) for t, s, _ in _acks(room.seen)]}"
        assert room.store.commits - before >= 2, "one burst: the backlog was not split"
        for table, seq, committed in _acks(room.seen):
            assert all((table, s) in committed for s in range(1, seq + 1)), \
                f"{table} seq {seq} acknowledged before its burst was committed"
    finally:
        monkeypatch.setattr(service_loop, "_GATHER_WHILE", 0.0)  # the stop's turn at once
        room.close()


def test_a_hub_without_a_store_never_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cash hub has no COMMIT to share: its acknowledgements never wait, busy or not."""
    monkeypatch.setattr(service, "GATHER_SECONDS", 60.0)
    monkeypatch.setattr(service_loop, "_GATHER_WHILE", 3600.0)
    link = RecordingLink()
    hub = HubService(link=cast(MqttLink, link))
    hub.start()
    try:
        for seq in (1, 2):
            hand(link, wire.ReaderStatus(table="t1", boot="b", seq=seq, at=0.0, state="connected"))
            assert wait_until(lambda seq=seq: any(  # type: ignore[misc]
                t == wire.hub_ack("t1") and f'"seq":{seq}' in p.decode() for t, p, _, _ in link.published),
                timeout=10), f"message {seq} waited"
    finally:
        hub.stop()
