"""bench_load's room: lightweight tables, each a table agent's wire side without its reader, driven
by a croupier script, all of a worker process's tables on one scheduler thread (plus paho's).

A lightweight table runs the real `Felt` (dealer steps -> antennas), the real `HandWatch` (the dealing
monitor kept in step with the hub's commands, so a boxed card is caught at the table as an agent
catches it), and publishes numbered `tablewire.wire` events (boot, seq) kept in an `Outbox` until the
hub acknowledges them, on its own `MqttLink` (own client id, QoS 1, will and birth).
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import queue
import random
import time
import uuid
from collections import deque
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

from load_figures import GcPauses, Pace, ready_then_start  # beside this script

from hw.decks import FULL_DECK, DeckRegistry
from hw.profile import TableProfile
from simulators.dealer import Board, Burn, Clear, Felt, Hole, Muck, Tray, deal_order
from table_agent.events import TRAY, CardArrived, CardLeft, ZoneEvent
from table_agent.hand_watch import HandWatch, wire_event
from table_agent.outbox import Outbox
from table_agent.read_order import Item
from tablewire import wire
from tablewire.mqtt import Message, MqttLink

STREET_CARDS = {"preflop": 3, "flop": 1, "turn": 1}  # board cards once that street's betting is over
WAIT_HUB = 5.0  # seconds a croupier waits for the hub before starting the hand again (as Croupier does)
Want = float | Callable[[], bool]  # what the croupier's script waits for: seconds, or a condition


class LightTable:
    """One table as the hub hears it, driven by the worker's scheduler thread (no thread of its own)."""

    def __init__(self, table: str, *, registry: DeckRegistry, host: str, port: int, rng: random.Random,
                 pace: Pace, boxed: float, inbox: queue.Queue[tuple[LightTable, Message]],
                 allin: float = 0.0) -> None:
        self.table, self.registry, self.rng, self.pace, self.boxed = table, registry, rng, pace, boxed
        self.allin = allin  # chance that a player to act moves all in (a tournament's eliminations)
        self.unacked: deque[tuple[int, float]] = deque()  # (seq, at) of each event not yet acknowledged
        self.acks: list[tuple[float, float]] = []  # (at, event -> its acknowledgement s) of each event
        self.profile = TableProfile.default(table, seats=9)
        self.antennas = self.profile.antenna_map()
        self.felt = Felt(profile=self.profile, registry=registry, board=self)
        self.watch = HandWatch(table=table)
        self.outbox = Outbox()
        self.boot = uuid.uuid4().hex[:12]
        self.seq = self.order = self.hands = self.emitted = 0
        self.cards: list[tuple[int, float]] = []  # (order, at) of each face-known card arrival
        self.boxed_at: list[tuple[int, str, float]] = []  # (hand, card, at) of each boxed card
        self.emitted_by_step: dict[int, int] = {}
        self.link = MqttLink(client_id=f"tapis-table-{table}", host=host, port=port,
                             will=(wire.table_status(table), wire.OFFLINE))

        def online() -> None:
            self.link.publish(wire.table_status(table), wire.ONLINE, retain=True)

        self.link.on_connect(online)
        self.link.subscribe(wire.table_commands(table), lambda m: inbox.put((self, m)))
        self.link.subscribe(wire.hub_ack(table), lambda m: inbox.put((self, m)))
        self.script = self._hands()
        self.waiting: Callable[[], bool] | None = None
        self.token = 0  # the timer that may resume the script; older timers are stale

    # What the agent publishes ------------------------------------------------------------------

    def _head(self, at: float | None = None) -> dict[str, Any]:
        self.seq += 1
        return {"table": self.table, "boot": self.boot, "seq": self.seq,
                "at": time.monotonic() if at is None else at}

    def _emit(self, event: wire.AnyTableEvent) -> None:
        payload = wire.encode(event)
        self.outbox.append(event.boot, event.seq, payload)
        self.unacked.append((event.seq, event.at))
        self.link.publish(wire.table_events(self.table), payload)
        step = self.pace.index(event.at)
        self.emitted_by_step[step] = self.emitted_by_step.get(step, 0) + 1

    def _publish(self, items: list[Item]) -> None:  # faults and card events, as the agent sends them
        for item in items:
            self._emit(wire_event(item, self._head(at=item.at)))

    def place(self, antenna: int, uid: bytes) -> None:  # the Felt's antennas: a tag settles
        self.order += 1
        event = CardArrived(self.antennas[antenna], self.registry.lookup(uid), time.monotonic(), self.order)
        self._zone_event(event)
        if event.tag.card is not None:
            self.cards.append((event.order, event.at))
            if event.zone == TRAY:
                self.boxed_at.append((self.watch.hand or 0, event.tag.card, event.at))

    def remove(self, antenna: int, uid: bytes) -> None:
        self.order += 1
        self._zone_event(CardLeft(self.antennas[antenna], self.registry.lookup(uid), time.monotonic(), self.order))

    def _zone_event(self, event: ZoneEvent) -> None:
        self._publish(self.watch.zone_event(event))

    def _act(self, seat: int, action: str, to: int | None = None) -> None:
        self._emit(wire.SeatActed(**self._head(), seat=seat, action=action, to=to))
        self._publish(self.watch.action(seat, action, time.monotonic()))

    def received(self, message: Message) -> None:
        if message.topic == wire.hub_ack(self.table):
            ack = wire.decode_ack(message.topic, message.payload)
            self.outbox.acknowledged(ack.boot, ack.seq)
            now, unacked = time.monotonic(), self.unacked
            while unacked and unacked[0][0] <= ack.seq and ack.boot == self.boot:
                _seq, at = unacked.popleft()
                self.acks.append((at, now - at))
        else:
            self._publish(self.watch.command(wire.decode_command(message.topic, message.payload)))

    # The croupier ------------------------------------------------------------------------------

    def _pause(self) -> float:
        return self.pace.now() * self.rng.uniform(0.6, 1.4)

    def _hands(self) -> Generator[Want, bool | None, None]:
        """Complete hands with the hub, as `simulators.croupier.Croupier` plays them, as a script that
        yields what it waits for (a send of False: the hub did not answer in time)."""
        watch = self.watch
        while True:
            before = watch.hand
            self._publish(watch.new_hand_pressed())
            self._emit(wire.DealerPressed(**self._head(), button="new_hand"))
            if not (yield lambda: watch.context is not None and watch.hand != before):  # noqa: B023 - run now
                continue
            ctx = watch.context
            assert ctx is not None
            deck = list(FULL_DECK)
            self.rng.shuffle(deck)
            order = deal_order(ctx.seats, ctx.button)  # from ctx.first_to_deal, clockwise
            for seat in order + order:
                if self.rng.random() < self.boxed:
                    self.felt.perform(Tray(deck.pop()))
                yield self._pause()
                self.felt.perform(Hole(seat, deck.pop()))
            board = 0
            while watch.result is None and watch.hand == ctx.hand:
                betting = watch.betting
                if betting is not None and betting.open and betting.to_act is not None:
                    yield self._pause()
                    self._player(betting.to_act, betting.to_call)
                elif betting is not None and board < 5 and betting.street in betting.closed:
                    self.felt.perform(Burn(deck.pop()))
                    for _ in range(STREET_CARDS.get(betting.street, 1)):
                        yield self._pause()
                        self.felt.perform(Board(deck.pop()))
                    board += STREET_CARDS.get(betting.street, 1)
                if not (yield lambda b=betting: watch.betting is not b or watch.result is not None):  # type: ignore[misc]
                    break
            yield self.pace.now() * 4  # the showdown is looked at
            self.felt.perform(Clear())
            self.hands += 1
            yield max(0.3, 3 * self.pace.now())

    def _player(self, seat: int, to_call: int) -> None:
        r = self.rng.random()
        if self.allin and self.rng.random() < self.allin:
            self._act(seat, "allin")
            return
        if to_call == 0:
            if r < 0.85:
                self._act(seat, "check")
            else:
                self._act(seat, "bet", 200)
        elif r < 0.15:
            self.felt.perform(Muck(seat))  # cards thrown in: a fold by the muck
        elif r < 0.3:
            self._act(seat, "fold")
        else:
            self._act(seat, "call")


