"""The TD dashboard's web server: hub events in (a listener), pages, JSON and Server-Sent Events out.

The hub's listener snapshots the table on the hub's thread and only enqueues; one consumer thread
applies events to the `RoomModel` and fans each one out, serialised once per role, to every browser's
queue. Viewers' messages are filtered on the server (no hole cards of a live hand); TD actions need a
login (session cookie) and a CSRF token. Standard library only: `http.server` threads, no build step.
"""

from __future__ import annotations

import json
import logging
import queue
import sys
import threading
import time
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any

from hub.dashboard.auth import LoginLimiter, Sessions
from hub.dashboard.floor_view import closed_tables, seated_at
from hub.dashboard.model import (
    DecisionTaken,
    JSONDict,
    Role,
    RoomModel,
    capture,
    closed_snapshot,
    for_viewer,
    reseated,
    viewer_event,
)
from hub.dashboard.routes import Browser, handler
from hub.dashboard.stream import StreamFeed
from hub.edge.service import HubService
from hub.floor.clock_topics import TableTexts, snapshot_text
from hub.floor.commands import CommandError
from hub.floor.moves import table_number
from hub.floor.rulebook_files import from_folder
from hub.floor.service import FloorError, FloorService
from hub.floor.store import StoreError
from hub.room.game import TableGame
from hub.room.tables import HubEvent
from hub.tournament.errors import TournamentError
from hw.ports import Clock, MonotonicClock

log = logging.getLogger(__name__)

REQUEST_TIMEOUT = 10.0  # seconds a socket may stay silent (a request's headers, its body, an SSE write)


def _sse(name: str, data: Mapping[str, Any]) -> bytes:
    return _sse_text(name, json.dumps(data, separators=(",", ":")))


def _sse_text(name: str, text: str) -> bytes:
    return f"event: {name}\ndata: {text}\n\n".encode()


def _refused(command: JSONDict, french: str, english: str) -> JSONDict:
    """A floor refusal the dashboard says itself, in the floor's shape (the page shows one language)."""
    return {"ok": False, "error": english, "error_fr": french, "error_en": english, "cmd": command.get("cmd", "?")}


def _static_files() -> dict[str, bytes]:
    root = resources.files("hub.dashboard") / "static"
    return {f.name: f.read_bytes() for f in root.iterdir() if f.is_file()}


class _BoundedServer(ThreadingHTTPServer):
    """`ThreadingHTTPServer` with at most `workers` threads: past them a connection is told 503 at
    once and closed (a flood of idle sockets cannot take a thread each), and a handler's unexpected
    failure is logged once, never printed as a bare traceback on stderr."""

    daemon_threads = True
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler], *, workers: int) -> None:
        self._slots = threading.BoundedSemaphore(workers)
        super().__init__(address, handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            try:
                request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
                                b"Retry-After: 1\r\nConnection: close\r\n\r\n")
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        who = client_address[0] if client_address else "?"
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError, TimeoutError)):
            log.debug("dashboard: %s went away mid-answer", who)  # a closed tab, a phone asleep: not ours
            return
        log.exception("dashboard: a request from %s failed", who)


