"""bench_load's hub side: the hub (or one worker of a sharded room) with the room's games, in one of
the variants' settings and MQTT clients, counting what it publishes; the other workers of a sharded
room in their own processes; the consumer's cost without MQTT (`--apply-cost`)."""

from __future__ import annotations

import argparse
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from load_figures import proc_cpu, ready_then_start  # beside this script

from hub.edge.service import STATE_WINDOW, HubService
from hub.edge.shard import Shard, hub_client_id, hub_status_topic
from hub.room.game import TableSetup
from hub.rules import Level
from simulators import demo
from tablewire import wire
from tablewire.mqtt import Message, MqttLink


def configure_games(hub: HubService, ids: list[str], seed: int) -> None:
    """A game on each table the hub serves, seated as `tapis demo` seats them."""
    for table in ids:
        if hub.serves(table):
            seats, button = demo.seating(table, seed)
            hub.configure_table(table, TableSetup(players=dict.fromkeys(seats, 20_000), button=button,
                                                  level=Level(50, 100), seats=9, decks=(f"{table}/A", f"{table}/B")))


# variant -> (state window s, per-table subscriptions, acks at QoS 0, the hub's MQTT client): each change
# alone, the defaults (window and own; acks at QoS 0 did not pay), and the defaults on gmqtt (bench only)
VARIANTS: dict[str, tuple[float, bool, bool, str]] = {
    "today": (0.0, False, False, "paho"), "window": (STATE_WINDOW, False, False, "paho"),
    "acks": (0.0, False, True, "paho"), "own": (0.0, True, False, "paho"), "new": (STATE_WINDOW, True, False, "paho"),
    "gmqtt": (STATE_WINDOW, True, False, "gmqtt")}


def network_thread(variant: str, shard: Shard | None) -> str:
    """The name of the hub's network thread: paho's, or the gmqtt link's event loop."""
    client = hub_client_id(shard)
    return f"gmqtt-{client}" if VARIANTS[variant][3] == "gmqtt" else f"paho-mqtt-client-{client}"


def start_hub(port: int, shard: Shard | None, ids: list[str], seed: int,
              variant: str = "new") -> tuple[HubService, MqttLink, list[int]]:
    """The hub (or one worker of a sharded room) with its games; counts what it publishes:
    [messages, bytes of topic and payload]."""
    window, own, acks, client = VARIANTS[variant]
    if client == "gmqtt":
        from gmqtt_link import GmqttLink  # beside this script; optional: pip install gmqtt
        link: Any = GmqttLink(client_id=hub_client_id(shard), host="127.0.0.1", port=port,
                              will=(hub_status_topic(shard), wire.OFFLINE))
    else:
        link = MqttLink(client_id=hub_client_id(shard), host="127.0.0.1", port=port,
                        will=(hub_status_topic(shard), wire.OFFLINE))
    sent = [0, 0, 0, 0, 0, 0]  # messages, bytes; then states, hub events, acks, commands (messages)
    publish = link.publish
    kinds = {"state": 2, "event": 3, "ack": 4, "cmd": 5}

    def counted(topic: str, payload: bytes, **kw: Any) -> Any:
        sent[0] += 1
        sent[1] += len(topic) + len(payload)
        kind = kinds.get(topic.rsplit("/", 1)[-1]) or (4 if "/hub/ack/" in topic else 0)
        if kind:
            sent[kind] += 1
        return publish(topic, payload, **kw)

    link.publish = counted
    hub = HubService(link=link, shard=shard, state_window=window, subscribe=ids if own else None,
                     ack_qos=0 if acks else 1)
    configure_games(hub, ids, seed)
    return hub, link, sent


class CountingLink:
    """The hub's link without a broker: what the engine, the views and JSON cost, paho left out."""

    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[Message], None]] = {}
        self.published = 0

    def subscribe(self, pattern: str, handler: Callable[[Message], None]) -> Callable[[], None]:
        self.handlers[pattern] = handler
        return lambda: None

    def on_connect(self, hook: Callable[[], None]) -> None:
        pass

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> None:
        self.published += 1


def apply_cost(messages: list[Message], ids: list[str], seed: int) -> str:
    """The run's table messages again, queued all at once, through a hub on a `CountingLink`."""
    link = CountingLink()
    hub = HubService(link=link)  # type: ignore[arg-type]
    configure_games(hub, ids, seed)
    for message in messages:
        pattern = wire.ALL_TABLE_STATUS if message.topic.endswith("/status") else wire.ALL_TABLE_EVENTS
        link.handlers[pattern](message)
    hub.start()
    tid = next(t.native_id for t in threading.enumerate() if t.name == "hub")
    while not hub.idle():
        time.sleep(0.05)
    cpu = proc_cpu(os.getpid(), tid)
    hub.stop()
    return (f"hub consumer alone (rules engine, table views, JSON; no MQTT): {cpu / len(messages) * 1e6:.0f} us CPU "
            f"per table message, {link.published / len(messages):.2f} publishes each, over {len(messages)} messages")


def other_worker(args: argparse.Namespace) -> None:
    """Another hub worker of the sharded room, in its own process, until the run ends."""
    hub, link, _ = start_hub(args.port, Shard.parse(args.shard), demo.table_ids(args.tables), args.seed,
                             args.variant)
    hub.start()
    link.start()
    t0 = ready_then_start(args)
    time.sleep(max(0.0, t0 + args.step * len(args.paces.split(",")) + 2 - time.monotonic()))
    link.stop()
    hub.stop()

