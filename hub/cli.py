"""`tapis`: the one command line for the room. Each subcommand builds its object graph here.

    tapis demo [--tables N] [--hands N] [--json]   simulated room on the embedded broker
    tapis hub [--broker URL] [--db FILE]            the hub (a private Mosquitto if no URL; --db: tournament)
    tapis hub --broker URL --shard N/K              hub worker N of K: the tables whose id hashes to it
    tapis agent --profile FILE --decks FILE --broker URL    one table's agent on its reader
    tapis replay SCENARIO                           one table's scenario through the real pipeline
    tapis phh FILE... [--json]                      replay Poker Hand History files through the engine
    tapis tournament new|seat|clock|status ...      the TD's command line (see docs/td-guide.md)
    tapis demo --tournament                         a whole simulated tournament to the payouts
    tapis agent scan|capture|replay ...             install tools: live antenna reads, raw captures
    tapis doctor --profile FILE ...                 checks readers, panel, broker, clock sync
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
import time
from collections.abc import Callable


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _credentials(p: argparse.ArgumentParser) -> None:
    p.add_argument("--user", default=None, help="broker user (hub, or table-<id>: see docs/security.md)")
    p.add_argument("--password-file", default=None,
                   help="the broker password, or the credentials JSON `python -m hub.security` wrote")
    p.add_argument("--ca", default=None, help="the room's CA certificate: connect to the TLS listener")


def link_options(args: argparse.Namespace) -> dict[str, object]:
    """MqttLink keywords from --user, --password-file and --ca (a wrong file is a plain error)."""
    options: dict[str, object] = {}
    if args.password_file:
        with open(args.password_file, encoding="utf-8") as secret:
            text = secret.read().strip()
        try:  # the credentials file `python -m hub.security` writes, or the bare password
            saved = json.loads(text)
        except ValueError:
            saved = None
        if isinstance(saved, dict) and "password" in saved:
            options["username"] = args.user or saved.get("username")
            options["password"] = saved["password"]
        else:
            options["password"] = text
    if args.user:
        options["username"] = args.user
    if args.ca:
        from hub.security import client_tls_context
        options["tls"] = client_tls_context(args.ca)
    return options


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
    demo.add_argument("--tournament", action="store_true",
                      help="a whole simulated tournament (60 players, 6 tables) to the final ranking")
    demo.add_argument("--players", type=_positive, default=60, help="with --tournament")
    demo.add_argument("--ruleset", default="cdc-2013")
    demo.add_argument("--dashboard", type=int, default=None, metavar="PORT",
                      help="also serve the TD dashboard on 127.0.0.1:PORT (a TD login is printed)")

    hub = sub.add_parser("hub", help="run the hub")
    hub.add_argument("--broker", default=None, help="mqtt://host:port (default: a private Mosquitto)")
    _credentials(hub)
    hub.add_argument("--db", default=None, help="tournament store (SQLite): the room plays that tournament")
    hub.add_argument("--dashboard", type=int, default=8080, metavar="PORT", help="TD dashboard port (0: none)")
    hub.add_argument("--dashboard-host", default="127.0.0.1", help="address the dashboard listens on")
    hub.add_argument("--td-users", default=None,
                     help="file of `name:scrypt-hash` lines (hub.dashboard.hash_password) for TD logins")
    hub.add_argument("--tables", default=None, metavar="t1,t2,...",
                     help="the room's tables: events of any other table id are counted and dropped, never stored "
                          "nor shown (with --db, also the tournament's tables; neither: every table)")
    hub.add_argument("--shard", default=None, metavar="N/K",
                     help="run as worker N of K on a shared --broker: serve only the tables whose id hashes "
                          "to N (no --db: the tournament floor is room-wide; docs/scale-out.md)")

    tournament = sub.add_parser("tournament", help="the TD's command line (new, seat, clock, status...)",
                                add_help=False)
    tournament.add_argument("args", nargs=argparse.REMAINDER)

    agent = sub.add_parser("agent", help="run one table's agent")
    agent.add_argument("--profile", required=True, help="table profile TOML (antennas, reader URL)")
    agent.add_argument("--decks", required=True, help="deck registry TOML")
    agent.add_argument("--broker", required=True, help="mqtt://host:port")
    _credentials(agent)
    agent.add_argument("--outbox", default=None,
                       help="SQLite file keeping events until the hub acknowledges them (default: memory)")

    replay = sub.add_parser("replay", help="play a table scenario through the real pipeline")
    replay.add_argument("scenario", help="scenario file (YAML or JSON, see spec/scenario.md)")
    replay.add_argument("--cards", action="store_true", help="also print card, reader and status events")
    replay.add_argument("--lang", choices=("fr", "en"), default="fr", help="language of ruling texts")

    phh = sub.add_parser("phh", help="replay PHH hand histories strictly", add_help=False)
    phh.add_argument("args", nargs=argparse.REMAINDER)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Subcommands with their own parsers get every argument, options first included.
    if argv[:1] == ["phh"]:
        from hub.rules.cli import main as phh_main
        return phh_main(argv[1:])
    if argv[:1] == ["tournament"]:
        from hub.td import td_main
        return td_main(argv[1:])
    if argv[:1] == ["doctor"]:
        from table_agent.tools import doctor_main
        return doctor_main(argv[1:])
    if argv[:2] in (["agent", "scan"], ["agent", "capture"], ["agent", "replay"]):
        from table_agent.tools import main_agent_tools
        return main_agent_tools(argv[1:])
    args = parser().parse_args(argv)
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
            from simulators.demo import run_demo  # simulators only for the demo, never for production
            return run_demo(tables=args.tables, hands=args.hands, as_json=args.json, broker=args.broker,
                            pace=args.pace, seed=args.seed, dashboard=args.dashboard)
        if args.command == "replay":
            from simulators.replay import replay
            from simulators.scenario import load
            replay(load(args.scenario), include_cards=args.cards, lang=args.lang)
            return 0
        if args.command == "hub":
            return run_hub(args.broker, args.db, dashboard=args.dashboard, dashboard_host=args.dashboard_host,
                           td_users=args.td_users, link_options=link_options(args), shard=args.shard,
                           tables=args.tables)
        if args.command == "agent":
            return run_agent(args.profile, args.decks, args.broker, args.outbox, link_options(args))
    except (ValueError, OSError, RuntimeError) as err:  # config and environment errors, in plain words
        print(f"tapis {args.command}: {err}", file=sys.stderr)
        return 2
    return 2


def _wait_for_signal() -> None:
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()


def read_td_users(path: str | None) -> dict[str, str]:
    """`name:hash` per line (# comments); a wrong line is refused with its number."""
    if path is None:
        return {}
    users: dict[str, str] = {}
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, sep, hashed = line.partition(":")
            if not sep or not name or not hashed.startswith("scrypt$"):
                raise ValueError(f"{path}:{number}: expected name:scrypt$... (hub.dashboard.hash_password)")
            users[name] = hashed
    return users


def run_hub(broker: str | None, db: str | None = None, *, dashboard: int = 0, dashboard_host: str = "127.0.0.1",
            td_users: str | None = None, link_options: dict[str, object] | None = None,
            shard: str | None = None, tables: str | None = None) -> int:
    from hub import wire
    from hub.broker import EmbeddedBroker, parse_url
    from hub.floor import FloorService
    from hub.floor_tables import FloorTables
    from hub.mqtt import MqttLink
    from hub.service import HubService
    from hub.shard import Shard, hub_client_id, hub_status_topic
    from hub.store import EventStore

    worker = Shard.parse(shard) if shard else None
    listed = parse_tables(tables) if tables is not None else None
    if worker is not None and (broker is None or db):  # refused before anything starts
        raise ValueError(f"--shard {worker}: " + ("the workers share the room's broker: give --broker"
                                                  if broker is None else "the tournament floor (--db) is "
                                                  "room-wide and runs on one unsharded hub"))
    embedded = EmbeddedBroker().start() if broker is None else None
    host, port = (embedded.host, embedded.port) if embedded else parse_url(broker or "")
    link = MqttLink(client_id=hub_client_id(worker), host=host, port=port,
                    will=(hub_status_topic(worker), wire.OFFLINE),
                    session_expiry=3600, **(link_options or {}))  # type: ignore[arg-type]
    store = EventStore(db) if db else None
    floor_tables = None
    if store is not None:  # the tournament and every hand in progress, rebuilt after a kill
        floor_tables = FloorTables.open(FloorService.open(store, link=link), store)
    service = HubService(link=link, floor_tables=floor_tables, shard=worker,
                         tables=room_tables(listed, floor_tables))
    dash = None
    if dashboard:
        from hub.dashboard import Dashboard
        from hw.ports import Clock

        class Wall:
            def now(self) -> float:
                return time.time()

        wall: Clock = Wall()
        dash = Dashboard(service, floor=floor_tables.floor if floor_tables else None, host=dashboard_host,
                         port=dashboard, users=read_td_users(td_users), clock=wall,
                         floor_lock=service.floor_lock,
                         on_decision=lambda d: service.decide(d.table, d.kind, d.option, d.by)).start()
        print(f"tapis hub: TD dashboard on {dash.url}", file=sys.stderr)
    service.start()
    link.start()
    print("tapis hub: listening to " + (f"the tables of shard {worker}" if worker else "every table")
          + f" on mqtt://{host}:{port}" + (f", tournament {db}" if db else ""), file=sys.stderr)
    try:
        _wait_for_signal()
    finally:
        link.stop()
        service.stop()
        if dash is not None:
            dash.stop()
        if store is not None:
            store.close()
        if embedded:
            embedded.stop()
    print(f"tapis hub: stopped after {service.stats.received} messages "
          f"({service.stats.malformed} malformed, {service.stats.oversized} oversized, "
          f"{service.stats.unknown_table} of unknown tables)", file=sys.stderr)
    return 0


def parse_tables(text: str) -> frozenset[str]:
    """`t1,t2` -> the table ids, each one the wire accepts (a wrong one is a plain error)."""
    import re

    from hub import wire
    ids = [t.strip() for t in text.split(",") if t.strip()]
    if not ids:
        raise ValueError("--tables: no table id given (expected t1,t2,...)")
    for table in ids:
        if re.fullmatch(wire.TABLE_ID, table) is None:
            raise ValueError(f"--tables: {table[:40]!r} is not a table id ({wire.TABLE_ID})")
    return frozenset(ids)


def room_tables(listed: frozenset[str] | None, floor_tables: object) -> Callable[[str], bool] | None:
    """Which table ids the hub keeps: the listed ones and the tournament's; None (every one) when the
    hub has neither (a demo, a bench)."""
    knows = getattr(floor_tables, "knows", None)
    if listed is None and knows is None:
        return None
    return lambda table: (listed is not None and table in listed) or (knows is not None and knows(table))


def run_agent(profile_path: str, decks_path: str, broker: str, outbox_path: str | None = None,
              link_options: dict[str, object] | None = None) -> int:
    from hub import wire
    from hub.broker import parse_url
    from hub.mqtt import MqttLink
    from hw.decks import DeckRegistry
    from hw.ports import MonotonicClock
    from hw.profile import TableProfile
    from hw.serial_link import SerialLink
    from table_agent.agent import TableAgent
    from table_agent.outbox import Outbox
    from table_agent.panel_setup import attach_profile_panel

    profile = TableProfile.load(profile_path)
    registry = DeckRegistry.load(decks_path)
    host, port = parse_url(broker)
    link = MqttLink(client_id=f"tapis-table-{profile.table}", host=host, port=port,
                    will=(wire.table_status(profile.table), wire.OFFLINE), **(link_options or {}))  # type: ignore[arg-type]
    reader_factory = None
    if profile.reader.backend == "pcsc":
        from hw.pcsc_worker import pcsc_worker_factory
        reader_factory = pcsc_worker_factory(profile.reader.pcsc_readers)
    agent = TableAgent(profile=profile, registry=registry, publisher=link, clock=MonotonicClock(),
                       open_link=lambda: SerialLink(profile.reader.url, baudrate=profile.reader.baudrate),
                       reader_factory=reader_factory, outbox=Outbox(outbox_path or ":memory:"))
    close_panel = attach_profile_panel(agent, profile)  # the profile's [panel]; none: said once in the log
    agent.start()
    link.start(timeout=30)
    print(f"tapis agent: table {profile.table} on {profile.reader.url}", file=sys.stderr)
    try:
        _wait_for_signal()
    finally:
        agent.stop()
        close_panel()
        link.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
