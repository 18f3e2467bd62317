"""Each hand's history written as it ends: the hub service's listener (`HubService.add_listener`).

Consumes the hub events of a tournament's tables, on the hub's consumer thread (the one that uses the
event store), and keeps each table's events since its hand started; at the hand's end it reads the
hand's start and card facts from the store (`hub.floor.tables`), builds the TD's and the public
records (`hub.history.hand_record`) and stores them (`hub.history.store`), in the same turn as the
end was published. A failure is logged and counted, never raised into the hub.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hub.floor.tables import FloorTables
from hub.history.hand_record import CardFact, HandStart, build_record, public_record
from hub.history.store import HistoryStore
from hub.tournament.errors import TournamentError

log = logging.getLogger(__name__)

_CONTEXT = "game/"  # hub.floor.tables: the table's context at the start of its current hand
_MAX_EVENTS = 2000  # a hand's hub events kept; past it the record says `truncated`
_DEALERLESS_DEFAULT_CROUPIER = frozenset({"pouques-2020"})  # as `TableGame._dealer`: rooms with croupiers


@dataclass
class _Hand:
    hand: int
    started_at: float
    ruleset: str
    names: dict[int, str]
    events: list[dict[str, Any]] = field(default_factory=list)
    complete: bool = True
    context: object = None  # the stored context of this hand, read at its start (the store keeps only the last)


class HandRecorder:
    """`service.add_listener(HandRecorder(floor_tables).event, reads_store=True)`: it reads the store as each
    event is played (a hand end reads its rows), inside the hub's turn."""

    def __init__(self, floor_tables: FloorTables, *, wall: Callable[[], float] = time.time) -> None:
        self.floor_tables = floor_tables
        self.history = HistoryStore(floor_tables.store)
        self._wall = wall
        self._hands: dict[str, _Hand] = {}
        self.written = 0
        self.failed = 0
        self.last_error: str | None = None
        # The hands in progress when the hub (re)started, replayed from the store (`FloorTables.open`):
        # their events so far, so that their histories are whole (a hand it ended is written now)
        replayed, floor_tables.replayed = floor_tables.replayed, []
        for event in replayed:
            self.event(dict(event))
        for table, hand in self._hands.items():  # started before the restart: when its "new hand" was stored
            started = floor_tables.hand_started_at(table)
            if started is not None:
                hand.started_at = started

    def event(self, event: dict[str, Any]) -> None:
        table = str(event.get("table", ""))
        kind = event.get("type")
        if kind == "hand_start" and "button" in event:  # the game's (a bare table view's has no button)
            self._hands[table] = _Hand(int(event["hand"]), self._wall(), str(event.get("ruleset", "")),
                                       self.floor_tables.seated(table),
                                       context=self.floor_tables.store.get_config(_CONTEXT + table))
            return
        current = self._hands.get(table)
        if current is not None and event.get("hand") == current.hand and len(current.events) < _MAX_EVENTS:
            current.events.append(event)
        if kind != "hand_end" or "stacks" not in event:
            return
        try:
            self._write(table, event, current)
        except Exception as err:  # noqa: BLE001 - a history lost is logged; the hub plays on
            self.failed += 1
            self.last_error = f"{table} hand {event.get('hand')}: {err!r}"[:300]
            log.error("hub: the history of %s hand %s was not written: %s", table, event.get("hand"), err)
        finally:
            if current is not None and current.hand == event.get("hand"):
                del self._hands[table]

    def _write(self, table: str, end: dict[str, Any], current: _Hand | None) -> None:
        store = self.floor_tables.store
        # the hand's own context, kept at its start: by its end the store may hold the next hand's already
        # (a hand ended and the next one started in one step: a cancel on "new hand", a hub back mid-hand)
        ctx = current.context if current is not None and isinstance(current.context, dict) and \
            current.context.get("hand_no") == end.get("hand") else store.get_config(_CONTEXT + table)
        if not isinstance(ctx, dict) or ctx.get("hand_no") != end.get("hand"):
            raise TournamentError(f"no stored start for {table} hand {end.get('hand')}")
        game = self.floor_tables.game(table)
        ruleset = current.ruleset if current is not None and current.ruleset else \
            game.ruleset if game is not None else self._tournament_ruleset()
        start = HandStart.from_context(table, ctx, ruleset)
        row = int(ctx["row"])  # type: ignore[arg-type]
        seen: list[tuple[int, int, CardFact]] = []
        boots: dict[str, int] = {}
        started_at = None
        # The table's rows only (indexed), read as the JSON they were validated as when stored: decoding each
        # one through the wire's models again was most of this hand end's time on the hub's thread
        for stored in store.table_rows(table=table, after=row - 1):
            if started_at is None:
                started_at = stored.at
            fact = json.loads(stored.payload)
            kind = fact.get("type")
            if kind in ("card_arrived", "card_left"):
                card = CardFact(int(fact["order"]), float(fact["at"]), stored.at, str(fact["zone"]), fact.get("card"),
                                kind == "card_arrived")
                seen.append((boots.setdefault(stored.boot, len(boots)), card.order, card))
        # the antennas' order (a table publishes in the order it judged; `order` keeps the read order), per boot
        cards = [c for _, _, c in sorted(seen, key=lambda x: (x[0], x[1]))]
        events = current.events if current is not None else [end]
        names = current.names if current is not None else self.floor_tables.seated(table)
        croupier = game.setup.croupier if game is not None else None
        if croupier is None:
            croupier = ruleset in _DEALERLESS_DEFAULT_CROUPIER
        dealer: dict[str, Any] = {"croupier": True} if croupier else \
            {"seat": start.button, "player": names.get(start.button, "")}
        tournament = self.floor_tables.floor.tournament
        record = build_record(start, events, cards, names=names,
                              tournament=tournament.state.name if tournament is not None else None,
                              started_at=current.started_at if current is not None else (started_at or 0.0),
                              ended_at=self._wall(), dealer=dealer, complete=current is not None)
        self.history.put(record, public_record(record))
        self.written += 1

    def _tournament_ruleset(self) -> str:
        return str(self.floor_tables.floor.require().state.policy.ruleset)  # a seed's id or a club's
