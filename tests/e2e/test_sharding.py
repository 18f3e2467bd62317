"""Two hub workers share a room on one real Mosquitto: six real table agents (reader firmware on ptys)
deal; each table is served by exactly one worker, every event is applied once, each agent's outbox is
emptied by its own worker's acks, and no worker publishes anything about the other's tables."""

from __future__ import annotations

import queue
import threading
from collections import Counter

from hub.edge.broker import EmbeddedBroker
from hub.edge.link import HubLink
from hub.edge.service import HubService
from hub.edge.shard import Shard, hub_client_id, hub_status_topic
from hw.decks import DeckRegistry
from simulators.dealer import Board, Burn, Hole
from simulators.demo import Room, start_tables, table_ids
from tablewire import wire
from tablewire.mqtt import Message, MqttLink
from tests.support import wait_until


def table_in(topic: str) -> str | None:
    """The table a hub topic is about (`.../table/<id>/...`, `.../ack/<id>`), None for the hub's own."""
    parts = topic.split("/")
    for key in ("ack", "table"):
        if key in parts:
            return parts[parts.index(key) + 1]
    return None


def start_worker(broker: EmbeddedBroker, shard: Shard, published: list[str],
                 applied: Counter[tuple[str, int]], *, subscribe: list[str] | None = None,
                 heard: list[str] | None = None) -> tuple[HubService, HubLink]:
    """`subscribe`: the room's tables (per-table subscriptions); `heard`: every topic the worker receives."""
    link = HubLink(client_id=hub_client_id(shard), host=broker.host, port=broker.port,
                   will=(hub_status_topic(shard), wire.OFFLINE))  # as `tapis hub --shard` runs it
    publish = link.publish
    if heard is not None:
        subscribe_link = link.subscribe

        def listened(pattern: str, handler, **kw: bool):  # type: ignore[no-untyped-def]
            def hear(message: Message) -> None:
                heard.append(message.topic)
                handler(message)
            return subscribe_link(pattern, hear, **kw)

        link.subscribe = listened  # type: ignore[method-assign]

    def recorded(topic: str, payload: bytes, **kw: object):  # type: ignore[no-untyped-def]
        published.append(topic)
        return publish(topic, payload, **kw)  # type: ignore[arg-type]

    link.publish = recorded  # type: ignore[method-assign]
    hub = HubService(link=link, shard=shard, subscribe=subscribe)

    def on_event(event: dict) -> None:
        if event["type"] == "card" and event["action"] == "arrived":
            applied[(event["table"], event["order"])] += 1

    hub.add_listener(on_event)
    hub.start()
    link.start()
    return hub, link


def test_two_workers_share_six_tables_without_touching_each_others(broker: EmbeddedBroker) -> None:
    ids = table_ids(6)
    shards = [Shard(1, 2), Shard(2, 2)]
    published: list[list[str]] = [[], []]
    applied: Counter[tuple[str, int]] = Counter()
    statuses: queue.Queue[Message] = queue.Queue()
    spy = MqttLink(client_id="spy", host=broker.host, port=broker.port)
    spy.subscribe(f"{wire.HUB_STATUS}/#", statuses.put)
    spy.start()
    workers = [start_worker(broker, shard, published[i], applied) for i, shard in enumerate(shards)]
    room = Room(hub=None, tables=[], registry=DeckRegistry.generate(ids))
    try:
        start_tables(room, host=broker.host, port=broker.port, ids=ids, seed=5, miss_rate=0.0, dropout_rate=0.0)
        assert wait_until(lambda: all(t.agent.stats.reader_up for t in room.tables))
        for table in room.tables:
            a, b = table.seats[:2]
            table.agent.new_hand()
            for step in (Hole(a, "As"), Hole(b, "Kd"), Hole(a, "Ah"), Hole(b, "Kc"),
                         Burn("2c"), Board("7h"), Board("8h"), Board("9h")):
                table.felt.perform(step)

        def cards_seen(table: str) -> int:
            hub = next(h for h, _ in workers if h.serves(table))
            view = hub.tables.get(table)
            return 0 if view is None else sum(len(cards) for cards in view.zones.values())

        assert wait_until(lambda: all(cards_seen(t) == 8 for t in ids), timeout=20)
        assert wait_until(lambda: all(len(t.agent.outbox) == 0 for t in room.tables), timeout=15)

        served = [set(hub.tables) for hub, _ in workers]
        assert served[0] | served[1] == set(ids) and not served[0] & served[1]
        assert served[0] and served[1]  # both workers have work (crc32: t1-t3 -> 2, t4-t6 -> 1)
        for (hub, _), shard, mine in zip(workers, shards, served, strict=True):
            assert mine == {t for t in ids if shard.owns(t)}
            for table_id in mine:
                agent = next(t.agent for t in room.tables if t.profile.table == table_id)
                view = hub.tables[table_id]
                assert view.last_seq == agent.seq and view.duplicates == 0 and view.gaps == 0
        assert applied and all(n == 1 for n in applied.values())  # every card applied once, by one worker
        assert {t for t, _ in applied} == set(ids)
        for topics, mine, shard in zip(published, served, shards, strict=True):
            about = {t for t in map(table_in, topics) if t is not None}
            assert about == mine, f"worker {shard} published about {sorted(about - mine)}"
            assert hub_status_topic(shard) in topics
        seen: dict[str, bytes] = {}
        while not statuses.empty():
            message = statuses.get()
            seen[message.topic] = message.payload
        assert seen == {hub_status_topic(s): wire.ONLINE for s in shards}
    finally:
        room.close()
        for hub, link in workers:
            hub.stop()
            link.stop()
        spy.stop()


