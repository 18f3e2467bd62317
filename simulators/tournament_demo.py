"""`tapis demo --tournament`: a whole simulated tournament played to a winner through the real hub code.

Simulated dealers and players produce table facts (`tablewire.wire.CardEvent`, `SeatActed`, dealer
presses) that go through `FloorTables` -> `TableGame` (rules engine) -> `FloorService` (clock,
eliminations, balancing, table breaks) -> `EventStore`, on a simulated clock that moves with every
event. The script is stateless: its next step depends only on the seed and the stored hub state, so
a hub killed at any step and reopened from its store continues exactly as an uninterrupted run.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TextIO

from hub.floor.commands import NewTournament
from hub.floor.service import FloorService, table_id
from hub.floor.store import JSON, EventStore
from hub.floor.tables import FloorTables
from hub.room.game import TableGame
from hub.rules import Hand, HandOver
from hub.tournament.events import (
    Event,
    FinalTableDrawn,
    HeadsUpStarted,
    LevelStarted,
    PlacesCorrected,
    PlayerEliminated,
    TableBroken,
)
from hub.tournament.structure import AnteKind, Break, Item, Level, Structure, to_toml
from tablewire import wire

RANKS, SUITS = "23456789TJQKA", "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]
BOOT = "sim"
STEP_SECONDS = 2.0  # simulated seconds between two events of one table (a hand lasts about a minute)


def demo_structure() -> Structure:
    """A fast structure: 6-minute levels, antes from level 4, a 5-minute break every 6 levels."""
    blinds = [25, 50, 75, 100, 150, 200, 300, 400, 500, 600, 800, 1000, 1500, 2000, 3000, 4000,
              5000, 6000, 8000, 10000, 15000, 20000, 30000, 40000, 50000, 60000, 80000, 100000]
    items: list[Item] = []
    for n, sb in enumerate(blinds, start=1):
        ante = sb // 5 if n >= 4 else 0
        items.append(Level(n, sb, 2 * sb, 6, ante, AnteKind.PER_PLAYER if ante else AnteKind.NONE))
        if n % 6 == 0:
            items.append(Break("pause", 5))
    return Structure("démo rapide", 10_000, tuple(items))


Choice = Literal["fold", "check", "call", "bet", "raise", "allin"]


@dataclass(frozen=True, slots=True)
class _Base:
    """What every event of one step carries: table, sequence number, time."""

    table: str
    seq: int
    at: float

    def acted(self, seat: int, action: Choice, to: int | None) -> wire.SeatActed:
        return wire.SeatActed(table=self.table, boot=BOOT, seq=self.seq, at=self.at, seat=seat, action=action,
                              to=to)


@dataclass(frozen=True, slots=True)
class Step:
    table: str
    event: wire.AnyTableEvent


class SimRoom:
    """The simulated room around the hub: which table acts next and what its dealer or player does."""

    def __init__(self, floor: FloorService, tables: FloorTables, store: EventStore, *, seed: int) -> None:
        self.floor, self.tables, self.store, self.seed = floor, tables, store, seed
        self.steps = store.count_table_events()  # the script's position: resumes where the store is
        last = store.last_table_row()
        self.now = next(store.table_rows(after=last - 1)).at if last else 1.0
        self._seq: dict[str, int] = {}

    def finished(self) -> bool:
        return len(self.floor.require().state.alive()) <= 1

    def step(self) -> list[Event]:
        """One table event into the hub; returns the tournament events it caused."""
        t = self.floor.require()
        before = len(t.events)
        step = self.prepare()
        self.tables.receive(step.table, step.event, wire.encode(step.event), self.now)
        self.steps += 1
        return t.events[before:]

    def prepare(self) -> Step:
        """The next table event (the clock moved on, the hub's tick done), not yet given to the hub."""
        t = self.floor.require()
        active = [table_id(n) for n in sorted(t.state.tables)]
        table = active[self.steps % len(active)]
        self.now = now = self.now + STEP_SECONDS / len(active)  # the tables play side by side
        self.floor.pump(now)  # the clock's level changes, as the hub's tick would
        return self.next_step(table, now)

    def _seq_for(self, table: str) -> int:
        if table not in self._seq:
            self._seq[table] = self.store.count_table_events(table)
        self._seq[table] += 1
        return self._seq[table]

    def next_step(self, table: str, now: float) -> Step:
        """What `table`'s dealer or a player does next at `now`, read from this room's hub state."""
        seq = self._seq_for(table)
        base = _Base(table, seq, now)
        game = self.tables.game(table)
        if game is None or not game.in_hand or game.hand is None:
            return Step(table, wire.DealerPressed(table=table, boot=BOOT, seq=seq, at=now, button="new_hand",
                                                     seat=None))
        hand = game.hand
        deck = self._deck(table, game.hand_no)
        seats = hand.seats
        dealt = sum(len(game.hole.get(s, [])) for s in seats)
        if dealt < 2 * len(seats):
            card = deck[dealt]
            return Step(table, self._card(base, f"seat:{seats[dealt % len(seats)]}", card, dealt))
        rng = random.Random(f"{self.seed}/{table}/{seq}")
        if hand.round_open and hand.to_act is not None:
            return Step(table, self._decide(base, hand, hand.to_act, rng))
        need = {0: 3, 3: 4, 4: 5}.get(len(hand.board), 5)
        if len(game.board) < need or hand.cards_face_up:
            index = 2 * len(seats) + len(game.board)
            return Step(table, self._card(base, "board", deck[index], index))
        # The street's cards are out: the engine takes them with the first action, so ask who acts.
        ahead = copy.deepcopy(hand)
        ahead.deal_board(*game.board[len(hand.board):need])
        if ahead.to_act is None:
            raise RuntimeError(f"{table}: nobody to act after the board ({hand.street})")
        return Step(table, self._decide(base, ahead, ahead.to_act, rng))

    def _deck(self, table: str, hand_no: int) -> list[str]:
        deck = list(DECK)
        random.Random(f"{self.seed}/{table}/deck/{hand_no}").shuffle(deck)
        return deck

    @staticmethod
    def _card(base: _Base, zone: str, card: str, index: int) -> wire.CardEvent:
        uid = f"{DECK.index(card) + 1:02X}A0"
        return wire.CardEvent(table=base.table, boot=BOOT, seq=base.seq, at=base.at, type="card_arrived",
                              zone=zone, uid=uid, card=card, deck="A", order=index + 1)

    @staticmethod
    def _decide(base: _Base, hand: Hand, seat: int, rng: random.Random) -> wire.SeatActed:
        """A loose-aggressive simulated player: short stacks shove, the rest mix calls and raises."""
        try:
            legal = hand.legal(seat)
        except HandOver:
            return base.acted(seat, "fold", None)
        stack = hand.stack[seat] + hand.bet[seat]
        stack_bb = stack / max(hand.bb, 1)
        price = legal.call_amount / max(stack, 1)  # share of his stack a call costs
        r = rng.random()
        action: Choice = "fold"
        to: int | None = None
        if stack_bb < 10 and r < 0.4:
            action = "allin"  # short stack: push or fold
        elif legal.can_check:
            if r < 0.8 or not legal.can_raise:
                action = "check"
            else:
                action, to = ("bet" if hand.max_bet == 0 else "raise"), legal.min_raise_to
        elif price > 0.3:
            action = "call" if r < 0.3 else "fold"  # a big bet: most fold
        elif r < 0.45:
            action = "fold"
        elif r < 0.88 or not legal.can_raise:
            action = "call"
        elif r < 0.98:
            action, to = "raise", legal.min_raise_to
        else:
            action = "allin"
        if to is not None and to >= legal.max_raise_to:
            action, to = "allin", None
        return base.acted(seat, action, to)


def new_demo(store: EventStore, *, players: int, tables: int, ruleset: str, seed: int,
             structure: Structure | None = None, now: float = 0.0, rulebook: tuple[str, ...] = ()) -> FloorService:
    """Create, register, draw and start the demo tournament (`demo_structure()` by default) in an empty
    store; `now`: the clock's time at the start (the wall clock's for a room the hub ticks); `rulebook`:
    a club's file as the tournament stores it (`hub.rulebooks.stored`), `ruleset` its id."""
    floor = FloorService(store)
    floor.create(NewTournament.model_validate({
        "name": f"Démo {players} joueurs", "ruleset": ruleset, "rulebook": list(rulebook),
        "structure_toml": to_toml(structure or demo_structure()),
        "tables": tables, "buy_in_cents": 5_000, "payouts": "pouques", "seed": seed}), now)
    names: list[JSON] = [f"joueur{i:02d}" for i in range(1, players + 1)]
    commands: list[dict[str, JSON]] = [{"cmd": "register", "players": names}, {"cmd": "seat"}, {"cmd": "start"}]
    for command in commands:
        result = floor.execute(command, now + 0.5)
        if not result.ok:
            raise RuntimeError(f"demo setup: {result.error}")
    return floor


def open_room(store: EventStore, *, seed: int) -> SimRoom:
    floor = FloorService.open(store)
    tables = FloorTables.open(floor, store)
    return SimRoom(floor, tables, store, seed=seed)


def describe(event: Event, floor: FloorService) -> str | None:
    """One line for the TD's log, or None for routine records."""
    t = floor.require()
    if isinstance(event, PlayerEliminated):
        by = f" par {', '.join(event.by)}" if event.by else ""
        return f"{event.player} éliminé(e) en {event.place}e place (table {event.table}){by}"
    if isinstance(event, PlacesCorrected):  # a table heard late: its bust happened before these
        return "places corrigées: " + ", ".join(f"{player} {place}e" for player, place in event.places)
    if isinstance(event, TableBroken):
        return f"table t{event.table} cassée ({event.article}); {len(t.state.alive())} joueurs restent"
    if isinstance(event, FinalTableDrawn):
        return f"table finale tirée: {len(event.seats)} joueurs ({event.article})"
    if isinstance(event, HeadsUpStarted):
        return "tête-à-tête"
    if isinstance(event, LevelStarted):
        item = t.state.structure.items[event.index]
        if isinstance(item, Break):
            return f"pause ({item.minutes} min)"
        return f"niveau {item.number}: {item.small_blind}/{item.big_blind} ante {item.ante}"
    return None


def run_tournament_demo(players: int = 60, tables: int = 6, ruleset: str = "cdc-2013", seed: int = 1,
                        out: TextIO = sys.stdout, as_json: bool = False, db: str | None = None,
                        max_steps: int = 400_000, rulebook: tuple[str, ...] = ()) -> int:
    """Play a whole tournament; print the log and the final ranking and payouts (or JSON lines)."""
    with tempfile.TemporaryDirectory(prefix="tapis-demo-") as tmp:
        path = db or str(Path(tmp) / "tournament.db")
        with EventStore(path, durable=False) as store:
            if store.count_tournament_events() == 0:
                new_demo(store, players=players, tables=tables, ruleset=ruleset, seed=seed, rulebook=rulebook)
            room = open_room(store, seed=seed)
            while not room.finished() and room.steps < max_steps:
                for event in room.step():
                    if as_json:
                        out.write(json.dumps({"type": "tournament", "event": event.to_dict()}) + "\n")
                    else:
                        line = describe(event, room.floor)
                        if line:
                            out.write(f"[{room.now / 60:6.1f} min] {line}\n")
            return _report(room, out, as_json)


def _report(room: SimRoom, out: TextIO, as_json: bool) -> int:
    results = room.floor.results()
    hands = sum(g.hand_no for g in (room.tables.game(t) for t in room.tables.tables) if isinstance(g, TableGame))
    results["hands"] = hands
    results["table_events"] = room.steps
    if as_json:
        out.write(json.dumps({"type": "results", **results}) + "\n")
    else:
        out.write(f"\nClassement final ({results['entries']} entrées, {hands} donnes, "
                  f"prize pool {_euros(results['prize_pool_cents'])}):\n")
        ranking = results["ranking"]
        assert isinstance(ranking, list)
        for row in ranking:
            assert isinstance(row, dict)
            prize = row["prize_cents"]
            shown = _euros(prize) if prize else ""
            out.write(f"  {row['place']:>3}  {row['player']:<10} {shown}\n")
    out.flush()
    return 0 if room.finished() else 1


def _euros(cents: object) -> str:
    value = cents if isinstance(cents, int) else 0
    return f"{value // 100} {value % 100:02d} €".replace(" ", " ", 1).replace(" ", ",", 1)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tapis demo --tournament", description=__doc__)
    p.add_argument("--players", type=int, default=60)
    p.add_argument("--tables", type=int, default=6)
    p.add_argument("--ruleset", default="cdc-2013")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--db", default=None, help="keep the event store in this file (resumes it if it exists)")
    p.add_argument("--steps", type=int, default=None, help="stop after this many table events in the store")
    p.add_argument("--durable", action="store_true", help="synchronous=FULL (the kill test)")
    args = p.parse_args(argv)
    if args.steps is None:
        return run_tournament_demo(args.players, args.tables, args.ruleset, args.seed, sys.stdout, args.json,
                                   db=args.db)
    return run_steps(args.db, players=args.players, tables=args.tables, ruleset=args.ruleset,
                     seed=args.seed, steps=args.steps, durable=args.durable)


def run_steps(db: str, *, players: int, tables: int, ruleset: str, seed: int, steps: int,
              durable: bool = True, out: TextIO = sys.stdout) -> int:
    """The kill test's script: play until the store holds `steps` table events, printing progress."""
    with EventStore(db, durable=durable) as store:
        if store.count_tournament_events() == 0:
            new_demo(store, players=players, tables=tables, ruleset=ruleset, seed=seed)
        room = open_room(store, seed=seed)
        while room.steps < steps and not room.finished():
            room.step()
            out.write(f"step {room.steps}\n")
            out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
