"""The dashboard's HTTP routes: pages, JSON, the event stream and the TD's actions (browser -> `Dashboard`).

One idea: what a request may be and what it is answered. Malformed requests get a 4xx and a `code`,
never a traceback; TD actions need a session cookie and its CSRF token. The `Dashboard` (server.py)
owns the state; this module only reads and calls it, through `Served`: what of it the routes use,
declared here so the server imports the routes and never the other way (a new route that needs
more of the dashboard names it in `Served`).
"""

from __future__ import annotations

import json
import logging
import queue
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import parse_qs, urlsplit

from hub.dashboard.auth import LoginLimiter, Session, Sessions
from hub.dashboard.model import DashboardError, JSONDict, Role, RoomModel
from hub.floor.bag_sheet import bags_csv
from hub.floor.results_view import results_csv
from hub.history.web import HistoryReader, refused
from hub.history.web import answer as hand_history

if TYPE_CHECKING:
    import threading
    from pathlib import Path

log = logging.getLogger(__name__)

CLIENT_QUEUE = 2000  # messages buffered per browser; a browser that falls this far behind is dropped
COOKIE = "tapis_td"
STREAM_COOKIE = "tapis_stream"  # a stream login's session: not the TD's (stream.py)
MAX_BODY = 65536  # a TD action is a few hundred bytes
PAGES = {"/": "room.html", "/table": "table.html", "/clock": "clock.html", "/login": "login.html",
         "/desk": "desk.html", "/results": "results.html", "/bags": "bags.html"}
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml"}
_SECURITY = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
             "Content-Security-Policy": "default-src 'self'; style-src 'self'; script-src 'self'"}


@dataclass(eq=False)
class Browser:
    """One browser's event stream: the server queues each message (None: the end), `_stream` writes them."""

    role: Role
    messages: queue.Queue[bytes | None] = field(default_factory=lambda: queue.Queue(CLIENT_QUEUE))
    dropped: bool = False

    def close(self) -> None:
        """The end of its stream (the server stops); one too far behind to take it is dropped."""
        try:
            self.messages.put_nowait(None)
        except queue.Full:
            self.dropped = True


class Streamed(Protocol):
    """What the routes read and call of the delayed stream (stream.py's `StreamFeed`)."""

    @property
    def sessions(self) -> Sessions: ...
    @property
    def delay(self) -> float: ...

    def room(self) -> JSONDict: ...
    def subscribe(self) -> tuple[Browser, bytes]: ...
    def unsubscribe(self, client: Browser) -> None: ...


class Served(Protocol):
    """What the routes read and call of the dashboard (server.py's `Dashboard`)."""

    @property
    def sessions(self) -> Sessions: ...
    @property
    def logins(self) -> LoginLimiter: ...
    @property
    def request_timeout(self) -> float: ...
    @property
    def floor(self) -> object: ...  # only whether there is one
    @property
    def rulebooks(self) -> Path | None: ...  # the club's rulebook files (tapis hub --rulebooks)
    @property
    def model(self) -> RoomModel: ...
    @property
    def _lock(self) -> threading.Lock: ...  # the model's
    @property
    def _static(self) -> Mapping[str, bytes]: ...
    @property
    def _running(self) -> bool: ...
    @property
    def _last_clock(self) -> JSONDict | None: ...
    @property
    def stream(self) -> Streamed | None: ...  # the delayed stream (--stream-delay), None: off

    def hub_health(self, role: Role = Role.TD) -> JSONDict: ...
    def clock_snapshot(self) -> JSONDict | None: ...
    def deal_offer(self) -> JSONDict | None: ...
    def history(self) -> JSONDict | None: ...
    def results(self) -> JSONDict | None: ...
    def bags(self, day: int | None = None) -> JSONDict | None: ...
    def subscribe(self, role: Role) -> tuple[Browser, bytes]: ...
    def unsubscribe(self, client: Browser) -> None: ...
    def acknowledge(self, fault_id: str, by: str) -> JSONDict: ...
    def acknowledge_all(self, by: str, table: str | None = None) -> JSONDict: ...
    def decide(self, fault_id: str, option: str, by: str) -> JSONDict: ...
    def floor_command(self, command: JSONDict) -> JSONDict: ...


