"""Bounded memory: what a table (or anyone on its topic) sends cannot grow the hub without end.

- A real `tapis hub` process on a real Mosquitto that lets 1 MB packets through (the shipped brokers
  do not: `tests/security/test_installed_broker.py`): 100 events of 1 MB and 100 of 100 kB on t1's
  topic, behind a sequence gap, must not move its RSS by more than RSS_BOUND_MB. The hub's link tells
  the broker it takes no packet over 256 kB (MQTT 5 Maximum Packet Size), so the 1 MB ones never
  reach it; each 100 kB one does, and is counted as oversized (over `MAX_TABLE_PAYLOAD`).
- Events held behind a gap that never fills stop at `HELD_MAX_EVENTS` / `HELD_MAX_BYTES`; the rest are
  dropped and counted (the table's outbox resends them: they were never acknowledged).
- A reader status's `detail` reaches viewers cut to `DETAIL_MAX_CHARS`.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import cast

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from hub.edge.broker import EmbeddedBroker
from hub.edge.service import MAX_TABLE_PAYLOAD, HubService
from hub.edge.shard import hub_health_topic
from hub.room.tables import DETAIL_MAX_CHARS, HELD_MAX_BYTES, HELD_MAX_EVENTS, TableView
from tablewire import wire
from tablewire.mqtt import Message, MqttLink
from tests.hub.fake_link import RecordingLink
from tests.support import wait_until

ROOT = Path(__file__).resolve().parents[2]
RSS_BOUND_MB = 40  # 200 MB sent; the hub before the bound kept every one (42 -> 427 MB reported)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def status_payload(seq: int, detail: str, table: str = "t1") -> bytes:
    return wire.encode(wire.ReaderStatus(table=table, boot="b1", seq=seq, at=0.0, state="connected",
                                         detail=detail))


def test_a_flood_of_1mb_events_does_not_grow_the_hub(tmp_path: Path) -> None:
    with EmbeddedBroker(max_packet=4 * 1024 * 1024) as broker:
        hub = subprocess.Popen([sys.executable, "-m", "hub.cli", "hub", "--broker", broker.url, "--dashboard", "0"],
                               cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        health: dict[str, object] = {}
        viewer = MqttLink(client_id="viewer", host=broker.host, port=broker.port)
        viewer.subscribe(hub_health_topic(None), lambda m: health.update(json.loads(m.payload)))
        viewer.subscribe(wire.HUB_STATUS, lambda m: health.update(online=m.payload == wire.ONLINE))
        viewer.start()
        flood = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="flood", protocol=MQTTProtocolVersion.MQTTv5)
        flood.connect(broker.host, broker.port)
        flood.loop_start()
        try:
            assert wait_until(lambda: health.get("online") is True, 20)
            time.sleep(1.0)
            before = rss_mb(hub.pid)
            big, large = "x" * (1024 * 1024), "y" * (100 * 1024)
            assert MAX_TABLE_PAYLOAD < len(large) < 256 * 1024
            for i in range(200):
                flood.publish(wire.table_events("t1"), status_payload(1000 + i, big if i % 2 else large),
                              qos=1).wait_for_publish(10)
            assert wait_until(lambda: health.get("oversized") == 100, 30), health
            time.sleep(1.0)
            assert health.get("oversized") == 100 and health.get("received") == 0, health
            after = rss_mb(hub.pid)
            print(f"hub RSS {before:.1f} MB -> {after:.1f} MB after 100 x 1 MB and 100 x 100 kB on t1's topic")
            assert after - before < RSS_BOUND_MB, f"RSS {before:.1f} -> {after:.1f} MB"
        finally:
            flood.loop_stop()
            flood.disconnect()
            viewer.stop()
            hub.terminate()
            hub.communicate(timeout=15)


def test_events_held_behind_a_gap_are_bounded_and_counted() -> None:
    view = TableView("t1")
    payload = status_payload(2, "y" * 500)
    sent = HELD_MAX_EVENTS + 50
    for seq in range(2, 2 + sent):  # seq 1 never comes
        event = wire.decode_table_event(wire.table_events("t1"), payload)
        view.admit(event.model_copy(update={"seq": seq}), payload)
    held = sum(len(h) for h in view.held.values())
    assert held <= HELD_MAX_EVENTS and view.held_bytes <= HELD_MAX_BYTES
    assert view.held_count == held and held + view.held_dropped == sent and view.held_dropped > 0
    # the gap fills: what was held goes in order, and the dropped ones are what the outbox still has
    first = wire.decode_table_event(wire.table_events("t1"), status_payload(1, ""))
    ready = view.admit(first, b"")
    assert [e.seq for e, _ in ready] == list(range(1, 2 + held))
    assert view.held_count == 0 and view.held_bytes == 0


def test_held_bytes_are_bounded_too() -> None:
    view = TableView("t1")
    big = status_payload(2, "z" * 12_000)
    for seq in range(2, 500):
        event = wire.decode_table_event(wire.table_events("t1"), big)
        view.admit(event.model_copy(update={"seq": seq}), big)
    assert view.held_bytes <= HELD_MAX_BYTES and view.held_dropped == 498 - view.held_count


def test_a_long_detail_is_cut_before_it_is_republished_and_big_payloads_never_decoded() -> None:
    link = RecordingLink()
    hub = HubService(link=cast(MqttLink, link), tick=0.02)
    hub.start()
    try:
        receive = link.handlers[wire.ALL_TABLE_EVENTS]
        receive(Message(wire.table_events("t1"), status_payload(1, "d" * 10_000), False))
        receive(Message(wire.table_events("t1"), status_payload(2, "e" * (MAX_TABLE_PAYLOAD + 1)), False))
        receive(Message(wire.table_status("t1"), b"o" * (MAX_TABLE_PAYLOAD + 1), False))
        assert wait_until(hub.idle)
        assert hub.stats.oversized == 2 and hub.stats.malformed == 0
        out = [json.loads(p) for t, p, _r, _q in link.published
               if t in (wire.hub_table_state("t1"), wire.hub_table_events("t1"))]
        assert out and max(len(json.dumps(o)) for o in out) < DETAIL_MAX_CHARS + 1000
        assert hub.tables["t1"].reader_detail == "d" * DETAIL_MAX_CHARS
    finally:
        hub.stop()
