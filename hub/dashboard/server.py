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
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from hub.dashboard.auth import LoginLimiter, Session, Sessions
from hub.dashboard.model import (
    DashboardError,
    DecisionTaken,
    JSONDict,
    Role,
    RoomModel,
    capture,
    for_viewer,
    viewer_event,
)
from hub.edge.service import HubService
from hub.floor.results_view import results_csv
from hub.floor.service import FloorError, FloorService, table_number
from hub.floor.store import StoreError
from hub.room.game import TableGame
from hub.room.tables import HubEvent
from hub.tournament.errors import TournamentError
from hw.ports import Clock, MonotonicClock

log = logging.getLogger(__name__)

COOKIE = "tapis_td"
CLIENT_QUEUE = 2000  # messages buffered per browser; a browser that falls this far behind is dropped
MAX_BODY = 65536  # a TD action is a few hundred bytes
REQUEST_TIMEOUT = 10.0  # seconds a socket may stay silent (a request's headers, its body, an SSE write)
PAGES = {"/": "room.html", "/table": "table.html", "/clock": "clock.html", "/login": "login.html",
         "/desk": "desk.html", "/results": "results.html"}
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml"}
_SECURITY = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
             "Content-Security-Policy": "default-src 'self'; style-src 'self'; script-src 'self'"}


@dataclass(eq=False)
class _Client:
    role: Role
    messages: queue.Queue[bytes | None] = field(default_factory=lambda: queue.Queue(CLIENT_QUEUE))
    dropped: bool = False


