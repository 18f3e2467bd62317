"""The tournament's retained views on MQTT (`hub.floor.clock_topics`): the clock apart from each table's
seats, so that a festival's clock fits in a packet and a hand re-sends one table, not the room."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from unittest.mock import ANY

import pytest
from service_helpers import started_floor

from hub.edge.security import MAX_PACKET
from hub.floor.clock_topics import CLOCK_SCHEMA, REFRESH, ClockTopics, TableTexts, snapshot_text
from hub.floor.commands import TOURNAMENT_CLOCK, tournament_table_topic
from hub.floor.service import FloorService
from hub.floor.store import EventStore


class Link:
    def __init__(self) -> None:
        self.published: list[tuple[str, bytes, bool]] = []
        self.reconnect: list[object] = []

    def subscribe(self, pattern: str, handler: object) -> None:
        pass

    def on_connect(self, hook: object) -> None:
        self.reconnect.append(hook)

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        self.published.append((topic, payload, retain))

    def take(self) -> dict[str, bytes]:
        out = {topic: payload for topic, payload, retain in self.published if retain}
        assert len(out) == len(self.published), "every view is retained, each topic once"
        self.published.clear()
        return out


Opened = Callable[[int], tuple[FloorService, Link]]


@pytest.fixture
def opened(tmp_path: Path) -> Iterator[Opened]:
    """A started tournament of so many players, its floor on `Link`, pumped once (at 10.0)."""
    with EventStore(tmp_path / "t.db") as store:
        def open_floor(players: int) -> tuple[FloorService, Link]:
            link = Link()
            started_floor(store, players)
            floor = FloorService.open(store, link=link)  # type: ignore[arg-type]
            floor.pump(10.0)
            return floor, link
        yield open_floor


def test_a_festivals_clock_and_each_table_fit_in_a_packet(opened: Opened) -> None:
    """9,000 players: every seat in one message was ~640 kB, over the broker's 256 kB; it refused it and
    the clock screens froze on the last one they had."""
    _, link = opened(9_000)
    sent = link.take()
    clock = json.loads(sent.pop(TOURNAMENT_CLOCK))
    assert clock["schema"] == CLOCK_SCHEMA and clock["players_left"] == 9_000
    assert len(json.dumps(clock)) < 32_000
    assert len(sent) == len(clock["table_numbers"]) > 800
    assert max(len(payload) for payload in sent.values()) < MAX_PACKET // 100
    seated = [seat["player"] for payload in sent.values() for seat in json.loads(payload)["seats"].values()]
    assert len(seated) == len(set(seated)) == 9_000


def test_a_hand_sends_its_table_again_and_the_clock_not_the_room(opened: Opened) -> None:
    floor, link = opened(60)
    first = link.take()
    assert len(first) == 1 + 6
    floor.pump(11.0)  # nothing happened: the clock ticks, no table is sent again
    assert list(link.take()) == [TOURNAMENT_CLOCK]
    floor.hand_started("t3", 1, 11.5)
    floor.pump(12.0)
    sent = link.take()
    assert list(sent) == [tournament_table_topic(3), TOURNAMENT_CLOCK]
    assert json.loads(sent[tournament_table_topic(3)])["in_hand"] is True
    for hook in link.reconnect:  # the broker may have lost its retained messages: all again
        hook()  # type: ignore[operator]
    floor.pump(12.1)
    assert set(link.take()) == set(first)


def test_a_table_gone_is_cleared_and_a_restarted_hub_clears_what_it_no_longer_has() -> None:
    link = Link()
    one, two, three = ({"seats": {"1": {"player": name}}} for name in ("Ada", "Bea", "Cyd"))
    topics = ClockTopics(link)
    topics.publish({"level": 1, "tables": {"1": one, "2": two, "3": three}}, 3, 0.0)
    assert len(link.take()) == 4
    topics.publish({"level": 1, "tables": {"1": one, "3": three}}, 3, 1.0)  # table 2 broken up
    assert link.take() == {tournament_table_topic(2): b"", TOURNAMENT_CLOCK: json.dumps(
        {"level": 1, "schema": CLOCK_SCHEMA, "table_numbers": [1, 3]}).encode()}
    restarted = ClockTopics(link)  # a hub started again: table 2 and 4 went while it was down
    restarted.publish({"level": 1, "tables": {"1": one, "3": three}}, 4, 2.0)
    sent = link.take()
    assert sent[tournament_table_topic(2)] == sent[tournament_table_topic(4)] == b""
    assert json.loads(sent[tournament_table_topic(3)]) == three
    restarted.publish({"level": 1, "tables": {"1": one, "3": dict(three)}}, 4, 3.0)  # rebuilt, the same: not sent
    assert list(link.take()) == [TOURNAMENT_CLOCK]
    restarted.publish({"level": 1, "tables": {"1": one, "3": three}}, 4, 2.0 + REFRESH)  # a minute on: all again
    assert link.take() == {**{tournament_table_topic(n): json.dumps(v, separators=(",", ":")).encode()
                              for n, v in ((1, one), (3, three))},
                           tournament_table_topic(2): b"", tournament_table_topic(4): b"", TOURNAMENT_CLOCK: ANY}


def test_the_dashboards_clock_text_is_the_snapshot_each_table_encoded_once(tmp_path: Path) -> None:
    """The dashboard streams the whole snapshot every second; its tables' text is kept until they change."""
    texts = TableTexts()
    with EventStore(tmp_path / "t.db") as store:
        floor = started_floor(store, 60)
        first = floor.snapshot(10.0)
        assert json.loads(snapshot_text(first, texts)) == first
        floor.hand_started("t2", 1, 11.0)
        second = floor.snapshot(11.5)
        assert json.loads(snapshot_text(second, texts)) == second != first
        encoded = [texts.text(n, view)[1] for n, view in second["tables"].items()]
        assert encoded == [False] * 6  # all kept: none encoded again
        assert [first["tables"][n] is view for n, view in second["tables"].items()] == [
            n != "2" for n in second["tables"]]
    assert json.loads(snapshot_text({"tables": {}}, texts)) == {"tables": {}}
