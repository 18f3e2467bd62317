"""bench_load's hub side: the hub (or one worker of a sharded room) with the room's games, in one of
the variants' settings and MQTT clients, counting what it publishes; the other workers of a sharded
room in their own processes; the consumer's cost without MQTT (`--apply-cost`)."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import resource
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import load_tournament  # beside this script
from load_figures import proc_cpu, proc_rss_mb, ready_then_start

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
# alone, the defaults (window and own; acks at QoS 0 did not pay), the defaults on gmqtt (bench only), and
# the defaults on `hub.edge.link.HubLink` (MQTT and rules engine on one thread named `hub`)
VARIANTS: dict[str, tuple[float, bool, bool, str]] = {
    "today": (0.0, False, False, "paho"), "window": (STATE_WINDOW, False, False, "paho"),
    "acks": (0.0, False, True, "paho"), "own": (0.0, True, False, "paho"), "new": (STATE_WINDOW, True, False, "paho"),
    "gmqtt": (STATE_WINDOW, True, False, "gmqtt"), "link": (STATE_WINDOW, True, False, "link"),
    "tournament": (STATE_WINDOW, False, False, "link"), "tournament-commit": (STATE_WINDOW, False, False, "link"),
    "tournament-event": (STATE_WINDOW, False, False, "link"), "tournament-nohist": (STATE_WINDOW, False, False, "link"),
    "tournament-nosync": (STATE_WINDOW, False, False, "link"),
    "tournament-nogather": (STATE_WINDOW, False, False, "link")}
# `tournament`: `tapis hub --db` as installed (`hub.cli.build_hub`, benchmarks/load_tournament.py): HubLink, every
# table event stored (SQLite, WAL) before its ack, the floor beside it; wildcard subscriptions. Its store is synced
# once per turn of the hub's loop (group commit), the turn's table events in one transaction; `tournament-event`:
# one transaction per table event, as before the turn; `tournament-commit`: besides, one fsync per COMMIT, as
# before the group commit. Measures of a part, not a hub to run: `tournament-nohist` without the hand histories
# (the recorder off), `tournament-nosync` with a store that never waits for the disk (synchronous OFF, no fsync);
# `tournament-nogather`: a busy room's turn drained at once, as before the turn gathered (`GATHER_SECONDS`)
TOURNAMENT = "tournament"
TOURNAMENTS = (TOURNAMENT, "tournament-event", "tournament-commit", "tournament-nohist", "tournament-nosync",
               "tournament-nogather")
CONSUMER = "hub"  # the hub's consumer thread (HubService's; with `link`, the hub's only thread)


def network_thread(variant: str, shard: Shard | None) -> str:
    """The name of the hub's network thread: paho's, the gmqtt link's event loop, or with `link` the
    hub's one thread (`one_thread`: its network share is counted as 0, not split)."""
    client = hub_client_id(shard)
    return {"gmqtt": f"gmqtt-{client}", "link": CONSUMER}.get(VARIANTS[variant][3], f"paho-mqtt-client-{client}")


def one_thread(variant: str) -> bool:
    return network_thread(variant, None) == CONSUMER


def hub_threads(variant: str, shard: Shard | None) -> tuple[int | None, int | None]:
    """Native ids of the hub's (consumer, network) threads in this process, None for one that is not
    there: the hub's threading is being rewritten, so a missing thread reads as 0 CPU, not a crash."""
    names = {t.name: t.native_id for t in threading.enumerate()}
    network = network_thread(variant, shard)
    return names.get(CONSUMER), None if network == CONSUMER else names.get(network)


def thread_cpu(tid: int | None) -> float:
    if tid is None:
        return 0.0
    try:
        return proc_cpu(os.getpid(), tid)
    except OSError:  # the thread ended
        return 0.0


def sample_hub(hub: HubService, sent: list[int], threads: tuple[int | None, int | None]) -> dict[str, float]:
    """What a hub (or worker) process has done so far: applied and dropped messages, what it published,
    its process CPU seconds (`os.times`: all its threads) and its threads', RSS and backlog."""
    cpu = os.times()
    return {"received": hub.stats.received, "other": hub.stats.other_shards, "sent": sent[0], "bytes": sent[1],
            "states": sent[2], "events": sent[3], "acks": sent[4], "cmds": sent[5], "hub_cpu": cpu.user + cpu.system,
            "consumer": thread_cpu(threads[0]), "network": thread_cpu(threads[1]),
            "hub_rss": proc_rss_mb(os.getpid()), "backlog": hub.backlog()}


