"""Nothing lost, nothing counted twice: the agent's outbox and the hub's acknowledgements, through a
broker killed with SIGKILL mid-hand and started again, and through a hub that was never there."""

import os
import queue
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from hub.edge.broker import EmbeddedBroker
from hub.edge.link import HubLink
from hub.edge.service import HubService
from hw.decks import DeckRegistry
from simulators.dealer import Board, Burn, CardStep, Hole
from simulators.demo import build_room
from simulators.reader_board import ReaderBoardSimulator
from table_agent.events import BOARD as BOARD_ZONE
from tablewire.mqtt import MqttLink
from tests.support import TWO_SEAT_PROFILE, wait_until


def drain(events: "queue.Queue[dict]") -> list[dict]:
    out = []
    while not events.empty():
        out.append(events.get())
    return out


def wait(condition, timeout: float = 15.0) -> bool:  # type: ignore[no-untyped-def]
    return wait_until(condition, timeout)


def test_broker_killed_mid_hand_loses_and_doubles_nothing() -> None:
    broker = EmbeddedBroker().start()
    port = broker.port
    room = build_room(tables=1, host=broker.host, port=port, seed=3, games=False)
    try:
        assert room.hub is not None
        events: queue.Queue[dict] = queue.Queue()
        room.hub.add_listener(events.put)
        table = room.tables[0]
        agent = table.agent
        assert wait(lambda: agent.stats.reader_up)
        a, b = table.seats[:2]
        agent.new_hand()
        first: tuple[CardStep, ...] = (Hole(a, "As"), Hole(b, "Kd"))
        for step in first:
            table.felt.perform(step)
        assert wait(lambda: len(room.hub.tables["t1"].zones) == 2)
        broker.kill()  # kill -9: no will, no goodbye, nothing saved
        for step in (Hole(a, "Ah"), Hole(b, "Kc"), Burn("2c"), Board("7h"), Board("8h"), Board("9h")):
            table.felt.perform(step)
            time.sleep(0.05)
        assert wait(lambda: agent.zones.zone_of(table.felt.uid("9h")) is not None)
        assert len(agent.outbox) > 0  # kept while the hub cannot hear
        broker = EmbeddedBroker(port=port).start()  # a new broker: no session survives
        view = room.hub.tables["t1"]
        assert wait(lambda: sum(len(c) for c in view.zones.values()) == 8)
        assert wait(lambda: len(agent.outbox) == 0)  # the hub acknowledged everything
        assert agent.stats.resent > 0  # the outbox spoke again after the reconnect
        cards = [e for e in drain(events) if e["type"] == "card" and e["action"] == "arrived"]
        assert sorted(e["card"] for e in cards) == sorted(["As", "Kd", "Ah", "Kc", "2c", "7h", "8h", "9h"])
        assert len({e["order"] for e in cards}) == len(cards)  # each applied once
        assert view.state(hole_cards=True)["zones"]["board"] == ["7h", "8h", "9h"]  # in order
    finally:
        room.close()
        broker.stop()


