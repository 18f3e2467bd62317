"""The hub's and the TD's verbs of `tapis` (the `tapis` command dispatches here). Each builds its graph.

    tapis hub [--broker URL] [--db FILE]            the hub (a private Mosquitto if no URL; --db: tournament)
    tapis hub --broker URL --shard N/K              hub worker N of K: the tables whose id hashes to it
    tapis tournament new|seat|clock|status ...      the TD's command line (see docs/td-guide.md)
    tapis phh FILE... [--json]                      replay Poker Hand History files through the engine
    tapis td-login NAME --users FILE                a TD login for the dashboard (password printed once)
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tablewire import credentials
from tablewire.stopping import stop_on_signals

if TYPE_CHECKING:  # the hub's graph is imported when built: the TD's verbs start without it
    from hub.dashboard import Dashboard
    from hub.edge.link import HubLink
    from hub.edge.service import HubService
    from hub.edge.shard import Shard
    from hub.floor.store import EventStore
    from hub.floor.tables import FloorTables


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tapis", description="RFID poker tables: the hub and the TD")
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-vv for debug)")
    sub = p.add_subparsers(dest="command", required=True)

    hub = sub.add_parser("hub", help="run the hub")
    hub.add_argument("--broker", default=None, help="mqtt://host:port (default: a private Mosquitto)")
    credentials.add_options(hub)
    hub.add_argument("--db", default=None, help="tournament store (SQLite): the room plays that tournament")
    hub.add_argument("--dashboard", type=int, default=8080, metavar="PORT", help="TD dashboard port (0: none)")
    hub.add_argument("--dashboard-host", default="127.0.0.1", help="address the dashboard listens on")
    hub.add_argument("--td-users", default=None,
                     help="file of `name:scrypt-hash` lines (hub.dashboard.hash_password) for TD logins")
    hub.add_argument("--stream-delay", default=None, metavar="MINUTES",
                     help="a delayed stream with the hole cards at /stream, for a broadcast: each hand shown "
                          "MINUTES (5 or more) after it happened and never before it ended (docs/dashboard.md); "
                          "needs --stream-users")
    hub.add_argument("--stream-users", default=None, metavar="FILE",
                     help="the stream's logins, a file as --td-users (`tapis td-login NAME --users FILE`): not TDs")
    hub.add_argument("--rulebooks", default=None, metavar="DIR",
                     help="the club's rulebook files the dashboard's desk offers for a new tournament "
                          "(install.sh: /etc/tapis/rulebooks; docs/rulebooks.md)")
    hub.add_argument("--tables", default=None, metavar="t1,t2,...",
                     help="the room's tables: events of any other table id are counted and dropped, never stored "
                          "nor shown (with --db, also the tournament's tables; neither: every table)")
    hub.add_argument("--shard", default=None, metavar="N/K",
                     help="run as worker N of K on a shared --broker: serve only the tables whose id hashes "
                          "to N (no --db: the tournament floor is room-wide); with --tables, subscribe to those "
                          "tables' topics only, so no other worker's table reaches it (docs/scale-out.md)")

    tournament = sub.add_parser("tournament", help="the TD's command line (new, seat, clock, status...)",
                                add_help=False)
    tournament.add_argument("args", nargs=argparse.REMAINDER)

    phh = sub.add_parser("phh", help="replay PHH hand histories strictly", add_help=False)
    phh.add_argument("args", nargs=argparse.REMAINDER)

    login = sub.add_parser("td-login", help="make or change a TD login for the dashboard",
                           description="Adds NAME to the hub's --td-users file (or changes its password): the "
                                       "password is read from standard input with --password-stdin, else made "
                                       "up and printed once. The file keeps only scrypt hashes.")
    login.add_argument("name", help="the TD's login (letters, digits, . _ -)")
    login.add_argument("--users", required=True, metavar="FILE", help="the file `tapis hub --td-users` reads")
    login.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Subcommands with their own parsers get every argument, options first included (-v before them: none).
    verb = next((i for i, arg in enumerate(argv) if arg not in ("-v", "-vv", "-vvv", "--verbose")), len(argv))
    if argv[verb:verb + 1] == ["phh"]:
        from hub.rules.cli import main as phh_main
        return phh_main(argv[verb + 1:])
    if argv[verb:verb + 1] == ["tournament"]:
        from hub.floor.td import td_main
        return td_main(argv[verb + 1:])
    args = parser().parse_args(argv)
    level = [logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose, 2)]
    logging.basicConfig(level=level, stream=sys.stderr, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        if args.command == "td-login":
            return td_login(args.name, args.users, sys.stdin.readline().rstrip("\n") if args.password_stdin
                            else None)
        if args.command == "hub":
            return run_hub(args.broker, args.db, dashboard=args.dashboard, dashboard_host=args.dashboard_host,
                           td_users=args.td_users, link_options=credentials.link_options(args), shard=args.shard,
                           tables=args.tables, rulebooks=args.rulebooks, stream_delay=args.stream_delay,
                           stream_users=args.stream_users)
    except (ValueError, OSError, RuntimeError) as err:  # config and environment errors, in plain words
        print(f"tapis {args.command}: {err}", file=sys.stderr)
        return 2
    return 2


def _wait_for_signal() -> None:
    stop_on_signals().wait()


def td_login(name: str, path: str, password: str | None) -> int:
    """Add or change `name` in the TD logins file; a password made up here is printed once."""
    import os
    import re
    import secrets

    from hub.dashboard.auth import hash_password

    if re.fullmatch(r"[A-Za-z0-9._-]{1,32}", name) is None:
        raise ValueError(f"login {name[:40]!r}: letters, digits, '.', '_' or '-', at most 32")
    made_up = password is None
    if password is None:
        password = secrets.token_urlsafe(12)
    if len(password) < 8:
        raise ValueError("a TD password has at least 8 characters")
    lines: list[str] = []
    if os.path.exists(path):
        read_td_users(path)  # a wrong file is refused before it is rewritten
        with open(path, encoding="utf-8") as old:
            lines = [line.rstrip("\n") for line in old if line.partition(":")[0].strip() != name]
    lines.append(f"{name}:{hash_password(password)}")
    tmp = f"{path}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)  # hashes only, still not for everyone
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)
    if made_up:
        print(f"identifiant DT / TD login: {name}    mot de passe / password: {password}")
        print("noté une seule fois : gardez-le / shown once: keep it", file=sys.stderr)
    else:
        print(f"tapis td-login: {name} enregistré dans {path} / saved in {path}", file=sys.stderr)
    return 0


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


@dataclass
class HubParts:
    """What `tapis hub` runs: the service on its link, the tournament (with --db) and the dashboard."""

    service: HubService
    link: HubLink
    floor_tables: FloorTables | None
    store: EventStore | None
    dashboard: Dashboard | None

    def start(self) -> None:
        self.service.start()
        self.link.start()

    def stop(self) -> None:
        self.service.stop()  # first: it publishes the states still in their window while connected
        self.link.stop()
        if self.dashboard is not None:
            self.dashboard.stop()
        if self.store is not None:
            self.store.close()


class _Wall:
    def now(self) -> float:
        return time.time()


def build_hub(host: str, port: int, db: str | None = None, *, dashboard: int = 0,
              dashboard_host: str = "127.0.0.1", users: Mapping[str, str] | None = None,
              link_options: dict[str, object] | None = None, shard: Shard | None = None,
              listed: frozenset[str] | None = None, durable: bool = True, group_sync: bool = True,
              rulebooks: str | None = None, record_hands: bool = True, stream_delay: float | None = None,
              stream_users: Mapping[str, str] | None = None) -> HubParts:
    """The hub's object graph on a broker (`tapis hub`, and `tapis demo`'s room): the service, the
    tournament floor and its tables from the store `db`, the TD dashboard on `dashboard` (0: none;
    served at once). Nothing is connected until `start()`. `group_sync=False`: the store syncs every
    COMMIT, as before the group commit (the benchmark's `tournament-commit`). `record_hands=False`: no hand
    history is written (the benchmark's recorder off, `bench_pipeline.py --db`)."""
    from hub.dashboard import Dashboard
    from hub.edge.link import HubLink
    from hub.edge.service import HubService
    from hub.edge.shard import hub_client_id, hub_status_topic
    from hub.floor.service import FloorService
    from hub.floor.store import EventStore
    from hub.floor.tables import FloorTables
    from hw.ports import Clock
    from tablewire import wire

    # The hub's own link: its loop runs the service too (hub.edge.link, docs/scale-out.md)
    link = HubLink(client_id=hub_client_id(shard), host=host, port=port,
                    will=(hub_status_topic(shard), wire.OFFLINE),
                    session_expiry=3600, **(link_options or {}))  # type: ignore[arg-type]
    store = EventStore(db, durable=durable) if db else None
    if store is not None and group_sync:
        # one fsync per turn of the loop, before any of its packets (acknowledgements) leave, instead of
        # one per table event (docs/scale-out.md, "A tournament hub")
        link.before_write(store.group_sync())
    floor_tables = None
    if store is not None:  # the tournament and every hand in progress, rebuilt after a kill
        floor_tables = FloorTables.open(FloorService.open(store, link=link), store)
    # A worker given the room's list subscribes to its own tables only (docs/scale-out.md)
    service = HubService(link=link, floor_tables=floor_tables, shard=shard,
                         tables=room_tables(listed, floor_tables),
                         subscribe=sorted(listed) if shard is not None and listed is not None else None)
    if floor_tables is not None and record_hands:  # every hand's history, written as it ends (`tapis hands`)
        from hub.history.recorder import HandRecorder
        service.add_listener(HandRecorder(floor_tables).event, reads_store=True)
    dash = None
    if dashboard:
        wall: Clock = _Wall()
        dash = Dashboard(service, floor=floor_tables.floor if floor_tables else None, host=dashboard_host,
                         port=dashboard, users=users or {}, clock=wall, floor_lock=service.floor_lock,
                         on_decision=lambda d: service.decide(d.table, d.kind, d.option, d.by),
                         rulebooks=Path(rulebooks) if rulebooks else None, stream_delay=stream_delay,
                         stream_users=stream_users).start()
    return HubParts(service, link, floor_tables, store, dash)


def freeze_boot_heap() -> None:
    """What the hub booted with (a festival's players and tables read from the store, the modules) set
    aside from the collector's full passes, which would otherwise walk it all with the loop held: tens of
    ms at 10,000 players that every table event waits out (the acknowledgements' tail, docs/scale-out.md).
    Collected first: no garbage is kept. The hub's process only, once (the tests' processes build many)."""
    gc.collect()
    gc.freeze()


def run_hub(broker: str | None, db: str | None = None, *, dashboard: int = 0, dashboard_host: str = "127.0.0.1",
            td_users: str | None = None, link_options: dict[str, object] | None = None,
            shard: str | None = None, tables: str | None = None, rulebooks: str | None = None,
            stream_delay: str | None = None, stream_users: str | None = None) -> int:
    from hub.edge.broker import EmbeddedBroker
    from hub.edge.shard import Shard
    from tablewire.broker_url import parse_url

    worker = Shard.parse(shard) if shard else None
    if rulebooks is not None and not Path(rulebooks).is_dir():
        raise ValueError(f"--rulebooks {rulebooks}: pas de tel dossier / no such folder")
    listed = parse_tables(tables) if tables is not None else None
    if worker is not None and (broker is None or db):  # refused before anything starts
        raise ValueError(f"--shard {worker}: " + ("the workers share the room's broker: give --broker"
                                                  if broker is None else "the tournament floor (--db) is "
                                                  "room-wide and runs on one unsharded hub"))
    users = read_td_users(td_users)
    delay, watchers = stream_options(stream_delay, stream_users, dashboard)
    embedded = EmbeddedBroker().start() if broker is None else None
    host, port = (embedded.host, embedded.port) if embedded else parse_url(broker or "")
    try:
        parts = build_hub(host, port, db, dashboard=dashboard, dashboard_host=dashboard_host, users=users,
                          link_options=link_options, shard=worker, listed=listed, rulebooks=rulebooks,
                          stream_delay=delay, stream_users=watchers)
    except BaseException:
        if embedded:
            embedded.stop()
        raise
    freeze_boot_heap()
    if parts.dashboard is not None:
        print(f"tapis hub: TD dashboard on {parts.dashboard.url}", file=sys.stderr)
        if not users:
            print("tapis hub: aucun compte DT, le tableau de bord est en lecture seule : `tapis td-login NOM "
                  "--users FICHIER` puis --td-users FICHIER / no TD login, the dashboard is read-only: "
                  "`tapis td-login NAME --users FILE`, then --td-users FILE", file=sys.stderr)
        if delay is not None:
            print(f"tapis hub: flux différé de {delay / 60:g} min / {delay / 60:g}-min delayed stream on "
                  f"{parts.dashboard.url}/stream", file=sys.stderr)
    parts.start()
    from hub.rules import ENGINE  # chosen at the engine's import (hub/rules/compiled.py)

    print(f"tapis hub: {ENGINE.line()}", file=sys.stderr)
    print("tapis hub: listening to " + (f"the tables of shard {worker}" if worker else
                                        f"tables {', '.join(sorted(listed))}" if listed else "every table")
          + f" on mqtt://{host}:{port}" + (f", tournament {db}" if db else ""), file=sys.stderr)
    try:
        _wait_for_signal()
    finally:
        parts.stop()
        if embedded:
            embedded.stop()
    stats = parts.service.stats
    print(f"tapis hub: stopped after {stats.received} messages "
          f"({stats.malformed} malformed, {stats.oversized} oversized, "
          f"{stats.unknown_table} of unknown tables)", file=sys.stderr)
    return 0


def stream_options(delay: str | None, users: str | None, dashboard: int) -> tuple[float | None, dict[str, str]]:
    """`--stream-delay` in seconds and the stream's logins; refused in one line unless both are given (the
    stream shows hole cards: never without a login) with a dashboard to serve them."""
    if delay is None:
        if users is not None:
            raise ValueError("--stream-users sans --stream-delay MINUTES / --stream-users without --stream-delay")
        return None, {}
    from hub.dashboard.delayed import parse_delay

    seconds = parse_delay(delay)
    if not dashboard:
        raise ValueError("--stream-delay : le flux est servi par le tableau de bord (--dashboard PORT) / "
                         "the stream is served by the dashboard (--dashboard PORT)")
    logins = read_td_users(users)
    if not logins:
        raise ValueError("--stream-delay : aucun compte pour le flux : `tapis td-login NOM --users FICHIER` puis "
                         "--stream-users FICHIER / no stream login: `tapis td-login NAME --users FILE`, then "
                         "--stream-users FILE")
    return seconds, logins


def parse_tables(text: str) -> frozenset[str]:
    """`t1,t2` -> the table ids, each one the wire accepts (a wrong one is a plain error)."""
    import re

    from tablewire import wire

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


if __name__ == "__main__":
    sys.exit(main())
