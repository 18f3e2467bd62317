"""The hub's event store survives a power cut: every event it said it stored is still there.

A kill -9 loses nothing that reached the page cache, so it cannot tell `synchronous=FULL` from
NORMAL or OFF. Here the hub's store (built by `hub.cli.build_hub`, as `tapis hub --db` builds it)
runs in a subprocess under an LD_PRELOAD shim (`power_cut.c`) that logs each file's size at every
fsync / fdatasync; the test kills the process once events are reported stored, then truncates each
file to its size at its last sync: the bytes written and never synced are lost, as in a power cut.
The model is append-only (SQLite's WAL grows by appended frames until a checkpoint, which 30 small
events do not reach); a write that overwrote synced bytes is not undone.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hub.cli import build_hub
from hub.floor.store import EventStore

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EVENTS = 30

WRITER = textwrap.dedent("""
    import sys
    from hub.cli import build_hub
    parts = build_hub("127.0.0.1", 9, sys.argv[1])  # port 9: nothing is connected before start()
    store = parts.store
    assert store is not None
    if len(sys.argv) > 2:  # the bug this test is for, put in on purpose
        store._db.execute("PRAGMA synchronous=" + sys.argv[2])
    for seq in range(1, {events} + 1):
        store.append_table_event("t1", "boot1", seq, b"event %d" % seq, float(seq))
        print("stored", seq, flush=True)
    sys.stdin.read()  # killed here
""").format(events=EVENTS)


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build the power-cut shim")
    out = tmp_path_factory.mktemp("shim") / "power_cut.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", str(out), str(HERE / "power_cut.c"), "-ldl"],
                   check=True, capture_output=True)
    return out


def _run_and_cut_power(shim: Path, db: Path, pragma: str | None = None) -> int:
    """Write until every event is reported stored, kill -9, drop what no sync wrote; the last
    event reported stored."""
    log = db.parent / "synced.log"
    env = {**os.environ, "LD_PRELOAD": str(shim), "TAPIS_POWER_CUT_LOG": str(log),
           "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-c", WRITER, str(db), *([pragma] if pragma else [])]
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    reported = 0
    for line in proc.stdout:  # waits on the writer's own word, no sleep
        reported = int(line.split()[1])
        if reported == EVENTS:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    synced: dict[str, int] = {}
    if log.exists():
        for entry in log.read_text().splitlines():
            path, size = entry.rsplit(" ", 1)
            synced[path] = int(size)
    for name in (db, Path(f"{db}-wal")):
        if name.exists():
            with open(name, "r+b") as f:
                f.truncate(synced.get(str(name), 0))
    Path(f"{db}-shm").unlink(missing_ok=True)  # shared memory: gone with the power
    return reported


def _stored(db: Path) -> list[int]:
    with EventStore(db) as store:
        return [row.seq for row in store.table_rows(table="t1")]


def test_the_running_hubs_store_connection_syncs_every_commit(tmp_path: Path) -> None:
    store = build_hub("127.0.0.1", 9, str(tmp_path / "hub.db")).store
    assert store is not None
    with store:
        db = store._db  # noqa: SLF001 - the live connection the hub writes with
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL, not NORMAL (1)
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_every_event_the_hub_stored_survives_a_power_cut(shim: Path, tmp_path: Path) -> None:
    db = tmp_path / "hub.db"
    reported = _run_and_cut_power(shim, db)
    assert reported == EVENTS
    assert _stored(db) == list(range(1, EVENTS + 1))


def test_the_power_cut_loses_unsynced_events_so_the_test_can_fail(shim: Path, tmp_path: Path) -> None:
    """The same run with the store at NORMAL (WAL synced only at checkpoints): the cut loses what
    the store said it had stored. Without this, the test above could pass on a shim that drops
    nothing."""
    db = tmp_path / "hub.db"
    assert _run_and_cut_power(shim, db, pragma="NORMAL") == EVENTS
    assert len(_stored(db)) < EVENTS
