"""The simulators' verbs of `tapis` (the `tapis` command dispatches here): rooms and tables in software.

    tapis demo [--tables N] [--players N] [--dashboard PORT] [--hands N] [--json]
                                                    the room: a short tournament, dashboard, clock, faults ruled
    tapis demo --cash [--tables N] [--hands N] [--game plo]   tables dealing to the hub without a tournament
    tapis demo --tournament [--players N]           a whole tournament computed without tables, to the payouts
    tapis replay SCENARIO                           one table's scenario through the real pipeline
    tapis sim table --profile F --decks F --broker URL [--fault-rate P] [--faults K,K] [--outbox F]
                                                    one simulated table as its own process
    tapis sim decks t1 t2 ...                       the simulated tables' deck registry (TOML)
"""

from __future__ import annotations

import argparse
import logging
import re
import signal
import sys

from simulators.room_defaults import DASHBOARD_PORT, FAULT_RATE
from tablewire import credentials
from tablewire.stopping import stop_on_signals

# The games a simulated croupier deals (hub/rules/games.toml): the pineapples' discards it does not make,
# and five-card Omaha does not fit nine players in one deck (9 x 5 + 8 = 53 cards).
DEMO_GAMES = ("nlhe", "plo", "short_deck")


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _pace(text: str) -> float:
    value = float(text)
    if not 0 < value <= 10:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 10 seconds, got {text}")
    return value


def _rate(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"a chance per hand from 0 to 1, got {text}")
    return value


def _port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a TCP port from 1 to 65535 (0: none), got {text}")
    return value


# What each mode cannot use: refused in plain words, never ignored.
_NOT_WITH = {
    "tournament": {"hands": "it plays the tournament to its end", "broker": "it has no tables nor hub",
                   "pace": "it has no dealers", "dashboard": "it has no hub to serve (plain `tapis demo` has one)",
                   "fault_rate": "it has no dealers", "game": "it has no dealers"},
    "cash": {"players": "its tables seat the same players all along"},
}


def refused(args: argparse.Namespace) -> str | None:
    """Why these demo options cannot go together, or None."""
    if args.tournament and args.cash:
        return "--cash cannot go with --tournament: one is tables without a tournament, the other a tournament " \
               "without tables (plain `tapis demo` is both)"
    mode = "tournament" if args.tournament else "cash" if args.cash else None
    if mode is None and args.game not in (None, "nlhe"):
        return "--game goes with --cash: the room's tournament deals hold'em (a structure's levels name their game)"
    for option, why in _NOT_WITH.get(mode or "", {}).items():
        if getattr(args, option) is not None:
            return f"--{option.replace('_', '-')} cannot go with --{mode}: {why}"
    return None


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tapis", description="RFID poker tables: simulated rooms and tables")
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-vv for debug)")
    sub = p.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="the room: a short tournament dealt by simulated tables, with the dashboard",
                          description="By default the room: a short tournament (fast levels) on the hub's "
                                      "tournament mode, the TD dashboard and clock, simulated tables dealing with "
                                      "a dealing fault in about one hand in ten, each ruled. --cash: tables "
                                      "without a tournament; --tournament: a whole tournament computed without "
                                      "tables. Options that a mode cannot use are refused.")
    demo.add_argument("--tournament", action="store_true",
                      help="a whole tournament computed without tables or hub (60 players, 6 tables) to the ranking")
    demo.add_argument("--cash", action="store_true", help="tables dealing to the hub without a tournament")
    demo.add_argument("--tables", type=_positive, default=None, help="room: 3; --cash: 4; --tournament: 6")
    demo.add_argument("--players", type=_positive, default=None, help="room: 6 a table; --tournament: 60")
    demo.add_argument("--hands", type=_positive, default=None,
                      help="stop once N hands have ended at each table still in play (default: until the end)")
    demo.add_argument("--json", action="store_true", help="print the hub's events as JSON lines")
    demo.add_argument("--broker", default=None, help="mqtt://host:port (default: a private Mosquitto)")
    demo.add_argument("--pace", type=_pace, default=None, help="seconds between the dealer's cards (0.12)")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--ruleset", default="cdc-2013", help="a rulebook id, or a club's file (.toml)")
    demo.add_argument("--dashboard", type=_port, default=None, metavar="PORT",
                      help=f"serve the TD dashboard on 127.0.0.1:PORT, a TD login printed (room: {DASHBOARD_PORT}; "
                           "0: none; --cash: none unless given)")
    demo.add_argument("--fault-rate", type=_rate, default=None, metavar="P",
                      help=f"chance that a hand carries a dealing fault (room: {FAULT_RATE}, one hand in "
                           f"{round(1 / FAULT_RATE)}; --cash: 0)")
    demo.add_argument("--game", default=None, choices=DEMO_GAMES,
                      help="with --cash: the game the tables deal (nlhe; hub/rules/games.toml; docs/games.md)")

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
    table.add_argument("--allin-rate", type=_rate, default=0.005,
                       help="chance that a player to act shoves (0.005: a club night's pace; most fold to a push)")
    table.add_argument("--scan-ms", type=_positive, default=None,
                       help="the simulated board's scan period (default: the profile's scan_period_ms)")
    table.add_argument("--hands", type=_positive, default=None, help="stop after N hands played")
    # Both checked by the fault plan itself, refused in one line (`_sim_faults`).
    table.add_argument("--fault-rate", default=None, metavar="P",
                       help="chance that a hand carries a dealing fault, ruled by the hub and carried out (0)")
    table.add_argument("--faults", default=None, metavar="KIND,KIND...",
                       help="the fault kinds to make (default: every kind the croupier makes but time_expired, "
                            "which waits the rulebook's 70 s; docs/faults.md)")
    table.add_argument("--away-hands", type=_positive, default=1, metavar="N",
                       help="a player the dealer marks away (the absent_player fault) stays away N hands, that "
                            "one included, before the dealer presses him back (1)")
    table.add_argument("--outbox", default=None, metavar="FILE",
                       help="the agent's outbox in this SQLite file, as `tapis agent --outbox` (default: in memory)")
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
        if args.command == "demo":
            return _demo(args)
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
            stop = stop_on_signals()  # the croupier ends the hand's wait; all is closed
            rate, kinds = _sim_faults(args)
            return run_sim_table(args.profile, args.decks, args.broker, credentials.link_options(args), stop=stop,
                                 pace=args.pace, seed=args.seed, boxed_rate=args.boxed_rate,
                                 allin_rate=args.allin_rate, scan_ms=args.scan_ms, hands=args.hands,
                                 fault_rate=rate, fault_kinds=kinds, outbox=args.outbox,
                                 away_hands=args.away_hands)
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