def _sse(name: str, data: Mapping[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


def _static_files() -> dict[str, bytes]:
    root = resources.files("hub.dashboard") / "static"
    return {f.name: f.read_bytes() for f in root.iterdir() if f.is_file()}


class _HttpError(Exception):
    """A request refused before it reaches a page or an action: answered `status`, connection closed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


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
                 floor_lock: threading.Lock | None = None,
                 on_decision: Callable[[DecisionTaken], None] | None = None,
                 clock_period: float = 1.0, request_timeout: float = REQUEST_TIMEOUT) -> None:
        if not 0 <= port <= 65535:
            raise ValueError(f"dashboard port {port}: expected 0 to 65535 (0: any free port)")
        self.hub = hub
        self.request_timeout = request_timeout
        self.logins = LoginLimiter()
        self.floor = floor
        self.clock: Clock = clock or MonotonicClock()
        self.floor_lock = floor_lock or threading.Lock()
        self.on_decision = on_decision
        self.sessions = Sessions(users)
        self.model = RoomModel()
        self.decisions: list[DecisionTaken] = []
        self._clock_period = clock_period
        self._lock = threading.Lock()  # the model and the client list
        self._clients: list[_Client] = []
        self._inbox: queue.Queue[tuple[float, HubEvent, JSONDict | None] | None] = queue.Queue()
        self._static = _static_files()
        self._running = False
        self._last_clock: JSONDict | None = None
        self._last_store: object = "ok"
        self._server = _BoundedServer((host, port), _handler(self), workers=self.MAX_WORKERS)
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
        with self._lock:
            clients, self._clients = self._clients, []
        for client in clients:
            self._close(client)
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
                snapshots = [capture(view, self._game(table), self._seated(table))
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
        snapshot = capture(view, self._game(table), self._seated(table)) if view is not None else None
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
                    self._publish_health()
            except Exception:  # noqa: BLE001 - the page keeps following the other tables
                log.exception("dashboard: failed on a hub event")

    def _apply(self, t0: float, event: HubEvent, snapshot: JSONDict | None) -> None:
        with self._lock:
            fault = self.model.apply(event, snapshot, self.clock.now())
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
        with self._lock:
            self._fan_out(_sse("clock", {"clock": snap}))

    # --- browsers -----------------------------------------------------------------------------------

    def subscribe(self, role: Role) -> tuple[_Client, bytes]:
        """A new stream: the whole room now, then every change (registered under the model's lock)."""
        client = _Client(role)
        with self._lock:
            first = _sse("room", {**self.model.room(role), "clock": self._last_clock, "hub": self.hub_health(role)})
            self._clients.append(client)
        return client, first

    def unsubscribe(self, client: _Client) -> None:
        with self._lock:
            if client in self._clients:
                self._clients.remove(client)

    @staticmethod
    def _close(client: _Client) -> None:
        try:
            client.messages.put_nowait(None)
        except queue.Full:
            client.dropped = True

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

    def decide(self, fault_id: str, option: str, by: str) -> JSONDict:
        with self._lock:
            decision = self.model.decide(fault_id, option, by, self.clock.now())
            self.decisions.append(decision)
            fault = self.model.fault(fault_id)
            self._fan_out(_sse("fault", fault.to_dict(Role.TD)), _sse("fault", fault.to_dict(Role.VIEWER)))
        if self.on_decision is not None:
            self.on_decision(decision)
        return decision.to_dict()

    def results(self) -> JSONDict | None:
        """The ranking as `tapis tournament results` gives it (players still in unranked); None: no tournament."""
        if self.floor is None:
            return None
        with self.floor_lock:
            try:
                return self.floor.results()
            except TournamentError:
                return None

    def floor_command(self, command: JSONDict) -> JSONDict:
        """Pause, resume, add time, move, eliminate, penalty, redraw... as `FloorService.execute` has them."""
        if self.floor is None:
            return {"ok": False, "error": "no tournament floor on this hub", "cmd": command.get("cmd", "?")}
        with self.floor_lock:
            try:
                result = self.floor.execute(command, self.clock.now())
            except StoreError as err:
                return {"ok": False, "error": f"not kept: {err}", "cmd": command.get("cmd", "?")}
        self.publish_clock()
        return result.model_dump()


def _handler(dash: Dashboard) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "tapis-dashboard"
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # small SSE writes: Nagle + delayed ACK would hold each ~40 ms

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
            log.debug("dashboard: " + format, *args)

        # -- helpers --

        def _cookie(self) -> str | None:
            for part in (self.headers.get("Cookie") or "").split(";"):
                name, _, value = part.strip().partition("=")
                if name == COOKIE and value:
                    return value
            return None

        def _session(self) -> Session | None:
            token = self._cookie()
            return dash.sessions.get(token, time.time()) if token else None

        def _send(self, status: int, body: bytes, content_type: str, headers: Mapping[str, str] = {}) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            for name, value in {**_SECURITY, **headers}.items():
                self.send_header(name, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _json(self, status: int, data: Any, headers: Mapping[str, str] = {}) -> None:
            self._send(status, json.dumps(data).encode(), "application/json", headers)

        def _body(self) -> JSONDict:
            """The request's JSON object; `_HttpError` for a bad length, type or body."""
            if self.headers.get("Transfer-Encoding") is not None:
                raise _HttpError(411, "send the body with a Content-Length, not chunked")
            raw_length = self.headers.get("Content-Length")
            raw_length = "0" if raw_length is None else raw_length
            if not (raw_length.isascii() and raw_length.isdigit()) or len(raw_length) > 12:
                if raw_length.strip().isdigit() and len(raw_length.strip()) > 12:
                    raise _HttpError(413, "body too large")
                raise _HttpError(400, "Content-Length must be a number of bytes")
            length = int(raw_length)
            if length > MAX_BODY:
                raise _HttpError(413, f"body too large (at most {MAX_BODY} bytes)")
            if (self.headers.get("Content-Type") or "").split(";")[0].strip() != "application/json":
                # a cross-site form cannot send JSON without a preflight we never answer
                raise _HttpError(400, "a JSON object with Content-Type application/json is expected")
            try:
                raw = self.rfile.read(length)
            except OSError as err:  # the socket's timeout: a body announced and never sent
                raise _HttpError(408, "the request's body did not arrive") from err
            if len(raw) < length:
                raise _HttpError(400, "the body is shorter than its Content-Length")
            try:
                data = json.loads(raw or b"{}")
            except ValueError as err:
                raise _HttpError(400, "a JSON object with Content-Type application/json is expected") from err
            if not isinstance(data, dict):
                raise _HttpError(400, "a JSON object with Content-Type application/json is expected")
            return data

        def _refuse(self, err: _HttpError) -> None:
            self.close_connection = True  # what is left of the body must not be read as a request
            try:
                self._json(err.status, {"error": str(err), "code": "bad_request"}, {"Connection": "close"})
            except OSError:
                pass

        def parse_request(self) -> bool:
            if not dash._running:  # stopped: a kept-alive connection gets no answer, as from a dead hub
                self.close_connection = True
                return False
            if not super().parse_request():
                return False
            if self.request_version == "HTTP/0.9":  # `GET /` alone: an answer without a status line
                self.send_error(HTTPStatus.BAD_REQUEST, "HTTP/1.0 or later")
                return False
            return True

        def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
            if self.request_version == "HTTP/0.9":  # a bad request line: still answer with a status line
                self.request_version = "HTTP/1.0"
            if code == HTTPStatus.NOT_IMPLEMENTED:  # PUT, DELETE, any other method: the client's error
                code, message = HTTPStatus.METHOD_NOT_ALLOWED, "GET, HEAD and POST only"
            super().send_error(code, message, explain)

        def setup(self) -> None:
            # typeshed calls it a class variable; StreamRequestHandler.setup reads it off the instance
            self.timeout = dash.request_timeout  # type: ignore[misc]  # set on the socket by setup()
            super().setup()

        # -- GET --

        def do_HEAD(self) -> None:  # noqa: N802 - http.server's name
            self.do_GET()  # `_send` leaves the body out; the event stream answers its headers only

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            path = urlsplit(self.path).path
            session = self._session()
            if path in PAGES:
                self._send(200, dash._static[PAGES[path]], _TYPES[".html"])
            elif path.startswith("/static/") and path[8:] in dash._static:
                name = path[8:]
                self._send(200, dash._static[name], _TYPES.get(name[name.rfind("."):], "application/octet-stream"))
            elif path == "/api/me":
                self._json(200, {"role": Role.TD if session else Role.VIEWER,
                                 "user": session.user if session else None,
                                 "csrf": session.csrf if session else None, "floor": dash.floor is not None})
            elif path == "/api/room":
                role = Role.TD if session else Role.VIEWER
                with dash._lock:
                    room = dash.model.room(role)
                self._json(200, {**room, "clock": dash._last_clock, "hub": dash.hub_health(role)})
            elif path == "/api/log":
                table = parse_qs(urlsplit(self.path).query).get("t", [""])[0]
                with dash._lock:
                    events = dash.model.log(table, Role.TD if session else Role.VIEWER)
                self._json(200, {"table": table, "events": events})
            elif path == "/api/clock":
                self._json(200, {"clock": dash.clock_snapshot()})
            elif path in ("/api/results", "/api/results.csv"):
                results = dash.results()
                if results is None:
                    self._json(404, {"error": "pas de tournoi / no tournament"})
                elif path.endswith(".csv"):
                    self._send(200, ("\ufeff" + results_csv(results)).encode(), "text/csv; charset=utf-8",
                               {"Content-Disposition": 'attachment; filename="resultats.csv"'})
                else:
                    self._json(200, results)
            elif path == "/favicon.ico":
                self._send(204, b"", "image/x-icon")
            elif path == "/events":
                self._stream(Role.TD if session else Role.VIEWER)
            else:
                self._json(404, {"error": "not found"})

        def _stream(self, role: Role) -> None:
            if self.command == "HEAD":
                self._send(200, b"", "text/event-stream")
                return
            client, first = dash.subscribe(role)
            try:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-store")
                self.send_header("X-Accel-Buffering", "no")
                self.end_headers()
                self.wfile.write(b"retry: 1000\n\n" + first)
                self.wfile.flush()
                while dash._running and not client.dropped:
                    try:
                        message = client.messages.get(timeout=15)
                    except queue.Empty:
                        message = b": ping\n\n"  # keeps proxies and dead peers honest
                    if message is None:
                        break
                    self.wfile.write(message)
                    self.wfile.flush()
            except OSError:
                pass  # the browser went away
            finally:
                dash.unsubscribe(client)
                self.close_connection = True

        # -- POST --

        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            path = urlsplit(self.path).path
            try:
                body = self._body()
            except _HttpError as err:
                self._refuse(err)
                return
            if path == "/api/login":
                address = str(self.client_address[0])
                if not dash.logins.allow(address, time.monotonic()):
                    self._json(429, {"error": "too many logins from this address: wait a minute",
                                     "code": "too_many_logins"},
                               {"Retry-After": str(int(dash.logins.window))})
                    return
                session = dash.sessions.login(str(body.get("user", "")), str(body.get("password", "")), time.time())
                if session is None:
                    self._json(401, {"error": "bad user or password", "code": "bad_login"})
                    return
                dash.logins.succeeded(address)
                cookie = f"{COOKIE}={session.token}; HttpOnly; SameSite=Strict; Path=/"
                self._json(200, {"user": session.user, "csrf": session.csrf}, {"Set-Cookie": cookie})
                return
            session = self._session()
            if session is None:
                # a cookie the hub does not know: it restarted (sessions live in memory) or the session expired
                code = "session_expired" if self._cookie() else "login_required"
                self._json(403, {"error": "TD login required (log in again)", "code": code})
                return
            if not Sessions.csrf_ok(session, self.headers.get("X-CSRF-Token")):
                self._json(403, {"error": "TD login and CSRF token required", "code": "csrf"})
                return
            if path == "/api/logout":
                dash.sessions.logout(session.token)
                self._json(200, {"ok": True}, {"Set-Cookie": f"{COOKIE}=; Max-Age=0; Path=/"})
                return
            try:
                if path == "/api/td/ack":
                    self._json(200, dash.acknowledge(str(body.get("fault", "")), session.user))
                elif path == "/api/td/decide":
                    self._json(200, dash.decide(str(body.get("fault", "")), str(body.get("option", "")),
                                                session.user))
                elif path == "/api/td/floor":
                    result = dash.floor_command(body)
                    self._json(200 if result.get("ok") else 409, result)
                else:
                    self._json(404, {"error": "not found"})
            except DashboardError as err:
                status = HTTPStatus.NOT_FOUND if isinstance(err, KeyError) else HTTPStatus.CONFLICT
                self._json(status, {"error": str(err.args[0]) if err.args else str(err),
                                    "code": getattr(err, "code", "refused")})

    return Handler