class _HttpError(Exception):
    """A request refused before it reaches a page or an action: answered `status`, connection closed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def handler(dash: Served) -> type[BaseHTTPRequestHandler]:
    """The request handler class bound to `dash` (it reads the dashboard's private state: one owner, two modules)."""
    store = getattr(dash.floor, "store", None)  # the tournament's store, where the hands are on record
    hands = HistoryReader(store.path) if store is not None else None  # hub.history.web

    class Handler(BaseHTTPRequestHandler):
        server_version = "tapis-dashboard"
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # small SSE writes: Nagle + delayed ACK would hold each ~40 ms

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
            log.debug("dashboard: " + format, *args)

        # -- helpers --

        def _cookie(self, cookie: str = COOKIE) -> str | None:
            for part in (self.headers.get("Cookie") or "").split(";"):
                name, _, value = part.strip().partition("=")
                if name == cookie and value:
                    return value
            return None

        def _stream_get(self, path: str) -> None:
            """The delayed stream's page, who is logged in, its events: 404 when the hub has none, its
            events only for a stream login (never anonymous, never a TD's session: another cookie)."""
            feed = dash.stream
            if feed is None and path == "/stream":  # a browser: a page in words
                status, kind, body = refused(path, 404, "Pas de flux différé sur ce hub (tapis hub --stream-delay "
                                             "MINUTES).", "No delayed stream on this hub.")
                self._send(status, body, kind)
                return
            if feed is None:
                self._json(404, {"error": "pas de flux différé sur ce hub (tapis hub --stream-delay MINUTES) / "
                                          "no delayed stream on this hub", "code": "no_stream"})
                return
            token = self._cookie(STREAM_COOKIE)
            session = feed.sessions.get(token, time.time()) if token else None
            if path == "/stream":
                self._send(200, dash._static["stream.html"], _TYPES[".html"])
            elif path == "/api/stream/me":
                self._json(200, {"user": session.user if session else None, "delay": feed.delay,
                                 "words": feed.room()["words"]})
            elif session is None:
                self._json(403, {"error": "connexion au flux nécessaire / stream login needed",
                                 "code": "session_expired" if token else "login_required"})
            else:
                self._stream(Role.STREAM)

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
            elif path in ("/api/td/deal", "/api/td/history"):  # the desk's deal and history: the TD's only
                found = (dash.deal_offer() if path.endswith("deal") else dash.history()) if session else None
                if not session:
                    self._json(403, {"error": "connexion DT nécessaire / TD login needed"})
                elif found is None:
                    self._json(404, {"error": "pas d'accord possible / no deal possible" if path.endswith("deal")
                                     else "pas de tournoi / no tournament"})
                else:
                    self._json(200, found)
            elif path == "/api/structures":  # the templates the desk offers for a new tournament
                from hub.tournament.structure import templates, to_toml

                self._json(200, {"structures": [{"id": key, "name": s.name, "toml": to_toml(s)}
                                                for key, s in templates().items()]})
            elif path == "/api/rulebooks":  # the seeds and the club's files the desk offers
                from hub.floor.rulebook_files import offered

                self._json(200, {"rulebooks": offered(dash.rulebooks)})
            elif path in ("/api/results", "/api/results.csv"):
                results = dash.results()
                if results is None:
                    self._json(404, {"error": "pas de tournoi / no tournament"})
                elif path.endswith(".csv"):
                    self._send(200, ("\ufeff" + results_csv(results)).encode(), "text/csv; charset=utf-8",
                               {"Content-Disposition": 'attachment; filename="resultats.csv"'})
                else:
                    self._json(200, results)
            elif path in ("/api/bags", "/api/bags.csv"):  # public: a break's counts and a day's draw are posted
                raw = parse_qs(urlsplit(self.path).query).get("day", [""])[0]
                if raw and not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= 30):
                    self._json(400, {"error": "jour : un numéro de 1 à 30 / day: a number from 1 to 30"})
                    return
                bags = dash.bags(int(raw) if raw else None)
                if bags is None:
                    self._json(404, {"error": "pas de tournoi, ou ce jour n'est pas fini / "
                                              "no tournament, or that day has not ended"})
                elif path.endswith(".csv"):
                    name = f"jetons-jour-{bags['day']}.csv"
                    self._send(200, ("\ufeff" + bags_csv(bags)).encode(), "text/csv; charset=utf-8",
                               {"Content-Disposition": f'attachment; filename="{name}"'})
                else:
                    self._json(200, bags)
            elif (page := hand_history(hands, path, parse_qs(urlsplit(self.path).query), td=session is not None)):
                self._send(page[0], page[2], page[1])  # the hands played, the TD's replay (hub.history.web)
            elif path in ("/stream", "/stream/events", "/api/stream/me"):
                self._stream_get(path)
            elif path == "/favicon.ico":
                self._send(204, b"", "image/x-icon")
            elif path == "/events":
                self._stream(Role.TD if session else Role.VIEWER)
            else:  # a mistyped address: a page in words for a browser, JSON under /api/
                status, kind, body = refused(path, 404, "Cette page n'existe pas : la salle est à l'adresse /.",
                                             "This page does not exist: the room is at /.")
                self._send(status, body, kind)

        def _stream(self, role: Role) -> None:
            if self.command == "HEAD":
                self._send(200, b"", "text/event-stream")
                return
            feed = dash.stream if role is Role.STREAM else None
            client, first = feed.subscribe() if feed is not None else dash.subscribe(role)
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
                if feed is not None:
                    feed.unsubscribe(client)
                else:
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
            if path in ("/api/login", "/api/stream/login"):
                sessions = dash.sessions if path == "/api/login" else dash.stream.sessions if dash.stream else None
                if sessions is None:
                    self._json(404, {"error": "no delayed stream on this hub", "code": "no_stream"})
                    return
                address = str(self.client_address[0])
                if not dash.logins.allow(address, time.monotonic()):
                    self._json(429, {"error": "too many logins from this address: wait a minute",
                                     "code": "too_many_logins"},
                               {"Retry-After": str(int(dash.logins.window))})
                    return
                session = sessions.login(str(body.get("user", "")), str(body.get("password", "")), time.time())
                if session is None:
                    self._json(401, {"error": "bad user or password", "code": "bad_login"})
                    return
                dash.logins.succeeded(address)
                name = COOKIE if path == "/api/login" else STREAM_COOKIE
                cookie = f"{name}={session.token}; HttpOnly; SameSite=Strict; Path=/"
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
                elif path == "/api/td/ack_all":
                    table = body.get("table")
                    self._json(200, dash.acknowledge_all(session.user, str(table) if table else None))
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
