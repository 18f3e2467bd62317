"""`tapis demo`: the room as a club runs it, in one process: a short tournament on the hub's real
tournament mode, the TD dashboard and the clock, simulated tables dealing with occasional faults.

The hub is the graph `tapis hub --db` builds (`hub.cli.build_hub`: floor, tables, service,
dashboard); each table is a reader on a pty, a real `TableAgent` and a croupier whose `FaultPlan`
makes a dealing fault in about one hand in ten (`FAULT_RATE`), which the table sees and the hub rules.
Prints the room (clock, each table's stacks, pot and player to act, each fault with its ruling and
article) or the hub's events as JSON lines; `hands` makes it finite (tests, CI).
"""

from __future__ import annotations

import json
import random
import secrets
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from hub.cli import HubParts, build_hub
from hub.dashboard import hash_password
from hub.edge.broker import EmbeddedBroker
from hub.floor.service import table_id, table_number
from hub.floor.store import EventStore
from hub.room.tables import HubEvent
from hub.rulings.model import Decision
from hub.rulings.texts import DECISIONS, FAULTS
from hub.tournament.structure import AnteKind, Level, Structure
from hw.decks import DeckRegistry
from simulators.croupier import Croupier
from simulators.demo import Room, SimTable, start_tables, watch_dealers
from simulators.fault_plan import FaultPlan
from simulators.room_defaults import DASHBOARD_PORT, FAULT_RATE
from simulators.tournament_demo import describe, new_demo
from tablewire.broker_url import parse_url
from tablewire.faults import FaultKind

ALLIN_RATE = 0.02  # the chance a player pushes when he acts: short stacks bust and tables break
SEATS = 10  # antennas per simulated table: the floor seats up to ten


def room_structure() -> Structure:
    """One-minute levels from 25/50 on a 3,000 stack, antes from level 4: levels change and players
    bust within minutes."""
    blinds = [25, 50, 100, 150, 200, 300, 400, 600, 800, 1000, 1500, 2000, 3000, 4000, 6000, 8000, 10000]
    items = tuple(Level(n, sb, 2 * sb, 1, sb // 5 if n >= 4 else 0,
                        AnteKind.PER_PLAYER if n >= 4 else AnteKind.NONE)
                  for n, sb in enumerate(blinds, start=1))
    return Structure("démo de salle", 3_000, items)


@dataclass
class RoomLog:
    """What the terminal shows below the tables: faults with their ruling, eliminations, levels."""

    lines: deque[str] = field(default_factory=lambda: deque(maxlen=10))
    faults: dict[str, int] = field(default_factory=dict)
    hands: dict[str, int] = field(default_factory=dict)
    floor_seen: int = 0  # the tournament's events already in `lines`
    login: str = ""  # the dashboard's address and the TD's login: kept on screen, each redraw wipes it


def fault_line(event: HubEvent) -> str:
    """`[t2 main 8] Flop sans carte brûlée — cdc-2013 8.3 : la première carte du flop devient la brûlée...`"""
    ruling = event.get("ruling") or {}
    kind, decision = str(event.get("kind")), str(ruling.get("decision", event.get("decision", "")))
    try:
        what = FAULTS["fr"][FaultKind(kind)]
    except ValueError:
        what = kind
    try:
        said = DECISIONS["fr"][Decision(decision)]
    except ValueError:
        said = decision
    seat = f", siège {event['seat']}" if event.get("seat") is not None else ""
    return (f"[{event.get('table')} main {event.get('hand')}{seat}] {what} ({kind}) — "
            f"{ruling.get('article', event.get('article', '?'))} : {decision} — {said}")


