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


def where_cards_lie(steps: list) -> dict[str, list[str]]:
    """The felt after `steps`, worked out from the steps alone: zone -> cards, sorted."""
    zones: dict[str, list[str]] = {}
    for step in steps:
        if isinstance(step, Hole):
            zones.setdefault(f"seat:{step.seat}", []).append(step.card)
        elif isinstance(step, Burn):
            zones.setdefault("burn", []).append(step.card)
        elif isinstance(step, Board):
            zones.setdefault("board", []).append(step.card)
        elif isinstance(step, Muck):
            zones.setdefault("muck", []).extend(zones.pop(f"seat:{step.seat}", []))
    return {zone: sorted(cards) for zone, cards in zones.items()}


def test_corrupted_frames_are_rejected_and_nothing_is_lost(room: Room) -> None:
    """Noise before every step of a hand: the hub ends with every card where it lies, none twice.
    Each step waits for the hub to see the card it moved, then the end waits for the felt's
    state, not for a time."""
    events = collect(room)
    table = room.tables[0]
    until(events, lambda e: e["type"] == "reader" and e["state"] == "connected")
    steps = [s for s in deal_hand(table.seats, table.button, random.Random(5)) if not isinstance(s, Clear)]
    table.agent.new_hand()
    assert room.hub is not None
    view = room.hub.tables["t1"]
    expected = where_cards_lie(steps)

    def hub_zones() -> dict[str, list[str]]:
        return {zone: sorted(cards.values()) for zone, cards in view.zones.items() if cards}

    for done, step in enumerate(steps, start=1):
        table.board.inject_noise(frames=3)
        table.felt.perform(step)
        now = where_cards_lie(steps[:done])
        until(events, lambda e, now=now: hub_zones() == now)
    assert hub_zones() == expected  # every card where it lies, none twice
    assert table.agent.stats.rejected >= len(steps)  # every burst was seen and refused
    assert view.gaps == 0 and view.duplicates == 0


def test_demo_prints_hand_end_for_every_table() -> None:
    out = io.StringIO()
    assert run_demo(tables=3, hands=2, as_json=True, pace=0.02, out=out, timeout=120) == 0
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    ends = {(e["table"], e["hand"]) for e in events if e["type"] == "hand_end"}
    assert {("t1", 1), ("t1", 2), ("t2", 1), ("t2", 2), ("t3", 1), ("t3", 2)} <= ends
    assert all("table" in e for e in events)
