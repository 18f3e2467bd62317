"""`tapis VERB ...`: which package runs each verb; that package's command line parses the rest.

Nothing of the product is imported here until a verb is chosen: the agent on a Pi never loads the hub,
`tapis --help` loads nothing at all.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from importlib.metadata import PackageNotFoundError, version

# verb -> (module whose main(argv) runs it, one line for `tapis --help`), in the order --help lists them
VERBS: dict[str, tuple[str, str]] = {
    "demo": ("simulators.cli", "a room of simulated tables dealing to the hub (--tournament: a whole tournament)"),
    "replay": ("simulators.cli", "play a table scenario through the real pipeline"),
    "sim": ("simulators.cli", "simulated hardware as its own process (sim table: one table, as installed)"),
    "hub": ("hub.cli", "run the hub"),
    "tournament": ("hub.cli", "the TD's command line (new, seat, clock, status...)"),
    "phh": ("hub.cli", "replay PHH hand histories strictly"),
    "hands": ("hub.history.cli", "the hand histories the hub wrote: list, export (PHH or JSON lines)"),
    "rules": ("hub.rulebooks.cli", "rulebook files: check FILE, show ID|FILE, diff A B"),
    "season": ("hub.season.cli", "the club's season: championship points from its tournaments (standings...)"),
    "td-login": ("hub.cli", "make or change a TD login for the dashboard (the hub's --td-users file)"),
    "agent": ("table_agent.cli", "run one table's agent (agent scan|capture|replay: the installer's tools)"),
    "doctor": ("table_agent.cli", "check this table's readers, panel, broker and clock, in plain words"),
}
VERBOSE = ("-v", "-vv", "-vvv", "--verbose")


def _version() -> str:
    try:
        return version("tapis")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tapis", description="RFID poker tables: agents, hub, simulators",
                                epilog="`tapis VERB --help` for a verb's options.")
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-vv for debug)")
    p.add_argument("--version", action="version", version=f"tapis {_version()}")
    sub = p.add_subparsers(dest="command", required=True, metavar="VERB")
    for verb, (_, summary) in VERBS.items():
        sub.add_parser(verb, help=summary, add_help=False).add_argument("args", nargs=argparse.REMAINDER)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    first = next((i for i, arg in enumerate(argv) if arg not in VERBOSE), len(argv))
    if first < len(argv) and argv[first] in VERBS:
        module = importlib.import_module(VERBS[argv[first]][0])
        return int(module.main(argv))  # the verb and any -v before it: the package's parser reads them
    parser().parse_args(argv)  # --help, --version, or a plain usage error (exit status 2)
    return 2
