"""`tapis replay SCENARIO`: one table's scenario through the real pipeline, hub events on stdout.

Reader firmware on a pty, the agent reading it through `SerialLink`, a private Mosquitto, the hub
with its rules engine on a simulated clock. Between steps the replay waits until every process is
quiet (the agent's queue empty, the hub has every event the agent sent and the agent every command
the hub sent), so the output is the same on every run: the contract of `spec/scenario.md`.
"""

from __future__ import annotations

import json
import queue
import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any, TextIO

from hub.edge.broker import EmbeddedBroker
from hub.edge.service import HubService
from hub.room.game import TableSetup
from hub.rules import Level
from hw.decks import DeckRegistry
from hw.panel import Panel
from hw.panel_events import SeatAction
from hw.panel_expander import MockExpanderFactory
from hw.panel_pins import PanelConfig
from hw.ports import ManualClock, MonotonicClock
from hw.profile import TableProfile
from hw.serial_link import SerialLink
from simulators.dealer import Felt, Muck
from simulators.panel import BUTTON_OF, PanelSimulator
from simulators.reader_board import ReaderBoardSimulator
from simulators.scenario import CARD, Scenario, Step
from table_agent.agent import TableAgent
from table_agent.events import BOARD, BURN, MUCK, TRAY, Zone
from tablewire import wire
from tablewire.mqtt import MqttLink

FOREIGN_TABLE = "zz"  # the table whose deck `As@Z` comes from


class ReplayError(RuntimeError):
    """The pipeline did not settle: a process is stuck or a step could not be carried out."""


@dataclass
class Table:
    scenario: Scenario
    registry: DeckRegistry
    profile: TableProfile
    board: ReaderBoardSimulator
    agent: TableAgent
    hub: HubService
    felt: Felt
    clock: ManualClock
    board_scan: float
    panel: PanelSimulator

    @property
    def id(self) -> str:
        return self.profile.table

    def uid(self, card: str) -> str:
        m = CARD.match(card)
        assert m is not None  # validated by the scenario model
        face, deck, tag = m.groups()
        if tag:
            return tag.upper()
        if deck == "Z":
            return self.registry.uid_of(f"{FOREIGN_TABLE}/A", face)
        return self.registry.uid_of(f"{self.id}/{deck or 'A'}", face)


@contextmanager
def pipeline(scenario: Scenario, *, scan_period: float = 0.02, lang: str = "fr") -> Iterator[Table]:
    """Everything a replay needs, started; stopped in reverse order on exit."""
    with ExitStack() as stack:
        broker = stack.enter_context(EmbeddedBroker())
        table_id = scenario.table.id
        registry = DeckRegistry.generate([table_id, FOREIGN_TABLE])
        clock = ManualClock()
        hub_link = MqttLink(client_id="tapis-hub", host=broker.host, port=broker.port)
        hub = HubService(link=hub_link, clock=clock, state_window=0)  # simulated time: no real-time window
        hub.start()
        stack.callback(hub.stop)
        hub_link.start()
        stack.callback(hub_link.stop)
        lv = scenario.level
        hub.configure_table(table_id, TableSetup(
            players=scenario.players, button=scenario.button, ruleset=scenario.ruleset,
            level=Level(lv.sb, lv.bb, lv.ante, lv.bb_ante), seats=scenario.table.seats,
            decks=(f"{table_id}/A", f"{table_id}/B"), lang=lang, game=scenario.variant))
        # No missed reads: a replay must give the same output every time (flicker has its own tests).
        board = ReaderBoardSimulator(antennas=scenario.table.seats + 4, scan_period=scan_period,
                                     miss_rate=0.0, dropout_rate=0.0, rng=random.Random(0))
        board.start()
        stack.callback(board.close)
        profile = TableProfile.default(table_id, seats=scenario.table.seats, url=board.port)
        link = MqttLink(client_id=f"tapis-table-{table_id}", host=broker.host, port=broker.port,
                        will=(wire.table_status(table_id), wire.OFFLINE))
        agent = TableAgent(profile=profile, registry=registry, publisher=link, clock=MonotonicClock(),
                           open_link=lambda: SerialLink(profile.reader.url))
        link.start()
        stack.callback(link.stop)
        # The panels on gpiozero's mock pins, through the real gpiozero code; their own clock, so
        # the time a finger holds a button does not run the hub's (Time) clock.
        panel_config = PanelConfig.reference(10)
        pins = MockExpanderFactory(panel_config.expanders)
        stack.callback(pins.close)
        stack.callback(pins.reset)
        panel_clock = ManualClock(1000.0)
        panel = Panel(panel_config, pin_factory=pins, clock=panel_clock, on_event=agent.panel_event)
        stack.callback(panel.close)
        agent.attach_panel(panel)
        agent.start()
        stack.callback(agent.stop)
        felt = Felt(profile=profile, registry=registry, board=board, deck=f"{table_id}/A")
        yield Table(scenario, registry, profile, board, agent, hub, felt, clock, scan_period,
                    PanelSimulator(panel, panel_clock))


