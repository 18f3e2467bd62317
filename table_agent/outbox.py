"""The agent's durable outbox: every event kept in SQLite until the hub acknowledges it.

The agent appends each numbered event before publishing it; the hub publishes a retained
acknowledgement per table (boot id, highest sequence stored in order) and the agent deletes up to it.
On every reconnect, and now and then while events wait, the agent publishes again what is left:
the hub ignores duplicates by (table, boot, seq). Used only from the agent's own thread.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path


class OutboxError(OSError):
    """The outbox file cannot be opened or written; the message names the file."""


class Outbox:
    def __init__(self, path: str | Path = ":memory:", *, durable: bool = True) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'OFF'}")
            self._db.execute("CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY AUTOINCREMENT,"
                             " boot TEXT NOT NULL, seq INTEGER NOT NULL, payload BLOB NOT NULL,"
                             " UNIQUE (boot, seq))")
        except sqlite3.Error as err:
            raise OutboxError(f"outbox {self.path}: {err}") from err

    def append(self, boot: str, seq: int, payload: bytes) -> None:
        try:
            self._db.execute("INSERT OR IGNORE INTO outbox (boot, seq, payload) VALUES (?, ?, ?)",
                             (boot, seq, payload))
        except sqlite3.Error as err:
            raise OutboxError(f"outbox {self.path}: cannot keep event {boot}/{seq}: {err}") from err

    def acknowledged(self, boot: str, seq: int) -> int:
        """The hub has stored everything of `boot` up to `seq`: forget it. Returns rows deleted."""
        cursor = self._db.execute("DELETE FROM outbox WHERE boot = ? AND seq <= ?", (boot, seq))
        return cursor.rowcount

    def pending(self) -> Iterator[tuple[str, int, bytes]]:
        """What the hub has not acknowledged, oldest first."""
        yield from self._db.execute("SELECT boot, seq, payload FROM outbox ORDER BY id")

    def last_seq(self, boot: str) -> int:
        row = self._db.execute("SELECT MAX(seq) FROM outbox WHERE boot = ?", (boot,)).fetchone()
        return int(row[0] or 0)

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])

    def close(self) -> None:
        self._db.close()
