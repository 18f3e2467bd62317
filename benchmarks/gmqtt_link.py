"""A bench-only stand-in for `tablewire.mqtt.MqttLink` on gmqtt (asyncio, MQTT 5), for the hub's side
of `bench_load.py --compare ...,gmqtt`: what the hub's CPU per event becomes with a cheaper client.

Only what `HubService` uses: subscribe (with no_local), on_connect hooks, publish from any thread,
a will, start and stop. Not for a room: no TLS, no credentials, no reconnect policy of its own, no
refused-publish accounting (docs/scale-out.md says what a real switch needs).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import Any

import gmqtt  # optional: pip install gmqtt (not a tapis dependency)
from paho.mqtt.client import topic_matches_sub

from tablewire.mqtt import Message

log = logging.getLogger(__name__)
Handler = Callable[[Message], None]


class GmqttLink:
    def __init__(self, *, client_id: str, host: str, port: int, will: tuple[str, bytes] | None = None) -> None:
        self.client_id, self._host, self._port = client_id, host, port
        will_message = gmqtt.Message(will[0], will[1], qos=1, retain=True) if will else None
        self._client = gmqtt.Client(client_id, will_message=will_message)
        self._client.on_message = self._on_message
        self._client.on_connect = self._on_connect
        self._exact: dict[str, Handler] = {}  # most subscriptions name one topic: a dict lookup
        self._patterns: list[tuple[str, Handler]] = []
        self._subscriptions: list[gmqtt.Subscription] = []
        self._hooks: list[Callable[[], None]] = []
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=f"gmqtt-{client_id}", daemon=True)

    @property
    def connected(self) -> bool:
        return bool(self._client.is_connected)

    def subscribe(self, pattern: str, handler: Handler, *, no_local: bool = False) -> Callable[[], None]:
        if "+" in pattern or "#" in pattern:
            self._patterns.append((pattern, handler))
        else:
            self._exact[pattern] = handler
        self._subscriptions.append(gmqtt.Subscription(pattern, qos=1, no_local=no_local))
        return lambda: None

    def on_connect(self, hook: Callable[[], None]) -> None:
        self._hooks.append(hook)

    def start(self, timeout: float = 10.0) -> None:
        self._thread.start()
        connect = self._client.connect(self._host, self._port, version=gmqtt.constants.MQTTv50)
        asyncio.run_coroutine_threadsafe(connect, self._loop).result(timeout)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._client.disconnect(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> None:
        if threading.current_thread() is self._thread:
            self._client.publish(topic, payload, qos=qos, retain=retain)
        else:
            self._loop.call_soon_threadsafe(lambda: self._client.publish(topic, payload, qos=qos, retain=retain))

    def _on_connect(self, client: Any, _flags: Any, _rc: Any, _props: Any) -> None:
        if self._subscriptions:
            client.subscribe(self._subscriptions)
        for hook in self._hooks:
            try:
                hook()
            except Exception:
                log.exception("%s: on-connect hook failed", self.client_id)

    def _on_message(self, _c: Any, topic: str, payload: bytes, _qos: int, props: Any) -> int:
        handler = self._exact.get(topic)
        handlers = [handler] if handler is not None else [h for p, h in self._patterns if topic_matches_sub(p, topic)]
        message = Message(topic, payload, bool(props.get("retain")) if isinstance(props, dict) else False)
        for h in handlers:
            try:
                h(message)
            except Exception:
                log.exception("%s: handler for %s failed", self.client_id, topic)
        return 0  # PUBACK: success
