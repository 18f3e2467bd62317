"""The delayed stream (`tapis hub --stream-delay MINUTES`): the room with its hole cards, for a broadcast.

Consumes what the dashboard's consumer applies (each hub event with its table's TD snapshot, and the
floor's clock), through the pure `DelayLine` (delayed.py); emits Server-Sent Events to `/stream/events`
only once released: no earlier than the delay and never before the end of the hand they belong to.
Its own logins (`--stream-users`) and cookie: a stream session is no TD session, and a TD's is not one.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import zlib
from collections import deque
from collections.abc import Mapping
from typing import Any

from hub.dashboard.auth import Sessions
from hub.dashboard.delayed import ROOM, DelayLine, HandGate, delay_words, ends, restarted, shows_a_hidden_card
from hub.dashboard.model import JSONDict, Role
from hub.dashboard.routes import Browser
from hw.ports import Clock

log = logging.getLogger(__name__)

CLOCK_EVERY = 10.0  # seconds between two clock snapshots kept for the stream (the page counts between)
DROPS_SAID_EVERY = 60.0  # seconds between two log lines about dropped events (the page counts them all)
LOG_KEPT = 60  # released events kept per table for a page that connects (a hand or two)


def _sse(name: str, text: str) -> bytes:
    return f"event: {name}\ndata: {text}\n\n".encode()


class StreamFeed:
    """The delay line, the released room and the stream's browsers; thread-safe (one lock)."""

    def __init__(self, delay: float, *, clock: Clock, users: Mapping[str, str] | None = None,
                 line: DelayLine | None = None) -> None:
        self.delay = delay
        self.clock = clock
        self.sessions = Sessions(users)
        self.line = line or DelayLine(delay)
        self.gate = HandGate()
        self._lock = threading.Lock()
        self._clients: list[Browser] = []
        self._tables: dict[str, JSONDict] = {}  # the released snapshots
        self._logs: dict[str, deque[JSONDict]] = {}
        self._clock: JSONDict | None = None
        self._last_clock_at: float | None = None
        self._said_dropped = 0
        self._said_at = 0.0

    # --- in (the dashboard's consumer thread) ----------------------------------------------------------

    def offer(self, event: Mapping[str, Any], snapshot: Mapping[str, Any] | None) -> None:
        now = self.clock.now()
        table = str(event.get("table", ""))
        text = json.dumps({"at": now, "event": event, "table": snapshot}, separators=(",", ":"))
        packed = zlib.compress(text.encode(), 1)  # a 9-seat snapshot: ~1.7 kB, ~5x less held for the delay
        with self._lock:
            self.line.offer(now, table or ROOM, packed, hand=self.gate.waits_for(event, snapshot),
                            ended=ends(event, snapshot), secret=shows_a_hidden_card(event, snapshot),
                            restart=restarted(event))

    def offer_clock(self, clock_text: str) -> None:
        """The floor's clock (JSON text), kept every CLOCK_EVERY seconds: it is shown as late as the hands."""
        now = self.clock.now()
        with self._lock:  # a TD's command publishes the clock from its HTTP thread too
            if self._last_clock_at is not None and 0 <= now - self._last_clock_at < CLOCK_EVERY:
                return
            self._last_clock_at = now
            self.line.offer(now, ROOM, zlib.compress(f'{{"at":{now!r},"clock":{clock_text}}}'.encode(), 1))

    def tick(self) -> int:
        """Send what the delay line releases now; returns how many messages."""
        now = self.clock.now()
        with self._lock:
            released = self.line.due(now)
            for table, packed in released:
                raw = zlib.decompress(packed)
                data = json.loads(raw)
                if table == ROOM and "clock" in data:
                    self._clock = data
                    self._fan_out(_sse("clock", raw.decode()))
                    continue
                if data.get("table") is not None:
                    self._tables[table] = data["table"]
                self._logs.setdefault(table, deque(maxlen=LOG_KEPT)).append({"at": data["at"], **data["event"]})
                self._fan_out(_sse("update", raw.decode()))
            if self.line.dropped != self._said_dropped:
                if self._said_dropped == 0 or now - self._said_at >= DROPS_SAID_EVERY:
                    log.warning("stream: %d held events dropped so far (memory bound), oldest first", self.line.dropped)
                    self._said_at = now
                self._said_dropped = self.line.dropped
                self._fan_out(_sse("dropped", json.dumps({"dropped": self.line.dropped})))
        return len(released)

    def _fan_out(self, message: bytes) -> None:
        for client in self._clients:
            try:
                client.messages.put_nowait(message)
            except queue.Full:
                client.dropped = True

    # --- out (HTTP handler threads) ------------------------------------------------------------------------

    def room(self) -> JSONDict:
        return {"tables": dict(sorted(self._tables.items())),
                "logs": {t: list(events) for t, events in sorted(self._logs.items())},
                "clock": self._clock, "delay": self.delay, "words": delay_words(self.delay),
                "dropped": self.line.dropped}

    def subscribe(self) -> tuple[Browser, bytes]:
        client = Browser(Role.STREAM)
        with self._lock:
            first = _sse("room", json.dumps(self.room(), separators=(",", ":")))
            self._clients.append(client)
        return client, first

    def unsubscribe(self, client: Browser) -> None:
        with self._lock:
            if client in self._clients:
                self._clients.remove(client)

    def close(self) -> None:
        with self._lock:
            clients, self._clients = self._clients, []
        for client in clients:
            client.close()

    @property
    def clients(self) -> int:
        with self._lock:
            return len(self._clients)
