"""`tapis`: the one command line for the room. Each subcommand builds its object graph here.

    tapis demo [--tables N] [--hands N] [--json]   simulated room on the embedded broker
    tapis hub [--broker URL]                        the hub (starts a private Mosquitto if no URL)
    tapis agent --profile FILE --decks FILE --broker URL    one table's agent on its reader
    tapis replay SCENARIO                           one table's scenario through the real pipeline
    tapis phh FILE... [--json]                      replay Poker Hand History files through the engine
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tapis", description="RFID poker tables: agents, hub, simulators")
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-vv for debug)")
    sub = p.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="a room of simulated tables dealing to the hub")
    demo.add_argument("--tables", type=_positive, default=4)
    demo.add_argument("--hands", type=_positive, default=None, help="stop after N hands per table")
    demo.add_argument("--json", action="store_true", help="print the hub's events as JSON lines")
    demo.add_argument("--broker", default=None, help="mqtt://host:port (default: a private Mosquitto)")
    demo.add_argument("--pace", type=float, default=0.12, help="seconds between the dealer's cards")
    demo.add_argument("--seed", type=int, default=1)

    hub = sub.add_parser("hub", help="run the hub")
    hub.add_argument("--broker", default=None, help="mqtt://host:port (default: a private Mosquitto)")

    agent = sub.add_parser("agent", help="run one table's agent")
    agent.add_argument("--profile", required=True, help="table profile TOML (antennas, reader URL)")
    agent.add_argument("--decks", required=True, help="deck registry TOML")
    agent.add_argument("--broker", required=True, help="mqtt://host:port")

    replay = sub.add_parser("replay", help="play a table scenario through the real pipeline")
    replay.add_argument("scenario", help="scenario file (YAML or JSON, see spec/scenario.md)")
    replay.add_argument("--cards", action="store_true", help="also print card, reader and status events")
    replay.add_argument("--lang", choices=("fr", "en"), default="fr", help="language of ruling texts")

    phh = sub.add_parser("phh", help="replay PHH hand histories strictly", add_help=False)
    phh.add_argument("args", nargs=argparse.REMAINDER)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    level = [logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose, 2)]
    logging.basicConfig(level=level, stream=sys.stderr, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        if args.command == "demo":
            from simulators.demo import run_demo  # simulators only for the demo, never for production
            return run_demo(tables=args.tables, hands=args.hands, as_json=args.json, broker=args.broker,
                            pace=args.pace, seed=args.seed)
        if args.command == "replay":
            from simulators.replay import replay
            from simulators.scenario import load
            replay(load(args.scenario), include_cards=args.cards, lang=args.lang)
            return 0
        if args.command == "hub":
            return run_hub(args.broker)
        if args.command == "agent":
            return run_agent(args.profile, args.decks, args.broker)
        if args.command == "phh":
            from hub.rules.cli import main as phh_main
            return phh_main(args.args)
    except (ValueError, OSError, RuntimeError) as err:  # config and environment errors, in plain words
        print(f"tapis {args.command}: {err}", file=sys.stderr)
        return 2
    return 2


def _wait_for_signal() -> None:
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()


def run_hub(broker: str | None) -> int:
    from hub import wire
    from hub.broker import EmbeddedBroker, parse_url
    from hub.mqtt import MqttLink
    from hub.service import HubService

    embedded = EmbeddedBroker().start() if broker is None else None
    host, port = (embedded.host, embedded.port) if embedded else parse_url(broker or "")
    link = MqttLink(client_id="tapis-hub", host=host, port=port, will=(wire.HUB_STATUS, wire.OFFLINE),
                    session_expiry=3600)
    service = HubService(link=link)
    service.start()
    link.start()
    print(f"tapis hub: listening to every table on mqtt://{host}:{port}", file=sys.stderr)
    try:
        _wait_for_signal()
    finally:
        link.stop()
        service.stop()
        if embedded:
            embedded.stop()
    print(f"tapis hub: stopped after {service.stats.received} messages "
          f"({service.stats.malformed} malformed)", file=sys.stderr)
    return 0


def run_agent(profile_path: str, decks_path: str, broker: str) -> int:
    from hub import wire
    from hub.broker import parse_url
    from hub.mqtt import MqttLink
    from hw.decks import DeckRegistry
    from hw.ports import MonotonicClock
    from hw.profile import TableProfile
    from hw.serial_link import SerialLink
    from table_agent.agent import TableAgent

    profile = TableProfile.load(profile_path)
    registry = DeckRegistry.load(decks_path)
    host, port = parse_url(broker)
    link = MqttLink(client_id=f"tapis-table-{profile.table}", host=host, port=port,
                    will=(wire.table_status(profile.table), wire.OFFLINE))
    agent = TableAgent(profile=profile, registry=registry, publisher=link, clock=MonotonicClock(),
                       open_link=lambda: SerialLink(profile.reader.url, baudrate=profile.reader.baudrate))
    agent.start()
    link.start(timeout=30)
    print(f"tapis agent: table {profile.table} on {profile.reader.url}", file=sys.stderr)
    try:
        _wait_for_signal()
    finally:
        agent.stop()
        link.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
