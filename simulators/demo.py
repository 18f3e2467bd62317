"""`tapis demo --cash`: a room of simulated tables dealing real hands to the hub over Mosquitto, and the
tables of `tapis demo`'s tournament room (`simulators.room_demo`: `start_tables`, `Room`).

Per table: reader firmware on a pty (`ReaderBoardSimulator`), a scripted dealer moving cards on it,
and a real `TableAgent` reading the pty through `SerialLink`; one `HubService`; all on the embedded
broker unless `--broker` names one. Prints a live terminal view, or the hub's events as JSON lines.
"""

from __future__ import annotations

import functools
import json
import random
import secrets
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from hub.edge.broker import EmbeddedBroker
from hub.edge.service import HubService
from hub.room.game import TableSetup
from hub.room.tables import HubEvent
from hub.rules import Level
from hw.decks import DeckRegistry
from hw.ports import MonotonicClock
from hw.profile import TableProfile
from hw.serial_link import SerialLink
from simulators.croupier import Croupier
from simulators.dealer import Felt
from simulators.fault_plan import FaultPlan
from simulators.reader_board import ReaderBoardSimulator
from table_agent.agent import TableAgent
from tablewire import wire
from tablewire.broker_url import parse_url
from tablewire.mqtt import MqttLink


@dataclass
class SimTable:
    profile: TableProfile
    board: ReaderBoardSimulator
    agent: TableAgent
    link: MqttLink
    felt: Felt
    seats: list[int]
    button: int
    thread: threading.Thread | None = None
    croupier: Croupier | None = None  # set once `deal` runs (its `stuck` count: hands given up)


