"""The hub service's loop: what waits for it, and how it is drained, ticked and stopped.

Everything runs on one asyncio loop, on one thread: the link's own (`hub.edge.link.HubLink`) or a
thread of the service's own, named `hub`, for a link without one (paho's `MqttLink`). Any thread
hands the loop an item (`_submit`: a table's message, a TD's command, a tick); the loop applies them
in order, `_BURST` at a time or for `_BURST_SECONDS`, so the link reads and writes between bursts (each
burst's acknowledgements with it). Past `max_backlog` waiting, a link that can (`HubLink.pause_reading`)
stops reading the broker until half are applied. The clock ticks every `tick` seconds, and a table's
retained states wait out their window on a timer (`hub.edge.coalesce`). What an item does, and what
happens on the clock, after a burst, when a table's states are due and at the end, is the service's
(`hub.edge.service.HubService`): the hooks.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from hub.edge.coalesce import Coalescer
from hub.floor.commands import CommandResult
from hub.floor.store import JSON
from hub.room.game import TableSetup
from tablewire.mqtt import Link, Message

log = logging.getLogger("hub.edge.service")  # the service's log, whichever of its modules speaks

# A table's retained states go out at most once per window, the latest (`hub.edge.coalesce`): short
# enough for a TD's screen, long enough to fold the states of one burst (a card and its fault).
STATE_WINDOW = 0.03
# Messages applied before the loop reads and writes again: a backlog does not hold the acknowledgements
# and PUBACKs of the whole backlog back
_BURST = 500
# ... or applied for this long, whichever comes first: past a lump (a collection, a break's moves), a
# tournament hub's first messages of a long backlog are not acknowledged only with its last (each burst
# is one transaction and one fsync: 20 ms keeps that under a few percent of a backlog's work)
_BURST_SECONDS = 0.02
# Group commit's gathering (`gather`, a hub with a store): a turn of a hub with a store pays a BEGIN, a
# COMMIT and an fsync whatever it holds (~0.35 ms of CPU with its acknowledgements on the 2-core machine).
# While the room is busy (a message comes less than `_GATHER_WHILE` after the last drain began), the drain
# waits `GATHER_SECONDS` for the next messages to join its turn: each acknowledgement and hub event goes
# out up to that much later (a screen's frame is 16 ms), the turn's cost is shared by more events
# (PostgreSQL's `commit_delay`). A quiet room is drained at once; a backlog never waits (the next burst
# follows at once). docs/scale-out.md, "The turn gathers" (issue 35).
GATHER_SECONDS = 0.005
_GATHER_WHILE = 0.02
# Past this many messages waiting, the link stops reading the broker until half are applied (a link
# that can: HubLink): a flood waits at the broker and in the tables' outboxes, not in the hub's memory
MAX_BACKLOG = 20_000


@dataclass(frozen=True, slots=True)
class Tick:
    done: threading.Event | None = None


@dataclass(frozen=True, slots=True)
class Settle:
    done: threading.Event


@dataclass(frozen=True, slots=True)
class Decide:
    table: str
    kind: str
    option: str
    by: str


@dataclass(frozen=True, slots=True)
class Cancel:
    table: str
    by: str


@dataclass(frozen=True, slots=True)
class FloorCommand:
    command: dict[str, JSON]
    answer: Callable[[CommandResult], None]


@dataclass(frozen=True, slots=True)
class SayMoves:
    """The moves a TD's command made, to tell the tables (`FloorService.on_moves`, from any thread)."""

    moves: list[dict[str, JSON]]


@dataclass(frozen=True, slots=True)
class Reconnected:
    pass


@dataclass(frozen=True, slots=True)
class AckRead:
    message: Message


@dataclass(frozen=True, slots=True)
class Configure:
    table: str
    setup: TableSetup


Item = Message | Tick | Settle | Configure | Decide | Cancel | FloorCommand | Reconnected | AckRead | SayMoves


