"""A hub whose queue never runs dry (a room near its ceiling) still ticks its games and still tells the
tables what it stored: otherwise Time never expires and every outbox resends all it holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import pytest

from hub import wire
from hub.mqtt import Message, MqttLink
from hub.service import HubService
from tests.support import wait_until


class BusyLink:
    """Records each publish with the hub's backlog at that moment."""

    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[Message], None]] = {}
        self.hub: HubService | None = None
        self.acks: list[int] = []  # the backlog when each ack went out

    def subscribe(self, pattern: str, handler: Callable[[Message], None]) -> Callable[[], None]:
        self.handlers[pattern] = handler
        return lambda: None

    def on_connect(self, hook: Callable[[], None]) -> None:
        pass

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> None:
        if topic.startswith("tapis/v1/hub/ack/") and self.hub is not None:
            self.acks.append(self.hub.backlog())


def test_acks_and_ticks_go_out_while_the_queue_is_never_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    link = BusyLink()
    hub = HubService(link=cast(MqttLink, link), tick=0.02)
    link.hub = hub
    ticks: list[int] = []
    tick_games = hub._tick_games
    monkeypatch.setattr(hub, "_tick_games", lambda: (ticks.append(hub.backlog()), tick_games()))
    deliver = link.handlers[wire.ALL_TABLE_EVENTS]
    for seq in range(1, 20_001):  # ~1 s of work queued before the consumer starts
        table = f"t{seq % 50}"
        event = wire.ReaderStatus(table=table, boot="b", seq=seq // 50 + 1, at=0.0, state="connected")
        deliver(Message(wire.table_events(table), wire.encode(event), False))
    hub.start()
    try:
        assert wait_until(hub.idle, timeout=20)
        assert any(backlog > 1000 for backlog in link.acks), "no ack before the queue ran dry"
        assert sum(backlog > 1000 for backlog in ticks) >= 2, "the games were not ticked under load"
    finally:
        hub.stop()
