"""The statistics of the tables, from the hand histories (pure): hands per hour, faults per 100 hands by
kind, the rulings that needed the TD; per table, per dealer (the player on the button in dealerless
rooms, "croupier" with each table's croupier where the room has them) and for the whole tournament.

Every fault of a hand counts, as the hub ruled it (a fault the TD's one decision covered too: `joins`),
but a Time request (cpt87 4.5: a player's request the TD decides, no fault of the deal; his decision counts
among the TD's); a void hand (misdeal, cancelled) counts as a hand dealt.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

NOT_FAULTS = frozenset({"time_request"})  # in a record's faults (left to the TD), not counted as faults


def faults_of(record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A hand record's faults as counted (here, on the hand lists and in `tapis hands`): not a Time request."""
    return [f for f in record.get("faults") or [] if f.get("kind") not in NOT_FAULTS]


@dataclass
class Line:
    """One row of the statistics: a table, a dealer or the whole tournament."""

    scope: str  # "table", "dealer", "tournament"
    name: str
    hands: int = 0
    void: int = 0
    first: float | None = None  # the first hand's start, the hub's wall clock
    last: float | None = None  # the last hand's end
    faults: Counter[str] = field(default_factory=Counter)
    td_decisions: int = 0
    dealing: float = 0.0  # seconds from each hand's start to its end, summed: a dealer's own time

    def add(self, r: Mapping[str, Any]) -> None:
        self.hands += 1
        self.void += bool(r.get("void"))
        start, end = float(r.get("started_at") or r["ended_at"]), float(r["ended_at"])
        self.first = start if self.first is None else min(self.first, start)
        self.last = end if self.last is None else max(self.last, end)
        self.faults.update(str(f.get("kind")) for f in faults_of(r))
        self.td_decisions += len(r.get("decisions") or [])
        self.dealing += max(0.0, end - start)

    @property
    def hours(self) -> float:
        """A table's and the tournament's: from the first hand's start to the last one's end; a dealer's:
        the hands he dealt, end to end (he deals at one table, then another, with breaks between)."""
        if self.scope == "dealer":
            return self.dealing / 3600
        return 0.0 if self.first is None or self.last is None else max(0.0, self.last - self.first) / 3600

    @property
    def per_hour(self) -> float | None:
        return round(self.hands / self.hours, 1) if self.hours > 0 else None

    def per_100(self, kind: str | None = None) -> float:
        count = sum(self.faults.values()) if kind is None else self.faults[kind]
        return round(100 * count / self.hands, 2) if self.hands else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"scope": self.scope, "name": self.name, "hands": self.hands, "void": self.void,
                "hands_per_hour": self.per_hour, "faults": sum(self.faults.values()),
                "faults_per_100": self.per_100(), "by_kind": dict(sorted(self.faults.items())),
                "td_decisions": self.td_decisions}


def table_name(table: str) -> str:
    """A table as every page names it: « Table 1 » for the hub's `t1` (the dashboard's common.js, tableName)."""
    return "Table " + (table[1:] if table[:1] == "t" and table[1:].isdigit() else table)


def dealer_of(r: Mapping[str, Any]) -> str:
    dealer = r.get("dealer") or {}
    if dealer.get("croupier"):
        return f"croupier {table_name(str(r['table']))}"
    return str(dealer.get("player") or f"siège / seat {dealer.get('seat')} ({table_name(str(r['table']))})")


def statistics(records: Iterable[Mapping[str, Any]]) -> list[Line]:
    """The tournament's line first, then each table's, then each dealer's."""
    total = Line("tournament", "")
    tables: dict[str, Line] = {}
    dealers: dict[str, Line] = {}
    for r in records:
        total.name = total.name or str(r.get("tournament") or "")
        total.add(r)
        tables.setdefault(str(r["table"]), Line("table", str(r["table"]))).add(r)
        name = dealer_of(r)
        dealers.setdefault(name, Line("dealer", name)).add(r)
    return [total, *(tables[k] for k in sorted(tables)), *(dealers[k] for k in sorted(dealers))]


SCOPES = {"tournament": "tournoi / tournament", "table": "table", "dealer": "donneur / dealer"}


def stats_csv(lines: list[Line]) -> str:
    """A spreadsheet's CSV (semicolons, as French spreadsheets read them): one row per line, a column a kind."""
    kinds = sorted({k for line in lines for k in line.faults})
    out = io.StringIO()
    w = csv.writer(out, delimiter=";", lineterminator="\n")
    w.writerow(["Portée / Scope", "Nom / Name", "Mains / Hands", "Annulées / Void", "Mains par heure / Hands per hour",
                "Incidents / Faults", "Incidents pour 100 mains / Faults per 100 hands",
                "Décisions du DT / TD decisions", *kinds])
    for line in lines:
        w.writerow([SCOPES[line.scope], line.name, line.hands, line.void,
                    "" if line.per_hour is None else str(line.per_hour).replace(".", ","),
                    sum(line.faults.values()), str(line.per_100()).replace(".", ","), line.td_decisions,
                    *(line.faults[k] for k in kinds)])
    return out.getvalue()