class Tables:
    """A worker process's tables on one scheduler thread: timers in a heap, commands from paho's threads."""

    def __init__(self) -> None:
        self.inbox: queue.Queue[tuple[LightTable, Message]] = queue.Queue()
        self._timers: list[tuple[float, int, int, LightTable]] = []
        self._n = 0

    def sleep(self, table: LightTable, seconds: float) -> None:
        table.token += 1
        self._n += 1
        heapq.heappush(self._timers, (time.monotonic() + seconds, self._n, table.token, table))

    def resume(self, table: LightTable, value: bool | None) -> None:
        """Run the table's script until it waits for time or for the hub."""
        while True:
            want = table.script.send(value)
            if not callable(want):
                table.waiting = None
                self.sleep(table, want)
                return
            if want():
                value = True
                continue
            table.waiting = want
            self.sleep(table, WAIT_HUB)
            return

    def run(self, until: float) -> None:
        while (now := time.monotonic()) < until:
            wait = min(until, self._timers[0][0] if self._timers else until) - now
            try:
                table, message = self.inbox.get(timeout=max(0.0, wait))
                table.received(message)
                if table.waiting is not None and table.waiting():
                    self.resume(table, True)
            except queue.Empty:
                pass
            now = time.monotonic()
            while self._timers and self._timers[0][0] <= now:
                _due, _n, token, table = heapq.heappop(self._timers)
                if token == table.token:
                    self.resume(table, False if table.waiting is not None else None)



def worker(args: argparse.Namespace) -> None:
    os.nice(args.nice)  # in a room, tables are separate Pis: here they must not take the hub's CPU
    ids = args.ids.split(",")
    registry = DeckRegistry.generate(ids)
    tables = Tables()
    unset = Pace([0.4], 0.0, 1.0)  # until the parent says when the run starts
    room = [LightTable(t, registry=registry, host="127.0.0.1", port=args.port, rng=random.Random(f"{args.seed}:{t}"),
                       pace=unset, boxed=args.boxed, inbox=tables.inbox, allin=args.allin) for t in ids]
    for table in room:
        table.link.start()
    args.t0 = ready_then_start(args)
    pace = Pace([float(p) for p in args.paces.split(",")], args.t0, args.step)
    for table in room:
        table.pace = pace
    time.sleep(max(0.0, args.t0 - time.monotonic()))
    for table in room:  # the first timer starts the script; tables do not all start on the same beat
        tables.sleep(table, table.rng.uniform(0, 1.0))
    gc_pauses = GcPauses()
    tables.run(args.t0 + args.step * len(pace.paces))
    for table in room:
        table.link.stop()
    cpu = os.times()
    Path(args.out).write_text(json.dumps({
        "cards": [[t.table, o, at] for t in room for o, at in t.cards],
        "boxed": [[t.table, h, c, at] for t in room for h, c, at in t.boxed_at],
        "acks": [[at, lat] for t in room for at, lat in t.acks],
        "emitted": [[s, n] for t in room for s, n in t.emitted_by_step.items()],
        "pending": sum(len(t.outbox) for t in room), "hands": sum(t.hands for t in room),
        "cpu": cpu.user + cpu.system, "gc": gc_pauses.summary()}))