def _sim_faults(args: argparse.Namespace) -> tuple[float, list[str] | None]:
    """`--fault-rate` and `--faults` of `tapis sim table`, checked as the croupier's plan checks them
    (ValueError: one line, exit 2)."""
    import random

    from simulators.fault_plan import FaultPlan
    kinds = None if args.faults is None else [k.strip() for k in args.faults.split(",") if k.strip()]
    if kinds == []:
        raise ValueError("--faults: no fault kind given (KIND,KIND...; docs/faults.md)")
    try:
        rate = float(args.fault_rate or 0)
    except ValueError:
        raise ValueError(f"--fault-rate {args.fault_rate[:20]!r}: a chance per hand from 0 to 1") from None
    if kinds is not None and not rate:
        raise ValueError("--faults goes with --fault-rate P (above 0): without it no hand carries a fault")
    if kinds is None:
        FaultPlan(rate=rate, rng=random.Random())
    else:
        FaultPlan(rate=rate, rng=random.Random(), kinds=kinds)
    return rate, kinds


def _demo(args: argparse.Namespace) -> int:
    why = refused(args)
    if why is not None:
        raise ValueError(why)
    import hub.rulebooks as rulebooks

    known = rulebooks.SEED_IDS
    rulebook: tuple[str, ...] = ()
    if args.ruleset.endswith(".toml"):  # a club's rulebook file: checked, then known to the hub by its id
        try:
            book = rulebooks.register_file(args.ruleset)
        except rulebooks.RulebookError as err:
            raise ValueError(f"--ruleset {args.ruleset[:80]}: {'; '.join(err.problems)}") from err
        # a tournament keeps the file's text, as `tapis tournament new --ruleset FILE` does
        args.ruleset, rulebook = book.id, rulebooks.stored(book)
    elif args.ruleset not in known:
        raise ValueError(f"--ruleset {args.ruleset[:40]!r}: unknown (known: {', '.join(known)}, or a .toml file)")
    if args.tournament:
        from simulators.tournament_demo import run_tournament_demo
        return run_tournament_demo(players=args.players or 60, tables=args.tables or 6, ruleset=args.ruleset,
                                   seed=args.seed, as_json=args.json, rulebook=rulebook)
    pace = 0.12 if args.pace is None else args.pace
    if args.cash:
        from simulators.demo import run_demo
        return run_demo(tables=args.tables or 4, hands=args.hands, as_json=args.json, broker=args.broker, pace=pace,
                        seed=args.seed, dashboard=args.dashboard or None, fault_rate=args.fault_rate or 0.0,
                        ruleset=args.ruleset, game=args.game or "nlhe")
    from simulators.room_demo import run_room_demo
    return run_room_demo(tables=args.tables or 3, players=args.players, hands=args.hands, as_json=args.json,
                         broker=args.broker, pace=pace, seed=args.seed, ruleset=args.ruleset,
                         dashboard=DASHBOARD_PORT if args.dashboard is None else args.dashboard,
                         fault_rate=FAULT_RATE if args.fault_rate is None else args.fault_rate, rulebook=rulebook)


if __name__ == "__main__":
    sys.exit(main())
