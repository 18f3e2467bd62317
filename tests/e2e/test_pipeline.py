"""Agent and hub end to end: reader firmware on a real pty, SerialLink, the agent, Mosquitto, the hub."""

import io
import json
import queue
import random
import time

import pytest

from hub.edge.broker import EmbeddedBroker
from simulators.dealer import Board, Burn, Clear, Hole, Muck, deal_hand
from simulators.demo import Room, build_room, run_demo


def collect(room: Room) -> "queue.Queue[dict]":
    events: queue.Queue[dict] = queue.Queue()
    assert room.hub is not None
    room.hub.add_listener(events.put)
    return events


def until(events: "queue.Queue[dict]", predicate, timeout: float = 10.0) -> list[dict]:  # type: ignore[no-untyped-def]
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            event = events.get(timeout=0.1)
        except queue.Empty:
            continue
        seen.append(event)
        if predicate(event):
            return seen
    raise AssertionError(f"timed out; saw {[e['type'] for e in seen]}")


def play(room: Room, steps: list, pace: float = 0.03) -> None:
    table = room.tables[0]
    for step in steps:
        table.felt.perform(step)
        time.sleep(pace)


@pytest.fixture
def room(broker: EmbeddedBroker):  # type: ignore[no-untyped-def]
    built = build_room(tables=1, host=broker.host, port=broker.port, seed=3, games=False)
    yield built
    built.close()


def test_a_hand_reaches_the_hub_card_by_card(room: Room) -> None:
    events = collect(room)
    table = room.tables[0]
    until(events, lambda e: e["type"] == "reader" and e["state"] == "connected")
    a, b = table.seats[:2]
    table.agent.new_hand()
    play(room, [Hole(a, "As"), Hole(b, "Kd"), Hole(a, "Ah"), Hole(b, "Kc"), Burn("2c"),
                Board("7h"), Board("8h"), Board("9h")])
    until(events, lambda e: e["type"] == "card" and e["card"] == "9h")
    assert room.hub is not None
    view = room.hub.tables["t1"]
    zones = view.state(hole_cards=True)["zones"]
    assert zones[f"seat:{a}"] == ["As", "Ah"] and zones[f"seat:{b}"] == ["Kd", "Kc"]
    assert zones["board"] == ["7h", "8h", "9h"] and zones["burn"] == ["2c"]
    assert view.state(hole_cards=False)["zones"][f"seat:{a}"] == 2
    play(room, [Muck(b)])
    until(events, lambda e: e["type"] == "card" and e["zone"] == "muck" and len(view.zones["muck"]) == 2)
    assert sorted(view.state(hole_cards=True)["zones"]["muck"]) == ["Kc", "Kd"]
    play(room, [Clear()])
    end = until(events, lambda e: e["type"] == "hand_end")[-1]
    assert end == {"type": "hand_end", "table": "t1", "hand": 1, "why": "felt_cleared"}
    assert view.duplicates == 0 and view.gaps == 0


def test_corrupted_frames_are_rejected_and_nothing_is_lost(room: Room) -> None:
    events = collect(room)
    table = room.tables[0]
    until(events, lambda e: e["type"] == "reader" and e["state"] == "connected")
    steps = [s for s in deal_hand(table.seats, table.button, random.Random(5)) if not isinstance(s, Clear)]
    table.agent.new_hand()
    for step in steps:
        table.board.inject_noise(frames=3)
        table.felt.perform(step)
        time.sleep(0.03)
    placed = sum(isinstance(s, Hole | Burn | Board) for s in steps)
    first_arrivals: set[str] = set()  # cards later mucked arrive twice: count each card once

    def all_placed(event: dict) -> bool:
        if event["type"] == "card" and event["action"] == "arrived":
            first_arrivals.add(event["card"])
        return len(first_arrivals) == placed

    until(events, all_placed)
    time.sleep(0.5)
    assert table.agent.stats.rejected >= len(steps)  # every burst was seen and refused
    assert room.hub is not None
    view = room.hub.tables["t1"]
    assert sum(len(c) for c in view.zones.values()) == placed  # every card where it lies, none twice
    assert view.gaps == 0 and view.duplicates == 0


def test_demo_prints_hand_end_for_every_table() -> None:
    out = io.StringIO()
    assert run_demo(tables=3, hands=2, as_json=True, pace=0.02, out=out, timeout=120) == 0
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    ends = {(e["table"], e["hand"]) for e in events if e["type"] == "hand_end"}
    assert {("t1", 1), ("t1", 2), ("t2", 1), ("t2", 2), ("t3", 1), ("t3", 2)} <= ends
    assert all("table" in e for e in events)
