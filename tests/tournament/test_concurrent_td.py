"""Two TDs at once (#15 point 4): concurrent `tapis tournament ... --db F` processes never corrupt the file.

Real processes race on one SQLite file; every append is checked against the events the command
saw inside one write transaction, so a command re-runs on the current tournament or is refused.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from hub.edge.broker import EmbeddedBroker
from hub.floor.commands import Register, Seat, Start
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.td import run_remote

TD = [sys.executable, "-m", "hub.floor.td"]


def _td(db: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*TD, *args, "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _events(db: Path) -> list[dict[str, object]]:
    with sqlite3.connect(db) as con:
        return [json.loads(b) for (b,) in con.execute("SELECT body FROM tournament_event ORDER BY id")]


def _new(db: Path) -> None:
    done = subprocess.run([*TD, "new", "--db", str(db), "--ruleset", "pouques-2020", "--structure", "pouques",
                           "--buy-in", "10", "--seed", "3", "--seats", "9"], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_racing_processes_register_once_and_draw_once(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    _new(db)
    rounds = 4
    for r in range(rounds):
        procs = [_td(db, "register", f"twice{r}") for _ in range(3)]
        for p in procs:
            p.wait(timeout=60)
    base = [_td(db, "register", f"p{i}") for i in range(6)]
    for p in base:
        p.wait(timeout=60)
    seats = [_td(db, "seat") for _ in range(3)]
    codes = [p.wait(timeout=60) for p in seats]
    events = _events(db)
    registered = Counter(str(e["player"]) for e in events if e["type"] == "PlayerRegistered")
    assert all(n == 1 for n in registered.values()), registered
    assert len(registered) == rounds + 6, registered
    seated = Counter(str(e["player"]) for e in events if e["type"] == "SeatDrawn")
    assert seated == Counter(registered), seated  # one seat each: the draw ran once
    assert codes.count(0) == 1, codes  # the others are refused: the seats are already drawn


def test_a_floor_in_memory_sees_what_another_writer_stored(tmp_path: Path) -> None:
    """The hub's floor and the TD's command line on one file: the floor re-reads before it appends."""
    db = tmp_path / "t.db"
    _new(db)
    with EventStore(db) as a, EventStore(db) as b:
        hub, cli = FloorService.open(a), FloorService.open(b)
        assert hub.execute(Register(players=["ana"]), time.time()).ok
        again = cli.execute(Register(players=["ana"]), time.time())
        assert not again.ok, "the second floor registered a player the first one already had"
        assert cli.execute(Register(players=["bob"]), time.time()).ok
        assert hub.execute(Seat(), time.time()).ok
        assert not cli.execute(Seat(), time.time()).ok
        assert set(hub.require().state.players) == {"ana", "bob"}


def test_the_floors_own_step_rereads_what_the_command_line_stored(tmp_path: Path) -> None:
    """The hub's floor appends on its own (the clock's level change in `pump`) right after the TD's
    command line wrote to the file: it re-reads the store inside its write lock, so the step is
    stored on top of the TD's command, never refused as a store that cannot write."""
    db = tmp_path / "t.db"
    _new(db)
    with EventStore(db) as a, EventStore(db) as b:
        hub, cli = FloorService.open(a), FloorService.open(b)
        t0 = hub.require().state.now  # `new` stored the wall time
        for cmd in (Register(players=["ana", "bob"]), Seat(), Start()):
            assert hub.execute(cmd, t0).ok, cmd
        assert cli.execute(Register(players=["cid"]), t0 + 10).ok  # late registration, beside the hub
        hub.pump(t0 + 41 * 60)  # level 1 (40 minutes) is over: the floor stores level 2
        assert hub.require().state.clock.level().number == 2
        assert "cid" in hub.require().state.players
        kinds = [e["type"] for e in _events(db)]
        assert kinds.index("PlayerRegistered", kinds.index("ClockStarted")) < kinds.index("LevelStarted")


def test_threads_on_their_own_connections(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    _new(db)
    oks: list[bool] = []

    def one() -> None:
        with EventStore(db) as store:
            oks.append(FloorService.open(store).execute(Register(players=["solo"]), time.time()).ok)

    workers = [threading.Thread(target=one) for _ in range(8)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert oks.count(True) == 1, oks


def _floor_answers(broker: EmbeddedBroker, serve: subprocess.Popen[bytes]) -> None:
    """Wait for the served floor's first answer (its subscription is in place), not for a time."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert serve.poll() is None, serve.stderr.read() if serve.stderr else serve.returncode
        try:
            if run_remote(broker.url, {"cmd": "status"}, timeout=2.0).ok:
                return
        except TimeoutError:
            continue  # not subscribed yet: the command went nowhere; ask again
    raise AssertionError("the floor never answered")


def _outcome(proc: subprocess.Popen[bytes]) -> str:
    """How a `tapis tournament` process ended: 0 done, 2 refused (the floor answered no), 3 no
    answer; a refusal's words are checked, so a 2 from anything else is not taken for one."""
    code = proc.wait(timeout=60)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if code == 2:
        assert "refused:" in err, err
    return {0: "done", 2: "refused", 3: "no answer"}.get(code, f"exit {code}: {err}")


def test_the_command_line_beside_a_running_floor(tmp_path: Path, broker: EmbeddedBroker) -> None:
    """A running floor (`tapis tournament serve`, as the hub has it) and the TD's command line on its
    file: what one stores, the other sees before it decides; no player twice, one seat draw. Each
    losing process was refused by a floor that decided (exit 2 with its words), none went
    unanswered (exit 3): the local and the remote commands did race."""
    db = tmp_path / "t.db"
    _new(db)
    serve = subprocess.Popen([*TD, "serve", "--db", str(db), "--broker", broker.url, "--period", "0.05"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _floor_answers(broker, serve)
        url = ["--broker", broker.url]
        local = [_td(db, "register", "ana") for _ in range(2)]
        remote = [subprocess.Popen([*TD, "register", "ana", *url], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                  for _ in range(2)]
        outcomes = [_outcome(p) for p in local + remote]
        assert sorted(outcomes) == ["done", "refused", "refused", "refused"], outcomes
        assert _outcome(_td(db, "register", "bob")) == "done"
        seats = [_td(db, "seat"), subprocess.Popen([*TD, "seat", *url], stdout=subprocess.PIPE,
                                                   stderr=subprocess.PIPE)]
        assert sorted(_outcome(p) for p in seats) == ["done", "refused"]
        remote_status = subprocess.run([*TD, "status", "--json", *url], capture_output=True, timeout=60)
        assert remote_status.returncode == 0
        assert json.loads(remote_status.stdout)["data"]["players_left"] == 2
    finally:
        serve.terminate()
        serve.wait(timeout=10)
    events = _events(db)
    assert Counter(str(e["player"]) for e in events if e["type"] == "PlayerRegistered") == {"ana": 1, "bob": 1}
    assert Counter(str(e["player"]) for e in events if e["type"] == "SeatDrawn") == {"ana": 1, "bob": 1}