def settle(t: Table, until: Callable[[], bool] = lambda: True, timeout: float = 10.0) -> None:
    """Wait until `until` holds and the agent, the broker and the hub have nothing in flight."""
    deadline = time.monotonic() + timeout
    quiet = 0
    while time.monotonic() < deadline:
        view = t.hub.tables.get(t.id)
        calm = (until() and t.agent.idle() and t.hub.idle() and view is not None
                and view.last_seq == t.agent.seq
                and t.hub.commands_sent.get(t.id, 0) == t.agent.stats.commands)
        quiet = quiet + 1 if calm else 0
        if quiet >= 3:  # three looks in a row, a scan period apart: nothing left on the wire
            return
        time.sleep(t.board_scan)
    raise ReplayError(f"table {t.id} did not settle within {timeout} s")


def perform(t: Table, step: Step) -> Callable[[], bool]:
    """Carry out one step; returns the condition that says its effect reached the agent."""
    kind = step.kind
    zones = t.agent.zones
    if kind == "hole":
        assert step.hole is not None
        return _put(t, Zone.seat_zone(step.hole.seat), step.hole.card)
    if kind in ("burn", "board", "tray"):
        card = getattr(step, kind)
        return _put(t, {"burn": BURN, "board": BOARD, "tray": TRAY}[kind], card)
    if kind == "muck":
        assert step.muck is not None
        if step.muck.card is not None:  # one card thrown away (pineapple), the hand plays on
            return _put(t, MUCK, step.muck.card)
        uids = t.felt.cards_at(Zone.seat_zone(step.muck.seat))
        t.felt.perform(Muck(step.muck.seat))
        return lambda: all(zones.zone_of(u) == MUCK for u in uids)
    if kind == "take":
        assert step.take is not None
        uid = t.uid(step.take.card)
        t.felt.lift(uid)
        return lambda: zones.zone_of(uid) is None
    if kind == "act":
        assert step.act is not None
        press(t, step.act.seat, step.act.action, step.act.to)
    elif kind in ("away", "back", "time"):
        ref = getattr(step, kind)
        t.panel.dealer(kind, ref.seat)
    elif kind == "wait":
        assert step.wait is not None
        t.clock.advance(step.wait)
        t.hub.tick(wait=5.0)
    elif kind == "new_hand":
        for uid in list(t.felt.placed()):
            t.felt.lift(uid)
        settle(t, lambda: len(zones) == 0)
        t.panel.dealer("new_hand")
    elif kind == "noise":
        assert step.noise is not None
        before = t.agent.stats.rejected
        t.board.inject_noise(step.noise.frames)
        frames = step.noise.frames
        return lambda: t.agent.stats.rejected >= before + frames
    elif kind == "reboot":  # back once the agent has set it scanning again and it has read the felt
        restarts = t.agent.stats.restarts
        t.board.reboot()
        settle(t, lambda: t.agent.stats.restarts > restarts and t.board.scanning)
        scans = t.board.scans
        return lambda: t.board.scans >= scans + 2
    return lambda: True


def press(t: Table, seat: int, action: str, to: int | None) -> None:
    """A seat panel press. One button is check/call and one bet/raise, resolved from what the seat
    owes: a scenario's `check` facing a bet cannot be pressed, so it is sent as the agent would."""
    wanted = SeatAction(action)
    if t.panel.panel.input.action_of(seat, BUTTON_OF[wanted]) is wanted:
        t.panel.press(seat, wanted, to)
    else:
        t.agent.player_action(seat, action, to)


def _put(t: Table, zone: Zone, card: str) -> Callable[[], bool]:
    uid = t.uid(card)
    t.felt.put(zone, uid)
    return lambda: t.agent.zones.zone_of(uid) == zone


def replay(scenario: Scenario, *, out: TextIO = sys.stdout, include_cards: bool = False,
           timeout: float = 10.0, lang: str = "fr") -> list[dict[str, Any]]:
    """Play the scenario; print (and return) the hub's events for the table as JSON lines."""
    events: queue.Queue[dict[str, Any]] = queue.Queue()
    printed: list[dict[str, Any]] = []

    def flush() -> None:
        while not events.empty():
            event = events.get()
            if event.get("table") != scenario.table.id:
                continue
            if not include_cards and event["type"] in ("card", "table_status", "reader"):
                continue
            printed.append(event)
            out.write(json.dumps(event, ensure_ascii=False) + "\n")
        out.flush()

    with pipeline(scenario, lang=lang) as t:
        t.hub.add_listener(events.put)
        settle(t, lambda: t.agent.stats.reader_up and bool(t.agent.stats.reader), timeout)
        t.panel.dealer("new_hand")  # the first hand begins when the scenario starts
        settle(t, timeout=timeout)
        for step in scenario.steps:
            reached = perform(t, step)
            settle(t, reached, timeout)
            flush()
        flush()
    return printed
