"""Test helpers for the dashboard: a hub fed table events by hand (no broker), SSE and JSON clients.

`ScriptedRoom` drives a real `HubService` through its MQTT subscription callback with `tablewire.wire`
events (the same path as a table's messages); `SseClient` reads `/events` as a browser's EventSource
would, keeping every raw byte so tests can check what reached the client, not what was drawn.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from hub.edge.service import HubService
from hub.room.game import TableSetup
from hub.rules import Level
from tablewire import wire
from tablewire.mqtt import Message

BOOT = "test"


class FakeLink:
    """Just enough of `MqttLink` for the hub: records what it publishes, keeps the handlers."""

    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[Message], None]] = {}
        self.published = 0

    def subscribe(self, pattern: str, handler: Callable[[Message], None], **_options: object) -> None:
        self.handlers[pattern] = handler

    def on_connect(self, hook: Callable[[], None]) -> None:
        pass

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> None:
        self.published += 1


@dataclass
class ScriptedRoom:
    """A hub whose tables' facts the test sends one by one."""

    link: FakeLink = field(default_factory=FakeLink)
    hub: HubService = field(init=False)
    seq: dict[str, int] = field(default_factory=dict)
    uid: int = 0

    def __post_init__(self) -> None:
        self.hub = HubService(link=self.link, tick=0.05)  # type: ignore[arg-type]

    def configure(self, table: str, players: dict[int, int], button: int, ruleset: str = "cdc-2013") -> None:
        self.hub.configure_table(table, TableSetup(players=players, button=button, level=Level(50, 100),
                                                   ruleset=ruleset, seats=9))

    def _base(self, table: str) -> dict[str, Any]:
        self.seq[table] = self.seq.get(table, 0) + 1
        return {"table": table, "boot": BOOT, "seq": self.seq[table], "at": float(self.seq[table])}

    def send(self, event: wire.AnyTableEvent) -> None:
        handler = self.link.handlers[wire.ALL_TABLE_EVENTS]
        handler(Message(wire.table_events(event.table), wire.encode(event), False))

    def status(self, table: str, online: bool) -> None:
        handler = self.link.handlers[wire.ALL_TABLE_STATUS]
        handler(Message(wire.table_status(table), wire.ONLINE if online else wire.OFFLINE, True))

    def new_hand(self, table: str) -> None:
        self.send(wire.DealerPressed(**self._base(table), button="new_hand", seat=None))

    def card(self, table: str, zone: str, face: str) -> None:
        self.uid += 1
        self.send(wire.CardEvent(**self._base(table), type="card_arrived", zone=zone, uid=f"{self.uid:04X}",
                                 card=face, deck="A", order=self.uid))

    def act(self, table: str, seat: int, action: str, to: int | None = None) -> None:
        self.send(wire.SeatActed(**self._base(table), seat=seat, action=action, to=to))

    def fault(self, table: str, hand: int, kind: str, seat: int | None = None, cards: list[str] | None = None,
              **details: Any) -> None:
        self.send(wire.FaultSeen(**self._base(table), hand=hand, kind=kind, seat=seat, cards=cards or [],
                                 details=details))

    def settle(self, timeout: float = 5.0) -> None:
        """Wait until the hub has processed everything sent (not a timing assertion: a bound)."""
        deadline = time.monotonic() + timeout
        while not self.hub.idle():
            if time.monotonic() > deadline:
                raise TimeoutError("the hub did not process its inbox")
            time.sleep(0.005)


class SseClient:
    """Reads `/events` on its own thread; `raw` is every byte received, `events` the parsed ones."""

    def __init__(self, url: str, cookie: str | None = None) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
        headers = {"Accept": "text/event-stream"}
        if cookie:
            headers["Cookie"] = cookie
        self.conn.request("GET", "/events", headers=headers)
        self.response = self.conn.getresponse()
        self.raw = bytearray()
        self.events: list[tuple[str, dict[str, Any], float]] = []  # name, data, receipt time
        self.changed = threading.Condition()
        self.on_event: Callable[[str, dict[str, Any], float], None] | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        name, data = "message", ""
        try:
            while True:
                line = self.response.readline()
                if not line:
                    return
                now = time.monotonic()
                self.raw += line
                text = line.decode().rstrip("\n")
                if text.startswith("event: "):
                    name = text[7:]
                elif text.startswith("data: "):
                    data += text[6:]
                elif text == "" and data:
                    parsed = json.loads(data)
                    if self.on_event is not None:
                        self.on_event(name, parsed, now)
                    with self.changed:
                        self.events.append((name, parsed, now))
                        self.changed.notify_all()
                    name, data = "message", ""
        except (OSError, ValueError):
            return

    def wait_for(self, test: Callable[[str, dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        seen = 0
        with self.changed:
            while True:
                for name, data, _ in self.events[seen:]:
                    if test(name, data):
                        return data
                seen = len(self.events)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("the expected event never reached the SSE client")
                self.changed.wait(left)

    def close(self) -> None:
        try:
            self.response.close()
            self.conn.close()
        except OSError:
            pass
