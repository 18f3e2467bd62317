"""The tournament's retained views on MQTT: the clock, and each table's seats on a topic of its own.

Consumes the clock's snapshot (`FloorService.snapshot`, schema 1 of `hub.tournament.snapshot`: every seat
of the room); emits the retained messages a clock screen or a seat finder reads without asking the hub:

- `tapis/v1/hub/tournament/clock`: the snapshot without the seats (schema 2): the clock, the blinds, the
  room's figures, the payouts, the pending moves, and `table_numbers`, the tables in play. A few kB
  whatever the room, every second.
- `tapis/v1/hub/tournament/table/<n>`: table n's part of the snapshot (hand, level, stopped, seats with
  name, chips and status), published when it changes; an empty retained message clears it when the
  table is broken up or gone.

Why split: a festival's snapshot is ~640 kB at 9,000 players, over the broker's packet limit (256 kB,
`hub.edge.security.MAX_PACKET`; the broker refused it and the screens froze), and encoding it every
second stalled the hub's thread for tens of milliseconds. A table's view is re-encoded only when a record
touched it (`FloorState.table_views` keeps the same object until then).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol

from hub.floor.commands import TOURNAMENT_CLOCK, tournament_table_topic

CLOCK_SCHEMA = 2  # schema 1 carried every seat under "tables"
REFRESH = 60.0  # seconds: every table is sent again this often, whatever it missed (a lost retained message)


class Publisher(Protocol):
    def publish(self, topic: str, payload: bytes, *, retain: bool = ...) -> object: ...


class TableTexts:
    """Each table's view as JSON text, encoded again only when the view is another object (a record
    touched that table: `FloorState.table_views`). Compact separators, as the dashboard's stream."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[object, str]] = {}

    def text(self, number: str, view: object) -> tuple[str, bool]:
        """The table's text, and whether it differs from the one given last (or is the first)."""
        kept = self._kept.get(number)
        if kept is not None and kept[0] is view:
            return kept[1], False
        text = json.dumps(view, separators=(",", ":"))
        self._kept[number] = (view, text)
        return text, kept is None or kept[1] != text

    def keep_only(self, numbers: Mapping[str, object]) -> list[str]:
        """Forget the tables no longer in play; returns them."""
        gone = [number for number in self._kept if number not in numbers]
        for number in gone:
            del self._kept[number]
        return gone


def clock_head(snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """The snapshot without its tables: what the clock topic and the dashboard's stream carry first."""
    return {key: value for key, value in snapshot.items() if key != "tables"}


def snapshot_text(snapshot: Mapping[str, Any], texts: TableTexts) -> str:
    """`json.dumps(snapshot)`, compact, its tables last, each from `texts`: a festival's every seat is
    encoded once, not every second (~640 kB at 9,000 players, tens of ms holding the interpreter)."""
    tables: Mapping[str, object] = snapshot["tables"]
    parts = [f"{json.dumps(number)}:{texts.text(number, view)[0]}" for number, view in tables.items()]
    texts.keep_only(tables)
    head = json.dumps(clock_head(snapshot), separators=(",", ":"))
    return f'{head[:-1]}{"," if len(head) > 2 else ""}"tables":{{{",".join(parts)}}}}}'


class ClockTopics:
    """What was published last, per table, so that only a table that changed goes out again."""

    def __init__(self, link: Publisher) -> None:
        self._link = link
        self._texts = TableTexts()
        self._refreshed: float | None = None  # when every table was last sent, whether it changed or not

    def forget(self) -> None:
        """After a reconnect: the broker may have lost its retained messages (restarted without them)."""
        self._refreshed = None

    def publish(self, snapshot: Mapping[str, Any], highest_table: int, now: float) -> None:
        tables: Mapping[str, object] = snapshot["tables"]
        gone = self._texts.keep_only(tables)
        refresh = self._refreshed is None or not 0 <= now - self._refreshed < REFRESH
        if refresh:  # once a minute and after a (re)connect: whatever was lost, and tables broken meanwhile
            self._refreshed = None
            gone += [str(n) for n in range(1, highest_table + 1) if str(n) not in tables and str(n) not in gone]
        try:
            for number, view in tables.items():
                text, changed = self._texts.text(number, view)
                if changed or refresh:
                    self._link.publish(tournament_table_topic(number), text.encode(), retain=True)
            for number in gone:
                self._link.publish(tournament_table_topic(number), b"", retain=True)
        except BaseException:
            self._refreshed = None  # not all sent: all of them next time
            raise
        if refresh:
            self._refreshed = now
        clock = clock_head(snapshot)
        clock["schema"] = CLOCK_SCHEMA
        clock["table_numbers"] = [int(number) for number in tables]
        self._link.publish(TOURNAMENT_CLOCK, json.dumps(clock).encode(), retain=True)
