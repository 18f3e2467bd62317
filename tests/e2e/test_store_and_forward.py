"""Nothing lost, nothing counted twice: the agent's outbox and the hub's acknowledgements, through a
broker killed with SIGKILL mid-hand and started again, and through a hub that was never there."""

import queue
import time

from hub.broker import EmbeddedBroker
from simulators.dealer import Board, Burn, Hole
from simulators.demo import build_room


def drain(events: "queue.Queue[dict]") -> list[dict]:
    out = []
    while not events.empty():
        out.append(events.get())
    return out


def wait(condition, timeout: float = 15.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


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
        for step in (Hole(a, "As"), Hole(b, "Kd")):
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
