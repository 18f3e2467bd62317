"""A stand-in for the agent's MQTT link that keeps the table's events as dicts."""

from __future__ import annotations

import json
import queue
from collections.abc import Callable

from tablewire import wire


class RecordingPublisher:
    def __init__(self, table: str) -> None:
        self.topic = wire.table_events(table)
        self.events: queue.Queue[dict[str, object]] = queue.Queue()

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> object:
        if topic == self.topic:
            self.events.put(json.loads(payload))
        return None

    def on_connect(self, hook: Callable[[], None]) -> None:
        pass

    def subscribe(self, pattern: str, handler: Callable[..., None]) -> Callable[[], None]:
        return lambda: None

    def all(self) -> list[dict[str, object]]:
        return list(self.events.queue)
