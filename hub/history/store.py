"""The hand histories, kept in the hub's event store file beside the events they come from.

One row per table and hand: the TD's record and the public one (JSON, `hub.history.hand_record`),
with the tournament, the table, the hand number and when it ended, for `tapis hands` and the dashboard
to select on. A record is bounded (`MAX_RECORD_BYTES`): one past it loses its card arrivals first.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from hub.floor.store import EventStore

MAX_RECORD_BYTES = 64 * 1024

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS hand_history (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tbl TEXT NOT NULL,
        hand INTEGER NOT NULL,
        tournament TEXT,
        ended_at REAL NOT NULL,
        td TEXT NOT NULL,
        public TEXT NOT NULL,
        UNIQUE (tbl, hand)
    )""",
    "CREATE INDEX IF NOT EXISTS hand_history_time ON hand_history (ended_at)",
)


@dataclass(frozen=True, slots=True)
class Selection:
    """Which hands: a tournament, a table, a time span (the hub's wall clock, seconds); None: any."""

    tournament: str | None = None
    table: str | None = None
    since: float | None = None
    until: float | None = None
    limit: int | None = None

    def where(self) -> tuple[str, tuple[object, ...]]:
        clauses: list[str] = []
        params: list[object] = []
        for column, op, value in (("tournament", "=", self.tournament), ("tbl", "=", self.table),
                                  ("ended_at", ">=", self.since), ("ended_at", "<", self.until)):
            if value is not None:
                clauses.append(f"{column} {op} ?")
                params.append(value)
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", tuple(params)


def _bounded(record: Mapping[str, Any]) -> str:
    text = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
    if len(text.encode()) <= MAX_RECORD_BYTES:
        return text
    cut = {**record, "cards": [], "truncated": True}
    text = json.dumps(cut, separators=(",", ":"), ensure_ascii=False)
    if len(text.encode()) <= MAX_RECORD_BYTES:
        return text
    cut = {**cut, "faults": [], "decisions": [], "rulings": [], "timeline": [], "problems": ["record too big"]}
    return json.dumps(cut, separators=(",", ":"), ensure_ascii=False)


class HistoryStore:
    """`HistoryStore(store)`: the hand histories in `store`'s file, on its connection (same thread rules)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        with store.atomic():
            for sql in _SCHEMA:
                store.run(sql)

    def put(self, td: Mapping[str, Any], public: Mapping[str, Any]) -> None:
        """Store (or replace: the same hand ended again after a hub restart) one hand's two records."""
        with self.store.atomic():
            self.store.run("INSERT INTO hand_history (tbl, hand, tournament, ended_at, td, public) "
                           "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tbl, hand) DO UPDATE SET "
                           "tournament = excluded.tournament, ended_at = excluded.ended_at, td = excluded.td, "
                           "public = excluded.public",
                           (td["table"], int(td["hand"]), td.get("tournament"), float(td["ended_at"]),
                            _bounded(td), _bounded(public)))

    def records(self, selection: Selection = Selection(), *, td: bool = False) -> Iterator[dict[str, Any]]:
        """The records selected, oldest first; the public ones unless `td`."""
        where, params = selection.where()
        limit = f" LIMIT {int(selection.limit)}" if selection.limit is not None else ""
        column = "td" if td else "public"
        for (text,) in self.store.run(f"SELECT {column} FROM hand_history{where} ORDER BY ended_at, id{limit}",
                                      params):
            yield json.loads(str(text))

    def record(self, table: str, hand: int, *, td: bool = False) -> dict[str, Any] | None:
        column = "td" if td else "public"
        rows = self.store.run(f"SELECT {column} FROM hand_history WHERE tbl = ? AND hand = ?", (table, hand))
        return json.loads(str(rows[0][0])) if rows else None

    def count(self, selection: Selection = Selection()) -> int:
        where, params = selection.where()
        return int(self.store.run(f"SELECT COUNT(*) FROM hand_history{where}", params)[0][0])  # type: ignore[call-overload]

    def tables(self) -> list[str]:
        return [str(t) for (t,) in self.store.run("SELECT DISTINCT tbl FROM hand_history ORDER BY tbl")]
