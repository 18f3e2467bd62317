"""A busy tournament hub's turn gathers the messages that follow its first for `GATHER_SECONDS` (one
BEGIN, COMMIT and fsync for more events: `hub.edge.service_loop`); a quiet room's message, and any
message of a hub without a store, is applied at once. Each still stored before it is acknowledged."""

from __future__ import annotations

import time
from pathlib import Path
from typing import cast

import pytest
from test_turn_commit import ACKS, Room

from hub.edge import service, service_loop
from hub.edge.service import HubService
from tablewire import wire
from tablewire.mqtt import Message, MqttLink
from tests.hub.fake_link import RecordingLink
from tests.support import wait_until


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


def test_a_busy_rooms_turn_waits_for_the_next_messages_and_stores_them_in_one_commit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service, "GATHER_SECONDS", 0.5)  # long enough to measure, on any machine
    monkeypatch.setattr(service_loop, "_GATHER_WHILE", 3600.0)  # busy once the loop has drained once
    room = Room(tmp_path)
    log = timed(room)
    try:
        room.hub.start()
        assert room.hub.settle(10)  # a drain: the room counts as busy from here
        before = room.store.commits
        handed = hand(room.link, room.event("t1"))
        hand(room.link, room.event("t2"))
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
    room = Room(tmp_path)
    log = timed(room)
    try:
        room.hub.start()  # nothing drained yet: quiet
        hand(room.link, room.event("t1"))
        assert wait_until(lambda: acked_at(room, log, "t1"), timeout=10), "a quiet room's message waited"
    finally:
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
