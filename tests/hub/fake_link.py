"""A stand-in for the hub's `MqttLink` in unit tests: keeps the handlers and hooks, records publishes."""

from __future__ import annotations

from collections.abc import Callable

from tablewire.mqtt import Message


class RecordingLink:
    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[Message], None]] = {}
        self.hooks: list[Callable[[], None]] = []
        self.published: list[tuple[str, bytes, bool, int]] = []  # topic, payload, retain, qos
        self.on_publish: Callable[[str], None] | None = None  # called with each topic, on the publisher's thread

    def subscribe(self, pattern: str, handler: Callable[[Message], None], **_options: object) -> Callable[[], None]:
        self.handlers[pattern] = handler
        return lambda: None

    def on_connect(self, hook: Callable[[], None]) -> None:
        self.hooks.append(hook)

    def reconnect(self) -> None:
        for hook in self.hooks:
            hook()

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> None:
        self.published.append((topic, payload, retain, qos))
        if self.on_publish is not None:
            self.on_publish(topic)
