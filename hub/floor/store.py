"""The hub's durable event store: one SQLite file per room (hub, after MQTT in, before any ruling).

Consumes every table event as received (raw payload, deduplicated by table, boot and sequence),
every tournament event the floor produced (JSON) and a small key/value config; emits them back in
arrival order so that a hub killed at any moment rebuilds the same tournament, tables and hands.

Threading: one connection, used by one thread at a time (the hub's consumer thread); it may be
created on another thread (`check_same_thread=False`), but never used from two at once.
Durability: WAL journal with `synchronous=FULL`, so a write that returned survives a SIGKILL or a
power cut; `durable=False` (demos, benchmarks) keeps WAL but does not wait for the disk. The hub
groups its commits (`group_sync`): a COMMIT reaches the page cache only (it survives a SIGKILL) and
one fsync of the WAL, before anything of the loop's turn leaves the hub, makes the turn's commits
survive a power cut: one disk wait per turn instead of one per table event. The hub's turn is also one
transaction (`begin_turn`, `commit_turn`): one COMMIT for all the table events of a burst, each
`atomic()` block inside it a SAVEPOINT.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Self

JSON = str | int | float | bool | None | list["JSON"] | dict[str, "JSON"]

STORE_SCHEMA = 1
APPLICATION_ID = 0x74617069  # "tapi" in the file's header: a tapis store says so (PRAGMA application_id)

# The table events' one index is the resend check's (tbl, boot, seq); a table's rows in arrival order are
# read through it too (`table_rows`). No AUTOINCREMENT: rows are never deleted, so a new row's id (the
# largest + 1) only grows all the same, without a write to sqlite_sequence per event. Stores made before
# (AUTOINCREMENT, and an index on (tbl, id)) open and work unchanged: each insert there keeps its two writes
# more. Each index a table event touches is one more page written at every COMMIT (a leaf per table of the
# turn): per event, 26 us instead of 40 here in a benchmark of the same rows, two or three per transaction.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS table_event (
    id INTEGER PRIMARY KEY,
    tbl TEXT NOT NULL,
    boot TEXT NOT NULL,
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    payload BLOB NOT NULL,
    UNIQUE (tbl, boot, seq)
);
CREATE TABLE IF NOT EXISTS tournament_event (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS config (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class StoreError(OSError):
    """The event store's file cannot be used (corrupt, unwritable, not a tapis store)."""


class StaleTournament(StoreError):
    """Another writer appended tournament events since this one read them (two TDs at once)."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """One stored table event with its arrival position (`row`) and the hub's arrival time."""

    row: int
    table: str
    boot: str
    seq: int
    at: float
    payload: bytes


