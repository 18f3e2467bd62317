"""What one message costs the hub's process on its MQTT path, in CPU microseconds (not wall time).

Each figure is this process's CPU time (`time.process_time`: all its threads, paho's included) over
N messages, against a private Mosquitto (a child process, not counted); the other end of each
exchange runs in another process. So the figures hardly depend on how loaded the machine is (they
do rise a little under contention: run the variants paired, `--rounds`, and compare within a run).

    python benchmarks/bench_mqtt_path.py [--messages 20000] [--rounds 3]

- publish: `MqttLink.publish` at QoS 0 and at QoS 1 (with its PUBACK handled), a 400-byte payload;
  and paho driven from the publishing thread itself (no network thread), to see what the hand-over
  between the two threads costs
- receive: a QoS 1 event from a table, through `MqttLink` (its handler wrapper), acknowledged
- decode: a card event, `wire.decode_table_event` (pydantic) and the topic routing alone
- encode: a table's state, `json.dumps` as the hub does and a compact encoder made once
- HubLink (`hub.edge.link`, the hub's own link since issue 20): the same publish and receive, the
  publishes made on its loop's thread as the hub makes them
- gmqtt (another maintained MQTT 5 client, asyncio), the same publish and receive, if installed
  (`pip install gmqtt`: not a dependency of tapis; docs/scale-out.md keeps the comparison)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from hub.edge.broker import EmbeddedBroker
from hub.room.tables import TableView
from tablewire import wire
from tablewire.mqtt import Message, MqttLink

PAYLOAD = b'{"type":"card","table":"t12","hand":3,"zone":"board","card":"7h","action":"arrived",' + b"x" * 310 + b"}"

# The other end in its own process: publishes N QoS 1 events as a table would, as fast as acked.
PUBLISHER = """
import sys, paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
port, n, topic = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-table", protocol=MQTTProtocolVersion.MQTTv5)
c.max_inflight_messages_set(1000)
c.connect("127.0.0.1", port)
c.loop_start()
payload = sys.stdin.buffer.read()
for i in range(n):
    info = c.publish(topic, payload, qos=1)
