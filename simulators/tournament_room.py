"""A simulated tournament room whose table facts travel through MQTT, for fault tests.

Each table's facts (decided by `tournament_demo.SimRoom`'s dealers and players) leave through the
agent's own store-and-forward path (`OutboxSender` over an `Outbox` file and an `MqttLink`), cross a
real Mosquitto and reach a `HubService` running the tournament (`FloorTables` on an `EventStore`), on
the hub's own link (`HubLink`) as `tapis hub` runs it.
Time is simulated: one `ManualClock` is the tables' clock and the hub's wall clock. Between faults
the room runs in step with the hub (each fact acknowledged before the next), so a run without faults
stores what the in-process demo stores. A table that cannot reach the hub (broker down, cable cut)
keeps dealing from its own view: a copy of the hub's tournament taken when it lost the hub, on which
only its own facts are played, as an agent running the same engine would.
"""

from __future__ import annotations

import queue
import socket
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hub.edge.link import HubLink
from hub.edge.service import HubService
from hub.floor.service import FloorService
from hub.floor.store import JSON, EventStore
from hub.floor.tables import FloorTables
from hub.room.game import Output, TableGame
from hub.tournament.structure import AnteKind, Level, Structure
from hw.ports import ManualClock
from simulators.tournament_demo import STEP_SECONDS, SimRoom, new_demo
from table_agent.outbox import Outbox, OutboxSender
from tablewire import wire
from tablewire.mqtt import Message, MqttLink


class RoomError(RuntimeError):
    """The room did not settle in time, or a table's own view and the hub's disagree."""


