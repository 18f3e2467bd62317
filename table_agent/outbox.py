"""The agent's durable outbox: every event kept in SQLite until the hub acknowledges it.

The agent appends each numbered event before publishing it; the hub publishes a retained
acknowledgement per table (boot id, highest sequence stored in order) and the agent deletes up to it.
On every reconnect, and now and then while events wait, the agent publishes again what is left:
the hub ignores duplicates by (table, boot, seq). `OutboxSender` is that path, shared by the agent
and the simulated room (`simulators.tournament_room`). Used only from the owner's thread.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

from hw.ports import Clock
from tablewire import wire


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


class OutboxSender:
    """One table's store-and-forward path: number each event, keep it, publish it, resend what the
    hub has not acknowledged, forget it on the hub's acknowledgement.

    Events of a previous run (a power cut) are published alone, oldest run first, until the hub has
    acknowledged them: the hub applies the table's history in the order it happened, and its ack names
    only the last run it applied, so a dead run's events sent in one burst with this run's would never
    be acknowledged (and never forgotten). Used only from its owner's thread (the agent's);
    `publish` is the MQTT link's, `clock` the agent's.
    """

    def __init__(self, *, table: str, boot: str, outbox: Outbox, publish: Callable[[str, bytes], object],
                 clock: Clock, resend_after: float = 10.0) -> None:
        self.table = table
        self.boot = boot
        self.outbox = outbox
        self.seq = 0  # the last number given in this run
        self.resent = 0
        self._publish = publish
        self._clock = clock
        self._resend_after = resend_after
        self._earlier_boot_pending = self._earlier_boots()
        self._last_progress = clock.now()  # last ack that freed something, or last resend

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def send(self, event: wire.AnyTableEvent) -> None:
        """Keep the event, then publish it (unless a dead run's events still wait their turn)."""
        payload = wire.encode(event)
        self.outbox.append(event.boot, event.seq, payload)  # kept before it is sent
        if not self._earlier_boot_pending:
            self._publish(wire.table_events(self.table), payload)

    def acknowledged(self, ack: wire.Ack) -> None:
        """The hub's retained acknowledgement: forget what it has stored."""
        if not self.outbox.acknowledged(ack.boot, ack.seq):
            return
        self._last_progress = self._clock.now()
        if self._earlier_boot_pending and self.outbox.last_seq(ack.boot) == 0:
            # The hub has all of a dead run's events: now the next run's (another dead one, or this).
            self._earlier_boot_pending = self._earlier_boots()
            self.resend()

    def resend(self) -> None:
        """Publish again what the hub has not acknowledged (it ignores what it already has); while a
        dead run's events wait, only the oldest run's."""
        topic = wire.table_events(self.table)
        oldest: str | None = None
        for boot, _seq, payload in self.outbox.pending():
            oldest = oldest or boot
            if boot != oldest and self._earlier_boot_pending:
                break
            self.resent += 1
            self._publish(topic, payload)
        self._last_progress = self._clock.now()

    def check(self, now: float) -> None:
        """Acks stopped coming (a hub that lost its session, or messages lost): resend."""
        if now - self._last_progress > self._resend_after and len(self.outbox):
            self.resend()

    def _earlier_boots(self) -> bool:
        return any(boot != self.boot for boot, _seq, _payload in self.outbox.pending())