def link_class(variant: str) -> Any:
    """The hub's MQTT client class for a variant, the optional ones imported only when asked for."""
    client = VARIANTS[variant][3]
    if client == "gmqtt":
        from gmqtt_link import GmqttLink  # beside this script; optional: pip install gmqtt
        return GmqttLink
    if client == "link":
        try:  # the lead's new client: by name, so that this bench runs (and type-checks) on trees without it
            return importlib.import_module("hub.edge.link").HubLink
        except (ImportError, AttributeError) as e:
            raise SystemExit(f"bench_load: variant link needs hub.edge.link ({e})") from None
    return MqttLink


def start_hub(port: int, shard: Shard | None, ids: list[str], seed: int,
              variant: str = "new", db_dir: str | None = None) -> tuple[HubService, MqttLink, list[int]]:
    """The hub (or one worker of a sharded room) with its games; counts what it publishes:
    [messages, bytes of topic and payload]. `tournament`: the hub of `tapis hub --db`, its store in a new
    directory under `db_dir` (`load_tournament.probe` measures it)."""
    window, own, acks, _client = VARIANTS[variant]
    parts = None
    if variant in TOURNAMENTS:
        parts, load_tournament.probe = load_tournament.start_tournament_hub(
            port, len(ids), seed, db_dir, group_sync=variant != "tournament-commit",
            turns=variant not in ("tournament-event", "tournament-commit"),
            record_hands=variant != "tournament-nohist", durable=variant != "tournament-nosync",
            gather=variant != "tournament-nogather")
        link = parts.link
    else:
        link = link_class(variant)(client_id=hub_client_id(shard), host="127.0.0.1", port=port,
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
    if parts is not None:
        return parts.service, link, sent
    hub = HubService(link=link, shard=shard, state_window=window, subscribe=ids if own else None,
                     ack_qos=0 if acks else 1)
    configure_games(hub, ids, seed)
    return hub, link, sent


class CountingLink:
    """The hub's link without a broker: what the engine, the views and JSON cost, paho left out."""

    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[Message], None]] = {}
        self.published = 0

    def subscribe(self, pattern: str, handler: Callable[[Message], None], *,
                  no_local: bool = False) -> Callable[[], None]:
        self.handlers[pattern] = handler  # no_local: the hub's own acks (MqttLink's signature; no broker here)
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
    before = os.times()
    hub.start()
    tid = next((t.native_id for t in threading.enumerate() if t.name == CONSUMER), None)
    while not hub.idle():
        time.sleep(0.05)
    after = os.times()  # no consumer thread (the hub's threading rewritten): this process's CPU instead
    cpu = thread_cpu(tid) if tid is not None else after.user + after.system - before.user - before.system
    hub.stop()
    return (f"hub consumer alone (rules engine, table views, JSON; no MQTT): {cpu / len(messages) * 1e6:.0f} us CPU "
            f"per table message, {link.published / len(messages):.2f} publishes each, over {len(messages)} messages")


def drain_and_stop(hub: HubService, link: Any) -> int:
    """Let the hub apply what it still holds (30 s at most), stop it; the hands its games played."""
    drained = time.monotonic()
    while not hub.idle() and time.monotonic() - drained < 30:
        time.sleep(0.1)
    hands = sum(g.hand_no for g in hub.games.values())
    if hub.floor_tables is not None:
        hands += sum(g.hand_no for t in hub.floor_tables.tables if (g := hub.floor_tables.game(t)))
    hub.stop()  # first: it publishes what is still in its window (HubParts.stop's order)
    link.stop()
    if hub.floor_tables is not None:
        hub.floor_tables.store.close()
    return hands


def other_worker(args: argparse.Namespace) -> None:
    """A hub worker of the sharded room (or, with `--all-workers` and no shard, the one hub) in its own
    process until the run ends; writes to `--out` what it did at the run's start and at the end of each
    step (`sample_hub`), measured as the bench's own process measures its worker."""
    shard = Shard.parse(args.shard) if args.shard else None
    hub, link, sent = start_hub(args.port, shard, demo.table_ids(args.tables), args.seed, args.variant)
    hub.start()
    link.start()
    threads = hub_threads(args.variant, shard)
    t0 = ready_then_start(args)
    steps = len(args.paces.split(","))
    samples = []
    for k in range(steps + 1):
        time.sleep(max(0.0, t0 + k * args.step - time.monotonic()))
        samples.append(sample_hub(hub, sent, threads))
    time.sleep(max(0.0, t0 + args.step * steps + 2 - time.monotonic()))
    hands = drain_and_stop(hub, link)
    if args.out:
        Path(args.out).write_text(json.dumps({
            "shard": args.shard or "1/1", "samples": samples, "hands": hands,
            "max_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))