class EventStore:
    """`EventStore(path)`; `":memory:"` for a throwaway store. See the module docstring."""

    def __init__(self, path: str | Path, *, durable: bool = True) -> None:
        self.path = str(path)
        self.durable = durable
        self._batch = 0  # depth of `atomic()` blocks: commit only at the outermost end
        self._grouped = False  # `group_sync`: a COMMIT does not wait for the disk, `sync()` does
        self._unsynced = False  # committed since the last `sync()`, grouped: not on the disk yet
        self._sync_lock = threading.Lock()
        self._wal: tuple[int, int] | None = None  # (fd, inode) of the WAL file, opened by `sync()`
        self.syncs = 0  # fsyncs `sync()` made (the benchmark's figure)
        self.appended_row = 0  # row of the last table event `append_table_event` stored
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as err:
            raise StoreError(f"cannot open the event store {self.path}: {err}") from err
        try:
            self._check_ours()  # before any write: another program's file is left exactly as it was
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'OFF'}")
            self._db.executescript(_SCHEMA)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                self._db.execute(f"PRAGMA user_version={STORE_SCHEMA}")
                self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            elif version != STORE_SCHEMA:
                raise StoreError(f"{self.path} is a tapis store of schema {version}, "
                                 f"this hub reads schema {STORE_SCHEMA}")
        except StoreError:
            self._db.close()
            raise
        except sqlite3.Error as err:
            self._db.close()
            raise StoreError(self._explain(err)) from err

    def _check_ours(self) -> None:
        """Refuse a SQLite file some other program made (tapis would add its tables to it)."""
        tables = {str(n) for (n,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            return  # a new (or empty) file: it becomes a tapis store
        app = int(self._db.execute("PRAGMA application_id").fetchone()[0])
        ours = app == APPLICATION_ID or (app == 0 and {"table_event", "tournament_event", "config"} <= tables)
        if not ours:
            raise StoreError(f"{self.path} is a SQLite file of another program (tables "
                             f"{', '.join(sorted(tables)[:5])}): not a tapis store, left untouched")

    def _explain(self, err: sqlite3.Error) -> str:
        text = str(err)
        if "not a database" in text or "malformed" in text:
            return f"the event store {self.path} is corrupt or not a tapis store ({text})"
        if "readonly" in text or "unable to open" in text or "disk I/O" in text:
            return f"the event store {self.path} cannot be written ({text}): check the path and permissions"
        return f"the event store {self.path} failed: {text}"

    # --- transactions ---------------------------------------------------------------------------

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """Writes inside the block are committed together (or not at all, on an exception). Inside
        another block (or the hub's turn, `begin_turn`) it is a SAVEPOINT: an exception undoes this
        block's writes only, and the outer block decides."""
        depth = self._batch
        if depth == 0:
            if self._db.in_transaction:
                self._abandon()  # a failed COMMIT (disk full) left it open: start clean
            self._exec("BEGIN IMMEDIATE")
        else:
            self._still_open()
            self._exec(f"SAVEPOINT s{depth}")
        self._batch += 1
        try:
            yield
        except BaseException:
            self._batch -= 1
            if depth == 0:
                self._abandon()
            else:
                self._undo_savepoint(depth)
            raise
        self._batch -= 1
        if depth == 0:
            try:
                self._exec("COMMIT")
            except StoreError:
                self._abandon()  # nothing of the block is kept: the caller may try it all again
                raise
            self._unsynced = self._grouped
        else:
            self._exec(f"RELEASE s{depth}")

    def _still_open(self) -> None:
        """Inside a block, the transaction must still be ours: SQLite rolls it all back by itself on
        some errors (a full disk), and a write then would be committed alone, outside the block."""
        if not self._db.in_transaction:
            raise StoreError(f"the event store {self.path} failed: the transaction was rolled back")

    def _undo_savepoint(self, depth: int) -> None:
        try:
            if self._db.in_transaction:
                self._db.execute(f"ROLLBACK TO s{depth}")
                self._db.execute(f"RELEASE s{depth}")
        except sqlite3.Error:
            pass  # rolled back by SQLite already: the outer block fails on it

    # --- the hub's turn: every write of one loop turn in one transaction -------------------------

    def begin_turn(self) -> None:
        """The hub's turn of its loop opens one transaction for all it stores (`commit_turn` ends it):
        one COMMIT for the turn's table events instead of one per event. Every `atomic()` block inside
        is a SAVEPOINT. The caller holds back every acknowledgement and everything the turn played
        until `commit_turn` returned (and the group sync passed)."""
        if self._batch:
            raise RuntimeError("begin_turn inside a transaction")
        if self._db.in_transaction:
            self._abandon()
        self._exec("BEGIN IMMEDIATE")
        self._batch = 1

    @property
    def in_turn(self) -> bool:
        return self._batch > 0

    def commit_turn(self) -> None:
        """The turn's writes committed together; a StoreError: none of them is kept (rolled back)."""
        self._batch = 0
        try:
            self._still_open()
            self._exec("COMMIT")
        except StoreError:
            self._abandon()
            raise
        self._unsynced = self._grouped

    def rollback_turn(self) -> None:
        """Nothing of the turn is kept (a write of it failed)."""
        self._batch = 0
        self._abandon()

    def _abandon(self) -> None:
        """Roll back whatever is open; a rollback that fails (SQLite may have rolled back already on a
        full disk) must not hide the error that brought us here, nor leave the next BEGIN failing."""
        try:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
        except sqlite3.Error:
            pass

    def _exec(self, sql: str, params: tuple[object, ...] = ()) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, params)
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as err:
            raise StoreError(self._explain(err)) from err

    # --- group commit ---------------------------------------------------------------------------

    def group_sync(self) -> Callable[[], None]:
        """The hub's group commit: from now on a COMMIT does not wait for the disk (`synchronous=NORMAL`:
        in the page cache, it survives a SIGKILL, and WAL keeps the file consistent after a power cut);
        the caller promises to call the returned `sync` before it acknowledges anything stored, and
        that one fsync makes every commit since survive a power cut. A store that is not durable, or
        in memory, returns a `sync` that does nothing."""
        if not self.durable or self.path == ":memory:" or self.path.startswith("file::memory:"):
            return lambda: None
        self._exec("PRAGMA synchronous=NORMAL")
        self._grouped = True
        return self.sync

    def sync(self) -> None:
        """Every commit so far onto the disk: one fsync of the WAL file (nothing to do when none was
        committed since the last). A StoreError when the disk refuses: nothing may be acknowledged."""
        # Two threads sync: the hub's loop before its packets, the dashboard before it answers the TD.
        # The mark is cleared before the fsync, so a commit made meanwhile marks it again for the next.
        with self._sync_lock:
            if not self._unsynced:
                return
            self._unsynced = False
            wal = f"{self.path}-wal"
            try:
                inode = os.stat(wal).st_ino
                if self._wal is None or self._wal[1] != inode:  # first time, or a new WAL file
                    self._close_wal()
                    self._wal = (os.open(wal, os.O_RDONLY), inode)
                os.fsync(self._wal[0])  # Linux flushes the file's dirty pages whichever descriptor wrote them
            except OSError as err:
                self._unsynced = True
                raise StoreError(f"the event store {self.path} cannot be synced to the disk: {err}") from err
            self.syncs += 1

    def _close_wal(self) -> None:
        if self._wal is not None:
            os.close(self._wal[0])
            self._wal = None

    # --- table events ---------------------------------------------------------------------------

    def append_table_event(self, table: str, boot: str, seq: int, payload: bytes, at: float) -> bool:
        """Store a table's event (its row: `appended_row`); False if (table, boot, seq) is already stored
        (a resend). A boot's events are stored in sequence order (the hub admits them so, `TableView.admit`):
        `table_rows` reads a table's latest rows by it."""
        sql = "INSERT INTO table_event (tbl, boot, seq, at, payload) VALUES (?, ?, ?, ?, ?)"
        try:
            if self._batch:  # inside a block: one statement needs no savepoint (a refused one undoes itself)
                self._still_open()
                cur = self._exec(sql, (table, boot, seq, at, payload))
            else:
                with self.atomic():
                    cur = self._exec(sql, (table, boot, seq, at, payload))
        except sqlite3.IntegrityError:
            return False
        self.appended_row = int(cur.lastrowid or 0)  # the highest row: ids only grow (never a row deleted)
        return True

    def table_events(self, table: str | None = None) -> Iterator[tuple[str, bytes]]:
        """(table, payload) in arrival order, for one table or all."""
        for row in self.table_rows(table=table):
            yield row.table, row.payload

    def table_rows(self, *, table: str | None = None, after: int = 0) -> Iterator[TableRow]:
        """Stored table events past row `after`, in arrival order, with their row and arrival time."""
        if table is None:
            rows = self._exec("SELECT id, tbl, boot, seq, at, payload FROM table_event WHERE id > ? "
                              "ORDER BY id", (after,)).fetchall()
        else:
            rows = sorted(self._table_rows_after(table, after))
        for row in rows:
            yield TableRow(int(row[0]), str(row[1]), str(row[2]), int(row[3]), float(row[4]), bytes(row[5]))

    def _table_rows_after(self, table: str, after: int) -> list[tuple[object, ...]]:
        """One table's rows past `after`, by the (tbl, boot, seq) index alone (a hand's rows at its end: a
        few dozen, however long the tournament): each of the table's boots (an agent's run) found by a
        skip along the index, then read from its last sequence back while the rows are past `after` (a
        boot is stored in sequence order, so its ids grow with its sequence). A boot that ended before
        `after` costs one row read."""
        boots = self._exec(
            "WITH RECURSIVE b(boot) AS (SELECT (SELECT MIN(boot) FROM table_event WHERE tbl = ?1) UNION ALL "
            "SELECT (SELECT MIN(boot) FROM table_event WHERE tbl = ?1 AND boot > b.boot) FROM b "
            "WHERE b.boot IS NOT NULL) SELECT boot FROM b WHERE boot IS NOT NULL", (table,)).fetchall()
        out: list[tuple[object, ...]] = []
        for (boot,) in boots:
            cur = self._exec("SELECT id, tbl, boot, seq, at, payload FROM table_event WHERE tbl = ? AND boot = ? "
                             "ORDER BY seq DESC", (table, boot))
            try:
                for row in cur:
                    if int(row[0]) <= after:
                        break
                    out.append(tuple(row))
            except sqlite3.Error as err:
                raise StoreError(self._explain(err)) from err
            finally:
                cur.close()
        return out

    def table_event_row(self, table: str, boot: str, seq: int) -> int:
        """Row of a stored table event (0 when it is not stored)."""
        row = self._exec("SELECT id FROM table_event WHERE tbl = ? AND boot = ? AND seq = ?",
                         (table, boot, seq)).fetchone()
        return int(row[0]) if row else 0

    def last_table_row(self) -> int:
        """Row of the latest stored table event (0 when none)."""
        return int(self._exec("SELECT COALESCE(MAX(id), 0) FROM table_event").fetchone()[0])

    def last_seqs(self) -> list[tuple[str, str, int]]:
        """(table, boot, last sequence stored) for every table and boot, each table's latest boot last."""
        cur = self._exec("SELECT tbl, boot, MAX(seq) FROM table_event GROUP BY tbl, boot ORDER BY MAX(id)")
        return [(str(t), str(b), int(s)) for t, b, s in cur.fetchall()]

    def count_table_events(self, table: str | None = None) -> int:
        if table is None:
            return int(self._exec("SELECT COUNT(*) FROM table_event").fetchone()[0])
        return int(self._exec("SELECT COUNT(*) FROM table_event WHERE tbl = ?", (table,)).fetchone()[0])

    # --- tournament events ----------------------------------------------------------------------

    def append_tournament_event(self, event: dict[str, JSON]) -> int:
        """Store one tournament event (JSON-ready dict); returns its position (1, 2, ...)."""
        return self.append_tournament_events([event])

    def append_tournament_events(self, events: list[dict[str, JSON]], *, expected: int | None = None) -> int:
        """Store a command's events together: all or none survive a crash. Returns the last position.

        `expected`: the number of events the command was decided on; another writer (a second TD
        process, the hub's floor) that appended since makes this a `StaleTournament`, nothing stored."""
        last = 0
        with self.atomic():
            if expected is not None and (stored := self.count_tournament_events()) != expected:
                raise StaleTournament(f"{self.path} holds {stored} tournament events, the command saw {expected}")
            for event in events:
                cur = self._exec("INSERT INTO tournament_event (body) VALUES (?)",
                                 (json.dumps(event, separators=(",", ":")),))
                last = int(cur.lastrowid or 0)
        return last

    def tournament_events(self) -> Iterator[dict[str, JSON]]:
        for position, (row_id, body) in enumerate(
                self._exec("SELECT id, body FROM tournament_event ORDER BY id").fetchall(), 1):
            if row_id != position:  # a log edited by hand: positions (and the count below) would lie
                raise StoreError(f"the event store {self.path} lacks tournament event {position} (the next is "
                                 f"{row_id}): the tournament's log was edited, restore it from a backup")
            value = json.loads(body)
            if not isinstance(value, dict):
                raise StoreError(f"the event store {self.path} holds a tournament event that is not an object")
            yield value

    def count_tournament_events(self) -> int:
        """How many tournament events are stored: the last one's position, as the log is only appended to
        (1, 2, ..., checked as it is read). Asked at every hand's start and end: COUNT(*) would read the
        whole log, longer at each hand of a festival; the last id is one look into the index."""
        return int(self._exec("SELECT COALESCE(MAX(id), 0) FROM tournament_event").fetchone()[0])

    # --- tables of other modules -----------------------------------------------------------------

    def run(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        """A statement on a table another module keeps in this file (`hub.history.store`): its rows.
        On the store's one connection, so it joins an `atomic()` block and never waits on this file's lock."""
        return [tuple(row) for row in self._exec(sql, params).fetchall()]

    # --- config ---------------------------------------------------------------------------------

    def put_config(self, key: str, value: JSON) -> None:
        with self.atomic():
            self._exec("INSERT INTO config (key, value) VALUES (?, ?) "
                       "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, json.dumps(value)))

    def get_config(self, key: str) -> JSON | None:
        row = self._exec("SELECT value FROM config WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        value: JSON = json.loads(row[0])
        return value

    def config_keys(self, prefix: str = "") -> list[str]:
        rows = self._exec("SELECT key FROM config WHERE key >= ? ORDER BY key", (prefix,)).fetchall()
        return [str(k) for (k,) in rows if str(k).startswith(prefix)]

    def close(self) -> None:
        self._close_wal()
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
