"""`tapis hands`: the hand histories the hub wrote, listed and exported.

    tapis hands list   --db FILE [--tournament NAME] [--table T] [--since WHEN] [--until WHEN] [--json]
    tapis hands export --db FILE --out DIR|FILE|- [--format phh|jsonl] [--td] [same selection]
    tapis hands stats  --db FILE [same selection] [--csv]   hands per hour, faults per 100 hands, per table and dealer

WHEN: a date and time (2026-11-25T21:30, local time unless it names its zone) or Unix seconds. The
public histories unless --td (the TD's: every card, hole cards included; for the TD's use only).
Bad arguments get one line on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from hub.floor.store import EventStore, StoreError
from hub.history.phh_text import file_name, json_line, phh
from hub.history.stats import faults_of, statistics, stats_csv
from hub.history.store import HistoryStore, Selection

VERBOSE = ("-v", "-vv", "-vvv", "--verbose")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


class UsageError(ValueError):
    """A bad argument: one line, exit status 2."""


def when(text: str) -> float:
    """Unix seconds from `text` (seconds, or an ISO date and time; local time unless it names its zone)."""
    try:
        return float(text)
    except ValueError:
        pass
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is neither a date and time (2026-11-25T21:30) nor Unix "
                                         "seconds") from None


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="tapis hands", description="the hand histories the hub wrote (PHH, or JSON lines)")
    sub = p.add_subparsers(dest="verb", required=True, parser_class=_Parser)
    for name, summary in (("list", "one line per hand"), ("export", "write the histories selected"),
                          ("stats", "hands per hour, faults per 100 hands by kind, per table and per dealer")):
        v = sub.add_parser(name, help=summary)
        v.add_argument("--db", required=True, help="the hub's store (tapis hub --db FILE)")
        v.add_argument("--tournament", default=None, help="only this tournament's hands (its name)")
        v.add_argument("--table", default=None, help="only this table's hands (t1, t2...)")
        v.add_argument("--since", type=when, default=None, metavar="WHEN", help="hands ended at or after WHEN")
        v.add_argument("--until", type=when, default=None, metavar="WHEN", help="hands ended before WHEN")
        v.add_argument("--td", action="store_true", help="the TD's histories (hole cards included)")
        if name == "list":
            v.add_argument("--json", action="store_true", help="one JSON object per hand")
        elif name == "stats":
            v.add_argument("--csv", action="store_true", help="as CSV (semicolons), for a spreadsheet")
        else:
            v.add_argument("--out", required=True, help="a folder (phh: one file per hand), a file or - (jsonl)")
            v.add_argument("--format", choices=("phh", "jsonl"), default="phh")
    return p


def _open(db: str) -> EventStore:
    if not Path(db).is_file():
        raise UsageError(f"tapis hands: {db}: no such store (the file `tapis hub --db` writes)")
    return EventStore(db)


def _line(r: dict[str, Any]) -> str:
    ended = datetime.fromtimestamp(float(r["ended_at"])).strftime("%Y-%m-%d %H:%M:%S")
    faults = len(faults_of(r))  # a Time request is not a fault
    flags = "" if r.get("replayable") else \
        "  (annulée / void)" if r.get("void") else "  (incomplète / incomplete)"
    return (f"{ended}  {r['table']:>4} #{r['hand']:<5} {r.get('result') or '?':<11} "
            f"{len(r['seats'])} joueurs/players  {faults} faute(s)/fault(s){flags}")


def write_phh(records: Iterable[dict[str, Any]], out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for r in records:
        (out / file_name(r)).write_text(phh(r), encoding="utf-8")
        n += 1
    return n


def write_jsonl(records: Iterable[dict[str, Any]], stream: TextIO) -> int:
    n = 0
    for r in records:
        stream.write(json_line(r) + "\n")
        n += 1
    return n


def _selected(args: argparse.Namespace) -> Selection:
    if args.since is not None and args.until is not None and args.since >= args.until:
        raise UsageError("tapis hands: --since must come before --until")
    return Selection(tournament=args.tournament, table=args.table, since=args.since, until=args.until)


def run(argv: list[str], out: TextIO = sys.stdout) -> int:
    args = parser().parse_args(argv)
    with _open(args.db) as store:
        history = HistoryStore(store)
        selection = _selected(args)
        records: Iterator[dict[str, Any]] = history.records(selection, td=args.td)
        if args.verb == "stats":
            lines = statistics(records)
            if args.csv:
                out.write(stats_csv(lines))
            else:
                for line in lines:
                    d = line.to_dict()
                    out.write(f"{d['scope']:<10} {d['name']:<20} {d['hands']:>5} mains/hands  "
                              f"{d['hands_per_hour'] or '-':>6}/h  {d['faults_per_100']:>6} incidents/100  "
                              f"DT/TD {d['td_decisions']}  {d['by_kind']}\n")
            return 0
        if args.verb == "list":
            n = 0
            for r in records:
                out.write((json_line(r) if args.json else _line(r)) + "\n")
                n += 1
            if not args.json:
                out.write(f"{n} main(s) / hand(s)\n")
            return 0
        if args.format == "phh":
            if args.out == "-":
                raise UsageError("tapis hands export: PHH is one file per hand: --out names a folder")
            target = Path(args.out)
            if target.exists() and not target.is_dir():
                raise UsageError(f"tapis hands export: {target} is a file: PHH needs a folder")
            n = write_phh(records, target)
        elif args.out == "-":
            n = write_jsonl(records, out)
        else:
            target = Path(args.out)
            if target.is_dir():
                raise UsageError(f"tapis hands export: {target} is a folder: JSON lines go to a file")
            with target.open("w", encoding="utf-8") as f:
                n = write_jsonl(records, f)
        print(f"tapis hands: {n} main(s) écrite(s) / hand(s) written to {args.out}", file=sys.stderr)
        return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    first = next((i for i, arg in enumerate(argv) if arg not in VERBOSE), len(argv))
    if argv[first:first + 1] == ["hands"]:
        argv = argv[first + 1:]
    try:
        return run(argv)
    except UsageError as err:
        print(str(err), file=sys.stderr)
        return 2
    except (StoreError, OSError) as err:
        print(f"tapis hands: {err}", file=sys.stderr)
        return 2
    except (json.JSONDecodeError, KeyError) as err:
        print(f"tapis hands: a stored history cannot be read ({err})", file=sys.stderr)
        return 2
