"""`tapis phh FILE... [--json] [--ruleset ID]`: replay PHH hand histories through the engine.

The edge of `hub.rules`: reads files, prints one line per hand (JSON with --json) and a summary;
the `tapis` console script dispatches here. Exit status 1 when any hand mismatches its recorded
finishing stacks or cannot be replayed strictly, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from hub.rules.phh import ReplayResult, replay_file
from hub.rules.rulesets import DEFAULT_RULESET, RULESETS


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tapis phh", description="Replay Poker Hand History files "
                                "strictly and compare finishing stacks with the recorded ones.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="one JSON object per hand")
    p.add_argument("--ruleset", default=DEFAULT_RULESET, choices=sorted(RULESETS))
    return p


def _line(r: ReplayResult) -> str:
    if r.error:
        return f"ERROR     {r.file}: {r.error}"
    status = {True: "match", False: "MISMATCH", None: "no-record"}[r.match]
    ours = " ".join(str(v) for v in r.finishing_stacks or ())
    line = f"{status:<9} {r.file}: {ours}"
    if r.match is False and r.recorded is not None:
        line += f"  (recorded {' '.join(str(v) for v in r.recorded)})"
    return line


def run(argv: Sequence[str], out: TextIO) -> int:
    args = list(argv)
    if args and args[0] == "phh":
        args = args[1:]
    try:
        ns = _parser().parse_args(args)
    except SystemExit as exit_:
        return 2 if exit_.code else 0
    failures = 0
    counts = {True: 0, False: 0, None: 0}
    for path in ns.files:
        r = replay_file(path, ns.ruleset)
        counts[r.match] += 1
        if r.match is False:
            failures += 1
        out.write((json.dumps(r.to_dict()) if ns.json else _line(r)) + "\n")
    if not ns.json:
        out.write(f"{len(ns.files)} hands: {counts[True]} match, {counts[False]} mismatch or "
                  f"error, {counts[None]} without recorded stacks\n")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    return run(sys.argv[1:] if argv is None else argv, sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