class ServiceLoop(ABC):
    """The inbox, its drain, the clock's ticker and the states' timer, on the service's loop."""

    def __init__(self, link: Link, *, tick: float, state_window: float, max_backlog: int,
                 gather: float = 0.0) -> None:
        self._tick = tick
        self._gather = gather  # seconds a busy room's drain waits for more of its turn (0: none)
        # time.monotonic() of the last drain; none yet: quiet for any window (time.monotonic() may count from
        # the machine's boot: -1.0 would read as busy for a window longer than its uptime)
        self._drain_began = float("-inf")
        # What waits for the loop, from any thread, in order: the link's messages and the TD's commands
        self._inbox: deque[Item | None] = deque()
        self._wake_lock = threading.Lock()
        self._woken = False  # a drain is scheduled on the loop
        self._busy = False  # the loop is applying what it took from the inbox
        self._stopped = threading.Event()
        link_loop = getattr(link, "loop", None)  # HubLink: the service runs on the link's thread
        self._own_loop = not isinstance(link_loop, asyncio.AbstractEventLoop)
        self._loop: asyncio.AbstractEventLoop = link_loop if isinstance(link_loop, asyncio.AbstractEventLoop) \
            else asyncio.new_event_loop()
        self._loop_thread: threading.Thread | None = None
        self._ticker: asyncio.TimerHandle | None = None
        self._state_timer: asyncio.TimerHandle | None = None
        self._state_timer_at = 0.0
        self._max_backlog = max_backlog
        self._pause = getattr(link, "pause_reading", None) if self._own_loop is False else None
        self._paused = False
        self.max_backlog_seen = 0
        self._states = Coalescer(state_window)
        self._thread = threading.Thread(target=self._run, name="hub", daemon=True) if self._own_loop else None

    # The service's part ------------------------------------------------------------------------

    @abstractmethod
    def _apply_item(self, item: Item) -> None:
        """One item from the inbox, on the loop."""

    @abstractmethod
    def _on_clock(self) -> None:
        """Every `tick` seconds, on the loop."""

    @abstractmethod
    def _burst_applied(self) -> None:
        """The items taken from the inbox are applied (the inbox ran dry, a burst ended, or the stop):
        what they stored is committed, before anything else runs on the loop."""

    @abstractmethod
    def _after_burst(self) -> None:
        """After the inbox ran dry."""

    @abstractmethod
    def _between_bursts(self) -> None:
        """After a burst whose count or time is up, more waiting: what must not wait for the inbox to run dry."""

    @abstractmethod
    def _state_due(self, table: str) -> None:
        """The table's states' window ended: publish them."""

    @abstractmethod
    def _on_stop(self) -> None:
        """The last turn of the loop, before its timers stop."""

    # From any thread ---------------------------------------------------------------------------

    def _start_loop(self) -> None:
        self._loop.call_soon_threadsafe(self._begin)
        if self._thread is not None:
            self._thread.start()

    def tick(self, wait: float | None = None) -> bool:
        """Let the games see the clock now (Time countdowns); with `wait`, block until done."""
        done = threading.Event() if wait is not None else None
        self._submit(Tick(done))
        return done.wait(wait) if done is not None else True

    def settle(self, timeout: float = 10.0) -> bool:
        """Block until everything handed to the service before this call is applied (tests, tools)."""
        done = threading.Event()
        self._submit(Settle(done))
        return done.wait(timeout)

    def idle(self) -> bool:
        """Everything received is applied and every table's state is published."""
        return not self._inbox and not self._busy and not self._woken and not self._states

    def backlog(self) -> int:
        """Messages received and not yet applied: grows without end past this hub's ceiling."""
        return len(self._inbox)

    def stop(self) -> None:
        """Publish the states still in their window and the acknowledgements due, then stop (the link,
        if it owns the loop, is stopped after: `HubParts.stop`)."""
        if not self._loop.is_closed() and self._loop.is_running() and not self._stopped.is_set():
            self._submit(None)
            self._stopped.wait(5)
        if self._thread is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)

    # On the loop ---------------------------------------------------------------------------------

    def _run(self) -> None:
        """The service's own loop, for a link without one (paho's)."""
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_forever()
        finally:
            self._loop.close()

    def _on_loop(self) -> bool:
        return self._loop_thread is threading.current_thread()

    def _submit(self, item: Item | None) -> None:
        """From the link's handlers (on the loop with HubLink) or any other thread: applied in order."""
        if self._stopped.is_set():
            return
        self._inbox.append(item)
        if self._on_loop():
            if not self._woken:  # one drain per burst of the link's messages, after the burst
                self._woken = True
                self._wake()
            if len(self._inbox) > self._max_backlog and self._pause is not None and not self._paused:
                self._paused = True
                self._pause(True)
                log.warning("hub: %d messages wait to be applied: reading the broker paused until half are",
                            len(self._inbox))
            return
        with self._wake_lock:
            if self._woken:
                return
            self._woken = True
        if not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        """On the loop: the drain now, or while a store's room is busy `gather` seconds on (see `GATHER_SECONDS`)."""
        if self._gather and time.monotonic() - self._drain_began < _GATHER_WHILE:
            self._loop.call_later(self._gather, self._drain)
        else:
            self._loop.call_soon(self._drain)

    def _begin(self) -> None:
        self._loop_thread = threading.current_thread()
        # The games see the clock every `tick` seconds even when the inbox never runs dry: near its
        # ceiling it does not, and a Time countdown must still expire, and the tables' outboxes still
        # hear what is stored (else they resend it all and the load doubles).
        self._ticker = self._loop.call_later(self._tick, self._on_tick)

    def _on_tick(self) -> None:
        if self._stopped.is_set():
            return
        self._ticker = self._loop.call_later(self._tick, self._on_tick)
        self._on_clock()
        self._arm_states()

    def _drain(self) -> None:
        with self._wake_lock:
            self._woken = False
        self._busy = True
        self._drain_began = time.monotonic()
        self.max_backlog_seen = max(self.max_backlog_seen, len(self._inbox))
        try:
            deadline = time.perf_counter() + _BURST_SECONDS
            for n in range(_BURST):
                if not self._inbox or (n & 7 == 7 and time.perf_counter() > deadline):
                    break
                item = self._inbox.popleft()
                if item is None:
                    self._burst_applied()
                    self._finish()
                    return
                self._apply_item(item)
            if self._inbox:  # more than a burst: the rest after the loop has read and written
                self._burst_applied()
                self._between_bursts()  # this burst's acknowledgements go with its COMMIT, not the backlog's last
                with self._wake_lock:
                    self._woken = True
                self._loop.call_soon(self._drain)
                return
            self._burst_applied()
            self._after_burst()
        finally:
            self._burst_applied()  # an exception out of an item: its turn ends here all the same
            self._busy = False
            if self._paused and len(self._inbox) <= self._max_backlog // 2 and self._pause is not None:
                self._paused = False
                self._pause(False)
            self._arm_states()

    def _finish(self) -> None:
        self._on_stop()
        for timer in (self._ticker, self._state_timer):
            if timer is not None:
                timer.cancel()
        self._inbox.clear()
        self._stopped.set()

    def _arm_states(self) -> None:
        """A timer for the next table whose states' window ends (`hub.edge.coalesce`)."""
        due = self._states.next_due()
        if due is None or self._stopped.is_set():
            return
        if self._state_timer is not None:
            if self._state_timer_at <= due:
                return
            self._state_timer.cancel()
        self._state_timer_at = due
        # the coalescer's clock is time.monotonic, the loop's too (asyncio's default)
        self._state_timer = self._loop.call_at(due, self._states_due)

    def _states_due(self) -> None:
        self._state_timer = None
        for table in self._states.due(time.monotonic()):
            self._state_due(table)
        self._arm_states()
