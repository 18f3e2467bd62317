"""Hub workers sharded by table id: which worker serves which table, the same answer everywhere.

A room too big for one hub process runs several `tapis hub --shard N/K` workers on one (possibly
clustered) broker. Each serves the tables whose id hashes to it, so one table's events are applied
in order by one worker. The hash is CRC-32 of the id: the same in every process, on every machine
and Python version (Python's `hash()` of a string is salted per process). See docs/scale-out.md.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Collection
from dataclasses import dataclass

from tablewire import wire


def shard_of(table: str, count: int) -> int:
    """The worker (1..count) that serves `table`."""
    if count < 1:
        raise ValueError(f"a room needs at least one hub worker, got {count}")
    return zlib.crc32(table.encode()) % count + 1


@dataclass(frozen=True, slots=True)
class Shard:
    """Worker `number` of `count` (both counted from 1, as `--shard 1/2` reads)."""

    number: int
    count: int

    def __post_init__(self) -> None:
        if not 1 <= self.number <= self.count:
            raise ValueError(f"hub shard {self.number}/{self.count}: the worker number must be 1..{self.count}")

    @classmethod
    def parse(cls, text: str) -> Shard:
        """`1/2`: the first of two workers."""
        found = re.fullmatch(r"\s*([0-9]+)\s*/\s*([0-9]+)\s*", text)
        if found is None:
            raise ValueError(f"hub shard {text!r}: expected N/K, this worker's number and the number of "
                             "workers (e.g. 1/2 and 2/2)")
        return cls(int(found[1]), int(found[2]))

    def owns(self, table: str) -> bool:
        return shard_of(table, self.count) == self.number

    @property
    def name(self) -> str:
        return f"shard-{self.number}-of-{self.count}"

    def __str__(self) -> str:
        return f"{self.number}/{self.count}"


def hub_client_id(shard: Shard | None) -> str:
    """Each worker needs its own MQTT client id: a second `tapis-hub` would take over the first's session."""
    return "tapis-hub" if shard is None else f"tapis-hub-{shard.name}"


def hub_status_topic(shard: Shard | None) -> str:
    """Each worker's retained online/offline (and will) on its own topic, so one worker's death is
    not hidden by the other's birth."""
    return wire.HUB_STATUS if shard is None else wire.hub_worker_status(shard.name)


def hub_health_topic(shard: Shard | None) -> str:
    """Each worker's retained health (its store, what it refused: `HubService.health`). Not under
    `hub/status`, whose exact payload (`online`/`offline`) the tables' agents read."""
    topic = f"{wire.ROOT}/hub/health"
    return topic if shard is None else f"{topic}/{shard.name}"


def subscriptions(shard: Shard | None, tables: Collection[str] | None) -> tuple[list[str], list[str]]:
    """What a hub (or worker) subscribes to: (topics of the tables' events and statuses, topics of its
    retained acks). With the room's `tables`, the topics of those it serves, one by one, so a worker
    hears nothing of the others' tables; a table missing from the list is never heard. Without it,
    MQTT cannot filter by hash: every table's wildcard, the others' dropped on arrival by their topic.
    No window at a table's start: subscriptions go before the hub's birth on every connection, a
    table resends what is unacknowledged when it sees that birth, and the retained ack says where
    it starts (docs/scale-out.md)."""
    if tables is None:
        return [wire.ALL_TABLE_EVENTS, wire.ALL_TABLE_STATUS], [wire.hub_ack("+")]
    mine = sorted(t for t in set(tables) if shard is None or shard.owns(t))
    return ([topic for t in mine for topic in (wire.table_events(t), wire.table_status(t))],
            [wire.hub_ack(t) for t in mine])
