"""Table time to hub time, without trusting the tables' wall clocks (hub, before the floor).

Agents stamp each event's `at` with their monotonic clock: one clock per agent run (boot), no jumps,
drift of tens of ppm. Per (table, boot) the hub keeps the smallest `arrival - at` it has seen: the
network and queues only add delay, so the smallest is the best estimate of the clocks' offset. A
late event (a backlog after a cut) is then placed at `at + offset`, learned from the events that came
before it live. A boot never heard live has no offset yet: its events get their arrival time.
"""

from __future__ import annotations

from collections.abc import Mapping

# A time within this of the arrival is taken as the arrival: a live table's hand is set up exactly
# as when the hub hears it, whatever the jitter and the drift of an offset learned hours ago
# (30 ppm over ten hours is about 1 s).
LIVE_WITHIN = 2.0
# Boots remembered per table: a run's backlog drains before the next run's (the agent sends a dead
# run alone until it is acknowledged), so only the last few can still send late facts. A forgotten
# boot's late fact is placed at its arrival, as one never heard live.
BOOTS_KEPT = 16
# An offset is learned again only when it is better by this much: in a table's first minutes the network's
# jitter betters the smallest delay by microseconds time and again, and each offset learned is stored with
# its event (a write per event when a festival's tables all start). A millisecond is far inside what
# placing a late event needs (`LIVE_WITHIN`).
LEARN_STEP = 0.001


class TableClock:
    """Offsets per table and boot; pure (the caller passes the hub's arrival time)."""

    def __init__(self) -> None:
        self._offsets: dict[str, dict[str, float]] = {}

    def learn(self, table: str, boot: str, at: float, arrival: float) -> bool:
        """One event of `table`'s run `boot`, stamped `at`, arrived at `arrival` (hub time).
        True when it improved the offset by `LEARN_STEP` or more, or is the boot's first (the caller stores
        `offsets(table)`)."""
        boots = self._offsets.setdefault(table, {})
        seen = arrival - at
        known = boots.get(boot)
        if known is not None and known - seen < LEARN_STEP:
            return False
        boots[boot] = seen
        while len(boots) > BOOTS_KEPT:
            del boots[next(iter(boots))]  # the boot first heard of
        return True

    def hub_time(self, table: str, boot: str, at: float, arrival: float) -> float:
        """When the table stamped `at`, in hub time: never after the arrival, the arrival itself for
        an event heard live (within `LIVE_WITHIN`) or of a boot with no offset learned."""
        offset = self._offsets.get(table, {}).get(boot)
        if offset is None:
            return arrival
        when = at + offset
        return when if when < arrival - LIVE_WITHIN else arrival

    def offsets(self, table: str) -> dict[str, float]:
        """`table`'s offset per boot, to store (a hub rebuilt from its store converts the same)."""
        return dict(self._offsets.get(table, {}))

    def restore(self, table: str, offsets: Mapping[str, float]) -> None:
        """Offsets stored by `offsets(table)` (after a kill)."""
        self._offsets[table] = dict(offsets)
