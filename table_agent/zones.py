"""Zones: debounced tag positions -> cards arriving in and leaving felt zones, in arrival order.

Consumes `presence` events, the table profile's antenna map and the deck registry; emits the
`CardArrived`/`CardLeft` events of `table_agent.events` and keeps what lies in every zone, so the
agent can publish a full card view after a reconnect. A tag on an antenna the profile does not map
is counted and reported, never guessed into a zone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from table_agent.events import CardArrived, CardLeft, CardTag, Zone, ZoneEvent
from table_agent.presence import PresenceEvent, TagLifted, TagPlaced


class ZoneTracker:
    def __init__(self, *, antennas: Mapping[int, Zone], lookup: Callable[[str], CardTag]) -> None:
        self._antennas = dict(antennas)
        self._lookup = lookup
        self._zone_of: dict[str, Zone] = {}  # uid -> zone it lies in
        self._cards: dict[Zone, dict[str, CardTag]] = {}  # zone -> uid -> tag, in arrival order
        self._order = 0
        self.unmapped_reads = 0

    def apply(self, event: PresenceEvent) -> list[ZoneEvent]:
        if isinstance(event, TagPlaced):
            return self._arrive(event.uid, self._antennas.get(event.antenna), event.at)
        if isinstance(event, TagLifted):
            return self._leave(event.uid, event.at)
        target = self._antennas.get(event.antenna)
        if target is not None and target == self._zone_of.get(event.uid):
            return []  # between two antennas of one zone (a long board): not a new card
        return self._leave(event.uid, event.at) + self._arrive(event.uid, target, event.at)

    def cards_in(self, zone: Zone) -> list[CardTag]:
        return list(self._cards.get(zone, {}).values())

    def snapshot(self) -> dict[str, list[CardTag]]:
        """Every non-empty zone with its cards in arrival order."""
        return {str(z): list(cards.values()) for z, cards in self._cards.items() if cards}

    def zone_of(self, uid: str) -> Zone | None:
        return self._zone_of.get(uid)

    def __len__(self) -> int:
        return len(self._zone_of)

    def _arrive(self, uid: str, zone: Zone | None, at: float) -> list[ZoneEvent]:
        if zone is None:
            self.unmapped_reads += 1
            return []
        tag = self._lookup(uid)
        self._zone_of[uid] = zone
        self._cards.setdefault(zone, {})[uid] = tag
        self._order += 1
        return [CardArrived(zone, tag, at, self._order)]

    def _leave(self, uid: str, at: float) -> list[ZoneEvent]:
        zone = self._zone_of.pop(uid, None)
        if zone is None:
            return []
        tag = self._cards[zone].pop(uid)
        self._order += 1
        return [CardLeft(zone, tag, at, self._order)]
