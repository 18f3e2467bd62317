"""`tapis demo` is the room (issue #14 point 7): by default a short tournament on the hub's tournament
mode, the TD dashboard (tournament room with names, TD controls that work) and the clock running, tables
dealing with dealing faults each ruled with its article; options a mode cannot use are refused."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from hub.edge.broker import free_port
from simulators.fault_plan import INJECTABLE

ROOT = Path(__file__).resolve().parents[2]


def tapis(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tapis", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.parametrize(("args", "says"), [
    (["--tournament", "--dashboard", "8092"], "--dashboard cannot go with --tournament"),
    (["--tournament", "--hands", "3"], "--hands cannot go with --tournament"),
    (["--tournament", "--broker", "mqtt://127.0.0.1:1883"], "--broker cannot go with --tournament"),
    (["--tournament", "--pace", "0.1"], "--pace cannot go with --tournament"),
    (["--tournament", "--fault-rate", "0.2"], "--fault-rate cannot go with --tournament"),
    (["--tournament", "--cash"], "--cash cannot go with --tournament"),
    (["--cash", "--players", "12"], "--players cannot go with --cash"),
    (["--tournament", "--game", "plo"], "--game cannot go with --tournament"),
    (["--game", "plo"], "--game goes with --cash"),
    (["--tables", "3", "--players", "4", "--dashboard", "0"], "--players 4 at 3 tables"),
    (["--ruleset", "nope"], "--ruleset 'nope': unknown"),
])
def test_options_that_cannot_go_together_are_refused_in_one_line(args: list[str], says: str) -> None:
    started = time.monotonic()
    done = tapis("demo", *args)
    assert done.returncode == 2, done.stdout[-500:]
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]  # one line, no traceback
    assert done.stderr.startswith("tapis demo: ") and says in done.stderr
    assert done.stdout == ""
    assert time.monotonic() - started < 20  # refused before anything starts


def _get(url: str, path: str, *, cookie: str | None = None) -> Any:
    req = urllib.request.Request(url + path, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


def _post(url: str, path: str, body: dict[str, Any], *, cookie: str | None = None,
          csrf: str | None = None) -> tuple[int, dict[str, Any], str]:
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = cookie
    if csrf:
        headers["X-CSRF-Token"] = csrf
    req = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read()), resp.headers.get("Set-Cookie", "")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read()), ""


def _wait(condition: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")


def test_the_default_demo_is_a_tournament_room_with_dashboard_clock_and_faults_ruled(tmp_path: Path) -> None:
    port = free_port()
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("w") as stdout, err.open("w") as stderr:
        proc = subprocess.Popen([sys.executable, "-m", "tapis", "demo", "--tables", "2", "--hands", "5",
                                 "--fault-rate", "1", "--pace", "0.03", "--dashboard", str(port)],
                                cwd=ROOT, stdout=stdout, stderr=stderr, text=True)
    try:
        said = _wait(lambda: re.search(r"TD dashboard on (http://\S+) \(TD login: td / (\S+)\)", err.read_text()),
                     60, "the dashboard's URL and TD login")
        url, password = said.group(1).rstrip("/"), said.group(2)
        assert url == f"http://127.0.0.1:{port}"

        # The tournament room, with the players' names on the seats, as a viewer sees it.
        def seated() -> dict[str, Any] | None:
            tables = _get(url, "/api/room")["tables"]
            named = {t: v for t, v in tables.items() if any(str(s.get("player", "")).startswith("joueur")
                                                               for s in v.get("seats", []))}
            return named or None

        assert set(_wait(seated, 60, "seats with the players' names")) <= {"t1", "t2"}
        # The clock runs: the level's time goes down.
        first = _get(url, "/api/clock")["clock"]
        assert first["started"] and first["running"] and first["level"] >= 1
        time.sleep(1.5)
        later = _get(url, "/api/clock")["clock"]
        assert (later["level"], -later["time_left"]) > (first["level"], -first["time_left"])
        # A TD control on the page works: the TD adds a minute to the level.
        status, me, cookie = _post(url, "/api/login", {"user": "td", "password": password})
        assert status == 200
        status, result, _ = _post(url, "/api/td/floor", {"cmd": "clock", "action": "add", "seconds": 60},
                                  cookie=cookie.split(";")[0], csrf=me["csrf"])
        assert status == 200 and result["ok"], result
        td = {"cookie": cookie.split(";")[0], "csrf": me["csrf"]}
        for action, running in (("pause", False), ("resume", True)):
            status, result, _ = _post(url, "/api/td/floor", {"cmd": "clock", "action": action}, **td)
            assert status == 200 and result["ok"], result
            assert _get(url, "/api/clock")["clock"]["running"] is running
        # "Annuler la donne" reaches the hand at its table (the hand lives in the hub).
        def cancelled() -> dict[str, Any] | None:
            for table in ("t1", "t2"):
                status, result, _ = _post(url, "/api/td/floor", {"cmd": "cancel_hand", "table": table}, **td)
                if status == 200:
                    return result
            return None

        result = _wait(cancelled, 60, "a hand in progress to cancel")
        assert result["ok"] and result["data"]["article"].startswith("cdc-2013"), result
        proc.wait(timeout=420)
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(30)
    text = out.read_text()
    assert proc.returncode == 0, (text[-2000:], err.read_text()[-2000:])
    frames = text.split("\x1b[H\x1b[2J")
    lines = {line for frame in frames for line in frame.splitlines()}
    # the TD's login stays on the screen the redraws wipe (issue #30, point 10)
    assert all(f"(TD login: td / {password})" in frame for frame in frames[1:]), frames[-1][:300]
    ruled = {m.group(1): m.group(2) for line in lines
             if (m := re.search(r"\((\w+)\) — (cdc-2013 [\d.]+) : \w+ — \S", line))}
    # ten faulty hands draw ten kinds of the croupier's bag (every kind: test_every_fault.py)
    assert len(set(ruled) & {str(k) for k in INJECTABLE}) >= 5, sorted(ruled)
    # Each table: stacks by player, the pot and who is to act.
    assert any(re.search(r"pot +\d+ +à parler / to act : \d+ joueur\d+", line) for line in lines)
    assert any(re.search(r"\*\d+:joueur\d+ \d+", line) for line in lines)  # the seat to act, his stack
    assert any(re.search(r"niveau \d+ : \d+/\d+ ante \d+ — reste \d+:\d\d", line) for line in lines)


def test_a_dashboard_port_in_use_is_said_in_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = tapis("demo", "--dashboard", str(port), timeout=60)
    assert done.returncode == 2
    assert done.stderr == (f"tapis demo: tableau de bord : impossible d'écouter sur 127.0.0.1:{port} / dashboard: "
                           f"cannot listen on 127.0.0.1:{port} (Address already in use): another program, or "
                           "another hub, holds it: --dashboard PORT (0: no dashboard)\n")
