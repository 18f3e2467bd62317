"""This tree's `bench_load.py` side by side with an earlier version of the code, in one invocation: the
per-event figures of each as ratios to the first, so that a change is measured against today's code on
the same machine, in the same conditions, the runs interleaved.

    git archive <rev> | tar -x -C /tmp/base          # where there is a .git; the bench needs none
    python benchmarks/bench_against.py --base /tmp/base [--repeat N] [--variants-base new] \
        [--variants-here new,link] -- <bench_load args>
    python benchmarks/bench_against.py --base /tmp/base --repeat 2 -- --tables 1000 --procs 8 --seconds 60
    python benchmarks/bench_against.py --base /tmp/base -- --tables 1000 --procs 8 --shard 1/4

Each round runs `DIR/benchmarks/bench_load.py --variant V <args>` (PYTHONPATH and working directory DIR)
for each base variant, then this tree's for each of its variants, each a subprocess whose output is
shown as it comes. The figures come from the JSON of `--figures-out` where that bench_load has it,
otherwise from its printed lines (the row under ` pace | tables ev/s | hub in/s ...` and the line
`per table event (...)`): events in/s, card -> hub p50/p99, the hub's CPU (% of a core and ms per event),
messages and bytes per event, and the largest worker's CPU when printed. Parsed from a ramp's rows:
the mean of the steps' events/s and CPU %, the largest p99, the median of the p50s (the JSON's are over
all the steps' cards: compare ramps between trees that both write it, or one step). A variant whose run
fails (a base without it, an option the base does not know) is said in one line and left out.
`--quick` is passed as its preset (60 tables, 15 s, niceness 0); `--compare`, `--repeat`, `--variant`
and `--figures-out` belong to this script.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from load_figures import print_compare  # beside this script

HERE = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^\s*(?P<pace>\d+\.\d+) \|\s*\d+ \|\s*(?P<in_s>\d+)\s+\d+ \|\s*(?P<p50>\S+)\s+(?P<p99>\S+) \|"
                 r"[^|]*\|\s*(?P<hub_pct>-?\d+) % ")
PER_EVENT = re.compile(r"^per table event \([^)]*\): (?P<msgs>[\d.]+) messages and (?P<bytes>[\d.]+) bytes out, "
                       r"hub CPU (?P<cpu>[\d.]+) s per 1,000 \((?:consumer (?P<consumer>[\d.]+), "
                       r"paho (?P<paho>[\d.]+)|one thread (?P<one>[\d.]+)[^)]*)\)"
                       r"(?:, (?P<heard>[\d.]+) received and (?P<dropped>[\d.]+) dropped per applied)?")
WORKER_MAX = re.compile(r"^worker CPU max over the run: (?P<max>[\d.]+) % of a core")
OURS = {"--compare", "--repeat", "--variant", "--figures-out"}
QUICK = ["--tables", "60", "--seconds", "15", "--nice", "0"]


def number(text: str) -> float:
    try:
        return float(text)
    except ValueError:  # n/a: not measured
        return math.nan


def parse_figures(stdout: str) -> dict[str, float]:
    """The figures of one bench_load run (one variant) from what it printed."""
    rows = [m for line in stdout.splitlines() if (m := ROW.match(line))]
    per = next((m for line in stdout.splitlines() if (m := PER_EVENT.match(line))), None)
    if not rows or per is None:
        raise ValueError("no ' pace | ...' row or 'per table event' line in bench_load's output")
    p50s = [v for m in rows if not math.isnan(v := number(m["p50"]))]
    p99s = [v for m in rows if not math.isnan(v := number(m["p99"]))]
    figures = {"in_s": statistics.fmean(float(m["in_s"]) for m in rows),
               "hub_pct": statistics.fmean(float(m["hub_pct"]) for m in rows),
               "p50": statistics.median(p50s) if p50s else math.nan, "p99": max(p99s) if p99s else math.nan,
               "msgs": float(per["msgs"]), "bytes": float(per["bytes"]), "cpu": float(per["cpu"])}
    if per["one"] is not None:
        figures |= {"consumer": float(per["one"]), "paho": 0.0, "one_thread": 1.0}
    else:
        figures |= {"consumer": float(per["consumer"]), "paho": float(per["paho"])}
    if per["heard"] is not None:
        figures |= {"heard": float(per["heard"]), "dropped": float(per["dropped"])}
    if most := next((m for line in stdout.splitlines() if (m := WORKER_MAX.match(line))), None):
        figures["worker_cpu_max"] = float(most["max"])
    return figures


def bench_args(rest: list[str]) -> list[str]:
    """The bench_load arguments after `--`, `--quick` as its preset (its own --compare would run two variants)."""
    if mine := [a for a in rest if a.split("=")[0] in OURS]:
        raise SystemExit(f"bench_against: {', '.join(mine)}: set by bench_against (--repeat, --variants-base, "
                         "--variants-here), not after --")
    return [*QUICK, *(a for a in rest if a != "--quick")] if "--quick" in rest else rest


def run_one(root: Path, variant: str, args: list[str]) -> dict[str, float] | str:
    """One bench_load run of the tree at `root`: its figures, or why there are none (one line)."""
    script = root / "benchmarks" / "bench_load.py"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    with tempfile.TemporaryDirectory(prefix="bench-against-") as tmp:
        out = Path(tmp) / "figures.json"
        json_out = ["--figures-out", str(out)] if "--figures-out" in script.read_text() else []
        proc = subprocess.Popen([sys.executable, str(script), *args, "--variant", variant, *json_out], cwd=root,
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert proc.stdout is not None
        lines = []
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            lines.append(line)
        if rc := proc.wait():
            last = next((line.strip() for line in reversed(lines) if line.strip()), "no output")
            return f"exit {rc}: {last}"
        if out.exists():
            return dict(json.loads(out.read_text()))
    try:
        return parse_figures("".join(lines))
    except ValueError as e:
        return str(e)


def main(argv: list[str]) -> None:
    cut = argv.index("--") if "--" in argv else len(argv)
    ap = argparse.ArgumentParser(description="This tree's bench_load against an older tree's, interleaved.")
    ap.add_argument("--base", required=True, type=Path, help="an extracted older tree (git archive REV | tar -x)")
    ap.add_argument("--repeat", type=int, default=1, help="rounds of every run, interleaved")
    ap.add_argument("--variants-base", default="new", help="bench_load variants to run on the base tree")
    ap.add_argument("--variants-here", default="new,link", help="bench_load variants to run on this tree")
    opts = ap.parse_args(argv[:cut])
    args = bench_args(argv[cut + 1:])
    base = opts.base.resolve()
    if not (base / "benchmarks" / "bench_load.py").is_file():
        raise SystemExit(f"bench_against: --base {opts.base}: no benchmarks/bench_load.py there "
                         "(expected a tree extracted with git archive REV | tar -x -C DIR)")
    if opts.repeat < 1:
        raise SystemExit("bench_against: --repeat must be 1 or more")
    runs = [(f"base:{v}", base, v) for v in opts.variants_base.split(",") if v.strip()]
    runs += [(f"here:{v}", HERE, v) for v in opts.variants_here.split(",") if v.strip()]
    results: dict[str, list[dict[str, float]]] = {label: [] for label, _, _ in runs}
    failed: dict[str, str] = {}
    for round_ in range(1, opts.repeat + 1):
        for label, root, variant in runs:
            if label in failed:
                continue
            print(f"=== round {round_}/{opts.repeat}: {label} ({root})", flush=True)
            got = run_one(root, variant.strip(), args)
            if isinstance(got, str):
                failed[label] = got
                print(f"bench_against: {label} left out: {got}", flush=True)
            else:
                results[label].append(got)
    kept = {label: rs for label, rs in results.items() if rs}
    for label, why in failed.items():
        print(f"bench_against: {label} failed ({why})")
    if not kept:
        raise SystemExit("bench_against: no run gave figures")
    print_compare(kept)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except KeyboardInterrupt:
        raise SystemExit("bench_against: interrupted") from None