def test_workers_subscribed_to_their_own_tables_hear_nothing_else_and_a_table_started_first_loses_nothing(
        broker: EmbeddedBroker) -> None:
    """Per-table subscriptions from the room's list: each worker receives only its own tables' topics
    (0 of the other's). The tables start and deal before any worker exists, and go on dealing while
    the workers connect and subscribe: every card is applied once and every outbox empties (the
    agents resend on the worker's birth; the subscriptions go before it)."""
    ids = table_ids(6)
    shards = [Shard(1, 2), Shard(2, 2)]
    published: list[list[str]] = [[], []]
    heard: list[list[str]] = [[], []]
    applied: Counter[tuple[str, int]] = Counter()
    room = Room(hub=None, tables=[], registry=DeckRegistry.generate(ids))
    workers: list[tuple[HubService, HubLink]] = []
    try:
        start_tables(room, host=broker.host, port=broker.port, ids=ids, seed=5, miss_rate=0.0, dropout_rate=0.0)
        assert wait_until(lambda: all(t.agent.stats.reader_up for t in room.tables))
        for table in room.tables:  # before any worker: into the outboxes, unheard
            a, b = table.seats[:2]
            table.agent.new_hand()
            for step in (Hole(a, "As"), Hole(b, "Kd"), Hole(a, "Ah"), Hole(b, "Kc")):
                table.felt.perform(step)
        assert wait_until(lambda: all(len(t.agent.outbox) >= 5 for t in room.tables))

        def deal_the_board() -> None:  # while the workers connect and subscribe
            for table in room.tables:
                for step in (Burn("2c"), Board("7h"), Board("8h"), Board("9h")):
                    table.felt.perform(step)

        dealer = threading.Thread(target=deal_the_board)
        dealer.start()
        workers.extend(start_worker(broker, shard, published[i], applied, subscribe=ids, heard=heard[i])
                       for i, shard in enumerate(shards))
        dealer.join()

        def cards_seen(table: str) -> int:
            hub = next(h for h, _ in workers if h.serves(table))
            view = hub.tables.get(table)
            return 0 if view is None else sum(len(cards) for cards in view.zones.values())

        assert wait_until(lambda: all(cards_seen(t) == 8 for t in ids), timeout=20)
        assert wait_until(lambda: all(len(t.agent.outbox) == 0 for t in room.tables), timeout=15)
        assert applied and all(n == 1 for n in applied.values())  # every card applied once
        assert {t for t, _ in applied} == set(ids)
        for (hub, _), shard, topics in zip(workers, shards, heard, strict=True):
            mine = {t for t in ids if shard.owns(t)}
            assert topics and {table_in(t) for t in topics} <= mine, f"worker {shard} heard another's table"
            assert hub.stats.other_shards == 0
            assert set(hub.tables) == mine
            for table_id in mine:
                agent = next(t.agent for t in room.tables if t.profile.table == table_id)
                # held behind a gap (events heard before the resend of the earlier ones) and released
                assert hub.tables[table_id].last_seq == agent.seq and hub.tables[table_id].held_count == 0
    finally:
        room.close()
        for hub, link in workers:
            hub.stop()
            link.stop()
