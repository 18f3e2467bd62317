"""One deck naming end to end (issue #14, point 2): the hub deals a tournament table from the decks its
profile and the shipped deck registry name (`<table>/A`, `<table>/B`); a table whose decks the hub
would not accept is refused at start in plain words, never a stream of cancelled hands."""

from __future__ import annotations

import queue
from pathlib import Path
from typing import Any

import pytest
from service_helpers import started_floor

from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from hw.decks import DeckRegistry
from hw.errors import ConfigError
from hw.ports import ManualClock
from hw.profile import TableProfile
from table_agent.agent import TableAgent
from tablewire import wire
from tablewire.mqtt import Message
from tests.pcsc.agent_fakes import RecordingPublisher

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "etc-tapis"


def test_the_tournament_hub_names_the_decks_the_shipped_files_name(tmp_path: Path) -> None:
    profile = TableProfile.load(DEPLOY / "table.toml")
    registry = DeckRegistry.load(DEPLOY / "decks.toml")
    with EventStore(str(tmp_path / "floor.db")) as store:
        floor = started_floor(store, 12, tables=2)
        tables = FloorTables(floor, store)
        press = wire.DealerPressed(table=profile.table, boot="b1", seq=1, at=1.0, button="new_hand", seat=None)
        out = tables.receive(profile.table, press, wire.encode(press), 1.0)
    assert out is not None
    contexts = [c for c in out.commands if isinstance(c, wire.HandContextCmd)]
    assert contexts, out.events
    assert set(contexts[0].table_decks) == set(profile.deck_ids) == {"t1/A", "t1/B"}
    assert {d.id for d in registry.decks_of(profile.table)} >= set(contexts[0].table_decks)
    assert contexts[0].deck in contexts[0].table_decks


def test_a_profile_naming_other_decks_is_refused() -> None:
    with pytest.raises(ValueError, match="t1/A") as err:
        TableProfile.model_validate({"table": "t1", "seats": 2, "reader": {"url": "loop://"}, "decks": ["A", "B"],
                                     "antennas": {0: "seat:1", 1: "seat:2", 2: "board", 3: "burn", 4: "muck",
                                                  5: "tray"}})
    assert "nommez" in str(err.value) and "name them" in str(err.value)


class _Reader:
    def __init__(self, **_: Any) -> None: ...

    def start(self) -> None: ...

    def stop(self, timeout: float = 2.0) -> None: ...


def test_an_agent_whose_registry_lacks_the_tables_decks_is_refused_at_start() -> None:
    with pytest.raises(ConfigError, match="t1/A") as err:
        TableAgent(profile=TableProfile.default("t1"), registry=DeckRegistry.generate(["t2"]), open_link=None,
                   publisher=RecordingPublisher("t1"), clock=ManualClock(0.0), reader_factory=_Reader)
    assert "registre des jeux" in str(err.value) and "deck registry" in str(err.value)


class _CommandPublisher(RecordingPublisher):
    def __init__(self, table: str) -> None:
        super().__init__(table)
        self.handlers: dict[str, Any] = {}

    def subscribe(self, pattern: str, handler: Any) -> Any:
        self.handlers[pattern] = handler
        return lambda: None


def test_a_hub_naming_other_decks_is_said_once_and_the_tables_decks_are_used() -> None:
    publisher = _CommandPublisher("t1")
    agent = TableAgent(profile=TableProfile.default("t1"), registry=DeckRegistry.generate(["t1"]), open_link=None,
                       publisher=publisher, clock=ManualClock(0.0), reader_factory=_Reader)
    for hand in (1, 2):
        cmd = wire.HandContextCmd(hand=hand, seats=[1, 2], button=1, first_to_deal=2, deck="A", table_decks=["A", "B"])
        publisher.handlers[wire.table_commands("t1")](Message(wire.table_commands("t1"), wire.encode(cmd), False))
    inbox: queue.Queue[object] = agent._inbox
    while not inbox.empty():
        agent._handle(inbox.get())
    assert agent.watch.context is not None and agent.watch.context.table_decks == ["t1/A", "t1/B"]
    said = [e for e in publisher.all() if e["type"] == "reader_status"]
    assert len(said) == 1 and "A, B" in str(said[0]["detail"]) and "t1/A" in str(said[0]["detail"])


def test_the_doctor_fails_a_registry_without_the_tables_decks(tmp_path: Path) -> None:
    from table_agent.doctor import Status, check_config

    (tmp_path / "decks.toml").write_text(DeckRegistry.generate(["t2"]).dump())
    findings, _ = check_config(DEPLOY / "table.toml", tmp_path / "decks.toml")
    decks = [f for f in findings if f.check == "decks"]
    assert decks and decks[0].status is Status.FAIL and "t1/A" in decks[0].message
