"""Hub workers sharded by table id: the shard function, and what one worker takes and refuses."""

from __future__ import annotations

import zlib
from collections import Counter
from typing import cast

import pytest

from hub.edge.service import HubService
from hub.edge.shard import Shard, hub_client_id, hub_status_topic, shard_of, subscriptions
from hub.room.game import TableSetup
from simulators.demo import table_ids
from tablewire import wire
from tablewire.mqtt import Message, MqttLink
from tests.hub.fake_link import RecordingLink


def test_the_shard_of_a_table_is_crc32_and_the_same_in_every_process() -> None:
    # Pinned values: Python's salted hash() would give other answers in another process.
    assert [shard_of(t, 2) for t in ("t1", "t2", "t3", "t4", "t5", "t6")] == [2, 2, 2, 1, 1, 1]
    assert all(shard_of(t, k) == zlib.crc32(t.encode()) % k + 1 for t in table_ids(50) for k in (1, 2, 3, 7))


@pytest.mark.parametrize("count", [2, 3, 4, 8])
def test_a_room_is_shared_evenly_and_every_table_has_exactly_one_worker(count: int) -> None:
    tables = table_ids(200) + [f"salle-b-{i}" for i in range(1, 101)]
    owners = {t: [n for n in range(1, count + 1) if Shard(n, count).owns(t)] for t in tables}
    assert all(len(found) == 1 for found in owners.values())
    load = Counter(found[0] for found in owners.values())
    mean = len(tables) / count
    assert set(load) == set(range(1, count + 1))
    assert all(abs(n - mean) <= 0.2 * mean for n in load.values()), load


def test_shard_is_parsed_as_the_command_line_writes_it() -> None:
    assert Shard.parse("2/3") == Shard(2, 3) and str(Shard(2, 3)) == "2/3"
    for bad in ("0/2", "3/2", "1/0", "1", "a/b", "-1/2"):
        with pytest.raises(ValueError, match="hub shard"):
            Shard.parse(bad)


def test_each_worker_has_its_own_client_id_and_status_topic() -> None:
    one, two = Shard(1, 2), Shard(2, 2)
    assert len({hub_client_id(None), hub_client_id(one), hub_client_id(two)}) == 3
    assert hub_status_topic(None) == wire.HUB_STATUS
    assert len({hub_status_topic(None), hub_status_topic(one), hub_status_topic(two)}) == 3


def table_in(topic: str) -> str:
    """The table a hub topic is about (`.../table/<id>/...` or `.../ack/<id>`)."""
    parts = topic.split("/")
    key = "ack" if "ack" in parts else "table"
    return parts[parts.index(key) + 1]


def _event(table: str, seq: int) -> Message:
    event = wire.DealerPressed(table=table, boot="b", seq=seq, at=float(seq), button="new_hand")
    return Message(wire.table_events(table), wire.encode(event), False)


def test_a_worker_applies_its_tables_and_drops_the_others_before_decoding() -> None:
    link = RecordingLink()
    shard = Shard(1, 2)
    hub = HubService(link=cast(MqttLink, link), shard=shard, tick=0.05)
    hub.start()
    try:
        mine = [t for t in table_ids(6) if shard.owns(t)]
        others = [t for t in table_ids(6) if not shard.owns(t)]
        assert mine and others
        for table in table_ids(6):
            link.handlers[wire.ALL_TABLE_STATUS](Message(wire.table_status(table), wire.ONLINE, True))
            for seq in (1, 2):
                link.handlers[wire.ALL_TABLE_EVENTS](_event(table, seq))
        link.handlers[wire.ALL_TABLE_EVENTS](Message(wire.table_events(others[0]), b"junk", False))
        assert hub.tick(5)
        assert sorted(hub.tables) == sorted(mine)
        assert all(hub.tables[t].last_seq == 2 for t in mine)
        assert hub.stats.other_shards == len(others) * 3 + 1  # junk of another shard is its business
        assert hub.stats.malformed == 0
        touched = {table_in(topic) for topic, *_ in link.published if topic != hub_status_topic(shard)}
        assert touched == set(mine)  # no state, event or ack for another worker's table
        link.reconnect()
        assert (hub_status_topic(shard), wire.ONLINE, True, 1) in link.published
        assert not any(topic == wire.HUB_STATUS for topic, *_ in link.published)
    finally:
        hub.stop()


def test_a_worker_given_the_rooms_tables_subscribes_to_its_own_only() -> None:
    link = RecordingLink()
    shard = Shard(1, 2)
    ids = table_ids(8)
    HubService(link=cast(MqttLink, link), shard=shard, subscribe=ids)
    mine = {t for t in ids if shard.owns(t)}
    assert mine and mine != set(ids)
    expected = {topic for t in mine for topic in (wire.table_events(t), wire.table_status(t), wire.hub_ack(t))}
    assert set(link.handlers) == expected  # no wildcard: nothing of another worker's tables comes


def test_the_subscriptions_are_the_wildcards_without_a_list_and_the_served_tables_with_one() -> None:
    assert subscriptions(Shard(1, 2), None) == ([wire.ALL_TABLE_EVENTS, wire.ALL_TABLE_STATUS], [wire.hub_ack("+")])
    ids = table_ids(6)
    events, acks = subscriptions(Shard(2, 2), [*ids, ids[0]])  # a repeated id: subscribed once
    mine = sorted(t for t in ids if Shard(2, 2).owns(t))
    assert events == [topic for t in mine for topic in (wire.table_events(t), wire.table_status(t))]
    assert acks == [wire.hub_ack(t) for t in mine]
    assert subscriptions(None, ["t2", "t1"])[1] == [wire.hub_ack("t1"), wire.hub_ack("t2")]  # unsharded: all


def test_a_wildcard_worker_drops_another_workers_acks_before_decoding() -> None:
    link = RecordingLink()
    shard = Shard(1, 2)
    hub = HubService(link=cast(MqttLink, link), shard=shard)
    foreign = next(t for t in table_ids(6) if not shard.owns(t))
    link.handlers[wire.hub_ack("+")](Message(wire.hub_ack(foreign), b"not even json", True))
    assert hub.stats.other_shards == 1 and hub.backlog() == 0


def test_a_worker_refuses_another_workers_table_and_the_tournament_floor() -> None:
    shard = Shard(1, 2)
    hub = HubService(link=cast(MqttLink, RecordingLink()), shard=shard)
    foreign = next(t for t in table_ids(6) if not shard.owns(t))
    setup = TableSetup(players={1: 1000, 2: 1000}, button=1)
    with pytest.raises(ValueError, match=f"table {foreign} is served by hub shard 2/2"):
        hub.configure_table(foreign, setup)
    with pytest.raises(ValueError, match="room-wide"):
        HubService(link=cast(MqttLink, RecordingLink()), shard=shard, floor_tables=cast(object, "floor"))  # type: ignore[arg-type]


@pytest.mark.parametrize(("argv", "why"), [
    (["hub", "--shard", "1/2"], "share the room's broker: give --broker"),
    (["hub", "--shard", "1/2", "--broker", "mqtt://127.0.0.1:1", "--db", "room.db"], "room-wide"),
    (["hub", "--shard", "3/2", "--broker", "mqtt://127.0.0.1:1"], "worker number must be 1..2"),
])
def test_tapis_hub_refuses_a_shard_it_cannot_run_before_starting_anything(
        argv: list[str], why: str, capsys: pytest.CaptureFixture[str]) -> None:
    from hub.cli import main
    assert main(argv) == 2
    assert why in capsys.readouterr().err
