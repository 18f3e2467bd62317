"""The dashboard's HTTP server against hostile clients (#15 point 9), over raw sockets.

Bad `Content-Length` values, half-sent requests, wrong logins in a loop, a non-ASCII CSRF header,
HEAD, and a hypothesis fuzz of the request parser: every answer is a 4xx (never a traceback, never
silence) and a held connection is dropped after the server's request timeout.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.dashboard import Dashboard, hash_password
from tests.dashboard.conftest import PASSWORD
from tests.dashboard.helpers import ScriptedRoom


@pytest.fixture
def quick(room: ScriptedRoom) -> Iterator[Dashboard]:
    """A dashboard whose connections time out after 1 s (10 s in a room)."""
    dash = Dashboard(room.hub, users={"alice": hash_password(PASSWORD)}, request_timeout=1.0).start()
    yield dash
    dash.stop()


def _addr(dash: Dashboard) -> tuple[str, int]:
    host, port = dash.url.removeprefix("http://").rsplit(":", 1)
    return host, int(port)


def raw(dash: Dashboard, data: bytes, *, timeout: float = 5.0) -> bytes:
    """Send `data`, half-close, read until the server closes (or `timeout`)."""
    with socket.create_connection(_addr(dash), timeout=timeout) as s:
        s.sendall(data)
        try:
            s.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
        except (TimeoutError, ConnectionResetError):
            pass
    return out


def status(reply: bytes) -> int:
    assert reply.startswith(b"HTTP/1."), reply[:200]
    return int(reply.split(b" ", 2)[1])


def post(path: str, body: bytes, headers: dict[str, str]) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: x", "Connection: close", *(f"{k}: {v}" for k, v in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


@pytest.mark.parametrize("length,expected", [("abc", 400), ("-1", 400), ("1e3", 400), ("", 400),
                                             ("99999999999999999999", 413), ("65537", 413), (" 12 ", 400)])
def test_content_length_is_validated(quick: Dashboard, length: str, expected: int) -> None:
    reply = raw(quick, post("/api/login", b'{"user": "a"}', {"Content-Type": "application/json",
                                                               "Content-Length": length}))
    assert status(reply) == expected


def test_a_non_ascii_csrf_token_is_a_403(quick: Dashboard) -> None:
    body = json.dumps({"user": "alice", "password": PASSWORD}).encode()
    reply = raw(quick, post("/api/login", body, {"Content-Type": "application/json",
                                                  "Content-Length": str(len(body))}))
    assert status(reply) == 200
    cookie = next(line for line in reply.split(b"\r\n") if line.lower().startswith(b"set-cookie"))
    token = cookie.split(b":", 1)[1].split(b";")[0].strip().decode()
    reply = raw(quick, post("/api/td/ack", b"{}", {"Content-Type": "application/json", "Content-Length": "2",
                                                    "Cookie": token, "X-CSRF-Token": "\u00e9t\u00e9"}))
    assert status(reply) == 403


def test_head_is_answered_without_a_body(quick: Dashboard) -> None:
    for path in ("/", "/api/room", "/events", "/nope"):
        reply = raw(quick, f"HEAD {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        head, _, body = reply.partition(b"\r\n\r\n")
        assert status(reply) in (200, 404) and body == b"", (path, reply[:300])


def test_logins_are_limited_per_address(quick: Dashboard) -> None:
    body = json.dumps({"user": "alice", "password": "wrong"}).encode()
    codes = [status(raw(quick, post("/api/login", body, {"Content-Type": "application/json",
                                                          "Content-Length": str(len(body))})))
             for _ in range(15)]
    assert codes[:5] == [401] * 5 and codes[-1] == 429, codes
    good = json.dumps({"user": "alice", "password": PASSWORD}).encode()
    reply = raw(quick, post("/api/login", good, {"Content-Type": "application/json",
                                                  "Content-Length": str(len(good))}))
    assert status(reply) == 429  # even the right password waits: the address is guessing


def test_half_sent_requests_do_not_hold_the_server(quick: Dashboard) -> None:
    """200 connections that send half a request (or a body shorter than announced) are dropped after
    the request timeout; meanwhile and after, the server answers."""
    threads_before = threading.active_count()
    held: list[socket.socket] = []
    try:
        for i in range(200):
            s = socket.create_connection(_addr(quick), timeout=5)
            if i % 2:
                s.sendall(b"GET /api/room HTTP/1.1\r\nHost: x\r\n")  # no blank line: headers never end
            else:
                s.sendall(post("/api/login", b'{"us', {"Content-Type": "application/json", "Content-Length": "500"}))
            held.append(s)
        # Every held connection answered or closed by the server first: until then, one still in the
        # listen queue may be accepted late and take a worker for its own timeout (then /api/me gets 503).
        closed = 0
        deadline = time.monotonic() + 15
        for s in held:
            s.settimeout(max(0.5, deadline - time.monotonic()))
            try:
                data = s.recv(4096)
                closed += data == b"" or data.startswith((b"HTTP/1.1 4", b"HTTP/1.1 503"))
            except (TimeoutError, ConnectionResetError):
                pass
        assert closed == len(held), "half-sent requests not dropped after the request timeout"
        deadline = time.monotonic() + 5
        while threading.active_count() > threads_before + 5 and time.monotonic() < deadline:
            time.sleep(0.05)  # a worker ends just after closing its connection
        assert threading.active_count() <= threads_before + 5, "half-sent requests still hold threads"
        reply = raw(quick, b"GET /api/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert status(reply) == 200
    finally:
        for s in held:
            s.close()


@pytest.fixture
def patient(room: ScriptedRoom) -> Iterator[Dashboard]:
    """A dashboard whose silent connections keep their worker for 30 s: longer than the test."""
    dash = Dashboard(room.hub, users={"alice": hash_password(PASSWORD)}, request_timeout=30.0).start()
    yield dash
    dash.stop()


def test_the_worker_pool_is_bounded(patient: Dashboard) -> None:
    """MAX_WORKERS silent connections hold every worker; each connection past them is told 503 at
    once (well before the 30 s a worker waits for a silent one), and so is a real request, instead
    of getting one more thread."""
    threads_before = threading.active_count()
    held = [socket.create_connection(_addr(patient), timeout=5) for _ in range(Dashboard.MAX_WORKERS)]
    extra = [socket.create_connection(_addr(patient), timeout=5) for _ in range(20)]
    try:
        for s in extra:  # accepted in order after the held ones: no worker left for them
            s.settimeout(5)
            assert s.recv(4096).startswith(b"HTTP/1.1 503 "), "a connection past the pool was not refused"
        assert threading.active_count() <= threads_before + Dashboard.MAX_WORKERS
        reply = raw(patient, b"GET /api/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert status(reply) == 503
    finally:
        for s in held + extra:
            s.close()


_token = st.text(st.characters(min_codepoint=33, max_codepoint=255, blacklist_characters=":"), min_size=1,
                 max_size=20)
_header = st.tuples(st.sampled_from(["Content-Length", "Content-Type", "X-CSRF-Token", "Cookie", "Host",
                                     "Transfer-Encoding", "Expect", "Connection"]) | _token,
                    st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=40)
                    | st.sampled_from(["-1", "abc", "1e9", "99999999999", "0", "chunked", "100-continue",
                                       "application/json"]))


@given(method=st.sampled_from(["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "G\u00c9T", "POST /x"]),
       path=st.sampled_from(["/", "/api/login", "/api/td/floor", "/events", "/static/../x", "/\u00e9", "*",
                             "//", "/api/log?t=" + "x" * 3000]) | _token,
       version=st.sampled_from(["HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/9", "", "http/1.1"]),
       headers=st.lists(_header, max_size=6), body=st.binary(max_size=200))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_fuzz_the_request_parser(quick: Dashboard, caplog: pytest.LogCaptureFixture,
                                 capsys: pytest.CaptureFixture[str], method: str, path: str,
                                 version: str, headers: list[tuple[str, str]], body: bytes) -> None:
    caplog.set_level(logging.WARNING)
    head = f"{method} {path} {version}".rstrip() + "\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers)
    reply = raw(quick, head.encode("latin-1", "replace") + b"\r\n" + body, timeout=5)
    if reply:  # a bare close is allowed (nothing parsable came); anything answered is a clean status
        code = status(reply)
        assert code < 500 or code in (503, 505), reply[:300]  # 505: HTTP/2.0 and such
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert "Traceback" not in capsys.readouterr().err  # socketserver prints a handler's crash there


@pytest.fixture
def td_cookie(quick: Dashboard) -> str:
    body = json.dumps({"user": "alice", "password": PASSWORD}).encode()
    reply = raw(quick, post("/api/login", body, {"Content-Type": "application/json",
                                                  "Content-Length": str(len(body))}))
    line = next(x for x in reply.split(b"\r\n") if x.lower().startswith(b"set-cookie"))
    return line.split(b":", 1)[1].split(b";")[0].strip().decode()


_latin = st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=40)


@given(method=st.sampled_from(["POST", "HEAD", "GET"]),
       path=st.sampled_from(["/api/td/ack", "/api/td/decide", "/api/td/floor", "/api/logout", "/api/login"]),
       csrf=_latin | st.sampled_from(["\u00e9t\u00e9", "\xff" * 30, ""]),
       length=st.none() | _latin | st.sampled_from(["-1", "abc", " 2", "2 ", "+2", "0x10", "1e3", "\u00b2", "99999"]),
       content_type=st.sampled_from(["application/json", "text/plain", "", "application/json; charset=\u00e9"]),
       body=st.binary(max_size=80)
       | st.sampled_from([b"{}", b'{"fault": "f1"}', b'{"cmd": "clock", "action": "pause"}']))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_fuzz_a_logged_in_td_s_requests(quick: Dashboard, td_cookie: str, caplog: pytest.LogCaptureFixture,
                                        capsys: pytest.CaptureFixture[str], method: str, path: str, csrf: str,
                                        length: str | None, content_type: str, body: bytes) -> None:
    """#18 point 10 with the TD's real session cookie, so the CSRF check is reached: any X-CSRF-Token
    (non-ASCII included), any Content-Length (negative, non-numeric), HEAD: a 2xx/4xx status line
    comes back at once (never a held thread, an empty reply or a traceback)."""
    caplog.set_level(logging.WARNING)
    headers = {"Cookie": td_cookie, "X-CSRF-Token": csrf, "Content-Type": content_type}
    if length is not None:
        headers["Content-Length"] = length
    lines = [f"{method} {path} HTTP/1.1", "Host: x", "Connection: close", *(f"{k}: {v}" for k, v in headers.items())]
    started = time.monotonic()
    reply = raw(quick, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body, timeout=5)
    code = status(reply)
    assert code < 500, reply[:300]
    assert time.monotonic() - started < quick.request_timeout + 2  # a wrong length is no held thread
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert "Traceback" not in capsys.readouterr().err


def test_an_http_0_9_request_gets_a_status_line(quick: Dashboard) -> None:
    """`GET /` with no version is HTTP/0.9: http.server answers it with the page alone, no status
    line (the fuzzer found it once it explored); the dashboard refuses it in HTTP/1.0."""
    reply = raw(quick, b"GET /\r\n")
    assert status(reply) == 400 and b"<!doctype html>" not in reply


def test_a_client_gone_mid_answer_is_no_error(quick: Dashboard, caplog: pytest.LogCaptureFixture) -> None:
    """A tab closed while its answer is written (BrokenPipe, reset) is the client's doing: logged at
    debug, never as a failed request (the browser test's favicon once failed the suite this way)."""
    caplog.set_level(logging.DEBUG, logger="hub.dashboard.server")
    for _ in range(20):
        with socket.create_connection(_addr(quick), timeout=5) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # RST
            s.sendall(b"GET /api/room HTTP/1.1\r\nHost: x\r\n\r\n")
    assert wait_quiet(caplog)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def wait_quiet(caplog: pytest.LogCaptureFixture, seconds: float = 1.0) -> bool:
    """Until no record has come for `seconds` (the server's threads finish their answers)."""
    seen, since = -1, time.monotonic()
    while time.monotonic() - since < seconds:
        if len(caplog.records) != seen:
            seen, since = len(caplog.records), time.monotonic()
        time.sleep(0.05)
    return True
