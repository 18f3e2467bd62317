"""A reader unplugged and plugged back mid-hand: the agent says so, keeps what lay on the felt (unknown is
not gone), and picks up what changed meanwhile; nothing is reported twice."""

import queue
import random
import threading
import time

from hub.edge.broker import EmbeddedBroker
from hub.edge.service import HubService
from hw.decks import DeckRegistry
from hw.errors import LinkError
from hw.ports import MonotonicClock
from hw.profile import TableProfile
from hw.serial_link import SerialLink
from simulators.dealer import Board, Felt, Hole
from simulators.reader_board import ReaderBoardSimulator
from table_agent.agent import TableAgent
from table_agent.events import Zone
from tablewire.mqtt import MqttLink
from tests.support import wait_until


class Cable:
    """The USB cable between the Pi and the reader board: pull it out, put it back."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.plugged = threading.Event()
        self.plugged.set()
        self.link: SerialLink | None = None

    def open(self) -> SerialLink:
        if not self.plugged.is_set():
            raise LinkError(f"cannot open reader link {self.url}: no such device")
        self.link = SerialLink(self.url)
        return self.link

    def unplug(self) -> None:
        self.plugged.clear()
        if self.link is not None:
            self.link.close()  # the open port dies under the reader thread


def wait(condition, timeout: float = 10.0) -> bool:  # type: ignore[no-untyped-def]
    return wait_until(condition, timeout)


def test_unplug_and_replug_mid_hand(broker: EmbeddedBroker) -> None:
    registry = DeckRegistry.generate(["t1"])
    events: queue.Queue[dict] = queue.Queue()
    with ReaderBoardSimulator(antennas=13, scan_period=0.02, rng=random.Random(1)) as board:
        profile = TableProfile.default("t1", seats=9, url=board.port)
        cable = Cable(board.port)
        hub_link = MqttLink(client_id="hub", host=broker.host, port=broker.port)
        hub = HubService(link=hub_link)
        hub.add_listener(events.put)
        hub.start()
        hub_link.start()
        link = MqttLink(client_id="t1", host=broker.host, port=broker.port)
        agent = TableAgent(profile=profile, registry=registry, publisher=link, clock=MonotonicClock(),
                           open_link=cable.open)
        link.start()
        agent.start()
        felt = Felt(profile=profile, registry=registry, board=board)
        try:
            assert wait(lambda: agent.stats.reader_up)
            agent.new_hand()
            for step in (Hole(1, "As"), Hole(2, "Kd"), Hole(1, "Ah"), Hole(2, "Kc")):
                felt.perform(step)
            assert wait(lambda: len(agent.zones) == 4)
            cable.unplug()
            assert wait(lambda: not agent.stats.reader_up)
            felt.perform(Board("7h"))  # dealt while the reader was away
            time.sleep(1.0)  # longer than presence's gone window: the cards must not be lifted
            assert len(agent.zones) == 4
            cable.plugged.set()
            assert wait(lambda: agent.stats.reader_up)
            assert wait(lambda: agent.zones.zone_of(felt.uid("7h")) is not None)
            view = hub.tables["t1"]
            assert wait(lambda: view.state(hole_cards=True)["zones"].get("board") == ["7h"])
            assert view.state(hole_cards=True)["zones"]["seat:1"] == ["As", "Ah"]
            seen = []
            while not events.empty():
                seen.append(events.get())
            assert [e["state"] for e in seen if e["type"] == "reader"].count("lost") >= 1
            assert not [e for e in seen if e["type"] == "card" and e["action"] == "left"]  # nothing lifted
        finally:
            agent.stop()
            link.stop()
            hub_link.stop()
            hub.stop()


def test_a_reader_module_silent_mid_hand_keeps_its_cards_and_gives_them_back(broker: EmbeddedBroker) -> None:
    """Issue #33: a seat's MFRC522 module goes silent (a kicked cable) mid-hand. Its cards are unread,
    not gone: no card leaves, no fault, the TD sees the reader at fault; back, the cards still there
    are as they were and the one taken meanwhile leaves then."""
    registry = DeckRegistry.generate(["t1"])
    events: list[dict] = []  # the hub's, as its listeners hear them (appended on the hub's thread)
    with ReaderBoardSimulator(antennas=13, scan_period=0.02, rng=random.Random(2)) as board:
        profile = TableProfile.default("t1", seats=9, url=board.port)
        seat1 = profile.antenna_of(Zone.seat_zone(1))
        hub_link = MqttLink(client_id="hub", host=broker.host, port=broker.port)
        hub = HubService(link=hub_link)
        hub.add_listener(events.append)
        hub.start()
        hub_link.start()
        link = MqttLink(client_id="t1", host=broker.host, port=broker.port)
        agent = TableAgent(profile=profile, registry=registry, publisher=link, clock=MonotonicClock(),
                           open_link=lambda: SerialLink(board.port))
        link.start()
        agent.start()
        felt = Felt(profile=profile, registry=registry, board=board)
        view = hub.tables
        try:
            assert wait(lambda: agent.stats.reader_up)
            agent.new_hand()
            for step in (Hole(1, "As"), Hole(2, "Kd"), Hole(1, "Ah"), Hole(2, "Kc")):
                felt.perform(step)
            assert wait(lambda: "t1" in view and view["t1"].state(hole_cards=True)["zones"].get("seat:1")
                        == ["As", "Ah"] and view["t1"].state(hole_cards=True)["zones"].get("seat:2") == ["Kd", "Kc"])
            # the hub's view has a card before its listeners hear it (after the turn's COMMIT)
            assert wait(lambda: any(e["type"] == "card" and e["card"] == "Kc" for e in list(events)))
            dealt = len(events)
            board.silence(seat1)
            assert wait(lambda: view["t1"].reader == "fault")
            assert f"siège 1 (antenne {seat1})" in view["t1"].reader_detail
            scans = board.scans
            # the board goes on scanning the other antennas: 1.5 s of scans, three times the agent's
            # gone window and ten times the board's own (3 scans)
            assert wait(lambda: board.scans >= scans + 30)
            assert wait(agent.idle)
            felt.lift(felt.uid("Ah"))  # taken while the module is silent: a real movement
            assert wait(lambda: board.scans >= scans + 40)
            assert wait(agent.idle)
            assert len(agent.zones) == 4
            assert view["t1"].state(hole_cards=True)["zones"]["seat:1"] == ["As", "Ah"]
            board.restore(seat1)
            # said to the TD (a pace the heartbeats measure may be said after it: its own words)
            assert wait(lambda: any(e["type"] == "reader" and e["state"] == "connected" and "reads again" in e["detail"]
                                    for e in events[dealt:]))
            assert wait(lambda: view["t1"].state(hole_cards=True)["zones"]["seat:1"] == ["As"])
            assert wait(lambda: any(e["type"] == "card" and e["card"] == "Ah" for e in events[dealt:]))
            seen = events[dealt:]
            cards = [(e["action"], e["zone"], e["card"]) for e in seen if e["type"] == "card"]
            assert cards == [("left", "seat:1", "Ah")]  # As stayed as it was; only the real movement
            assert not [e for e in seen if e["type"] == "fault"]
            assert agent.stats.faults == 0
        finally:
            agent.stop()
            link.stop()
            hub_link.stop()
            hub.stop()
