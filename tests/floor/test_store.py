"""The event store: dedup by (table, boot, seq), arrival order, atomic batches, plain-words errors,
and durability across a process killed with SIGKILL right after an append returned."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from hub.floor.store import EventStore, StoreError

ROOT = Path(__file__).resolve().parents[2]


def test_table_events_dedup_and_arrival_order(tmp_path: Path) -> None:
    with EventStore(tmp_path / "s.db") as store:
        assert store.append_table_event("t1", "boot-a", 1, b'{"n":1}', 10.0) is True
        assert store.append_table_event("t2", "boot-x", 1, b'{"n":2}', 10.5) is True
        assert store.append_table_event("t1", "boot-a", 1, b'{"n":1}', 11.0) is False  # a resend
        assert store.append_table_event("t1", "boot-b", 1, b'{"n":3}', 12.0) is True  # agent rebooted
        assert list(store.table_events()) == [("t1", b'{"n":1}'), ("t2", b'{"n":2}'), ("t1", b'{"n":3}')]
        assert list(store.table_events("t1")) == [("t1", b'{"n":1}'), ("t1", b'{"n":3}')]
        rows = list(store.table_rows(after=1))
        assert [(r.row, r.table, r.boot, r.seq, r.at) for r in rows] == [(2, "t2", "boot-x", 1, 10.5),
                                                                        (3, "t1", "boot-b", 1, 12.0)]
        assert store.last_table_row() == 3
        assert store.count_table_events("t1") == 2


def test_tournament_events_and_config(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with EventStore(path) as store:
        assert store.append_tournament_event({"type": "A", "at": 1.5}) == 1
        assert store.append_tournament_events([{"type": "B", "x": [1, 2]}, {"type": "C", "y": None}]) == 3
        store.put_config("floor/seed", 7)
        store.put_config("floor/seed", 8)
        store.put_config("game/t1", {"row": 4, "players": {"1": 100}})
    with EventStore(path) as store:  # reopened: everything is there
        assert list(store.tournament_events()) == [{"type": "A", "at": 1.5}, {"type": "B", "x": [1, 2]},
                                                   {"type": "C", "y": None}]
        assert store.get_config("floor/seed") == 8
        assert store.get_config("game/t1") == {"row": 4, "players": {"1": 100}}
        assert store.get_config("missing") is None
        assert store.config_keys("game/") == ["game/t1"]


def test_atomic_block_is_all_or_nothing(tmp_path: Path) -> None:
    with EventStore(tmp_path / "s.db") as store:
        with pytest.raises(RuntimeError):
            with store.atomic():
                store.append_tournament_events([{"type": "A"}])
                store.put_config("k", 1)
                raise RuntimeError("crash in the middle of a command")
        assert store.count_tournament_events() == 0
        assert store.get_config("k") is None


def test_corrupt_file_is_a_plain_words_store_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not sqlite " * 200)
    with pytest.raises(StoreError) as err:
        EventStore(bad)
    assert isinstance(err.value, OSError)
    assert str(bad) in str(err.value) and "corrupt" in str(err.value)


def test_unwritable_path_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as err:
        EventStore(tmp_path / "no" / "such" / "dir" / "s.db")
    assert "s.db" in str(err.value)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files")
def test_read_only_file_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    EventStore(path).close()
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(StoreError):
            store = EventStore(path)
            store.append_table_event("t1", "b", 1, b"x", 0.0)
    finally:
        tmp_path.chmod(0o755)


def test_a_store_sqlite_may_only_read_is_a_store_error_naming_it(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The same as above, and it runs as root (CI): SQLite itself opens the file read-only, as it does
    on a read-only mount or without write permission (SQLITE_READONLY), whoever the user is."""
    import sqlite3

    path = tmp_path / "ro.db"
    EventStore(path).close()
    real_connect = sqlite3.connect

    def read_only(database: str, *args: object, **kw: object) -> sqlite3.Connection:
        return real_connect(f"file:{database}?mode=ro", *args, uri=True, **kw)  # type: ignore[call-overload]

    monkeypatch.setattr("hub.floor.store.sqlite3.connect", read_only)
    with pytest.raises(StoreError, match=r"ro\.db cannot be written \(attempt to write a readonly database\)"):
        store = EventStore(path)
        store.append_table_event("t1", "b", 1, b"x", 0.0)


_APPENDER = """
import sys
from hub.floor.store import EventStore
store = EventStore(sys.argv[1])
n = 0
while True:
    n += 1
    store.append_table_event("t1", "boot", n, b"payload-%d" % n, float(n))
    if n % 3 == 0:
        store.append_tournament_event({"type": "Tick", "n": n})
    print(n, flush=True)  # printed only once the append has returned
"""


def test_appends_survive_sigkill(tmp_path: Path) -> None:
    path = tmp_path / "kill.db"
    proc = subprocess.Popen([sys.executable, "-c", _APPENDER, str(path)], cwd=ROOT, stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    confirmed = 0
    for line in proc.stdout:
        confirmed = int(line)
        if confirmed >= 200:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    with EventStore(path) as store:
        payloads = [p for _, p in store.table_events("t1")]
        # Every append that returned is there, in order, and nothing else (at most a few more that
        # returned after the line we read).
        assert len(payloads) >= confirmed
        assert payloads == [b"payload-%d" % n for n in range(1, len(payloads) + 1)]
        ticks = [e["n"] for e in store.tournament_events()]
        assert ticks == list(range(3, 3 * len(ticks) + 1, 3))
        # The kill may fall between a table append and the tournament append that follows it.
        assert confirmed - confirmed % 3 <= 3 * len(ticks) <= len(payloads)
        assert store.append_table_event("t1", "boot", confirmed, b"again", 0.0) is False
