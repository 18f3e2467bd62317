"""Zone events: what the table saw, in the order it saw it.

Produced by `table_agent.zones` from debounced tag presence; consumed by the dealing monitor and
the MQTT publisher. Pure data: no IO, no clock reads (timestamps come from the injected clock).
The zones and card tags themselves are the felt's vocabulary, in `hw.felt` (the hardware profile
names them too); they are imported here, where the table's code has always found them.
"""

from __future__ import annotations

from dataclasses import dataclass

from hw.felt import CardTag, Zone, ZoneKind

BOARD = Zone(ZoneKind.BOARD)
BURN = Zone(ZoneKind.BURN)
MUCK = Zone(ZoneKind.MUCK)
TRAY = Zone(ZoneKind.TRAY)


@dataclass(frozen=True, slots=True)
class CardArrived:
    """A card settled on a zone's antenna. `order` numbers zone events at this table since boot."""

    zone: Zone
    tag: CardTag
    at: float  # seconds, from the injected clock
    order: int


@dataclass(frozen=True, slots=True)
class CardLeft:
    """A card is no longer on a zone's antenna (picked up, moved, or mucked elsewhere)."""

    zone: Zone
    tag: CardTag
    at: float
    order: int


ZoneEvent = CardArrived | CardLeft