info.wait_for_publish(60)
c.disconnect()
c.loop_stop()
"""


def cpu_us(n: int, run: Callable[[], object]) -> float:
    t = time.process_time()
    run()
    return (time.process_time() - t) / n * 1e6


def paho_publish(port: int, n: int, qos: int) -> float:
    link = MqttLink(client_id=f"bench-pub-{qos}", host="127.0.0.1", port=port)
    link.start()

    def run() -> None:
        for _ in range(n):
            link.publish("bench/state", PAYLOAD, qos=qos)
        link.publish("bench/end", b"", qos=1).wait_for_publish(60)  # after all the others, in order

    try:
        return cpu_us(n, run)
    finally:
        link.stop()


def paho_one_thread(port: int, n: int, qos: int) -> float:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-one-{qos}", protocol=MQTTProtocolVersion.MQTTv5)
    client.max_inflight_messages_set(1000)
    client.connect("127.0.0.1", port)
    client.loop(0.1)

    def run() -> None:
        for i in range(n):
            client.publish("bench/state", PAYLOAD, qos=qos)
            if i % 50 == 0:
                client.loop(0)  # read the PUBACKs now and then, as a single-threaded hub would
        end = client.publish("bench/end", b"", qos=1)
        while not end.is_published():
            client.loop(0.01)

    try:
        return cpu_us(n, run)
    finally:
        client.disconnect()


def _publisher(port: int, n: int, topic: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-c", PUBLISHER, str(port), str(n), topic], stdin=subprocess.PIPE)
    assert proc.stdin is not None
    proc.stdin.write(PAYLOAD)
    proc.stdin.close()
    return proc


def receive_with(link: Any, port: int, n: int) -> float:
    """CPU per QoS 1 message `link` (MqttLink or HubLink) receives from a table process, acknowledged."""
    got = [0]
    done = threading.Event()

    def handler(_m: Message) -> None:
        got[0] += 1
        if got[0] == n:
            done.set()

    link.subscribe("bench/table/+/event", handler)
    link.start()
    proc = _publisher(port, n, "bench/table/t1/event")
    try:
        return cpu_us(n, lambda: done.wait(120))
    finally:
        proc.wait()
        link.stop()


def paho_receive(port: int, n: int) -> float:
    return receive_with(MqttLink(client_id="bench-sub", host="127.0.0.1", port=port), port, n)


def gmqtt_publish(port: int, n: int, qos: int) -> float:
    import gmqtt  # optional, for the comparison only

    async def main() -> float:
        client = gmqtt.Client(f"bench-gpub-{qos}")
        await client.connect("127.0.0.1", port, version=gmqtt.constants.MQTTv50)

        async def run() -> None:
            for _ in range(n):
                client.publish("bench/state", PAYLOAD, qos=qos)
            client.publish("bench/end", b"", qos=1)
            await client._persistent_storage.wait_empty()  # every QoS 1 message acknowledged

        t = time.process_time()
        await run()
        cost = (time.process_time() - t) / n * 1e6
        await client.disconnect()
        return cost

    return asyncio.run(main())


def gmqtt_receive(port: int, n: int) -> float:
    import gmqtt

    async def main() -> float:
        client = gmqtt.Client("bench-gsub")
        got = [0]
        done = asyncio.Event()

        def on_message(_c: Any, topic: str, payload: bytes, _qos: int, _props: Any) -> int:
            Message(topic, payload, False)  # what MqttLink hands the hub
            got[0] += 1
            if got[0] == n:
                done.set()
            return 0  # PUBACK: success

        client.on_message = on_message
        await client.connect("127.0.0.1", port, version=gmqtt.constants.MQTTv50)
        client.subscribe("bench/table/+/event", qos=1)
        await asyncio.sleep(0.3)
        proc = _publisher(port, n, "bench/table/t1/event")
        t = time.process_time()
        await asyncio.wait_for(done.wait(), 120)
        cost = (time.process_time() - t) / n * 1e6
        proc.wait()
        await client.disconnect()
        return cost

    return asyncio.run(main())


def hub_link_publish(port: int, n: int, qos: int) -> float:
    from hub.edge.link import HubLink

    link = HubLink(client_id=f"bench-hpub-{qos}", host="127.0.0.1", port=port)
    link.start()
    done = threading.Event()

    def run() -> None:  # on the link's thread, as the hub publishes; then wait for every PUBACK
        for _ in range(n):
            link.publish("bench/state", PAYLOAD, qos=qos)
        link.publish("bench/end", b"", qos=1)

        def drained() -> None:
            if link._waiting or link._inflight:
                link.loop.call_later(0.001, drained)
            else:
                done.set()
        drained()

    try:
        return cpu_us(n, lambda: (link.loop.call_soon_threadsafe(run), done.wait(120)))
    finally:
        link.stop()


def hub_link_receive(port: int, n: int) -> float:
    from hub.edge.link import HubLink

    return receive_with(HubLink(client_id="bench-hsub", host="127.0.0.1", port=port), port, n)


def decode_costs(n: int) -> dict[str, float]:
    topic = wire.table_events("t12")
    card = wire.encode(wire.CardEvent(table="t12", boot="b0b0b0b0b0b0", seq=123, at=12.5, type="card_arrived",
                                      zone="seat:3", uid="04A1B2C3D4", card="Ah", deck="t12/A", order=77))
    view = TableView("t12")
    for seq, zone in enumerate(["seat:1", "seat:1", "seat:2", "seat:2", "board", "board", "board"], 1):
        view.apply(wire.CardEvent(table="t12", boot="b", seq=seq, at=0.0, type="card_arrived", zone=zone,
                                  uid=f"{seq:02X}", card="7h", order=seq))
    compact = json.JSONEncoder(separators=(",", ":"))

    def each(work: Callable[[], object]) -> float:
        return cpu_us(n, lambda: [work() for _ in range(n)])

    return {
        "decode: topic routing only (wire.table_of)": each(lambda: wire.table_of(topic)),
        "decode: card event, pydantic (wire.decode_table_event)": each(lambda: wire.decode_table_event(topic, card)),
        "encode: state pair, json.dumps (as the hub did)":
            each(lambda: (json.dumps(view.state(hole_cards=False)).encode(),
                          json.dumps(view.state(hole_cards=True)).encode())),
        "encode: state pair, compact encoder made once":
            each(lambda: (compact.encode(view.state(hole_cards=False)).encode(),
                          compact.encode(view.state(hole_cards=True)).encode())),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--messages", type=int, default=20_000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    n = args.messages
    try:
        import gmqtt  # noqa: F401
        clients = ["paho", "HubLink", "gmqtt"]
    except ImportError:
        clients = ["paho", "HubLink"]
        print("gmqtt not installed: paho and HubLink only (pip install gmqtt for the comparison)")
    pairs = {"paho": (paho_publish, paho_receive), "HubLink": (hub_link_publish, hub_link_receive),
             "gmqtt": (gmqtt_publish, gmqtt_receive)}
    figures: dict[str, list[float]] = {}
    with EmbeddedBroker() as broker:
        for _ in range(args.rounds):  # interleaved: each round runs every measure once
            for client in clients:
                publish, receive = pairs[client]
                for qos in (0, 1):
                    figures.setdefault(f"{client}: publish QoS {qos}", []).append(publish(broker.port, n, qos))
                    if client == "paho":
                        figures.setdefault(f"paho, one thread: publish QoS {qos}", []).append(
                            paho_one_thread(broker.port, n, qos))
                figures.setdefault(f"{client}: receive QoS 1 (acknowledged)", []).append(receive(broker.port, n))
            for name, value in decode_costs(n).items():
                figures.setdefault(name, []).append(value)
    print(f"CPU of this process per message, us (median of {args.rounds} rounds of {n} messages; min-max):")
    for name, values in figures.items():
        print(f"  {name:58} {statistics.median(values):7.1f}  ({min(values):.1f}-{max(values):.1f})")


if __name__ == "__main__":
    main()