def test_agent_power_cut_while_the_hub_is_away_loses_nothing(broker: EmbeddedBroker, tmp_path: Path) -> None:
    """kill -9 of an agent whose events nobody had stored: its outbox file sends them after the restart."""
    registry = DeckRegistry.generate(["t1"])
    (tmp_path / "decks.toml").write_text(registry.dump())
    outbox = tmp_path / "outbox.db"
    with ReaderBoardSimulator(antennas=6, scan_period=0.02) as board:
        (tmp_path / "t1.toml").write_text(TWO_SEAT_PROFILE.format(url=board.port))

        def agent() -> subprocess.Popen[bytes]:
            return subprocess.Popen([sys.executable, "-m", "tapis", "agent", "--profile", str(tmp_path / "t1.toml"),
                                     "--decks", str(tmp_path / "decks.toml"), "--broker", broker.url,
                                     "--outbox", str(outbox)], stderr=subprocess.DEVNULL)

        first = agent()
        procs = [first]
        board.place(0, bytes.fromhex(registry.uid_of("t1/A", "As")))
        board.place(2, bytes.fromhex(registry.uid_of("t1/A", "Kd")))
        def kept() -> int:
            try:
                with sqlite3.connect(outbox) as db:
                    return int(db.execute("SELECT COUNT(*) FROM outbox"
                                          " WHERE CAST(payload AS TEXT) LIKE '%card_arrived%'")
                               .fetchone()[0])
            except sqlite3.Error:
                return 0

        try:
            assert wait(lambda: kept() >= 2)  # both cards seen and kept; no hub has heard them
        finally:
            os.kill(first.pid, signal.SIGKILL)
        first.wait()
        board.remove(0, bytes.fromhex(registry.uid_of("t1/A", "As")))  # the felt changed during the cut
        link = HubLink(client_id="tapis-hub", host=broker.host, port=broker.port)  # as installed
        hub = HubService(link=link)
        events: queue.Queue[dict] = queue.Queue()
        hub.add_listener(events.put)
        hub.start()
        link.start()
        second = agent()
        procs.append(second)
        try:
            assert wait(lambda: "t1" in hub.tables and len(hub.tables["t1"].last_by_boot) == 2)  # both boots
            seen = [e for e in drain(events) if e["type"] == "card"]
            first_boot = [e for e in seen if e["action"] == "arrived"]
            assert {"As", "Kd"} <= {e["card"] for e in first_boot}  # the dead agent's events arrived
            view = hub.tables["t1"]
            # the restarted agent reports what lies there now: Kd on the board, no longer As on seat 1
            assert wait(lambda: view.state(hole_cards=True)["zones"] == {"board": ["Kd"]}), (
                view.zones, view.last_by_boot, view.resyncs, drain(events))
            assert view.resyncs == 1
        finally:
            for proc in procs:
                proc.kill()
                proc.wait(10)
            hub.stop()
            link.stop()


def test_a_hub_that_comes_online_after_the_table_published_gets_it_at_once(broker: EmbeddedBroker) -> None:
    """The table deals before any hub listens (the hub's process starts slower, or it was down without a
    store): when the hub's birth comes, the table sends what is unacknowledged then, not after its
    resend timer (an hour here; 10 s in the field: a `tapis hub` test waited that long now and then)."""
    from hw.ports import MonotonicClock
    from hw.profile import TableProfile
    from hw.serial_link import SerialLink
    from table_agent.agent import TableAgent

    registry = DeckRegistry.generate(["t1"])
    with ReaderBoardSimulator(antennas=13, scan_period=0.02) as board:
        profile = TableProfile.default("t1", seats=9, url=board.port)
        table_link = MqttLink(client_id="tapis-table-t1", host=broker.host, port=broker.port)
        agent = TableAgent(profile=profile, registry=registry, publisher=table_link, clock=MonotonicClock(),
                           open_link=lambda: SerialLink(board.port), resend_after=3600.0)
        table_link.start()
        agent.start()
        hub_link = HubLink(client_id="tapis-hub", host=broker.host, port=broker.port)
        hub = HubService(link=hub_link)
        try:
            board.place(profile.antenna_of(BOARD_ZONE), bytes.fromhex(registry.uid_of("t1/A", "Kd")))
            assert wait(lambda: agent.seq >= 2)  # the reader's state and the card: published, nobody there
            time.sleep(0.3)
            assert len(agent.outbox) == agent.seq  # none acknowledged
            hub.start()
            hub_link.start()
            assert wait(lambda: "t1" in hub.tables
                        and hub.tables["t1"].state(hole_cards=True)["zones"] == {"board": ["Kd"]}, 5.0)
            assert wait(lambda: len(agent.outbox) == 0, 5.0)  # and acknowledged
        finally:
            agent.stop()
            table_link.stop()
            hub.stop()
            hub_link.stop()
