"""The event store: dedup by (table, boot, seq), arrival order, atomic batches, plain-words errors,
and durability across a process killed with SIGKILL right after an append returned."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from hub.floor.store import _SCHEMA, EventStore, StaleTournament, StoreError

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
    # the wording itself: pytest's directory for this test has "corrupt" in its name, so the path would
    assert str(err.value) == f"the event store {bad} is corrupt or not a tapis store (file is not a database)"


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


def test_a_new_store_is_durable_tapis_and_commits_each_write_at_once(tmp_path: Path) -> None:
    """FULL unless asked (a simulated room's OFF), WAL, marked as tapis's at schema 1; an append is
    committed when it returns (autocommit: another connection reads it at once)."""
    import sqlite3

    from hub.floor.store import APPLICATION_ID, STORE_SCHEMA

    path = tmp_path / "s.db"
    with EventStore(path) as store, EventStore(tmp_path / "fast.db", durable=False) as fast:
        db = store._db  # noqa: SLF001
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2
        assert fast._db.execute("PRAGMA synchronous").fetchone()[0] == 0  # noqa: SLF001
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA user_version").fetchone()[0] == STORE_SCHEMA
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        store.append_table_event("t1", "b", 1, b"x", 0.0)
        assert not db.in_transaction
        other = sqlite3.connect(path)
        try:
            assert other.execute("SELECT COUNT(*) FROM table_event").fetchone()[0] == 1
        finally:
            other.close()


def test_a_store_of_another_schema_is_refused_naming_both(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "s.db"
    EventStore(path).close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version=7")
    con.close()
    with pytest.raises(StoreError, match=r"s\.db is a tapis store of schema 7, this hub reads schema 1"):
        EventStore(path)


def test_another_programs_file_is_refused_and_an_older_tapis_store_is_not(tmp_path: Path) -> None:
    import sqlite3

    foreign = tmp_path / "photos.db"
    con = sqlite3.connect(foreign)
    for name in ("album", "photo", "face", "place", "tag", "zone"):
        con.execute(f"CREATE TABLE {name} (id INTEGER)")
    con.close()
    with pytest.raises(StoreError, match=r"photos\.db is a SQLite file of another program \(tables album, face, "
                                         r"photo, place, tag\): not a tapis store, left untouched"):
        EventStore(foreign)  # five tables named at most
    older = tmp_path / "older.db"  # a tapis store from before the application id: our three tables
    EventStore(older).close()
    con = sqlite3.connect(older)
    con.execute("PRAGMA application_id=0")
    con.close()
    EventStore(older).close()
    exact = tmp_path / "exact.db"  # id 0 and exactly our three tables (no AUTOINCREMENT's sqlite_sequence)
    con = sqlite3.connect(exact)
    con.executescript(_SCHEMA.replace(" AUTOINCREMENT", ""))
    con.close()
    EventStore(exact).close()
    tables_only = tmp_path / "half.db"  # id 0 and only some of our tables: not ours
    con = sqlite3.connect(tables_only)
    con.execute("CREATE TABLE config (key TEXT)")
    con.close()
    with pytest.raises(StoreError, match="another program"):
        EventStore(tables_only)
    marked = tmp_path / "marked.db"  # another program's file carrying another id is refused too
    con = sqlite3.connect(marked)
    con.execute("PRAGMA application_id=1")
    con.execute("CREATE TABLE table_event (id INTEGER)")
    con.execute("CREATE TABLE tournament_event (id INTEGER)")
    con.execute("CREATE TABLE config (key TEXT)")
    con.close()
    with pytest.raises(StoreError, match="another program"):
        EventStore(marked)


def test_sqlite_errors_are_explained_by_kind() -> None:
    import sqlite3

    store = EventStore(":memory:")
    try:
        explain = store._explain  # noqa: SLF001
        assert "is corrupt or not a tapis store (database disk image is malformed)" in explain(
            sqlite3.DatabaseError("database disk image is malformed"))
        assert "is corrupt" in explain(sqlite3.DatabaseError("file is not a database"))
        for text in ("attempt to write a readonly database", "unable to open database file", "disk I/O error"):
            assert f"cannot be written ({text}): check the path" in explain(sqlite3.OperationalError(text))
        assert explain(sqlite3.OperationalError("database is locked")) == (
            "the event store :memory: failed: database is locked")
    finally:
        store.close()


def test_counts_rows_and_keys_by_table_and_prefix(tmp_path: Path) -> None:
    with EventStore(tmp_path / "s.db") as store:
        store.append_table_event("t1", "b", 1, b"x", 0.0)
        store.append_table_event("t2", "b", 1, b"y", 0.0)
        store.append_table_event("t1", "b", 2, b"z", 0.0)
        assert store.count_table_events() == 3 and store.count_table_events("t2") == 1
        assert (store.table_event_row("t1", "b", 2), store.table_event_row("t1", "b", 3)) == (3, 0)
        assert store.table_event_row("t2", "b", 1) == 2
        assert store.last_seqs() == [("t2", "b", 1), ("t1", "b", 2)]
        assert [r.seq for r in store.table_rows(table="t1", after=1)] == [2]
        store.put_config("b", 1)
        store.put_config("a", 2)
        assert store.config_keys() == ["a", "b"]
        assert store.append_tournament_events([]) == 0


def test_tournament_events_are_stored_as_compact_json_objects(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "s.db"
    with EventStore(path) as store:
        store.append_tournament_event({"type": "A", "n": [1, 2]})
        with pytest.raises(StaleTournament, match=r"s\.db holds 1 tournament events, the command saw 0"):
            store.append_tournament_events([{"type": "B"}], expected=0)
    con = sqlite3.connect(path)
    assert con.execute("SELECT body FROM tournament_event").fetchall() == [('{"type":"A","n":[1,2]}',)]
    con.execute("INSERT INTO tournament_event (body) VALUES ('[1]')")
    con.commit()
    con.close()
    with EventStore(path) as store, pytest.raises(StoreError, match="holds a tournament event that is not an object"):
        list(store.tournament_events())


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


def test_the_row_of_each_appended_event_is_known_without_a_query(tmp_path: Path) -> None:
    with EventStore(tmp_path / "hub.db") as store:
        for seq in (1, 2):
            assert store.append_table_event("t1", "b", seq, b"e", 0.0)
            assert store.appended_row == store.table_event_row("t1", "b", seq) == store.last_table_row()
        assert store.append_table_event("t2", "b", 1, b"e", 0.0)
        assert not store.append_table_event("t1", "b", 1, b"e", 0.0)  # a resend: stored before
        assert store.appended_row == store.table_event_row("t2", "b", 1) == 3


def test_a_tournament_log_edited_by_hand_is_refused_in_plain_words(tmp_path: Path) -> None:
    """The count is the last event's position (the log is only appended to): a row deleted by hand
    would make it lie, so reading the log says so instead of deciding on a wrong count."""
    path = tmp_path / "s.db"
    with EventStore(path) as store:
        store.append_tournament_events([{"type": "A"}, {"type": "B"}, {"type": "C"}])
        assert store.count_tournament_events() == 3
        store.run("DELETE FROM tournament_event WHERE id = 2")
        with pytest.raises(StoreError, match=r"lacks tournament event 2 \(the next is 3\): the tournament's log "
                                             r"was edited, restore it from a backup"):
            list(store.tournament_events())


# The schema of stores made before the table events lost AUTOINCREMENT and their index on (tbl, id)
_OLDER_SCHEMA = """
CREATE TABLE table_event (id INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT NOT NULL, boot TEXT NOT NULL,
    seq INTEGER NOT NULL, at REAL NOT NULL, payload BLOB NOT NULL, UNIQUE (tbl, boot, seq));
CREATE INDEX table_event_tbl ON table_event (tbl, id);
CREATE TABLE tournament_event (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL);
CREATE TABLE config (key TEXT PRIMARY KEY, value TEXT NOT NULL);
PRAGMA user_version=1;
PRAGMA application_id=1952542825;
"""

# Two tables, agents restarted, an older run's outbox still sending beside the new one (t1's "a" after "b")
_INTERLEAVED = [("t1", "a", 1), ("t2", "x", 1), ("t1", "a", 2), ("t1", "b", 1), ("t2", "x", 2), ("t1", "a", 3),
                ("t1", "b", 2), ("t2", "y", 1), ("t1", "c", 1), ("t1", "b", 3), ("t2", "y", 2), ("t1", "c", 2)]


def _each_table_since_each_row(store: EventStore) -> None:
    """A table's rows past any row (a hand's, read at its end) are exactly the store's rows of that table."""
    everything = list(store.table_rows())
    for table in ("t1", "t2", "t3"):
        for after in range(len(everything) + 2):
            want = [(r.row, r.boot, r.seq, r.payload) for r in everything if r.table == table and r.row > after]
            assert [(r.row, r.boot, r.seq, r.payload) for r in store.table_rows(table=table, after=after)] == want


