"""Tables that do not exist: a real `tapis hub --db --tables t1,t2` process stores and shows only the
room's tables; whatever anyone publishes for invented ones (events, retained statuses, acks) is
counted (`unknown_table` in the retained `hub/health`) and dropped, and after a restart, with the
junk still retained on the broker, the dashboard lists the room's tables only."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import cast

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from hub.edge.broker import EmbeddedBroker, free_port
from hub.edge.shard import hub_health_topic
from tablewire import wire
from tablewire.mqtt import MqttLink
from tests.support import wait_until

ROOT = Path(__file__).resolve().parents[2]
JUNK = [f"junk{n}" for n in range(40)]


def event(table: str, seq: int) -> bytes:
    return wire.encode(wire.ReaderStatus(table=table, boot="b1", seq=seq, at=0.0, state="connected"))


class Watch:
    def __init__(self, broker: EmbeddedBroker) -> None:
        self.health: dict[str, object] = {}
        self.online = False
        self.states: set[str] = set()
        self.link = MqttLink(client_id="watch", host=broker.host, port=broker.port)
        self.link.subscribe(hub_health_topic(None), lambda m: self.health.update(json.loads(m.payload)))
        self.link.subscribe(wire.HUB_STATUS, lambda m: setattr(self, "online", m.payload == wire.ONLINE))
        self.link.subscribe(wire.hub_table_state("+"), lambda m: self.states.add(m.topic.split("/")[-2]))
        self.link.start()


def start_hub(broker: EmbeddedBroker, db: Path, port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "hub.cli", "hub", "--broker", broker.url, "--db", str(db),
                             "--tables", "t1,t2", "--dashboard", str(port)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def stop(hub: subprocess.Popen[bytes]) -> bytes:
    hub.terminate()
    return hub.communicate(timeout=15)[1]


def room_tables(port: int) -> set[str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/room", timeout=5) as reply:
        return set(json.load(reply)["tables"])


def test_invented_tables_are_counted_never_stored_nor_shown(tmp_path: Path) -> None:
    db, port = tmp_path / "room.db", free_port()
    with EmbeddedBroker() as broker:
        watch = Watch(broker)
        hub = start_hub(broker, db, port)
        junk = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="junk", protocol=MQTTProtocolVersion.MQTTv5)
        junk.connect(broker.host, broker.port)
        junk.loop_start()
        try:
            assert wait_until(lambda: watch.online, 20)
            for table in JUNK:
                junk.publish(wire.table_status(table), wire.ONLINE, qos=1, retain=True).wait_for_publish(5)
                junk.publish(wire.table_events(table), event(table, 1), qos=1).wait_for_publish(5)
                junk.publish(wire.hub_ack(table), wire.encode(wire.Ack(boot="b1", seq=3)), qos=1).wait_for_publish(5)
            junk.publish(wire.table_events("t1"), event("t1", 1), qos=1).wait_for_publish(5)
            assert wait_until(lambda: watch.health.get("unknown_table") == 3 * len(JUNK), 20), watch.health
            assert wait_until(lambda: "t1" in room_tables(port), 10)
            assert room_tables(port) == {"t1"}
        finally:
            err = stop(hub)
        assert b"Traceback" not in err
        with sqlite3.connect(db) as con:
            assert {t for (t,) in con.execute("SELECT DISTINCT tbl FROM table_event")} == {"t1"}
        # restart: the junk statuses are still retained on the broker
        watch.online = False
        hub = start_hub(broker, db, port)
        try:
            assert wait_until(lambda: watch.online, 20)
            dropped = lambda: int(cast(int, watch.health.get("unknown_table", 0)))  # noqa: E731
            assert wait_until(lambda: dropped() >= len(JUNK), 20), watch.health
            assert room_tables(port) <= {"t1", "t2"}
            assert watch.states <= {"t1", "t2"}, sorted(watch.states)
        finally:
            junk.loop_stop()
            junk.disconnect()
            watch.link.stop()
            stop(hub)