@dataclass
class Room:
    """A running room (or, `hub` None, the tables of one process); `close()` stops all it started."""

    hub: HubService | None
    tables: list[SimTable]
    registry: DeckRegistry
    _closers: list[Callable[[], None]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def close(self) -> None:
        self.stop.set()
        for table in self.tables:
            if table.thread is not None:
                table.thread.join(5)
        for closer in reversed(self._closers):
            try:
                closer()
            except Exception:  # noqa: BLE001 - shut down what remains
                pass


def table_ids(tables: int) -> list[str]:
    return [f"t{i + 1}" for i in range(tables)]


def seating(table_id: str, seed: int) -> tuple[list[int], int]:
    """Who sits where at a demo table and the first button: the same in every process."""
    rng = random.Random(f"{seed}:{table_id}")
    seats = sorted(rng.sample(range(1, 10), rng.randint(6, 9)))
    return seats, rng.choice(seats)


def start_hub(room: Room, *, host: str, port: int, ids: list[str], seed: int, games: bool = True,
              ruleset: str = "cdc-2013", stack: int = 20_000, game: str = "nlhe") -> HubService:
    hub_link = MqttLink(client_id="tapis-hub", host=host, port=port, will=(wire.HUB_STATUS, wire.OFFLINE))
    hub = HubService(link=hub_link)
    hub.start()
    room._closers.append(hub.stop)
    hub_link.start()
    room._closers.append(hub_link.stop)
    if games:
        for table_id in ids:
            seats, button = seating(table_id, seed)
            hub.configure_table(table_id, TableSetup(
                players=dict.fromkeys(seats, stack), button=button, level=Level(50, 100), ruleset=ruleset,
                seats=9, decks=(f"{table_id}/A", f"{table_id}/B"), game=game))
    room.hub = hub
    return hub


def start_tables(room: Room, *, host: str, port: int, ids: list[str], seed: int, scan_period_ms: int = 50,
                 miss_rate: float = 0.02, dropout_rate: float = 0.01, corrupt_rate: float = 0.0,
                 seat_count: int = 9) -> None:
    clock = MonotonicClock()
    for table_id in ids:
        seats, button = seating(table_id, seed)
        board = ReaderBoardSimulator(antennas=seat_count + 4, scan_period=scan_period_ms / 1000, miss_rate=miss_rate,
                                     dropout_rate=dropout_rate, rng=random.Random(f"{seed}:{table_id}:rf"),
                                     corrupt_rate=corrupt_rate)
        board.start()
        room._closers.append(board.close)
        profile = TableProfile.default(table_id, seats=seat_count, url=board.port)
        link = MqttLink(client_id=f"tapis-table-{table_id}", host=host, port=port,
                        will=(wire.table_status(table_id), wire.OFFLINE))
        agent = TableAgent(profile=profile, registry=room.registry, publisher=link, clock=clock,
                           open_link=functools.partial(SerialLink, profile.reader.url))
        link.start()
        room._closers.append(link.stop)
        agent.start()
        room._closers.append(agent.stop)
        felt = Felt(profile=profile, registry=room.registry, board=board)
        room.tables.append(SimTable(profile, board, agent, link, felt, seats, button=button))


def build_room(*, tables: int, host: str, port: int, seed: int = 1, scan_period_ms: int = 50,
               miss_rate: float = 0.02, dropout_rate: float = 0.01, corrupt_rate: float = 0.0, games: bool = True,
               ruleset: str = "cdc-2013", stack: int = 20_000, game: str = "nlhe") -> Room:
    """The hub and simulated tables on a broker; with `games`, the hub runs each table's hands."""
    ids = table_ids(tables)
    room = Room(hub=None, tables=[], registry=DeckRegistry.generate(ids))
    start_hub(room, host=host, port=port, ids=ids, seed=seed, games=games, ruleset=ruleset, stack=stack, game=game)
    start_tables(room, host=host, port=port, ids=ids, seed=seed, scan_period_ms=scan_period_ms,
                 miss_rate=miss_rate, dropout_rate=dropout_rate, corrupt_rate=corrupt_rate)
    return room


def deal(room: Room, table: SimTable, *, hands: int | None, pace: float, seed: int,
         boxed_rate: float = 0.0, on_fault_injected: Callable[[str], None] | None = None,
         faults: FaultPlan | None = None, allin_rate: float = 0.0) -> None:
    """The croupier's thread: `hands` complete hands played with the hub (None: until stopped)."""
    croupier = Croupier(agent=table.agent, felt=table.felt, rng=random.Random(seed), pace=pace, stop=room.stop,
                        boxed_rate=boxed_rate, on_fault_injected=on_fault_injected, faults=faults,
                        allin_rate=allin_rate)
    table.croupier = croupier
    while not room.stop.is_set() and (hands is None or croupier.hands < hands):
        if not croupier.play_hand():
            return


def watch_dealers(room: Room, done: threading.Event, out: TextIO, *, timeout: float | None,
                  redraw: Callable[[], None] | None, finished: Callable[[], bool] = lambda: False,
                  stopped: str = "demo: every dealer stopped") -> bool:
    """Wait for `done` or `finished()`, redrawing the screen every half second (`redraw`, None for
    none); False, said on `out`, when every dealer stopped first or `timeout` seconds went by."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while not done.wait(0.5):
        over = finished()  # asked before the redraw: the last screen shows the end
        if redraw is not None:
            redraw()
        if over:
            break
        if not any(t.thread is not None and t.thread.is_alive() for t in room.tables):
            out.write(stopped + "\n")
            return False
        if deadline is not None and time.monotonic() > deadline:
            out.write(f"demo: timed out after {timeout} s\n")
            return False
    return True


def run_demo(*, tables: int = 4, hands: int | None = None, as_json: bool = False, broker: str | None = None,
             pace: float = 0.12, seed: int = 1, out: TextIO = sys.stdout, timeout: float | None = None,
             dashboard: int | None = None, fault_rate: float = 0.0, ruleset: str = "cdc-2013",
             game: str = "nlhe") -> int:
    embedded = None
    if broker is None:
        embedded = EmbeddedBroker().start()
        host, port = embedded.host, embedded.port
    else:
        host, port = parse_url(broker)
    ended: dict[str, int] = {}
    done = threading.Event()
    lock = threading.Lock()

    def on_event(event: HubEvent) -> None:
        if as_json:
            with lock:
                out.write(json.dumps(event) + "\n")
                out.flush()
        if event["type"] == "hand_end":
            ended[event["table"]] = ended.get(event["table"], 0) + 1
            if hands is not None and len(ended) == tables and all(n >= hands for n in ended.values()):
                done.set()

    room = build_room(tables=tables, host=host, port=port, seed=seed, ruleset=ruleset, game=game)
    assert room.hub is not None
    room.hub.add_listener(on_event)
    if dashboard is not None:
        from hub.dashboard import Dashboard, hash_password
        password = secrets.token_urlsafe(8)
        hub = room.hub
        dash = Dashboard(hub, port=dashboard, users={"td": hash_password(password)},
                         on_decision=lambda d: hub.decide(d.table, d.kind, d.option, d.by)).start()
        room._closers.insert(0, dash.stop)
        print(f"demo: TD dashboard on {dash.url} (TD login: td / {password})", file=sys.stderr)
    try:
        for i, table in enumerate(room.tables):
            table.thread = threading.Thread(target=deal, args=(room, table),
                                            kwargs={"hands": hands, "pace": pace, "seed": seed * 1000 + i,
                                                    "faults": FaultPlan(rate=fault_rate, rng=random.Random(
                                                        f"{seed}:{table.profile.table}:faults"))},
                                            name=f"dealer-{table.profile.table}", daemon=True)
            table.thread.start()
        if not watch_dealers(room, done, out, timeout=timeout,
                             redraw=None if as_json else lambda: render(room, out),
                             stopped="demo: every dealer stopped before the hands were played"):
            return 1
        if not as_json:
            render(room, out)
        return 0
    except KeyboardInterrupt:
        return 0
    finally:
        room.close()
        if embedded is not None:
            embedded.stop()


def render(room: Room, out: TextIO) -> None:
    """The live terminal view: one block per table, as the hub sees it (the TD's view)."""
    assert room.hub is not None
    lines = ["\x1b[H\x1b[2Jtapis demo: hub view of every table (Ctrl-C to stop)", ""]
    for table in room.tables:
        view = room.hub.tables.get(table.profile.table)
        if view is None:
            lines.append(f"{table.profile.table}: waiting for the table")
            continue
        z = view.state(hole_cards=True)["zones"]
        seats = "  ".join(f"{k[5:]}:{''.join(v)}" for k, v in sorted(z.items(), key=lambda kv: kv[0])
                          if k.startswith("seat:"))
        lines.append(f"{view.table}  {'online ' if view.online else 'OFFLINE'}  reader {view.reader:<9} "
                     f"hand {view.hand:>3}  board {' '.join(z.get('board', [])) or '-':<15} "
                     f"burn {len(z.get('burn', []))}  muck {len(z.get('muck', []))}")
        lines.append(f"      {seats}")
        stats = table.agent.stats
        game = room.hub.games.get(table.profile.table)
        ended = view.hands_ended if game is None else game.hand_no - (1 if game.in_hand else 0)
        given_up = table.croupier.stuck if table.croupier is not None else 0
        lines.append(f"      frames {stats.frames}  rejected {stats.rejected}  events {stats.events}  "
                     f"hands ended {ended}  faults {stats.faults}  order doubts cleared {stats.reconsidered}"
                     + (f"  hands given up {given_up}" if given_up else ""))
    lines.append(f"\nhub: {room.hub.stats.received} messages in, {room.hub.stats.malformed} malformed")
    out.write("\n".join(lines) + "\n")
    out.flush()
