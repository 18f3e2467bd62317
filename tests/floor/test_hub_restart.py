"""A hub started again on its store, on a broker that lost its retained acknowledgements.

The store knows each table's last stored sequence per boot; the new `HubService` resumes every table
there and acknowledges it on connect, so a table whose outbox already forgot the earlier facts is not
held behind a gap for good, and a fact stored but never acknowledged is acknowledged, not played twice.
"""

from __future__ import annotations

import queue
from pathlib import Path

from service_helpers import db, started_floor

from hub.edge.broker import EmbeddedBroker
from hub.edge.service import HubService
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from tablewire import wire
from tablewire.mqtt import Message, MqttLink


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


def _card(seq: int, kind: str, zone: str, card: str) -> wire.CardEvent:
    uid = f"{'23456789TJQKA'.index(card[0]):02X}{'cdhs'.index(card[1]):02X}"
    return wire.CardEvent(table="t1", boot="t1-b1", seq=seq, at=float(seq), type=kind, zone=zone, uid=uid,
                          card=card, deck="t1/A", order=seq)


def test_a_restarted_hub_shows_the_cards_on_the_felt(tmp_path: Path) -> None:
    """The TD's view after a restart: the current hand's cards where they lie, from the store."""
    from typing import cast

    from tests.hub.fake_link import RecordingLink

    path = db(tmp_path)
    facts: list[wire.AnyTableEvent] = [
        _press(1), _card(2, "card_arrived", "seat:1", "As"), _card(3, "card_arrived", "seat:2", "Kd"),
        _card(4, "card_arrived", "seat:1", "Ah"), _card(5, "card_arrived", "seat:2", "Kc"),
        _card(6, "card_left", "seat:2", "Kd"), _card(7, "card_arrived", "muck", "Kd")]
    with EventStore(path) as store:
        tables = FloorTables(started_floor(store, 12, tables=2), store)
        for event in facts:
            tables.receive("t1", event, wire.encode(event), 10.0 + event.seq)

    store = EventStore(path)
    floor_tables = FloorTables.open(FloorService.open(store), store)
    hub = HubService(link=cast(MqttLink, RecordingLink()), floor_tables=floor_tables, wall=lambda: 100.0)
    try:
        hub.start()
        zones = hub.tables["t1"].state(hole_cards=True)["zones"]
        assert zones == {"seat:1": ["As", "Ah"], "seat:2": ["Kc"], "muck": ["Kd"]}
    finally:
        hub.stop()
        store.close()


def test_a_hands_stored_context_reads_back_its_game_bb_ante_and_dead_seats() -> None:
    """What the store keeps of a hand in progress is what a restarted hub deals on: a mixed game's level
    (plo, the big blind paying the ante), the seats dealt dead (an absent player, a penalty); a context
    stored before levels had a game, or before dead seats were kept, reads as hold'em with none."""
    from hub.floor.hand_context import from_context, hand_context
    from hub.floor.store import JSON
    from hub.rules import Level, Positions

    level = Level(100, 200, 200, True, "plo")
    ctx = hand_context(7, {1: 9_000, 4: 11_000, 6: 10_000}, Positions(1, 4, 6), level, 42,
                       {4: "absent"}, away={6: "Ada"})
    assert from_context(ctx) == (7, {1: 9_000, 4: 11_000, 6: 10_000}, Positions(1, 4, 6), level, {4: "absent"})
    older: dict[str, JSON] = {**ctx, "level": [100, 200, 0, False]}
    del older["dead"]
    assert from_context(older)[3:] == (Level(100, 200, 0, False, "nlhe"), {})