class Dashboard:
    """`Dashboard(hub, floor=..., users=...)`, `.start()`, `.url`, `.stop()`.

    `floor_lock` must be the lock the floor's owner holds around `FloorService.pump` (the floor is
    single-threaded); `on_decision` is called with each td_decision the TD settles on the page.
    `request_timeout`: seconds a silent connection is kept (half-sent requests are dropped after it).
    """

    MAX_WORKERS = 64  # connections served at once, every browser's event stream included

    def __init__(self, hub: HubService, *, floor: FloorService | None = None, host: str = "127.0.0.1",
                 port: int = 0, users: Mapping[str, str] | None = None, clock: Clock | None = None,
                 floor_lock: threading.RLock | None = None,
                 on_decision: Callable[[DecisionTaken], None] | None = None,
                 clock_period: float = 1.0, request_timeout: float = REQUEST_TIMEOUT,
                 rulebooks: Path | None = None, stream_delay: float | None = None,
                 stream_users: Mapping[str, str] | None = None) -> None:
        if not 0 <= port <= 65535:
            raise ValueError(f"dashboard port {port}: expected 0 to 65535 (0: any free port)")
        self.hub = hub
        self.request_timeout = request_timeout
        self.logins = LoginLimiter()
        self.floor = floor
        self.rulebooks = rulebooks  # the club's rulebook files the desk offers (tapis hub --rulebooks)
        self.clock: Clock = clock or MonotonicClock()
        self.floor_lock = floor_lock or threading.RLock()
        self.on_decision = on_decision
        self.sessions = Sessions(users)
        # the delayed stream (stream.py), only when asked for: None answers its routes 404
        self.stream = (StreamFeed(stream_delay, clock=self.clock, users=stream_users)
                       if stream_delay is not None else None)
        self.model = RoomModel()
        self.decisions: list[DecisionTaken] = []
        self._clock_period = clock_period
        self._lock = threading.Lock()  # the model and the client list
        self._clients: list[Browser] = []
        self._inbox: queue.Queue[tuple[float, HubEvent, JSONDict | None] | None] = queue.Queue()
        self._static = _static_files()
        self._running = False
        self._last_clock: JSONDict | None = None
        self._clock_texts = TableTexts()  # each table's seats encoded once, not every second
        self._last_store: object = "ok"
        try:
            self._server = _BoundedServer((host, port), handler(self), workers=self.MAX_WORKERS)
        except OSError as err:  # said with the address, as `tapis hub` prints it on one line
            raise OSError(f"tableau de bord : impossible d'écouter sur {host}:{port} / dashboard: cannot listen on "
                          f"{host}:{port} ({err.strerror}): another program, or another hub, holds it: "
                          "--dashboard PORT (0: no dashboard)") from err
        self._threads = [threading.Thread(target=self._server.serve_forever, name="dashboard-http", daemon=True),
                         threading.Thread(target=self._consume, name="dashboard", daemon=True)]
        hub.add_listener(self._on_hub_event)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> Dashboard:
        self._running = True
        self._seed_from_hub()
        for thread in self._threads:
            thread.start()
        return self

    def stop(self) -> None:
        self._running = False
        self._inbox.put(None)
        if self.stream is not None:
            self.stream.close()
        with self._lock:
            clients, self._clients = self._clients, []
        for client in clients:
            client.close()
        self._server.shutdown()
        self._server.server_close()
        for thread in self._threads:
            thread.join(5)

    # --- hub side -----------------------------------------------------------------------------------

    def _seed_from_hub(self) -> None:
        """Tables the hub already follows, so a dashboard started late is not empty until they speak.

        Read from this thread, so best effort: the table's next event brings the exact state (the hub
        has no call to run a function on its own thread yet)."""
        for _ in range(3):
            try:
                snapshots = [capture(view, self._game(table), self._seated(table), closed=self._closed(table))
                             for table, view in list(self.hub.tables.items())]
            except (RuntimeError, KeyError, AttributeError):
                continue  # a table changed under us: try again
            with self._lock:
                for snap in snapshots:
                    self.model.tables.setdefault(str(snap["table"]), snap)
            return

    def _on_hub_event(self, event: HubEvent) -> None:
        """On the hub's thread: copy the table's state (only this thread may read it) and enqueue."""
        if not self._running:
            return
        table = str(event.get("table", ""))
        view = self.hub.tables.get(table)
        snapshot = (capture(view, self._game(table), self._seated(table), closed=self._closed(table))
                    if view is not None else None)
        self._inbox.put((time.monotonic(), event, snapshot))

    def _game(self, table: str) -> TableGame | None:
        """The table's game: the hub's own, or in a tournament the floor's (`hub.floor.tables`)."""
        game = self.hub.games.get(table)
        floor_tables = self.hub.floor_tables
        if game is None and floor_tables is not None:
            game = floor_tables.game(table)
        return game

    def _seated(self, table: str) -> dict[int, tuple[str, int]]:
        """Seat -> (player, chips) at a tournament table, read on the hub's thread (which plays the
        floor's table facts); none for a table the hub plays itself (no tournament there)."""
        if self.hub.floor_tables is None or table in self.hub.games:
            return {}
        floor = self.hub.floor_tables.floor
        if floor.tournament is None:
            return {}
        try:
            state = floor.tournament.state
            seats = dict(state.tables[table_number(table)].seats)
            return {seat: (name, state.players[name].chips) for seat, name in seats.items()}
        except (FloorError, KeyError, RuntimeError):
            return {}  # not a tournament table, or one the floor broke up

    def _closed(self, table: str) -> bool:
        """The floor broke this table up (or gathered it into the final table), read on the hub's thread."""
        if self.hub.floor_tables is None or table in self.hub.games:
            return False
        try:
            return bool(closed_tables(self.hub.floor_tables.floor.tournament, [table]))
        except RuntimeError:
            return False  # the floor changed under us: the periodic check (`follow_floor`) catches up

    def follow_floor(self) -> None:
        """What the floor changed since the tables last spoke: a table broken up (by a TD's elimination or
        another table's hand) is shown closed; a table between hands shows the players moved in or out.
        Those tables send nothing until their next hand, and would stay drawn with their old seats."""
        if self.floor is None:
            return
        with self._lock:
            shown = [t for t, snap in self.model.tables.items() if not snap.get("closed")]
        if not shown:
            return
        try:
            with self.floor_lock:
                own = set(self.hub.games)  # tables the hub plays itself: no tournament there
                closed = closed_tables(self.floor.tournament, shown) - own
                seated = seated_at(self.floor.tournament, set(shown) - own)
        except RuntimeError:
            return  # the hub added a game as we read (its thread owns them): the next period catches up
        with self._lock:
            for table in shown:
                snap = self.model.tables.get(table)
                if snap is None or snap.get("closed"):
                    continue  # closed meanwhile by its own event
                if table in closed:
                    self._apply_locked(time.monotonic(), {"type": "table_closed", "table": table},
                                       closed_snapshot(snap))
                elif table in seated and (moved := reseated(snap, seated[table])) is not None:
                    self._apply_locked(time.monotonic(), {"type": "table_seats", "table": table}, moved)

    def _consume(self) -> None:
        next_clock = time.monotonic()
        while True:
            try:
                item = self._inbox.get(timeout=max(0.0, next_clock - time.monotonic()))
                if item is None:
                    return
            except queue.Empty:
                item = None  # time for the clock
            try:
                if item is not None:
                    self._apply(*item)
                if time.monotonic() >= next_clock:
                    next_clock = time.monotonic() + self._clock_period
                    if self.floor is not None:
                        self.publish_clock()
                        self.follow_floor()
                    self._publish_health()
                    if self.stream is not None:
                        self.stream.tick()
            except Exception:  # noqa: BLE001 - the page keeps following the other tables
                log.exception("dashboard: failed on a hub event")

    def _apply(self, t0: float, event: HubEvent, snapshot: JSONDict | None) -> None:
        with self._lock:
            self._apply_locked(t0, event, snapshot)

    def _apply_locked(self, t0: float, event: HubEvent, snapshot: JSONDict | None) -> None:
        table = str(event.get("table", ""))
        was = self.model.tables.get(table)
        self._apply_one(t0, event, snapshot)
        if (event.get("type") != "table_closed" and snapshot is not None and snapshot.get("closed")
                and (was is None or not was.get("closed"))):
            # the table's own event (its players' moves said there) brought the floor's breaking of it
            # before the periodic look did: the log says it closed all the same
            self._apply_one(t0, {"type": "table_closed", "table": table}, snapshot)

    def _apply_one(self, t0: float, event: HubEvent, snapshot: JSONDict | None) -> None:
        fault = self.model.apply(event, snapshot, self.clock.now())
        if self.stream is not None:
            self.stream.offer(event, snapshot)
        td: JSONDict = {"t0": t0, "event": event, "table": snapshot}
        viewer: JSONDict = {"t0": t0, "event": viewer_event(event),
                            "table": for_viewer(snapshot) if snapshot is not None else None}
        self._fan_out(_sse("update", td), _sse("update", viewer))
        changed = ([fault] if fault is not None else []) + self.model.retire(event)
        for each in changed:  # opened, or a td_decision made moot (hand over, refused by the hub)
            self._fan_out(_sse("fault", each.to_dict(Role.TD)), _sse("fault", each.to_dict(Role.VIEWER)))

    def _fan_out(self, td: bytes, viewer: bytes | None = None) -> None:
        """Called with `_lock` held, so a browser that just connected misses nothing."""
        for client in self._clients:
            try:
                client.messages.put_nowait(td if client.role is Role.TD or viewer is None else viewer)
            except queue.Full:
                client.dropped = True  # its handler ends the stream; EventSource reconnects and resyncs

    def clock_snapshot(self) -> JSONDict | None:
        if self.floor is None:
            return None
        with self.floor_lock:
            try:
                return self.floor.snapshot(self.clock.now())
            except TournamentError:
                return None  # no tournament yet

    def hub_health(self, role: Role = Role.TD) -> JSONDict:
        """The hub's store and refusal counters (`HubService.health`), read from this thread: best effort.
        A viewer learns only whether the store writes (the error names a file of the hub's)."""
        for _ in range(3):
            try:
                health = dict(self.hub.health())
            except RuntimeError:  # a table appeared while we counted
                continue
            return health if role is Role.TD else {"store": health.get("store")}
        return {}

    def _publish_health(self) -> None:
        """A store that cannot write is shown at once on every page (and when it writes again)."""
        health = self.hub_health()
        if health.get("store") != self._last_store:
            self._last_store = health.get("store")
            with self._lock:
                self._fan_out(_sse("health", health), _sse("health", {"store": health.get("store")}))

    def publish_clock(self) -> None:
        snap = self.clock_snapshot()
        self._last_clock = snap
        text = snapshot_text(snap, self._clock_texts) if snap is not None else "null"
        if self.stream is not None:
            self.stream.offer_clock(text)
        with self._lock:
            self._fan_out(_sse_text("clock", f'{{"clock":{text}}}'))

    # --- browsers -----------------------------------------------------------------------------------

    def subscribe(self, role: Role) -> tuple[Browser, bytes]:
        """A new stream: the whole room now, then every change (registered under the model's lock)."""
        client = Browser(role)
        with self._lock:
            first = _sse("room", {**self.model.room(role), "clock": self._last_clock, "hub": self.hub_health(role)})
            self._clients.append(client)
        return client, first

    def unsubscribe(self, client: Browser) -> None:
        with self._lock:
            if client in self._clients:
                self._clients.remove(client)

    @property
    def clients(self) -> int:
        with self._lock:
            return len(self._clients)

    # --- TD actions ---------------------------------------------------------------------------------

    def acknowledge(self, fault_id: str, by: str) -> JSONDict:
        with self._lock:
            self.model.acknowledge(fault_id, by, self.clock.now())
            fault = self.model.fault(fault_id)
            self._fan_out(_sse("fault", fault.to_dict(Role.TD)), _sse("fault", fault.to_dict(Role.VIEWER)))
            return fault.to_dict(Role.TD)

    def acknowledge_all(self, by: str, table: str | None = None) -> JSONDict:
        """"Tout marquer vu": every open fault (of `table`, or of the room) that asks nothing more of the TD
        than a look; the decisions stay open until decided."""
        with self._lock:
            now = self.clock.now()
            seen = [f for f in self.model.faults.values() if f.acked_by is None and not f.needs_decision
                    and (table is None or f.table == table)]
            for fault in seen:
                self.model.acknowledge(fault.id, by, now)
                self._fan_out(_sse("fault", fault.to_dict(Role.TD)), _sse("fault", fault.to_dict(Role.VIEWER)))
            return {"ok": True, "acknowledged": len(seen)}

    def decide(self, fault_id: str, option: str, by: str) -> JSONDict:
        with self._lock:
            decision = self.model.decide(fault_id, option, by, self.clock.now())
            self.decisions.append(decision)
            fault = self.model.fault(fault_id)
            self._fan_out(_sse("fault", fault.to_dict(Role.TD)), _sse("fault", fault.to_dict(Role.VIEWER)))
        if self.on_decision is not None:
            self.on_decision(decision)
        return decision.to_dict()

    def _read_floor(self, read: Callable[[FloorService], JSONDict]) -> JSONDict | None:
        """What `read` makes of the floor, under its lock; None: no floor, no tournament (or, for a deal,
        none possible: a `ValueError`)."""
        if self.floor is None:
            return None
        with self.floor_lock:
            try:
                return read(self.floor)
            except (TournamentError, ValueError):
                return None

    def deal_offer(self) -> JSONDict | None:
        """Chip chop and ICM for the players left (the desk's deal); None: no tournament or no deal possible."""
        return self._read_floor(lambda floor: floor.deal_offer())

    def history(self) -> JSONDict | None:
        """The TD's latest actions and which can still be undone; None: no tournament."""
        return self._read_floor(lambda floor: {"actions": floor.history()})

    def results(self) -> JSONDict | None:
        """The ranking as `tapis tournament results` gives it (players still in unranked); None: no tournament."""
        return self._read_floor(lambda floor: floor.results())

    def bags(self, day: int | None = None) -> JSONDict | None:
        """The bag sheet as `tapis tournament bags` gives it; None: no tournament, or that day has not ended."""
        return self._read_floor(lambda floor: floor.bags(day))

    def floor_command(self, command: JSONDict) -> JSONDict:
        """Pause, resume, add time, move, eliminate, penalty, redraw... as `FloorService.execute` has them."""
        if self.floor is None:
            return _refused(command, "pas de tournoi sur ce hub", "no tournament floor on this hub")
        if command.get("cmd") in ("cancel_hand", "decide") and self.hub.floor_tables is not None:
            # played by the hub on its thread, store-first; answered once stored and played
            played = self.hub.floor_command(command)
            if played is None:
                return _refused(command, "pas encore enregistré : la commande sera jouée dès que le disque écrira",
                                "not stored yet: the command is played as soon as the store writes")
            return self._on_disk(command) or played.model_dump()
        if command.get("cmd") == "new" and "rulebook_file" in command:  # a club's file, read now and kept
            try:
                ruleset, texts = from_folder(self.rulebooks, str(command["rulebook_file"]))
            except CommandError as err:
                return _refused(command, str(err), str(err))
            command = {k: v for k, v in command.items() if k != "rulebook_file"} | {
                "ruleset": ruleset, "rulebook": list(texts)}
        with self.floor_lock:
            try:
                result = self.floor.execute(command, self.clock.now())
            except StoreError as err:
                return _refused(command, f"non enregistré : {err}", f"not kept: {err}")
        self.publish_clock()
        self.follow_floor()
        return self._on_disk(command) or result.model_dump()

    def _on_disk(self, command: JSONDict) -> JSONDict | None:
        """The TD is answered only once his command is on the disk: the hub groups its commits and syncs
        them before its own packets leave, the dashboard's answer is not one of them. None when it is."""
        store = getattr(self.floor, "store", None)
        try:
            if store is not None:
                store.sync()
        except StoreError as err:
            return _refused(command, f"non enregistré sur le disque : {err}", f"not on the disk: {err}")
        return None
