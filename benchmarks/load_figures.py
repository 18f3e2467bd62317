"""What `bench_load.py` measures with, beside it: the run's shared clock (`Pace`), CPU and memory of a
process or thread from /proc, percentiles, and the paired comparison of variants, per table event."""

from __future__ import annotations

import argparse
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


PER_EVENT = [("events in/s", "in_s", "{:.0f}"), ("messages out per event", "msgs", "{:.2f}"),
             ("  retained states", "states", "{:.2f}"), ("  hub events", "events", "{:.2f}"),
             ("  acks", "acks", "{:.2f}"), ("  commands", "cmds", "{:.2f}"),
             ("bytes out per event", "bytes", "{:.0f}"), ("hub CPU s per 1,000 events", "cpu", "{:.3f}"),
             ("  consumer thread", "consumer", "{:.3f}"), ("  paho's thread", "paho", "{:.3f}"),
             ("received per applied event", "heard", "{:.2f}"),
             ("dropped (others' tables) per event", "dropped", "{:.2f}"),
             ("card->hub p99 ms", "p99", "{:.1f}")]


def print_compare(results: dict[str, list[dict[str, float]]]) -> None:
    """Each variant's per-event figures (mean over its rounds) and its ratio to the first variant's."""
    names = list(results)
    mean = {v: {k: statistics.fmean(r[k] for r in rs) for k in rs[0]} for v, rs in results.items()}
    base = mean[names[0]]
    print(f"per table event (mean of {len(results[names[0]])} round(s); ratio to {names[0]}):")
    print(f" {'':36}" + "".join(f"{v:>18}" for v in names))
    for label, key, fmt in PER_EVENT:
        cells = []
        for v in names:
            value = mean[v][key]
            ratio = f" (x{value / base[key]:.2f})" if base[key] and v != names[0] else ""
            cells.append(f"{fmt.format(value) + ratio:>18}")
        print(f" {label:36}" + "".join(cells))
