"""A reader board that resets on its own mid-hand (watchdog, brown-out), its USB link staying open: reader
firmware on a real pty, SerialLink, the agent, Mosquitto, the hub running the hand. The agent sets the
board scanning again, the cards it reports again are not dealt twice, and a card dealt after the reset
is seen; no fault, no card leaves, the TD reads that the reader restarted."""

import random

import pytest

from firmware_bridge import StartScan
from hub.edge.broker import EmbeddedBroker
from simulators.dealer import Hole, deal_order
from simulators.demo import Room, build_room
from table_agent.reader_words import RESTARTED
from tests.support import wait_until


@pytest.fixture
def room(broker: EmbeddedBroker):  # type: ignore[no-untyped-def]
    built = build_room(tables=1, host=broker.host, port=broker.port, seed=4)
    yield built
    built.close()


def test_a_board_reset_mid_deal_reads_again_and_judges_nothing_twice(room: Room) -> None:
    events: list[dict] = []  # the hub's, as the dashboard gets them (appended on the hub's thread)
    assert room.hub is not None
    room.hub.add_listener(events.append)
    table = room.tables[0]
    view = room.hub.tables
    assert wait_until(lambda: "t1" in view and view["t1"].reader == "connected")
    order = deal_order(table.seats, table.button)
    rng = random.Random(4)
    cards = rng.sample([r + s for r in "23456789TJQKA" for s in "cdhs"], 2 * len(order))
    first, second = cards[:len(order)], cards[len(order):]

    def hub_zones() -> dict[str, list[str]]:
        return {zone: sorted(held.values()) for zone, held in view["t1"].zones.items() if held}

    def lying(dealt: list[str]) -> dict[str, list[str]]:
        zones: dict[str, list[str]] = {}
        for i, card in enumerate(dealt):
            zones.setdefault(f"seat:{order[i % len(order)]}", []).append(card)
        return {zone: sorted(held) for zone, held in zones.items()}

    table.agent.new_hand()
    assert wait_until(lambda: view["t1"].hand_open)
    for done, (seat, card) in enumerate(zip(order, first, strict=True), start=1):
        table.felt.perform(Hole(seat, card))
        assert wait_until(lambda done=done: hub_zones() == lying(first[:done]))  # type: ignore[misc]

    table.board.reboot()  # the watchdog: the board forgets its settings and waits, idle
    assert wait_until(lambda: table.agent.stats.restarts == 1)
    scans = table.board.scans
    assert wait_until(lambda: table.board.scans >= scans + 40)  # it reads again: 2 s, four gone windows
    # the TD read it: the hub has it over MQTT (its own time), and the reader stays connected; the board's
    # pace, measured anew from its heartbeats after the reset, may be said after it (a slow board, under load)
    assert wait_until(lambda: RESTARTED in [e["detail"] for e in list(events) if e["type"] == "reader"])
    assert view["t1"].reader == "connected"
    for done, (seat, card) in enumerate(zip(order, second, strict=True), start=len(first) + 1):
        table.felt.perform(Hole(seat, card))  # the second round, dealt after the reset
        assert wait_until(lambda done=done: hub_zones() == lying(cards[:done]))  # type: ignore[misc]
    assert wait_until(table.agent.idle)
    # the hub's view has a card before its listeners hear it (after the turn's COMMIT): wait for the last
    assert wait_until(lambda: any(e["type"] == "card" and e["card"] == cards[-1] for e in list(events)))
    seen = list(events)
    assert [(e["action"], e["card"]) for e in seen if e["type"] == "card" and e["action"] == "left"] == []
    arrived = [e["card"] for e in seen if e["type"] == "card" and e["action"] == "arrived"]
    assert sorted(arrived) == sorted(cards)  # each card once: none re-reported as dealt again
    assert [e for e in seen if e["type"] == "fault"] == []
    assert table.agent.stats.faults == 0
    assert table.board.host_frames.count(StartScan()) == 2  # at the link's opening, then once after the reset
    assert [e["detail"] for e in seen if e["type"] == "reader"].count(RESTARTED) == 1