def run_room_demo(*, tables: int = 3, players: int | None = None, hands: int | None = None, as_json: bool = False,
                  broker: str | None = None, pace: float = 0.12, seed: int = 1, ruleset: str = "cdc-2013",
                  dashboard: int = DASHBOARD_PORT, fault_rate: float = FAULT_RATE, out: TextIO = sys.stdout,
                  timeout: float | None = None, db: str | None = None, rulebook: tuple[str, ...] = ()) -> int:
    """The room until the tournament has a winner (or `hands` hands ended at each table still in
    play); 0 when it got there, 1 when it timed out or every dealer stopped."""
    players = players or 6 * tables
    if not 2 * tables <= players <= SEATS * tables:
        raise ValueError(f"--players {players} at {tables} tables: from {2 * tables} (two a table) "
                         f"to {SEATS * tables} (ten a table)")
    ids = [table_id(n) for n in range(1, tables + 1)]
    host, port = parse_url(broker) if broker is not None else ("127.0.0.1", 0)
    with tempfile.TemporaryDirectory(prefix="tapis-demo-") as tmp:
        path = db or str(Path(tmp) / "tournament.db")
        with EventStore(path, durable=False) as store:
            if store.count_tournament_events() == 0:
                new_demo(store, players=players, tables=tables, ruleset=ruleset, seed=seed,
                         structure=room_structure(), now=time.time(), rulebook=rulebook)
        password = secrets.token_urlsafe(8)
        parts: HubParts | None = None
        embedded: EmbeddedBroker | None = None
        room = Room(hub=None, tables=[], registry=DeckRegistry.generate(ids))
        try:
            if broker is None:
                embedded = EmbeddedBroker().start()
                host, port = embedded.host, embedded.port
            # a dashboard port in use is said by the dashboard itself, with the address, in one line
            parts = build_hub(host, port, path, dashboard=dashboard, users={"td": hash_password(password)},
                              durable=False)
            room.hub = parts.service
            log = RoomLog()
            done = threading.Event()
            lock = threading.Lock()
            parts.service.add_listener(lambda e: _heard(e, log, out, lock, as_json, hands, parts, done))
            parts.start()
            if parts.dashboard is not None:
                log.login = f"demo: TD dashboard on {parts.dashboard.url} (TD login: td / {password})"
                print(log.login, file=sys.stderr)
            start_tables(room, host=host, port=port, ids=ids, seed=seed, seat_count=SEATS)
            for i, table in enumerate(room.tables):
                plan = FaultPlan(rate=fault_rate, rng=random.Random(f"{seed}:{table.profile.table}:faults"))
                table.croupier = Croupier(agent=table.agent, felt=table.felt, rng=random.Random(seed * 1000 + i),
                                          pace=pace, stop=room.stop, faults=plan, allin_rate=ALLIN_RATE)
                table.thread = threading.Thread(target=_deal, args=(room, table, parts), daemon=True,
                                                name=f"dealer-{table.profile.table}")
                table.thread.start()
            return _watch(room, parts, log, done, out, as_json, timeout, lock)
        except KeyboardInterrupt:
            return 0
        finally:
            room.close()
            if parts is not None:
                parts.stop()
            if embedded is not None:
                embedded.stop()


def _deal(room: Room, table: SimTable, parts: HubParts) -> None:
    """A croupier deals until the room stops or the floor breaks his table; a table the floor holds
    (hand for hand, waiting for players) asks for a new hand again a moment later, as a dealer waits."""
    croupier = table.croupier
    assert croupier is not None and parts.floor_tables is not None
    floor = parts.floor_tables.floor
    number = table_number(table.profile.table)
    while not room.stop.is_set():
        with parts.service.floor_lock:
            if number not in floor.require().state.tables:
                return  # broken: its players play elsewhere
        if not croupier.play_hand() and room.stop.wait(1.0):
            return


def _heard(event: HubEvent, log: RoomLog, out: TextIO, lock: threading.Lock, as_json: bool, hands: int | None,
           parts: HubParts, done: threading.Event) -> None:
    """The hub's listener (its consumer thread): the log, the JSON lines, the finite run's end."""
    kind = event.get("type")
    with lock:
        if as_json:
            out.write(json.dumps(event) + "\n")
            out.flush()
        if kind == "fault":
            log.faults[str(event.get("kind"))] = log.faults.get(str(event.get("kind")), 0) + 1
            log.lines.append(fault_line(event))
        elif kind == "ruling" and event.get("decision"):
            log.lines.append(fault_line(event))
        elif kind == "hand_end":
            table = str(event.get("table"))
            log.hands[table] = log.hands.get(table, 0) + 1
        elif kind == "floor_moves":
            for move in event.get("moves") or []:
                log.lines.append(f"[{event.get('table')}] déplacement / move : {_move_text(move)}")
    if kind == "hand_end" and hands is not None and parts.floor_tables is not None:
        floor = parts.floor_tables.floor
        alive_tables = {table_id(n) for n in floor.require().state.tables}
        if all(log.hands.get(t, 0) >= hands for t in alive_tables) or len(floor.require().state.alive()) <= 1:
            done.set()


def _move_text(move: Any) -> str:
    """`joueur05 : t2 siège 7 → t1 siège 1 (final, cdc-2013 3.1, 3.6)`"""
    if not isinstance(move, dict):
        return str(move)
    return (f"{move.get('player')} : {move.get('from_table')} siège {move.get('from_seat')} → "
            f"{move.get('to_table')} siège {move.get('to_seat')} ({move.get('reason')}, {move.get('article')})")


