"""What `bench_load.py` measures with, beside it: the run's shared clock (`Pace`), CPU and memory of a
process or thread from /proc, percentiles, and the paired comparison of variants, per table event."""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import time
from pathlib import Path


class Pace:
    """The seconds between a croupier's cards at a moment: one per step of the ramp, shared by every
    process through CLOCK_MONOTONIC (the same start `t0` and step length everywhere)."""

    def __init__(self, paces: list[float], t0: float, step: float) -> None:
        self.paces, self.t0, self.step = paces, t0, step

    def index(self, at: float) -> int:
        return min(len(self.paces) - 1, max(0, int((at - self.t0) // self.step)))

    def now(self) -> float:
        return self.paces[self.index(time.monotonic())]


def ready_then_start(args: argparse.Namespace) -> float:
    """Say this process is connected (`<go>.ready-<pid>`), then wait for the run's start time, which the
    parent writes to `<go>` once every process is ready: on a loaded machine starting Python and
    importing takes seconds, and tables that connect after the start would skew every figure."""
    Path(f"{args.go}.ready-{os.getpid()}").touch()
    while not Path(args.go).exists():
        time.sleep(0.05)
    return float(Path(args.go).read_text())



def proc_cpu(pid: int, tid: int | None = None) -> float:
    """CPU seconds (user + system) a process (or one of its threads) has used, from /proc/<pid>/stat."""
    path = f"/proc/{pid}/stat" if tid is None else f"/proc/{pid}/task/{tid}/stat"
    fields = Path(path).read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pct(values: list[float], q: int) -> float:
    if len(values) < 2:
        return float("nan")
    return statistics.quantiles(values, n=100)[q - 1] * 1000


NAN = float("nan")
PER_EVENT = [("events in/s", "in_s", "{:.0f}"), ("messages out per event", "msgs", "{:.2f}"),
             ("  retained states", "states", "{:.2f}"), ("  hub events", "events", "{:.2f}"),
             ("  acks", "acks", "{:.2f}"), ("  commands", "cmds", "{:.2f}"),
             ("bytes out per event", "bytes", "{:.0f}"), ("hub CPU s per 1,000 events", "cpu", "{:.3f}"),
             ("  consumer thread", "consumer", "{:.3f}"), ("  network thread (paho, gmqtt)", "paho", "{:.3f}"),
             ("received per applied event", "heard", "{:.2f}"),
             ("dropped (others' tables) per event", "dropped", "{:.2f}"),
             ("card->hub p50 ms", "p50", "{:.1f}"), ("card->hub p99 ms", "p99", "{:.1f}"),
             ("event->ack p50 ms (at the table)", "ack_p50", "{:.1f}"), ("event->ack p99 ms", "ack_p99", "{:.1f}"),
             ("events per hub CPU second", "per_cpu_s", "{:.0f}"),
             ("us in the store per event (fsyncs too)", "store_us", "{:.0f}"),
             ("store COMMITs per event", "commits", "{:.2f}"),
             ("  group fsyncs per event (0: per COMMIT)", "syncs", "{:.2f}"),
             ("hub CPU % of a core", "hub_pct", "{:.0f}"), ("worker CPU max % of a core", "worker_cpu_max", "{:.0f}")]


def print_workers(workers: list[tuple[str, list[dict[str, float]]]], paces: list[float], step: float,
                  show: bool = True) -> float:
    """Each hub worker's CPU (its process's, % of one core) and applied events/s per step, and the
    largest; returns the largest worker's CPU over the whole run (`worker_cpu_max`)."""
    def cpu(samples: list[dict[str, float]], a: int, b: int) -> float:
        return (samples[b]["hub_cpu"] - samples[a]["hub_cpu"]) / (step * (b - a)) * 100

    for k, p in enumerate(paces):
        if not show:
            break
        print(f"workers, step {k + 1} (pace {p:.2f}):")
        for label, samples in workers:
            print(f"  worker {label}: CPU {cpu(samples, k, k + 1):.0f} % of a core, "
                  f"in {(samples[k + 1]['received'] - samples[k]['received']) / step:.0f} events/s")
        print(f"  max over workers: CPU {max(cpu(s, k, k + 1) for _, s in workers):.0f} % of a core")
    most = max(cpu(s, 0, len(paces)) for _, s in workers)
    if show:
        print(f"worker CPU max over the run: {most:.0f} % of a core")
    return most


def print_compare(results: dict[str, list[dict[str, float]]]) -> None:
    """Each variant's per-event figures (mean over its rounds) and its ratio to the first variant's; a
    figure a variant did not give (an older bench_load's printed lines, or latency with --all-workers)
    is n/a."""
    names = list(results)

    def mean(rounds: list[dict[str, float]], key: str) -> float:
        values = [r[key] for r in rounds if key in r and r[key] == r[key]]  # NaN != NaN: not measured
        return statistics.fmean(values) if values else NAN

    means = {v: {key: mean(rs, key) for _, key, _ in PER_EVENT} for v, rs in results.items()}
    base = means[names[0]]
    print(f"per table event (mean of {len(results[names[0]])} round(s); ratio to {names[0]}):")
    print(f" {'':36}" + "".join(f"{v:>18}" for v in names))
    for label, key, fmt in PER_EVENT:
        cells = []
        for v in names:
            value = means[v][key]
            ratio = f" (x{value / base[key]:.2f})" if base[key] and base[key] == base[key] and v != names[0] else ""
            cells.append(f"{fmt.format(value) + ratio if value == value else 'n/a':>18}")
        print(f" {label:36}" + "".join(cells))
    if one := [v for v, rs in results.items() if any(r.get("one_thread") for r in rs)]:
        print(f" {', '.join(one)}: MQTT and rules engine on one thread, counted as the consumer's (network 0)")


class GcPauses:
    """The cyclic garbage collector's pauses in this process (`gc.callbacks`): a latency tail that no
    CPU figure shows. `summary()`: [collections, of which over 10 ms, longest ms, total ms]."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._began = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._began)

    def close(self) -> None:
        gc.callbacks.remove(self._callback)

    def summary(self) -> list[float]:
        p = self.pauses
        return [len(p), sum(1 for x in p if x > 0.01), max(p, default=0.0) * 1000, sum(p) * 1000]


def gc_line(who: str, summary: list[float]) -> str:
    n, slow, longest, total = summary
    return f"{who}: {n:.0f} GC pauses, {slow:.0f} over 10 ms, longest {longest:.1f} ms, {total:.0f} ms in all"