def test_a_new_store_writes_one_index_per_table_event(tmp_path: Path) -> None:
    """No AUTOINCREMENT (a write to sqlite_sequence per event) and no index on (tbl, id) (a leaf per table
    of the turn rewritten at every COMMIT): a table's rows since a hand's start are read by its
    (tbl, boot, seq) index, over every boot the table had, in arrival order."""
    import sqlite3

    path = tmp_path / "s.db"
    with EventStore(path) as store:
        for n, (table, boot, seq) in enumerate(_INTERLEAVED):
            assert store.append_table_event(table, boot, seq, b"%d" % n, float(n))
        _each_table_since_each_row(store)
    con = sqlite3.connect(path)
    indexes = {n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'index' "
                                         "AND tbl_name = 'table_event'")}
    counters = {n for (n,) in con.execute("SELECT name FROM sqlite_sequence")}
    con.close()
    assert indexes == {"sqlite_autoindex_table_event_1"}  # the resend check's UNIQUE (tbl, boot, seq)
    assert "table_event" not in counters


def test_a_store_made_by_the_older_schema_opens_and_works(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "older.db"
    con = sqlite3.connect(path)
    con.executescript(_OLDER_SCHEMA)
    for n, (table, boot, seq) in enumerate(_INTERLEAVED[:6]):
        con.execute("INSERT INTO table_event (tbl, boot, seq, at, payload) VALUES (?, ?, ?, ?, ?)",
                    (table, boot, seq, float(n), b"%d" % n))
    con.execute("INSERT INTO tournament_event (body) VALUES ('{\"type\":\"A\"}')")
    con.commit()
    con.close()
    with EventStore(path) as store:
        assert store.append_table_event("t1", "a", 2, b"again", 0.0) is False  # a resend, stored by the older hub
        for n, (table, boot, seq) in enumerate(_INTERLEAVED[6:], start=6):
            assert store.append_table_event(table, boot, seq, b"%d" % n, float(n))
            assert store.appended_row == n + 1 == store.last_table_row()
        _each_table_since_each_row(store)
        assert store.last_seqs()[-2:] == [("t2", "y", 2), ("t1", "c", 2)]
        assert store.count_table_events("t1") == 8
        assert list(store.tournament_events()) == [{"type": "A"}]
        assert store.append_tournament_event({"type": "B"}) == 2
    con = sqlite3.connect(path)
    assert con.execute("SELECT name FROM sqlite_master WHERE name = 'table_event_tbl'").fetchall() == [
        ("table_event_tbl",)]  # left as it was: the store is not rewritten
    con.close()
