"""The simulated croupier: waits for each card to be read before the next, and gives up a hand that
stops moving (a ruling it cannot carry out, a lost command) instead of stopping the table for good."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from hub.edge.broker import EmbeddedBroker
from hw.decks import DeckRegistry
from hw.profile import TableProfile
from simulators.croupier import Croupier
from simulators.dealer import Felt
from simulators.demo import build_room
from simulators.fault_plan import FaultPlan
from table_agent.events import Zone
from table_agent.hand_watch import HandWatch
from tablewire import wire
from tablewire.faults import FaultKind
from tests.support import wait_until


class Antennas:
    def __init__(self) -> None:
        self.placed: dict[bytes, int] = {}

    def place(self, antenna: int, uid: bytes) -> None:
        self.placed[uid] = antenna

    def remove(self, antenna: int, uid: bytes) -> None:
        self.placed.pop(uid, None)


class Zones:
    """What the table has read: every card the felt put down, unless the reader is `blind`."""

    def __init__(self, felt: Felt, profile: TableProfile) -> None:
        self.felt, self.profile, self.blind = felt, profile, False

    def zone_of(self, uid: str) -> Zone | None:
        antenna = None if self.blind else self.felt._where.get(uid)  # noqa: SLF001 - the felt's truth
        return None if antenna is None else self.profile.antenna_map()[antenna]


class Agent:
    """A table whose hub sends the hand context and then never answers a press."""

    def __init__(self, felt_zones: Zones) -> None:
        self.table = "t1"
        self.watch = HandWatch(table="t1")
        self.zones = felt_zones
        self.presses: list[tuple[int, str]] = []
        self._hand = 0

    def new_hand(self) -> None:
        self._hand += 1
        self.watch.new_hand_pressed()
        self.watch.command(wire.HandContextCmd(hand=self._hand, seats=[1, 2, 3], button=3, first_to_deal=1,
                                               deck="t1/A", table_decks=["t1/A", "t1/B"]))
        self.watch.command(wire.BettingCmd(hand=self._hand, street="preflop", open=True, to_act=1, to_call=100))

    def player_action(self, seat: int, action: str, to: int | None = None) -> None:
        self.presses.append((seat, action))


def table(hub: type[Agent] = Agent) -> tuple[Croupier, Agent, Felt, Zones]:
    profile = TableProfile.default("t1", seats=9)
    felt = Felt(profile=profile, registry=DeckRegistry.generate(["t1"]), board=Antennas())
    zones = Zones(felt, profile)
    agent = hub(zones)
    croupier = Croupier(agent=agent, felt=felt, rng=random.Random(1), pace=0.001,  # type: ignore[arg-type]
                        stop=threading.Event(), stuck_after=0.2)
    return croupier, agent, felt, zones


def test_a_hand_that_stops_moving_is_given_up_and_the_felt_cleared() -> None:
    croupier, agent, felt, _ = table()
    assert croupier.play_hand() is True  # the table goes on
    assert croupier.stuck == 1 and croupier.hands == 0
    assert [seat for seat, _ in agent.presses] == [1]  # it acted once, then waited in vain
    assert felt.placed() == []
    assert croupier.play_hand() is True and croupier.stuck == 2  # the next "new hand" cancels it on the hub


def test_a_card_the_table_never_reads_stops_the_hand_at_that_card() -> None:
    croupier, agent, felt, zones = table()
    zones.blind = True
    assert croupier.play_hand() is True and croupier.stuck == 1
    assert agent.presses == []  # it never dealt on past the first card, let alone pressed


def test_a_stopped_croupier_stops_at_once() -> None:
    croupier, _, _, _ = table()
    croupier.stop.set()
    assert croupier.play_hand() is False and croupier.stuck == 0


class LateHub(Agent):
    """A hub whose betting state, sent before it had the croupier's press (a card event's, say), reaches the
    table after the press: it still shows the seat just pressed to act. Then nothing more."""

    def player_action(self, seat: int, action: str, to: int | None = None) -> None:
        super().player_action(seat, action, to)
        if len(self.presses) == 1:
            self.watch.command(wire.BettingCmd(hand=self._hand, street="preflop", open=True, to_act=1, to_call=100))


def test_a_betting_state_sent_before_the_press_is_not_a_second_turn_for_that_seat() -> None:
    """pouques-2020 extra_hole_card in CI: the croupier pressed seat 4, a state the hub had sent before
    (seat 4 to act) came after, and it pressed seat 4 again: out of turn, binding, and the hand stuck."""
    croupier, agent, _, _ = table(LateHub)
    assert croupier.play_hand() is True and croupier.stuck == 1  # the hub never moved on: given up
    assert [seat for seat, _ in agent.presses] == [1]  # pressed once, not again on the stale state


def test_a_player_marked_away_stays_away_the_hands_asked_then_is_back(broker: EmbeddedBroker) -> None:
    """`away_hands` (`tapis sim table --away-hands`): the dealer presses a player away before a hand's first
    card; the hub keeps him away, so his hand is ruled dead at the deadline in that hand and the next two, each
    carried out (no hand given up); the dealer presses him back after the third."""
    room = build_room(tables=1, host=broker.host, port=broker.port, seed=3, miss_rate=0.0, dropout_rate=0.0)
    assert room.hub is not None
    events: list[dict[str, Any]] = []
    room.hub.add_listener(events.append)
    table = room.tables[0]
    croupier = Croupier(agent=table.agent, felt=table.felt, rng=random.Random(7), pace=0.02, stop=room.stop,
                        faults=FaultPlan(rate=1.0, rng=random.Random(5), kinds=[FaultKind.ABSENT_PLAYER]),
                        away_hands=3)
    try:
        for _ in range(3):
            assert croupier.play_hand()
        # "back" is pressed as the third hand ends: on its way to the hub when play_hand returns (the test
        # closed the room before the hub heard it, once, on a loaded machine)
        assert wait_until(lambda: any(e["type"] == "seat" and e["state"] == "back" for e in list(events)), 10)
    finally:
        room.close()
    [away, back] = [e for e in events if e["type"] == "seat"]
    seat, first = away["seat"], away["hand"]
    dead = [e["hand"] for e in events if e["type"] == "fault" and e["kind"] == "absent_player"
            and e["seat"] == seat and e["ruling"]["decision"] == "hand_dead"]
    assert (away["state"], back["state"], back["seat"], back["hand"]) == ("away", "back", seat, first + 2)
    assert (dead, croupier.stuck) == ([first, first + 1, first + 2], 0), [
        (e["hand"], e["type"], e.get("kind") or e.get("result"), e.get("seat")) for e in events
        if e["type"] in ("hand_end", "fault", "seat")]
    with pytest.raises(ValueError, match="at least 1"):
        Croupier(agent=table.agent, felt=table.felt, rng=random.Random(7), pace=0.02, stop=room.stop, away_hands=0)
