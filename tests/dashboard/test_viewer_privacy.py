"""Viewer privacy over every public path (issue #14, point 4): a viewer's whole SSE stream, the JSON API
a viewer reads and the public MQTT topics, recorded during a live hand with burns, a fold into the muck
and a showdown, carry no face of a card that is not face up on the table (`hub.room.tables.face_down`)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

from hub.dashboard import Dashboard, hash_password
from hub.floor.service import FloorService
from tablewire import wire
from tests.dashboard.conftest import PASSWORD, RunningClock
from tests.dashboard.helpers import FakeLink, ScriptedRoom, SseClient
from tests.dashboard.test_http import request

HOLE = {2: ("As", "Ah"), 3: ("Kd", "Kc"), 1: ("7c", "2d")}  # button 1: seat 2 is dealt first
BURNS = ("3s", "4s", "5s")
BOARD = ("9h", "Td", "Jc", "Qs", "2h")


class RecordingLink(FakeLink):
    """The hub's link, keeping what it publishes on the topics a viewer's account may read."""

    def __init__(self) -> None:
        super().__init__()
        self.public: list[tuple[str, bytes]] = []

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> None:
        super().publish(topic, payload, retain=retain, qos=qos)
        if topic.startswith(f"{wire.ROOT}/hub/") and "/td/" not in topic and not topic.endswith("/td"):
            self.public.append((topic, payload))


@pytest.fixture
def recorded() -> Iterator[tuple[ScriptedRoom, RecordingLink]]:
    link = RecordingLink()
    scripted = ScriptedRoom(link=link)
    scripted.hub.start()
    yield scripted, link
    scripted.hub.stop()


@pytest.fixture
def dash(recorded: tuple[ScriptedRoom, RecordingLink], floor: FloorService) -> Iterator[Dashboard]:
    dashboard = Dashboard(recorded[0].hub, floor=floor, users={"alice": hash_password(PASSWORD)},
                          clock=RunningClock(), clock_period=0.5).start()
    yield dashboard
    dashboard.stop()


class Dealer:
    """Cards on the felt by uid, so a card can move (a fold: seat -> muck)."""

    def __init__(self, room: ScriptedRoom, table: str) -> None:
        self.room, self.table = room, table
        self.uids: dict[str, str] = {}

    def put(self, zone: str, face: str) -> None:
        self.room.uid += 1
        self.uids[face] = f"{self.room.uid:04X}"
        self.room.send(wire.CardEvent(**self.room._base(self.table), type="card_arrived", zone=zone,
                                      uid=self.uids[face], card=face, deck="t1/A", order=self.room.uid))

    def move(self, face: str, src: str, dst: str) -> None:
        self.room.uid += 1
        self.room.send(wire.CardEvent(**self.room._base(self.table), type="card_left", zone=src,
                                      uid=self.uids[face], card=face, deck="t1/A", order=self.room.uid))
        self.room.uid += 1
        self.room.send(wire.CardEvent(**self.room._base(self.table), type="card_arrived", zone=dst,
                                      uid=self.uids[face], card=face, deck="t1/A", order=self.room.uid))


def faces(raw: bytes | str, wanted: set[str]) -> set[str]:
    text = raw.decode() if isinstance(raw, bytes) else raw
    return {face for face in wanted if re.search(rf"\b{face}\b", text)}


def viewer_answers(dashboard: Dashboard) -> str:
    return json.dumps([request(dashboard, "GET", path)[1] for path in ("/api/room", "/api/log?t=t1")])


def test_a_viewer_never_learns_a_burn_a_mucked_card_or_a_hole_card(
        recorded: tuple[ScriptedRoom, RecordingLink], dash: Dashboard) -> None:
    room, link = recorded
    viewer = SseClient(dash.url)
    dealer = Dealer(room, "t1")
    try:
        viewer.wait_for(lambda n, d: n == "room")
        room.configure("t1", {1: 20_000, 2: 20_000, 3: 20_000}, button=1, ruleset="cpt87")
        room.status("t1", True)
        room.new_hand("t1")
        for i in range(2):
            for seat in (2, 3, 1):
                dealer.put(f"seat:{seat}", HOLE[seat][i])
        room.act("t1", 1, "fold")
        for face in HOLE[1]:
            dealer.move(face, "seat:1", "muck")
        room.act("t1", 2, "call")
        room.act("t1", 3, "check")
        for burn, street in zip(BURNS, (BOARD[:3], BOARD[3:4], BOARD[4:]), strict=True):
            dealer.put("burn", burn)
            for face in street:
                dealer.put("board", face)
            room.settle()
            room.act("t1", 2, "check")
            room.act("t1", 3, "check")
        room.settle()
        viewer.wait_for(lambda n, d: n == "update" and d["event"]["type"] == "hand_end")
        hidden = set(BURNS) | set(HOLE[1])  # never face up: burns, the folded hand in the muck
        live = {face for seat in (2, 3) for face in HOLE[seat]}  # face up only once shown at showdown
        streams = bytes(viewer.raw).decode()
        before_end = streams[:streams.index('"hand_end"')]
        assert faces(streams, hidden) == set()
        assert faces(before_end, live) == set()
        assert faces(before_end, set(BOARD)) == set(BOARD)  # the board is face up: it does reach viewers
        assert faces(viewer_answers(dash), hidden) == set()
        public = b"\n".join(payload for _, payload in link.public)
        assert link.public and faces(public, hidden) == set()
        assert faces(b"\n".join(p for t, p in link.public if t == wire.hub_table_state("t1")), live) == set()
    finally:
        viewer.close()


def test_viewer_zones_count_burn_and_muck(recorded: tuple[ScriptedRoom, RecordingLink], dash: Dashboard) -> None:
    """The snapshot a viewer reads shows how many cards lie in the burn and the muck, not which."""
    room, _ = recorded
    dealer = Dealer(room, "t1")
    room.configure("t1", {1: 20_000, 2: 20_000, 3: 20_000}, button=1, ruleset="cpt87")
    room.status("t1", True)
    room.new_hand("t1")
    for i in range(2):
        for seat in (2, 3, 1):
            dealer.put(f"seat:{seat}", HOLE[seat][i])
    room.act("t1", 1, "fold")
    dealer.move("7c", "seat:1", "muck")
    dealer.put("burn", "3s")
    room.settle()
    zones = request(dash, "GET", "/api/room")[1]["tables"]["t1"]["zones"]
    assert zones["burn"] == 1 and zones["muck"] == 1 and zones["seat:1"] == 1

