"""The simulators' verbs of `tapis` (the `tapis` command dispatches here): rooms and tables in software.

    tapis demo [--tables N] [--hands N] [--json]   simulated room on the embedded broker
    tapis demo --tournament                         a whole simulated tournament to the payouts
    tapis replay SCENARIO                           one table's scenario through the real pipeline
    tapis sim table --profile F --decks F --broker URL   one simulated table as its own process
    tapis sim decks t1 t2 ...                       the simulated tables' deck registry (TOML)
"""

from __future__ import annotations

import argparse
import logging
import re
import signal
import sys
import threading

from tablewire import credentials


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _rate(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"a probability from 0 to 1, got {text}")
    return value


def _pace(text: str) -> float:
    value = float(text)
    if not 0.0 < value <= 10.0:
        raise argparse.ArgumentTypeError(f"seconds between cards, more than 0 and at most 10, got {text}")
    return value


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tapis", description="RFID poker tables: simulated rooms and tables")
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-vv for debug)")
    sub = p.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="a room of simulated tables dealing to the hub")
    demo.add_argument("--tables", type=_positive, default=4)
    demo.add_argument("--hands", type=_positive, default=None, help="stop after N hands per table")
    demo.add_argument("--json", action="store_true", help="print the hub's events as JSON lines")
    demo.add_argument("--broker", default=None, help="mqtt://host:port (default: a private Mosquitto)")
    demo.add_argument("--pace", type=float, default=0.12, help="seconds between the dealer's cards")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--tournament", action="store_true",
                      help="a whole simulated tournament (60 players, 6 tables) to the final ranking")
    demo.add_argument("--players", type=_positive, default=60, help="with --tournament")
    demo.add_argument("--ruleset", default="cdc-2013")
    demo.add_argument("--dashboard", type=int, default=None, metavar="PORT",
                      help="also serve the TD dashboard on 127.0.0.1:PORT (a TD login is printed)")

    replay = sub.add_parser("replay", help="play a table scenario through the real pipeline")
    replay.add_argument("scenario", help="scenario file (YAML or JSON, see spec/scenario.md)")
    replay.add_argument("--cards", action="store_true", help="also print card, reader and status events")
    replay.add_argument("--lang", choices=("fr", "en"), default="fr", help="language of ruling texts")

    sim = sub.add_parser("sim", help="simulated hardware as its own process")
    sim_sub = sim.add_subparsers(dest="sim", required=True)
    table = sim_sub.add_parser("table", help="one simulated table: reader board, panel, croupier and players, "
                                             "and the agent exactly as `tapis agent` builds it")
    table.add_argument("--profile", required=True, help="table profile TOML (the one `tapis agent` reads)")
    table.add_argument("--decks", required=True, help="deck registry TOML (the one `tapis agent` reads)")
    table.add_argument("--broker", required=True, help="mqtt://host:port")
    credentials.add_options(table)
    table.add_argument("--pace", type=_pace, default=0.12, help="seconds between the croupier's cards")
    table.add_argument("--seed", type=int, default=1)
    table.add_argument("--boxed-rate", type=_rate, default=0.0,
                       help="chance that a card turns up face up in the deck, per hole card dealt")
    table.add_argument("--allin-rate", type=_rate, default=0.05, help="chance that a player to act shoves")
    table.add_argument("--scan-ms", type=_positive, default=None,
                       help="the simulated board's scan period (default: the profile's scan_period_ms)")
    table.add_argument("--hands", type=_positive, default=None, help="stop after N hands played")
    decks = sim_sub.add_parser("decks", help="the deck registry of simulated tables (their tags' UIDs), as TOML")
    decks.add_argument("tables", nargs="+", metavar="TABLE", help="table ids: t1 t2 ...")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    level = [logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose, 2)]
    logging.basicConfig(level=level, stream=sys.stderr, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        if args.command == "demo":
            # SIGTERM (systemd, `timeout`) stops the demo like Ctrl-C: its broker and ptys are cleaned up.
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        if args.command == "demo" and args.tournament:
            from simulators.tournament_demo import run_tournament_demo
            return run_tournament_demo(players=args.players, tables=args.tables if args.tables != 4 else 6,
                                       ruleset=args.ruleset, seed=args.seed, as_json=args.json)
        if args.command == "demo":
            from simulators.demo import run_demo
            return run_demo(tables=args.tables, hands=args.hands, as_json=args.json, broker=args.broker,
                            pace=args.pace, seed=args.seed, dashboard=args.dashboard)
        if args.command == "sim" and args.sim == "decks":
            from hw.decks import DeckRegistry
            from tablewire.wire import TABLE_ID
            for table_id in args.tables:
                if re.fullmatch(TABLE_ID, table_id) is None:
                    raise ValueError(f"{table_id[:40]!r} is not a table id (letters, digits, - and _)")
            sys.stdout.write(DeckRegistry.generate(args.tables).dump())
            return 0
        if args.command == "sim":
            from simulators.sim_table import run_sim_table
            stop = threading.Event()
            for sig in (signal.SIGINT, signal.SIGTERM):  # the croupier ends the hand's wait; all is closed
                signal.signal(sig, lambda *_: stop.set())
            return run_sim_table(args.profile, args.decks, args.broker, credentials.link_options(args), stop=stop,
                                 pace=args.pace, seed=args.seed, boxed_rate=args.boxed_rate,
                                 allin_rate=args.allin_rate, scan_ms=args.scan_ms, hands=args.hands)
        if args.command == "replay":
            from simulators.replay import replay
            from simulators.scenario import load
            replay(load(args.scenario), include_cards=args.cards, lang=args.lang)
            return 0
    except (ValueError, OSError, RuntimeError) as err:  # config and environment errors, in plain words
        verb = f"{args.command} {args.sim}" if args.command == "sim" else args.command
        print(f"tapis {verb}: {err}", file=sys.stderr)
        return 2
    return 2


if __name__ == "__main__":
    sys.exit(main())
