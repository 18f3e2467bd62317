"""Room-scale load: N lightweight tables (default 200) against ONE hub with its rules engine.

A lightweight table is a table agent's wire side without its reader: the real `Felt` (dealer steps
-> antennas), the real `HandWatch` (the dealing monitor kept in step with the hub's commands, so a
boxed card is caught at the table as an agent catches it), numbered `tablewire.wire` events (boot, seq)
kept in an `Outbox` until the hub acknowledges them, on its own `MqttLink` (own client id, QoS 1,
will and birth). A croupier script plays complete hands with the hub (whose turn it is, what is
owed, the hand over), a card every `pace` seconds (x0.6-1.4), and now and then turns a card face up
in the deck (a boxed card) so rulings flow. Tables run in `--procs` worker processes, each a single
scheduler thread (plus paho's); the hub and a private Mosquitto run in this process / a child.

Reports, per step: hub messages in/s and MQTT messages out/s, card -> hub event and boxed card ->
ruling published (p50/p99, CLOCK_MONOTONIC shared by the processes of this machine), the hub
process's CPU (% of one core) and RSS, Mosquitto's CPU and RSS (/proc/<pid>), the tables' CPU, and
the hub's backlog. `--ramp` shortens the pace step by step to find the ceiling: the first step whose
backlog grows, or whose p99 leaves the realistic figures, and which process is at 100 % of a core.

    python benchmarks/bench_load.py [--tables 200] [--procs 2] [--seconds 60] [--pace 0.4] [--boxed 0.02]
    python benchmarks/bench_load.py --ramp 0.4,0.2,0.1,0.05 --seconds 20    # 20 s per step
    python benchmarks/bench_load.py --shard 1/2    # this hub is worker 1 of 2 (worker 2 in a child process)
    python benchmarks/bench_load.py --apply-cost   # + the hub's consumer alone, the run's messages without MQTT
    python benchmarks/bench_load.py --compare today,new --repeat 2   # paired runs, per-event figures, ratios
    python benchmarks/bench_load.py --quick [--shard 1/2]   # 60 tables, 15 s, today vs new: about 1 min
    python benchmarks/bench_load.py --tables 1000 --procs 8 --shard 1/4 [--all-workers]   # every worker's CPU
    python benchmarks/bench_load.py --variant link --figures-out figures.json   # the hub on hub.edge.link
    python benchmarks/bench_against.py --base /tmp/base -- --tables 1000 --procs 8   # against an older tree
    python benchmarks/bench_load.py --tables 200 --seconds 30 --compare link,tournament-event,tournament
                                   # the tournament hub (`tapis hub --db`) beside the cash hub, in one run

The tournament variants (`benchmarks/load_tournament.py`) run the hub `tapis hub --db` builds
(`hub.cli.build_hub`): a tournament of nine players a table seated on the simulated tables, one-minute
levels, its clock running, each table event stored (SQLite WAL) before its acknowledgement, the floor
(eliminations, balancing moves, broken tables; `--hand-for-hand S`: the TD calls it S seconds in) on
the hub's thread; the players move all in now and then (`--allin`) so that players bust. `tournament`
stores the table events of a turn of the hub's loop in one transaction and syncs the store once per turn
(group commit), `tournament-event` one transaction per event (the code before the turn), `tournament-commit`
besides syncs at every COMMIT (the code before the group commit); `tournament-nohist` (no hand histories) and
`tournament-nosync` (a store that never waits for the disk) measure what those parts cost. They add: event ->
acknowledgement at the table (p50/p99), events per hub CPU second, time in the store per event (its fsyncs included),
COMMITs and group fsyncs per event, and a floor's lines: hand starts, hands ended and rulings per
second, players out, seat moves, tables broken, table event -> hand start / ruling / seat moves
(p50/p99), the store's filesystem.

Per-event figures, which do not depend on how loaded the machine is (`--compare` prints them for each
variant and as ratios to the first): MQTT messages the hub publishes per table event in, bytes
(topic + payload) per event, the hub process's CPU seconds (getrusage of this process: the hub's
threads, not wall time) per 1,000 events, and for a sharded worker the messages it receives and drops
(other workers' tables) per event it applies. The variants: `today` (a state pair per change, every
table's wildcard, an ack at QoS 1 whenever the queue runs dry), `window` (states coalesced), `acks`
(acks at QoS 0, measured and not kept), `own` (a worker subscribes to its tables only), `new`
(window and own: the defaults), `gmqtt` (`new` with the hub on gmqtt, `benchmarks/gmqtt_link.py`, if installed),
`link` (`new` with the hub on `hub.edge.link.HubLink`, MQTT and rules engine on one thread named `hub`:
its CPU is the consumer's, the network share printed as 0 and the split as "one thread").

Every hub worker of a sharded run (`--shard N/K`): worker N runs in this process, the others each in a
child process that samples its own CPU (`os.times`), applied and dropped messages at the run's start and
at the end of each step and writes them to a JSON file read here; per step a line per worker (`worker
N/K: CPU x % of a core, in y events/s`) and the largest, and `worker_cpu_max` (% of a core over the run;
unsharded, the hub's) among the per-event figures. Worker N here also carries the bench's own listener
and sampling. `--all-workers` runs all K (or the one hub, unsharded) in child processes and none here,
so every worker is measured the same way: the hub figures are then the workers' sums (RSS: the largest)
and the latency, measured only in this process, is n/a. `--figures-out FILE` writes the per-event figures
as JSON (what `bench_against.py` reads; it parses the printed lines of an older bench_load without it).

The tables run at niceness 10 (`--nice`): in a room they are separate Pis and must not take the hub's
CPU here. With `--apply-cost` a spy client in this process records the messages, so that run's hub
CPU is not the hub's alone.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import pstats
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import load_tournament  # beside this script
from load_figures import (
    NAN,
    GcPauses,
    Pace,
    gc_line,
    pct,
    print_compare,
    print_workers,
    proc_cpu,
    proc_rss_mb,
)
from load_hub import (
    TOURNAMENTS,
    VARIANTS,
    apply_cost,
    drain_and_stop,
    hub_threads,
    link_class,
    one_thread,
    other_worker,
    sample_hub,
    start_hub,
)
from load_tables import worker
from loop_turns import LoopTurns  # beside this script
from stall_sampler import StallSampler, loop_thread_id  # beside this script

from hub.edge.broker import EmbeddedBroker
from hub.edge.shard import Shard
from simulators import demo
from tablewire import wire
from tablewire.mqtt import Message, MqttLink


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--procs", type=int, default=2, help="worker processes for the tables")
    ap.add_argument("--seconds", type=float, default=60, help="length of the run, or of each ramp step")
    ap.add_argument("--pace", type=float, default=0.4, help="seconds between a croupier's cards (x0.6-1.4)")
    ap.add_argument("--ramp", default=None, help="paces, one per step, e.g. 0.4,0.2,0.1,0.05")
    ap.add_argument("--boxed", type=float, default=0.02, help="chance of a boxed card before each hole card")
    ap.add_argument("--shard", default=None, help="N/K: the hub is worker N of K (serves its tables only)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--allin", type=float, default=0.03,
                    help="variant tournament: chance that a player to act moves all in (eliminations, moves)")
    ap.add_argument("--profile", default=None, metavar="FILE",
                    help="cProfile the hub's loop thread (variants link, tournament) over the run, stats to FILE "
                         "(and the top 25 by own time printed)")
    ap.add_argument("--stalls", type=float, default=None, metavar="MS",
                    help="sample the hub thread's stack every 2 ms; print its busy spells of MS or more and "
                         "where it was in them (variants link, tournament: what a latency tail waits on)")
    ap.add_argument("--turns", type=float, default=None, metavar="MS",
                    help="time every callback of the hub's loop; print those of MS or more by callback, and "
                         "how many items each drain of the service's inbox applied (variants link, tournament)")
    ap.add_argument("--profile-cpu", action="store_true",
                    help="with --profile: time the hub thread's CPU (what the bench's figures count; an fsync's "
                         "wait is not) instead of the wall clock; slower, calls weigh more")
    ap.add_argument("--hand-for-hand", type=float, default=None, metavar="SECONDS",
                    help="variants tournament*: the TD calls hand for hand this many seconds into the run")
    ap.add_argument("--db-dir", default=".",
                    help="variants tournament*: where the store's directory is made, on the disk the hub would "
                         "use (default: here; not a tmpfs such as /tmp on some systems, where fsync costs nothing)")
    ap.add_argument("--apply-cost", action="store_true",
                    help="also record the table messages (a spy client here) and replay them without MQTT")
    ap.add_argument("--hub-gc", default="default", choices=("default", "off", "young"),
                    help="the collector in the hub's process: as Python sets it, off, or young collections "
                         "50 times rarer and full ones 100 times (to see what the latency tail owes it)")
    ap.add_argument("--nice", type=int, default=10, help="niceness of the table processes (0: compete with the hub)")
    ap.add_argument("--variant", default="new", choices=sorted(VARIANTS),
                    help="the hub's settings: today (a state pair per change, wildcard subscriptions, acks when "
                         "the queue runs dry at QoS 1), window (states coalesced), acks (at QoS 0), "
                         "own (per-table subscriptions), new (window and own), gmqtt (new on gmqtt, if installed)")
    ap.add_argument("--compare", default=None, metavar="V1,V2,...",
                    help="paired runs of these variants, same settings, and their per-event figures as ratios")
    ap.add_argument("--repeat", type=int, default=1, help="with --compare: rounds of the variants, interleaved")
    ap.add_argument("--all-workers", action="store_true",
                    help="every hub worker (all K of --shard N/K, or the one hub) in a child process, none in "
                         "this one: each measured the same way; latency not measured (n/a)")
    ap.add_argument("--figures-out", default=None, metavar="FILE",
                    help="also write the per-event figures as JSON (with --compare: variant -> one per round)")
    ap.add_argument("--quick", action="store_true",
                    help="a small preset for a shared machine: 60 tables, 15 s, niceness 0, "
                         "--compare today,new (~1 min)")
    for hidden in ("--ids", "--paces", "--out", "--go"):
        ap.add_argument(hidden, help=argparse.SUPPRESS)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--hub-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--step", type=float, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args)
        return
    if args.hub_worker:
        other_worker(args)
        return
    if args.shard:
        try:
            Shard.parse(args.shard)
        except ValueError as e:
            raise SystemExit(f"bench_load: --shard: {e}") from None
    if set(TOURNAMENTS) & set((args.compare or args.variant).split(",")) and (args.shard or args.all_workers):
        raise SystemExit("bench_load: the tournament hub (--db) is room-wide, one unsharded process "
                         "in this one: no --shard, no --all-workers")
    if args.quick:
        # few tables, long enough for hands to end, and at the hub's niceness: on a loaded machine, tables
        # at niceness 10 are starved and the mix of events differs from one run to the next
        args.tables, args.seconds, args.nice, args.compare = 60, 15.0, 0, args.compare or "today,new"
    if args.compare is None:
        figures = run(args, args.variant)
        if args.figures_out:
            Path(args.figures_out).write_text(json.dumps(figures))
        return
    variants = [v.strip() for v in args.compare.split(",")]
    if unknown := [v for v in variants if v not in VARIANTS]:
        raise SystemExit(f"bench_load: --compare: unknown variant(s) {', '.join(unknown)} "
                         f"(expected {', '.join(VARIANTS)})")
    results: dict[str, list[dict[str, float]]] = {v: [] for v in variants}
    for _ in range(args.repeat):
        for variant in variants:
            print(f"--- variant {variant}")
            results[variant].append(run(args, variant))
    if args.figures_out:
        Path(args.figures_out).write_text(json.dumps(results))
    print_compare(results)


def run(args: argparse.Namespace, variant: str) -> dict[str, float]:
    """One run of the room against one hub (or worker) with `variant`'s settings: prints its figures
    and returns the per-event ones."""
    paces = [float(p) for p in args.ramp.split(",")] if args.ramp else [args.pace]
    shard = Shard.parse(args.shard) if args.shard else None
    local = not args.all_workers  # a hub (worker) in this process, where the latency is measured
    link_class(variant)  # a variant's missing client said here in one line, not by each worker process
    ids = demo.table_ids(args.tables)
    served = [t for t in ids if shard is None or shard.owns(t)]
    # the hub workers in child processes: the others of a sharded room, or with --all-workers every one
    children_of: list[str | None] = ([f"{n}/{shard.count}" for n in range(1, shard.count + 1)
                                      if not local or n != shard.number] if shard else [] if local else [None])
    hub_at: dict[tuple[str, int], float] = {}  # (table, card order) -> the hub's card event
    ruled_at: dict[tuple[str, int, str], float] = {}  # (table, hand, card) -> the boxed card's ruling
    hands = 0
    with EmbeddedBroker() as broker:
        hub: Any = None
        turns: LoopTurns | None = None
        drains: list[int] = []  # items applied by each drain of the hub's inbox (--turns)
        if local:
            hub, link, sent = start_hub(broker.port, shard, ids, args.seed, variant, args.db_dir)

            def on_event(event: dict[str, Any]) -> None:
                now = time.monotonic()
                if event["type"] == "card" and event["action"] == "arrived" and event["card"]:
                    hub_at[(event["table"], event["order"])] = now
                elif event["type"] == "fault" and event.get("cards"):
                    ruled_at.setdefault((event["table"], event["hand"], event["cards"][0]), now)

            hub.add_listener(on_event)
            hub.start()
            link.start()
            profiler = start_profile(link, args.profile, cpu=args.profile_cpu)
            sampler = None
            if args.stalls is not None:
                if getattr(link, "loop", None) is None:
                    raise SystemExit("bench_load: --stalls needs a hub on its own loop (variants link, tournament)")
                sampler = StallSampler(loop_thread_id(link.loop), args.stalls / 1000)
            if args.turns is not None:
                if getattr(link, "loop", None) is None:
                    raise SystemExit("bench_load: --turns needs a hub on its own loop (variants link, tournament)")
                turns = LoopTurns(link.loop, args.turns / 1000)
                drain = hub._drain  # noqa: SLF001 - the bench counts what each drain applies

                def counted() -> None:
                    if turns is not None and turns.on:
                        drains.append(min(len(hub._inbox), 500))  # noqa: SLF001
                    drain()

                hub._drain = counted  # noqa: SLF001
        recorded: list[Message] = []
        spy = MqttLink(client_id="bench-spy", host=broker.host, port=broker.port)
        if args.apply_cost:
            spy.subscribe(wire.ALL_TABLE_EVENTS, recorded.append)
            spy.subscribe(wire.ALL_TABLE_STATUS, recorded.append)
            spy.start()
        outs = [f"/tmp/tapis-load-{os.getpid()}-{i}.json" for i in range(args.procs)]
        hub_outs = [f"/tmp/tapis-load-{os.getpid()}-hub-{i}.json" for i in range(len(children_of))]
        go = Path(f"/tmp/tapis-load-{os.getpid()}-go")
        common = ["--port", str(broker.port), "--go", str(go), "--step", str(args.seconds),
                  "--paces", ",".join(map(str, paces)), "--tables", str(args.tables), "--seed", str(args.seed),
                  "--variant", variant, "--allin", str(args.allin if variant in TOURNAMENTS else 0.0)]
        procs = [subprocess.Popen([sys.executable, __file__, "--worker", "--ids", ",".join(ids[i::args.procs]),
                                   "--boxed", str(args.boxed), "--nice", str(args.nice), "--out", outs[i], *common])
                 for i in range(args.procs)]
        others = [subprocess.Popen([sys.executable, __file__, "--hub-worker", *(["--shard", n] if n else []),
                                    "--out", out, *common]) for n, out in zip(children_of, hub_outs)]
        children = procs + others
        started = time.monotonic()
        while sum(1 for _ in go.parent.glob(f"{go.name}.ready-*")) < len(children):
            if time.monotonic() - started > 300 or any(c.poll() is not None for c in children):
                for child in children:
                    child.kill()
                raise SystemExit("bench_load: a table or hub worker process did not start")
            time.sleep(0.05)
        t0 = time.monotonic() + 1.0 + args.tables / 1000  # every process connected: they start together
        go.with_name(go.name + ".tmp").write_text(repr(t0))
        go.with_name(go.name + ".tmp").rename(go)  # whole, never half-written
        gc_as_it_was = gc.get_threshold()
        if args.hub_gc == "off":  # experiments on the latency tail (docs/scale-out.md)
            gc.disable()
        elif args.hub_gc == "young":
            gc.set_threshold(50_000, 20, 1000)
        hub_gc = GcPauses()  # this process's (the hub's, when local) from the start on
        mosquitto = broker._proc.pid  # type: ignore[union-attr]  # the benchmark reads /proc of its broker
        threads = hub_threads(variant, shard)  # the hub's and paho's, looked up by name
        samples: list[dict[str, float]] = []
        if args.hand_for_hand and variant in TOURNAMENTS:  # the TD's call, as the dashboard sends it
            threading.Timer(max(0.0, t0 + args.hand_for_hand - time.monotonic()), hub.floor_command,
                            ({"cmd": "hand_for_hand", "on": True},)).start()
        for k in range(len(paces) + 1):
            time.sleep(max(0.0, t0 + k * args.seconds - time.monotonic()))
            if k == 0 and local and sampler is not None:
                sampler.start()  # from the tables' start on
            if k == 0 and local and turns is not None:
                turns.start()
            floor = load_tournament.probe.sample() if variant in TOURNAMENTS and load_tournament.probe else {}
            samples.append({**(sample_hub(hub, sent, threads) if local else {}), **floor,
                            "mq_cpu": proc_cpu(mosquitto),
                            "tables_cpu": sum(proc_cpu(p.pid) for p in procs),  # not reaped yet: /proc stays
                            "mq_rss": proc_rss_mb(mosquitto)})
        for proc in procs + others:
            proc.wait()
        for done in [go, *go.parent.glob(f"{go.name}.ready-*")]:
            done.unlink(missing_ok=True)
        if local:
            stop_profile(link, profiler, args.profile)
            if sampler is not None and sampler.is_alive():
                sampler.stop()
                print(sampler.report(args.seconds * len(paces)))
            if turns is not None:
                turns.stop()
                print(turns.report(args.seconds * len(paces), drains))
            hands = drain_and_stop(hub, link)
        if args.apply_cost:
            spy.stop()
    workers = read_workers(hub_outs)
    if local:
        workers.append((f"{shard.number}/{shard.count}" if shard else "1/1", samples))
    else:
        hands = sum_workers(samples, workers, hub_outs)
    workers.sort(key=lambda w: int(w[0].split("/")[0]))
    cards: list[tuple[str, int, float]] = []
    boxed: list[tuple[str, int, str, float]] = []
    acked: list[tuple[float, float]] = []  # (at, event -> its ack) at the tables
    emitted = [0] * len(paces)
    pending = tables_hands = 0
    tables_gc = [0.0, 0.0, 0.0, 0.0]
    for out in outs:
        data = json.loads(Path(out).read_text())
        g = data.get("gc", tables_gc)
        tables_gc = [tables_gc[0] + g[0], tables_gc[1] + g[1], max(tables_gc[2], g[2]), tables_gc[3] + g[3]]
        Path(out).unlink()
        cards += [tuple(c) for c in data["cards"]]
        boxed += [tuple(b) for b in data["boxed"]]
        acked += [(a[0], a[1]) for a in data.get("acks", [])]
        for s, n in data["emitted"]:
            emitted[s] += n
        pending += data["pending"]
        tables_hands += data["hands"]
    step_of = Pace(paces, t0, args.seconds).index
    card_lat: list[list[float]] = [[] for _ in paces]
    fault_lat: list[list[float]] = [[] for _ in paces]
    lost = 0
    for table, order, at in cards:
        if shard is None or shard.owns(table):
            got = hub_at.get((table, order))
            if got is None:
                lost += 1
            else:
                card_lat[step_of(at)].append(got - at)
    ack_lat: list[list[float]] = [[] for _ in paces]
    for at, lat in acked:
        ack_lat[step_of(at)].append(lat)
    for table, hand, card, at in boxed:
        got = ruled_at.get((table, hand, card))
        if got is not None:
            fault_lat[step_of(at)].append(got - at)
    one = one_thread(variant)
    print(f"load: {args.tables} tables in {args.procs} processes, one hub"
          + (f" (worker {shard}: serves {len(served)} tables, drops the others' messages; the other workers "
             "run in their own processes)" if shard and local else "")
          + (f" in each of {len(workers)} worker process(es), this process none (hub figures: the workers' sums; "
             "latency n/a)" if not local else "")
          + (" (MQTT and rules engine on one thread)" if one else "")
          + (" (the tournament hub of `tapis hub --db`: each table event stored before its ack)"
             if variant in TOURNAMENTS else "")
          + f", {len(paces)} step(s) of {args.seconds:.0f} s; {hands} hands at the hub,"
          f" {tables_hands} dealt to the end")
    print(" pace | tables ev/s | hub in/s  out/s | card->hub event p50/p99 ms | boxed->ruling p50/p99 ms (n) "
          "| event->ack p50/p99 ms | hub CPU (consumer, paho)  RSS MB | mosquitto CPU  RSS | tables CPU | hub backlog")
    for k, p in enumerate(paces):
        a, b = samples[k], samples[k + 1]
        dt = args.seconds
        cl, fl, al = card_lat[k], fault_lat[k], ack_lat[k]
        latency = (f"{statistics.median(cl) * 1000 if cl else 0:12.1f} {pct(cl, 99):11.1f} | "
                   f"{statistics.median(fl) * 1000 if fl else 0:10.1f} {pct(fl, 99):8.1f} ({len(fl):3d})") if local \
            else f"{'n/a':>12} {'n/a':>11} | {'n/a':>10} {'n/a':>8} (n/a)"
        split = "(one thread)" if one else \
            f"({(b['consumer'] - a['consumer']) / dt * 100:3.0f}, {(b['network'] - a['network']) / dt * 100:3.0f})"
        print(f" {p:4.2f} | {emitted[k] / dt:11.0f} | {(b['received'] - a['received']) / dt:8.0f} "
              f"{(b['sent'] - a['sent']) / dt:6.0f} | {latency} | "
              f"{statistics.median(al) * 1000 if al else NAN:10.1f} {pct(al, 99):6.1f} | "
              f"{(b['hub_cpu'] - a['hub_cpu']) / dt * 100:6.0f} % {split}"
              f"{b['hub_rss']:10.0f} | {(b['mq_cpu'] - a['mq_cpu']) / dt * 100:11.0f} % {b['mq_rss']:5.0f} "
              f"| {(b['tables_cpu'] - a['tables_cpu']) / dt * 100:8.0f} % | {b['backlog']:6.0f}"
              + (f"  (dropped {(b['other'] - a['other']) / dt:.0f}/s)" if shard else ""))
    worker_max = print_workers(workers, paces, args.seconds, show=shard is not None)
    print(f"hub max RSS {max_rss(local, hub_outs):.0f} MB; card events the hub never applied: "
          f"{lost if local else 'n/a'}; events still unacknowledged in the tables' outboxes at the end: {pending}")
    probe = load_tournament.probe if variant in TOURNAMENTS else None
    if probe is not None:
        for line in probe.report(samples[0], samples[-1], args.seconds * len(paces),
                                 max(1, samples[-1]["received"] - samples[0]["received"])):
            print(line)
        probe.close()
        load_tournament.probe = None
    hub_gc.close()
    gc.enable()
    gc.set_threshold(*gc_as_it_was)
    print(gc_line("the tables' processes", tables_gc) + "; " + (gc_line("this hub", hub_gc.summary())
                                                                 if local else "the hub workers: not measured"))
    for out in hub_outs:
        Path(out).unlink(missing_ok=True)
    if args.apply_cost:
        print(apply_cost(recorded, ids, args.seed))
    a, b = samples[0], samples[-1]
    events = max(1, b["received"] - a["received"])
    every = [x for step in card_lat for x in step]
    every_ack = [x for step in ack_lat for x in step]
    figures = {"in_s": events / (args.seconds * len(paces)), "msgs": (b["sent"] - a["sent"]) / events,
               "bytes": (b["bytes"] - a["bytes"]) / events, "cpu": (b["hub_cpu"] - a["hub_cpu"]) / events * 1000,
               "consumer": (b["consumer"] - a["consumer"]) / events * 1000,
               "paho": (b["network"] - a["network"]) / events * 1000,
               "heard": (events + b["other"] - a["other"]) / events, "dropped": (b["other"] - a["other"]) / events,
               "p50": statistics.median(every) * 1000 if every else NAN, "p99": pct(every, 99),
               "ack_p50": statistics.median(every_ack) * 1000 if every_ack else NAN, "ack_p99": pct(every_ack, 99),
               "per_cpu_s": events / max(1e-9, b["hub_cpu"] - a["hub_cpu"]),
               "store_us": (b["sql_s"] - a["sql_s"]) / events * 1e6 if "sql_s" in b else NAN,
               "commits": (b["commits"] - a["commits"]) / events if "commits" in b else NAN,
               "syncs": (b["syncs"] - a["syncs"]) / events if "syncs" in b else NAN,
               "hub_pct": (b["hub_cpu"] - a["hub_cpu"]) / (args.seconds * len(paces)) * 100,
               "worker_cpu_max": worker_max, "one_thread": float(one),
               **{k: (b[k] - a[k]) / events for k in ("states", "events", "acks", "cmds")}}
    split = (f"one thread {figures['consumer']:.3f}: MQTT and rules engine together" if one else
             f"consumer {figures['consumer']:.3f}, paho {figures['paho']:.3f}")
    print(f"per table event ({variant}): {figures['msgs']:.2f} messages and {figures['bytes']:.0f} bytes out, "
          f"hub CPU {figures['cpu']:.3f} s per 1,000 ({split})"
          + (f", {figures['heard']:.2f} received and {figures['dropped']:.2f} dropped per applied" if shard else ""))
    return figures


def start_profile(link: Any, path: str | None, *, cpu: bool = False) -> cProfile.Profile | None:
    """cProfile on the hub's loop thread (HubLink's), enabled from that thread."""
    if path is None:
        return None
    loop = getattr(link, "loop", None)
    if loop is None:
        raise SystemExit("bench_load: --profile needs a hub on its own loop (variants link, tournament)")
    # the hub thread's CPU time, not the wall's: what the bench's figure counts (an fsync's wait is not)
    profiler = cProfile.Profile(time.thread_time) if cpu else cProfile.Profile()
    loop.call_soon_threadsafe(profiler.enable)
    return profiler


def stop_profile(link: Any, profiler: cProfile.Profile | None, path: str | None) -> None:
    if profiler is None or path is None:
        return
    done = threading.Event()

    def off() -> None:
        profiler.disable()
        done.set()

    link.loop.call_soon_threadsafe(off)
    done.wait(10)
    profiler.dump_stats(path)
    pstats.Stats(path).sort_stats("tottime").print_stats(25)


def read_workers(outs: list[str]) -> list[tuple[str, list[dict[str, float]]]]:
    """What each hub worker in a child process measured: (its N/K, its samples)."""
    workers = []
    for out in outs:
        if not Path(out).exists():
            raise SystemExit("bench_load: a hub worker process wrote no figures (its error is above)")
        data = json.loads(Path(out).read_text())
        workers.append((data["shard"], data["samples"]))
    return workers


def sum_workers(samples: list[dict[str, float]], workers: list[tuple[str, list[dict[str, float]]]],
                outs: list[str]) -> int:
    """--all-workers: the hub's figures of each sample are the workers' sums (RSS: the largest); returns
    the hands they played."""
    for k, row in enumerate(samples):
        for key in workers[0][1][k]:
            values = [w[1][k][key] for w in workers]
            row[key] = max(values) if key == "hub_rss" else sum(values)
    return sum(json.loads(Path(out).read_text())["hands"] for out in outs)


def max_rss(local: bool, outs: list[str]) -> float:
    """The hub's largest RSS in MB: this process's, or the largest worker's."""
    if local:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return max(json.loads(Path(out).read_text())["max_rss"] for out in outs)


if __name__ == "__main__":
    main()
