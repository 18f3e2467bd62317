"""`tapis hub` and `tapis agent` as the processes a club runs, on a pty reader and a real Mosquitto."""

import json
import queue
import subprocess
import sys
from pathlib import Path

from hub.edge.broker import EmbeddedBroker
from hw.decks import DeckRegistry
from hw.profile import TableProfile
from simulators.reader_board import ReaderBoardSimulator
from tablewire import wire
from tablewire.mqtt import Message, MqttLink
from tests.support import TWO_SEAT_PROFILE


def tapis(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tapis", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_hub_and_agent_processes_deal_a_card(broker: EmbeddedBroker, tmp_path: Path) -> None:
    registry = DeckRegistry.generate(["t1"])
    (tmp_path / "decks.toml").write_text(registry.dump())
    with ReaderBoardSimulator(antennas=6, scan_period=0.02) as board:
        (tmp_path / "t1.toml").write_text(TWO_SEAT_PROFILE.format(url=board.port))
        assert TableProfile.load(tmp_path / "t1.toml").antenna_count == 6
        states: queue.Queue[Message] = queue.Queue()
        viewer = MqttLink(client_id="td", host=broker.host, port=broker.port)
        viewer.subscribe(wire.hub_td_state("t1"), states.put)
        viewer.start()
        hub_status: queue.Queue[Message] = queue.Queue()
        viewer.subscribe(wire.HUB_STATUS, hub_status.put)
        hub = tapis("hub", "--broker", broker.url, "--dashboard", "0")
        assert hub_status.get(timeout=20).payload == wire.ONLINE  # the hub's session exists first
        agent = tapis("agent", "--profile", str(tmp_path / "t1.toml"), "--decks", str(tmp_path / "decks.toml"),
                      "--broker", broker.url)
        try:
            board.place(0, bytes.fromhex(registry.uid_of("t1/A", "As")))
            board.place(2, bytes.fromhex(registry.uid_of("t1/A", "Kd")))
            while True:
                state = json.loads(states.get(timeout=20).payload)
                if state["zones"].get("seat:1") == ["As"] and state["zones"].get("board") == ["Kd"] \
                        and state["online"]:
                    break
            assert state["reader"] == "connected"
        finally:
            for proc in (agent, hub):
                proc.terminate()
                proc.wait(10)
            viewer.stop()
        assert agent.returncode == 0 and hub.returncode == 0, agent.stderr.read() if agent.stderr else ""


def test_wrong_config_is_refused_in_plain_words(broker: EmbeddedBroker, tmp_path: Path) -> None:
    (tmp_path / "decks.toml").write_text(DeckRegistry.generate(["t1"]).dump())
    (tmp_path / "bad.toml").write_text(TWO_SEAT_PROFILE.format(url="loop://").replace('5 = "tray"\n', ""))
    proc = tapis("agent", "--profile", str(tmp_path / "bad.toml"), "--decks", str(tmp_path / "decks.toml"),
                 "--broker", broker.url)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 2
    assert "bad.toml" in err and "no antenna for tray" in err
    proc = tapis("agent", "--profile", str(tmp_path / "bad.toml"), "--decks", "x", "--broker", "nonsense")
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 2 and "tapis agent:" in err


def test_a_hub_killed_and_started_again_picks_up_where_the_tables_are(broker: EmbeddedBroker,
                                                                      tmp_path: Path) -> None:
    """kill -9 of `tapis hub` (no store): the new hub reads its retained acknowledgements back, so a
    table whose outbox already forgot its first events is not held behind that gap for ever."""
    registry = DeckRegistry.generate(["t1"])
    (tmp_path / "decks.toml").write_text(registry.dump())
    uid = {card: bytes.fromhex(registry.uid_of("t1/A", card)) for card in ("As", "Kd", "Qh")}
    with ReaderBoardSimulator(antennas=6, scan_period=0.02) as board:
        (tmp_path / "t1.toml").write_text(TWO_SEAT_PROFILE.format(url=board.port))
        states: queue.Queue[Message] = queue.Queue()
        acks: queue.Queue[Message] = queue.Queue()
        viewer = MqttLink(client_id="td", host=broker.host, port=broker.port)
        viewer.subscribe(wire.hub_td_state("t1"), states.put)
        viewer.subscribe(wire.hub_ack("t1"), acks.put)
        viewer.start()

        def until_zones(zones: dict[str, list[str]]) -> None:
            while json.loads(states.get(timeout=20).payload)["zones"] != zones:
                pass

        hub = tapis("hub", "--broker", broker.url, "--dashboard", "0")
        agent = tapis("agent", "--profile", str(tmp_path / "t1.toml"), "--decks", str(tmp_path / "decks.toml"),
                      "--broker", broker.url)
        try:
            board.place(0, uid["As"])
            until_zones({"seat:1": ["As"]})
            acked = wire.decode_ack(wire.hub_ack("t1"), acks.get(timeout=20).payload)
            while acked.seq < 3:  # reader status, the card: the agent's outbox forgot them
                acked = wire.decode_ack(wire.hub_ack("t1"), acks.get(timeout=20).payload)
            hub.kill()  # SIGKILL: no goodbye
            hub.wait(10)
            board.place(2, uid["Kd"])  # the new hub never saw the events before this one
            hub = tapis("hub", "--broker", broker.url, "--dashboard", "0")
            until_zones({"board": ["Kd"]})  # a hub without a store starts from what it is told now
            board.place(1, uid["Qh"])
            until_zones({"board": ["Kd"], "seat:2": ["Qh"]})
        finally:
            for proc in (agent, hub):
                proc.terminate()
                proc.wait(10)
            viewer.stop()