def _watch(room: Room, parts: HubParts, log: RoomLog, done: threading.Event, out: TextIO, as_json: bool,
           timeout: float | None, lock: threading.Lock) -> int:
    assert parts.floor_tables is not None
    floor = parts.floor_tables.floor

    def finished() -> bool:
        with parts.service.floor_lock:
            return len(floor.require().state.alive()) <= 1

    if not watch_dealers(room, done, out, timeout=timeout, finished=finished,
                         redraw=None if as_json else lambda: render(room, parts, log, out, lock)):
        return 1
    with parts.service.floor_lock:
        results = floor.results()
    if as_json:
        out.write(json.dumps({"type": "results", **results, "faults": log.faults}) + "\n")
    else:
        render(room, parts, log, out, lock)
        ranking = results.get("ranking")
        if isinstance(ranking, list) and len(floor.require().state.alive()) <= 1:
            out.write("\nClassement final / final ranking:\n")
            for row in ranking[:10]:
                if isinstance(row, dict):
                    out.write(f"  {row.get('place'):>3}  {row.get('player')}\n")
    out.flush()
    return 0


def render(room: Room, parts: HubParts, log: RoomLog, out: TextIO, lock: threading.Lock) -> None:
    """The room on one screen: the clock, each table (players, stacks, bets, pot, who is to act), the
    last faults with their ruling and article."""
    assert parts.floor_tables is not None
    floor_tables = parts.floor_tables
    lines = ["\x1b[H\x1b[2Jtapis demo : la salle / the room (Ctrl-C pour arrêter / to stop)"]
    if log.login:
        lines.append(log.login)
    with parts.service.floor_lock:
        t = floor_tables.floor.require()
        for event in t.events[log.floor_seen:]:  # eliminations, broken tables, levels
            line = describe(event, floor_tables.floor)
            if line:
                with lock:
                    log.lines.append(line)
        log.floor_seen = len(t.events)
        snap = floor_tables.floor.snapshot(time.time())
        left = snap.get("time_left")
        clock = f"{int(left) // 60}:{int(left) % 60:02d}" if isinstance(left, int | float) else "?"
        lines.append(f"{snap.get('name')} — niveau {snap.get('level')} : {snap.get('small_blind')}/"
                     f"{snap.get('big_blind')} ante {snap.get('ante')} — reste {clock}"
                     f"{'' if snap.get('running') else ' (arrêtée)'} — {snap.get('players_left')} joueurs "
                     f"restants sur {snap.get('entries')}")
        for table in room.tables:
            name = table.profile.table
            seated = t.state.tables.get(table_number(name))
            if seated is None:
                lines.append(f"{name}  table cassée / broken")
                continue
            lines.extend(_table_lines(name, floor_tables.game(name), seated.seats))
    with lock:
        lines.append("Fautes, décisions et déplacements / faults, rulings and moves:")
        lines.extend(f"  {line}" for line in log.lines)
        counts = ", ".join(f"{k} {v}" for k, v in sorted(log.faults.items())) or "aucune / none yet"
        lines.append(f"fautes / faults: {counts}; donnes / hands: {sum(log.hands.values())}")
    out.write("\n".join(lines) + "\n")
    out.flush()


def _table_lines(name: str, game: Any, seats: dict[int, str]) -> list[str]:
    hand = game.hand if game is not None else None
    if hand is None or hand.result is not None:
        stacks = game.stacks if game is not None else {}
        who = "  ".join(f"{s}:{seats[s]} {stacks.get(s, '')}" for s in sorted(seats))
        return [f"{name}  entre deux donnes / between hands", f"      {who}"]
    board = " ".join(game.board) or "-"
    to_act = hand.to_act if hand.round_open else None
    speaker = f"{to_act} {seats.get(to_act, '?')}" if to_act is not None else "-"
    head = (f"{name}  main {game.hand_no}  {hand.street}  board {board:<15} pot {hand.pot:>6}  "
            f"à parler / to act : {speaker}")
    cells = []
    for seat in sorted(hand.seats):
        mark = "*" if seat == to_act else " " if seat in hand.live else "x"
        bet = f" ({hand.bet[seat]})" if hand.bet.get(seat) else ""
        cells.append(f"{mark}{seat}:{seats.get(seat, '?')} {hand.stack[seat]}{bet}")
    return [head, "      " + "  ".join(cells)]
