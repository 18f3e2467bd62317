"""A hub started again on its store, on a broker that lost its retained acknowledgements.

The store knows each table's last stored sequence per boot; the new `HubService` resumes every table
there and acknowledges it on connect, so a table whose outbox already forgot the earlier facts is not
held behind a gap for good, and a fact stored but never acknowledged is acknowledged, not played twice.
"""

from __future__ import annotations

import queue
from pathlib import Path

from service_helpers import db, started_floor

from hub import wire
from hub.broker import EmbeddedBroker
from hub.floor import FloorService
from hub.floor_tables import FloorTables
from hub.mqtt import Message, MqttLink
from hub.service import HubService
from hub.store import EventStore


def _press(seq: int) -> wire.DealerPressed:
    return wire.DealerPressed(table="t1", boot="t1-b1", seq=seq, at=float(seq), button="new_hand", seat=None)


def _reader(seq: int) -> wire.ReaderStatus:
    return wire.ReaderStatus(table="t1", boot="t1-b1", seq=seq, at=float(seq), state="connected")


def test_a_restarted_hub_acknowledges_what_its_store_holds(tmp_path: Path, broker: EmbeddedBroker) -> None:
    path = db(tmp_path)
    with EventStore(path) as store:  # the first run stored t1's facts 1..3, its acks died with the broker
        tables = FloorTables(started_floor(store, 12, tables=2), store)
        for event in (_press(1), _reader(2), _reader(3)):
            tables.receive("t1", event, wire.encode(event), 10.0 + event.seq)
        hand = tables.game("t1").hand_no  # type: ignore[union-attr]

    store = EventStore(path)
    floor = FloorService.open(store)
    link = MqttLink(client_id="tapis-hub", host=broker.host, port=broker.port)
    hub = HubService(link=link, floor_tables=FloorTables.open(floor, store), wall=lambda: 100.0)
    acks: queue.Queue[Message] = queue.Queue()
    table = MqttLink(client_id="tapis-table-t1", host=broker.host, port=broker.port)
    try:
        table.subscribe(wire.hub_ack("t1"), acks.put)
        table.start()
        hub.start()
        link.start()
        ack = wire.decode_ack(wire.hub_ack("t1"), acks.get(timeout=10).payload)
        assert (ack.boot, ack.seq) == ("t1-b1", 3)  # said on connect, from the store alone
        view = hub.tables["t1"]
        assert (view.boot, view.last_seq, view.hand, view.hand_open) == ("t1-b1", 3, hand, True)

        for event in (_reader(3), _reader(4)):  # 3 again (its ack was lost), then a new one
            table.publish(wire.table_events("t1"), wire.encode(event))
        while (ack := wire.decode_ack(wire.hub_ack("t1"), acks.get(timeout=10).payload)).seq < 4:
            pass
        assert hub.tables["t1"].duplicates == 1 and hub.tables["t1"].gaps == 0
        assert [r.seq for r in store.table_rows()] == [1, 2, 3, 4]  # 4 stored after 3, nothing twice
    finally:
        table.stop()
        link.stop()
        hub.stop()
        store.close()