def club_structure() -> Structure:
    """A club's structure: 20-minute levels (a ten-minute cut fits inside one), antes from level 4."""
    blinds = [25, 50, 75, 100, 150, 200, 300, 400, 500, 600, 800, 1000, 1500, 2000, 3000, 4000]
    return Structure("club", 10_000, tuple(
        Level(n, sb, 2 * sb, 20, sb // 5 if n >= 4 else 0, AnteKind.PER_PLAYER if n >= 4 else AnteKind.NONE)
        for n, sb in enumerate(blinds, start=1)))


_RECONNECTED = object()


def sever(link: MqttLink) -> None:
    """A client's TCP connection cut both ways at once, as the kernel does for a killed process:
    what paho had not written yet is lost, no DISCONNECT (the broker fires the client's will), and
    its network thread ends instead of reconnecting (`loop_stop` right after the cut: its first
    retry waits 50 ms)."""
    client = link._client  # private: a kill is below the link's interface
    sock = client.socket()
    if isinstance(sock, socket.socket):  # also an ssl.SSLSocket
        sock.shutdown(socket.SHUT_RDWR)
    client.loop_stop()


def sever_hub(link: HubLink) -> None:
    """`sever` for the hub's own link (the hub runs on it as installed): its socket cut both ways, no
    DISCONNECT, no reconnect. From another thread its loop is stopped here; on the loop's own thread
    (a hub dying on a fact) the caller's exception ends it."""
    link._stopping = True  # private, as in `sever`: a kill is below the link's interface
    transport = link._transport
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is not None:
        sock.shutdown(socket.SHUT_RDWR)
    if threading.current_thread() is not link._thread and not link.loop.is_closed():
        link.loop.call_soon_threadsafe(link.loop.stop)
        link._thread.join(5)


class TableLine:
    """One table's agent side of MQTT: the outbox, its sender, and a link that can be cut."""

    def __init__(self, table: str, *, boot: str, outbox: Path, host: str, port: int, clock: ManualClock) -> None:
        self.table, self.boot = table, boot
        self._host, self._port, self._clock = host, port, clock
        self.outbox = Outbox(outbox, durable=False)
        self.sender = OutboxSender(table=table, boot=boot, outbox=self.outbox, publish=self._publish, clock=clock)
        self._inbox: queue.Queue[object] = queue.Queue()  # paho's thread only enqueues
        self.link: MqttLink | None = None

    def connect(self) -> None:
        link = MqttLink(client_id=f"tapis-table-{self.table}", host=self._host, port=self._port,
                        will=(wire.table_status(self.table), wire.OFFLINE))
        link.on_connect(self._birth)
        link.subscribe(wire.hub_ack(self.table), self._inbox.put)
        self.link = link
        link.start()

    def cut(self) -> None:
        """The table's cable is pulled (or its agent dies): the TCP connection ends without a
        DISCONNECT, so the broker publishes the table's will (`offline`) as it would once its
        keepalive ran out; nothing the table publishes from now on reaches the broker."""
        if self.link is not None:
            sever(self.link)
            self.link = None

    def close(self) -> None:
        self.cut()
        self.outbox.close()

    def pump(self) -> None:
        """On the room's thread: acknowledgements and reconnects, then resend if acks stopped."""
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                break
            if item is _RECONNECTED:
                self.sender.resend()
            elif isinstance(item, Message):
                self.sender.acknowledged(wire.decode_ack(item.topic, item.payload))
        self.sender.check(self._clock.now())

    def _publish(self, topic: str, payload: bytes) -> None:
        if self.link is not None:  # a cut cable loses it; the outbox keeps it
            self.link.publish(topic, payload)

    def _birth(self) -> None:
        assert self.link is not None
        self.link.publish(wire.table_status(self.table), wire.ONLINE, retain=True)
        self._inbox.put(_RECONNECTED)


@dataclass
class OwnView:
    """A table's own view while the hub cannot hear it: the tournament as it stood, plus its facts."""

    store: EventStore
    floor: FloorService
    tables: FloorTables


class TournamentRoom:
    """Hub, broker clients and tables of one simulated tournament; driven from one thread by `step`."""

    def __init__(self, workdir: Path, *, host: str, port: int, players: int, tables: int, seed: int,
                 structure: Structure | None = None, ruleset: str = "cdc-2013") -> None:
        self.workdir, self.seed = workdir, seed
        self._host, self._port = host, port
        self.clock = ManualClock(1.0)  # where the in-process demo starts
        with EventStore(workdir / "hub.db", durable=False) as store:
            new_demo(store, players=players, tables=tables, ruleset=ruleset, seed=seed, structure=structure)
        self.lines: dict[str, TableLine] = {}
        self.views: dict[str, OwnView] = {}  # tables dealing on their own view
        self.steps = 0
        self.hub_down = False  # killed and not started again
        self._copies = 0
        self._dead: list[tuple[HubService, EventStore]] = []  # killed hubs' leftovers, closed at the end
        self._start_hub()
        for table in self.active():
            self._open_line(table, boot=f"{table}-1")
        self._wait_for_births()

    # --- driving --------------------------------------------------------------------------------

    def active(self) -> list[str]:
        with self.hub.floor_lock:
            return [f"t{n}" for n in sorted(self.floor.require().state.tables)]

    def finished(self) -> bool:
        with self.hub.floor_lock:
            return len(self.floor.require().state.alive()) <= 1

    def step(self) -> str:
        """One fact from the next table, as `SimRoom` orders them; returns the table."""
        active = self.active()
        table = active[self.steps % len(active)]
        now = self.clock.advance(STEP_SECONDS / len(active))  # the tables play side by side
        if not self.hub_down and not self.hub.tick(wait=10):  # the floor sees the clock, as its tick would
            raise RoomError("the hub did not take the clock tick")
        for each in self.views.values():
            each.floor.pump(now)
        view = self.views.get(table)
        if view is None:
            with self.hub.floor_lock:
                event = SimRoom(self.floor, self.tables, self.store, seed=self.seed).next_step(table, now).event
        else:
            event = SimRoom(view.floor, view.tables, view.store, seed=self.seed).next_step(table, now).event
        line = self.lines[table]
        event = event.model_copy(update={"boot": line.boot, "seq": line.sender.next_seq()})
        line.sender.send(event)
        if view is not None:
            view.tables.receive(table, event, wire.encode(event), now)
        self.steps += 1
        if not self.hub_down:
            self.settle()
        return table

    def settle(self, timeout: float = 30.0) -> None:
        """Wait until the hub has stored and acknowledged every fact of the tables that reach it.

        The tables' clock stands still meanwhile, so their resend timer is run here on real time:
        after a broker restart a table may resend before the hub has subscribed again."""
        start = last_resend = time.monotonic()
        while True:
            for line in self.lines.values():
                line.pump()
            waiting = {t: len(self.lines[t].outbox) for t in self.lines if t not in self.views}
            if self.hub.idle() and not any(waiting.values()):
                return
            now = time.monotonic()
            if now - last_resend > 0.5:
                for table, count in waiting.items():
                    if count:
                        self.lines[table].sender.resend()
                last_resend = now
            if now - start > timeout:
                raise RoomError(f"the room did not settle in {timeout} s: outboxes {waiting}")
            time.sleep(0.0005)

    @staticmethod
    def _wait(condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise RoomError(what)
            time.sleep(0.005)

    # --- faults -----------------------------------------------------------------------------------

    def lose_hub(self, *tables: str) -> None:
        """These tables (all by default: the broker is gone) deal on from their own view."""
        for table in tables or tuple(self.lines):
            if table not in self.views:
                view = self.views[table] = self._own_view()
                # its agent can give no order to the other tables (the floor moves no one from or to them)
                for other in self.lines:
                    if other != table:
                        view.tables.lost(other)

    def cut(self, table: str) -> None:
        """One table's cable pulled: its facts stay in its outbox; it keeps dealing."""
        self.lose_hub(table)
        self.lines[table].cut()
        if not self.hub_down:  # the broker fires its will: the hub knows it lost the table before the next fact
            self._wait(lambda: not self.hub.tables[table].online, f"the hub never heard {table}'s will")

    def rejoin(self, table: str) -> None:
        """The cable back: the outbox's backlog reaches the hub; see `found_hub`."""
        self.lines[table].connect()
        self.found_hub(table)

    def power_cut(self, table: str) -> None:
        """The table's agent dies (in-process, as kill -9 would leave it: its connection severed without
        a DISCONNECT, its memory gone, its outbox file kept); it restarts with a new boot id and sends
        the dead run's events first."""
        old = self.lines.pop(table)
        old.close()
        boots = int(old.boot.rsplit("-", 1)[1])
        self._open_line(table, boot=f"{table}-{boots + 1}")

    def kill_hub(self) -> None:
        """The hub dies between two facts (in-process, as kill -9 would leave it; the room waited for it to
        be idle): its MQTT connection drops without a goodbye, nothing more is written or sent; every
        table deals on from its view."""
        self._sever_hub()
        self._bury_hub()

    def kill_hub_on_next_fact(self, *, played: bool) -> str:
        """The hub dies (in-process, as kill -9 would leave it) on the next fact it hears, once that fact is
        stored (SQLite committed): before playing it (`played` False) or after; either way its
        acknowledgement never leaves. The next table deals that fact; returns the table."""
        died = threading.Event()
        tables, play = self.tables, self.tables.play

        def dying_play(table: str, event: wire.AnyTableEvent, now: float, *, row: int) -> Output:
            if played:
                play(table, event, now, row=row)
            self._sever_hub()
            died.set()
            raise SystemExit  # ends the hub's consumer thread here, silently, as SIGKILL ends a process

        def quiet(args: threading.ExceptHookArgs) -> None:
            if args.exc_type is not SystemExit:  # the default hook's rule, which pytest's does not keep
                hook(args)

        hook, threading.excepthook = threading.excepthook, quiet
        tables.play = dying_play  # type: ignore[method-assign]
        self.hub_down = True  # no tick, no settle: the dying hub must not be waited for
        try:
            table = self.step()
            if not died.wait(10):
                raise RoomError("the hub never heard the fact it was to die on")
            self._bury_hub()  # joins the thread: its exception hook has run
        finally:
            threading.excepthook = hook
        return table

    def restart_hub(self, timeout: float = 30.0) -> None:
        """A new hub process on the same store file and client id: `FloorService.open`,
        `FloorTables.open`, `HubService`; then every table's backlog, checked as in `found_hub`."""
        self._start_hub()
        self._wait_for_births()
        self.hub_down = False
        self.found_hub(timeout=timeout)

    def found_hub(self, *tables: str, timeout: float = 30.0) -> None:
        """The hub hears these tables again (all by default): wait for their backlog, then check that
        the hub played each one as the table did (hand, stacks, level, positions, cards)."""
        names = tables or tuple(self.views)
        views = {t: self.views[t] for t in names if t in self.views}
        for t in views:
            del self.views[t]
        self.settle(timeout)
        for table, view in views.items():
            with self.hub.floor_lock:
                hub = table_summary(self.tables.game(table))
            own = table_summary(view.tables.game(table))
            view.store.close()
            if hub != own:
                raise RoomError(f"{table}: the hub played the table's backlog differently from the table "
                                f"(hub {hub}, table {own})")

    # --- what the tests compare -------------------------------------------------------------------

    def facts(self) -> dict[str, list[dict[str, JSON]]]:
        with self.hub.floor_lock:
            return stored_facts(self.store)

    def state(self) -> dict[str, object]:
        with self.hub.floor_lock:
            return tournament_state(self.floor, self.tables)

    def close(self) -> None:
        for line in self.lines.values():
            line.close()
        for view in self.views.values():
            view.store.close()
        if not self.hub_down:
            self.hub.stop()  # first, as `tapis hub` stops: it publishes what is due while connected
            self._hub_link.stop()
            self.store.close()
        for _hub, store in self._dead:
            store.close()

    def __enter__(self) -> TournamentRoom:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- inside -----------------------------------------------------------------------------------

    def _start_hub(self) -> None:
        self.store = EventStore(self.workdir / "hub.db", durable=False)
        self.floor = FloorService.open(self.store)
        self.tables = FloorTables.open(self.floor, self.store)
        self._hub_link = HubLink(client_id="tapis-hub", host=self._host, port=self._port)
        # state_window=0: the room runs in step with the hub on simulated time; a window of real time
        # would only hold each step back (docs/scale-out.md)
        self.hub = HubService(link=self._hub_link, clock=self.clock, floor_tables=self.tables, wall=self.clock.now,
                              state_window=0)
        self.hub.start()
        self._hub_link.start()

    def _wait_for_births(self) -> None:
        """The hub's subscription is live once it has heard every table's retained birth."""
        self._wait(lambda: all(t in self.hub.tables and self.hub.tables[t].online for t in self.lines),
                   "the hub did not hear every table come online")

    def _sever_hub(self) -> None:
        sever_hub(self._hub_link)

    def _bury_hub(self) -> None:
        """After the kill: the consumer thread is gone (or ends now: its inbox is empty); the store's
        connection is left as the dead process left it, closed at the end. The tables deal on alone."""
        self.hub.stop()
        self._dead.append((self.hub, self.store))
        self.hub_down = True
        self.lose_hub()

    def _open_line(self, table: str, *, boot: str) -> None:
        line = TableLine(table, boot=boot, outbox=self.workdir / f"outbox-{table}.db", host=self._host,
                         port=self._port, clock=self.clock)
        self.lines[table] = line
        line.connect()

    def _own_view(self) -> OwnView:
        """A copy of the hub's tournament now (the hub is idle: the room waits for it)."""
        self._copies += 1
        path = self.workdir / f"own-view-{self._copies}.db"
        with self.hub.floor_lock:
            source, copy = sqlite3.connect(self.workdir / "hub.db"), sqlite3.connect(path)
            try:
                source.backup(copy)
            finally:
                source.close()
                copy.close()
        store = EventStore(path, durable=False)
        floor = FloorService.open(store)
        return OwnView(store, floor, FloorTables.open(floor, store))


def table_summary(game: TableGame | None) -> dict[str, object] | None:
    """What decides how a table goes on: hand number, stacks, level, positions, cards, who acts."""
    if game is None:
        return None
    hand = game.hand
    return {"hand_no": game.hand_no, "in_hand": game.in_hand, "stacks": dict(game.stacks),
            "level": game.level, "positions": game.positions,
            "hole": {s: list(c) for s, c in game.hole.items()}, "board": list(game.board),
            "to_act": hand.to_act if hand is not None else None,
            "bets": dict(hand.bet) if hand is not None else None}


def stored_facts(store: EventStore) -> dict[str, list[dict[str, JSON]]]:
    """Every table's stored facts, in their table's order, without the agent's numbering (boot, seq)."""
    out: dict[str, list[dict[str, JSON]]] = {}
    for row in store.table_rows():
        event = wire.decode_table_event(wire.table_events(row.table), row.payload)
        out.setdefault(row.table, []).append(event.model_dump(mode="json", exclude={"boot", "seq"}))
    return out


def tournament_state(floor: FloorService, tables: FloorTables) -> dict[str, object]:
    """The tournament as a TD reads it: players (status, seat, chips), ranking and prizes, the clock's
    level, every table's game."""
    t = floor.require()
    players = {p.name: (p.status.value, p.table, p.seat, p.chips) for p in t.state.players.values()}
    games = {name: table_summary(tables.game(name)) for name in sorted(tables.tables)}
    return {"players": players, "results": floor.results(), "games": games, "level": t.state.clock.index}
