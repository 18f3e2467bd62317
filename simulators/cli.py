"""The simulators' verbs of `tapis` (the `tapis` command dispatches here): rooms and tables in software.

    tapis demo [--tables N] [--hands N] [--json] [--game plo]   simulated room on the embedded broker
    tapis demo --tournament                         a whole simulated tournament to the payouts
    tapis replay SCENARIO                           one table's scenario through the real pipeline
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys

# The games a simulated croupier deals (hub/rules/games.toml): the pineapples' discards it does not make,
# and five-card Omaha does not fit nine players in one deck (9 x 5 + 8 = 53 cards).
DEMO_GAMES = ("nlhe", "plo", "short_deck")


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
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
    demo.add_argument("--game", default="nlhe", choices=DEMO_GAMES,
                      help="the game the tables deal (hub/rules/games.toml; docs/games.md)")
    demo.add_argument("--dashboard", type=int, default=None, metavar="PORT",
                      help="also serve the TD dashboard on 127.0.0.1:PORT (a TD login is printed)")

    replay = sub.add_parser("replay", help="play a table scenario through the real pipeline")
    replay.add_argument("scenario", help="scenario file (YAML or JSON, see spec/scenario.md)")
    replay.add_argument("--cards", action="store_true", help="also print card, reader and status events")
    replay.add_argument("--lang", choices=("fr", "en"), default="fr", help="language of ruling texts")
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
                            pace=args.pace, seed=args.seed, dashboard=args.dashboard, game=args.game)
        if args.command == "replay":
            from simulators.replay import replay
            from simulators.scenario import load
            replay(load(args.scenario), include_cards=args.cards, lang=args.lang)
            return 0
    except (ValueError, OSError, RuntimeError) as err:  # config and environment errors, in plain words
        print(f"tapis {args.command}: {err}", file=sys.stderr)
        return 2
    return 2


if __name__ == "__main__":
    sys.exit(main())
