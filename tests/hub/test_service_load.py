"""What the hub does for a busy room: a queue that never runs dry (near the ceiling) still ticks the games
and still tells the tables what is stored (else Time never expires and every outbox resends all it
holds); the retained states go at QoS 0 (no PUBACK to handle) and are all republished on reconnect."""

from __future__ import annotations

import time
from typing import cast

import pytest

from hub.edge import service_loop
from hub.edge.service import HubService
from tablewire import wire
from tablewire.mqtt import Message, MqttLink
from tests.hub.fake_link import RecordingLink
from tests.support import wait_until


def queue(link: RecordingLink, messages: int, *, tables: int) -> None:
    """`messages` table events handed to the hub's link, spread over `tables` tables, in order."""
    deliver = link.handlers[wire.ALL_TABLE_EVENTS]
    for seq in range(1, messages + 1):
        table = f"t{seq % tables}"
        event = wire.ReaderStatus(table=table, boot="b", seq=seq // tables + 1, at=0.0, state="connected")
        deliver(Message(wire.table_events(table), wire.encode(event), False))


def test_acks_and_ticks_go_out_while_the_queue_is_never_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    link = RecordingLink()
    hub = HubService(link=cast(MqttLink, link), tick=0.02)
    acks: list[int] = []  # the backlog when each ack went out
    link.on_publish = lambda topic: acks.append(hub.backlog()) if topic.startswith("tapis/v1/hub/ack/") else None
    ticks: list[int] = []
    tick_games = hub._tick_games
    def counted_tick() -> None:
        ticks.append(hub.backlog())
        tick_games()

    monkeypatch.setattr(hub, "_tick_games", counted_tick)
    queue(link, 20_000, tables=50)  # ~1 s of work queued before the consumer starts
    hub.start()
    try:
        assert wait_until(hub.idle, timeout=20)
        assert any(backlog > 1000 for backlog in acks), "no ack before the queue ran dry"
        assert sum(backlog > 1000 for backlog in ticks) >= 2, "the games were not ticked under load"
    finally:
        hub.stop()


def test_states_go_at_qos0_and_every_table_is_republished_on_reconnect() -> None:
    link = RecordingLink()
    hub = HubService(link=cast(MqttLink, link))
    hub.start()
    try:
        for table in ("t1", "t2"):
            event = wire.ReaderStatus(table=table, boot="b", seq=1, at=0.0, state="connected")
            link.handlers[wire.ALL_TABLE_EVENTS](Message(wire.table_events(table), wire.encode(event), False))
        assert wait_until(hub.idle)  # applied and the states published (they wait for their window)
        states = {wire.hub_table_state(t) for t in ("t1", "t2")} | {wire.hub_td_state(t) for t in ("t1", "t2")}
        assert {(t, r, q) for t, _, r, q in link.published if t in states} == {(t, True, 0) for t in states}
        assert all(q == 1 for t, _, _, q in link.published if t not in states)  # events, acks: QoS 1
        link.published.clear()
        link.reconnect()  # the broker restarted: what it retained is gone
        assert hub.tick(5)
        assert (wire.HUB_STATUS, wire.ONLINE, True, 1) in link.published
        assert {t for t, *_ in link.published} >= states
    finally:
        hub.stop()


def test_a_burst_ends_after_its_time_so_the_first_acks_of_a_backlog_leave_before_its_last(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A backlog of slow messages (fewer than a burst's count) is applied in bursts of `_BURST_SECONDS`:
    each ends with its acknowledgements, not all of them once the last is applied."""
    link = RecordingLink()
    hub = HubService(link=cast(MqttLink, link))
    acks: list[int] = []  # the backlog when each ack went out
    link.on_publish = lambda topic: acks.append(hub.backlog()) if topic.startswith("tapis/v1/hub/ack/") else None
    apply_item = hub._apply_item

    def slow(item: object) -> None:
        ends = time.perf_counter() + 0.002  # a message that takes 2 ms to apply
        while time.perf_counter() < ends:
            pass
        apply_item(item)  # type: ignore[arg-type]

    monkeypatch.setattr(hub, "_apply_item", slow)
    monkeypatch.setattr(service_loop, "_BURST_SECONDS", 0.02)
    queue(link, 200, tables=4)  # 0.4 s of work, a fifth of a burst's count
    hub.start()
    try:
        assert wait_until(hub.idle, timeout=20)
        assert any(backlog > 100 for backlog in acks), "the first acks waited for the whole backlog"
    finally:
        hub.stop()
