"""`tapis sim table`: the shipped profile's panel pressed by the simulated players (through the MCP23017
chips on a simulated I2C bus, not `agent.player_action`), plain one-line refusals, a clean SIGTERM."""

from __future__ import annotations

import json
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from hub.edge.broker import EmbeddedBroker
from hw.decks import DeckRegistry
from hw.profile import TableProfile
from simulators.cli import main
from simulators.dealer import Felt
from simulators.demo import Room, start_hub
from simulators.panel import PanelSimulator
from simulators.reader_board import ReaderBoardSimulator
from simulators.sim_table import FingerTime, Players, run_sim_table, seat_fingers, sim_pins
from table_agent.panel_setup import attach_profile_panel
from tablewire import wire
from tablewire.mqtt import MqttLink
from tests.agent.test_panel_setup import DEPLOY_PROFILE, _agent, _deal_to, _drain, _Hub
from tests.support import wait_until

ROOT = Path(__file__).resolve().parents[2]


def test_players_act_by_pressing_the_shipped_panel_on_its_simulated_expanders() -> None:
    profile = TableProfile.load(DEPLOY_PROFILE)
    pins, bus = sim_pins(profile.panel)
    assert bus is not None and sorted(bus.regs) == [0x20, 0x21, 0x22, 0x23, 0x24]
    hub = _Hub("t1")
    agent = _agent(profile, hub)
    agent.player_action = lambda *a, **k: pytest.fail("a simulated player pressed no button")  # type: ignore[method-assign]
    attached, close = attach_profile_panel(agent, profile, pin_factory=pins, bus=bus)
    try:
        panel = agent._panel
        assert panel is not None and attached is panel
        registry = DeckRegistry.generate(["t1"])
        with ReaderBoardSimulator(antennas=profile.antenna_count) as board:
            felt = Felt(profile=profile, registry=registry, board=board)
            fingers = PanelSimulator(panel, FingerTime(), bus=bus)  # type: ignore[arg-type]
            calls = seat_fingers(fingers, felt, Players(random.Random(1), allin_rate=0.0, fold_rate=0.0))
            shoves = seat_fingers(fingers, felt, Players(random.Random(1), allin_rate=1.0))
            _deal_to(hub, 3, 100)
            _drain(agent)
            calls(3, 100, None)
            _drain(agent)
            _deal_to(hub, 4, 0)
            _drain(agent)
            shoves(4, 0, None)  # held past allin_hold_ms on the real clock
            _drain(agent)
    finally:
        close()
        pins.reset()
        pins.close()
    acted = [(e["seat"], e["action"]) for e in hub.events if e["type"] == "action"]
    assert acted == [(3, "call"), (4, "allin")]


def test_players_choose_every_move() -> None:
    players = Players(random.Random(3), allin_rate=0.2, fold_rate=0.2)
    facing = {players.choose(100) for _ in range(400)}
    assert facing == {"allin", "fold", "muck", "call"}
    assert {players.choose(0) for _ in range(400)} == {"allin", "check"}


def test_most_players_fold_to_a_push() -> None:
    """Issue #30, point 10: a night's pace: facing more than five big blinds four in five fold (at the old
    default the first hand emptied a table)."""
    players = Players(random.Random(5), allin_rate=0.0)
    pushed = [players.choose(2_000, 100) for _ in range(1_000)]
    bet = [players.choose(200, 100) for _ in range(1_000)]
    assert 750 <= sum(c in ("fold", "muck") for c in pushed) <= 850
    assert 100 <= sum(c in ("fold", "muck") for c in bet) <= 200


@pytest.mark.parametrize("args, words", [
    (["--profile", "/nonexistent.toml"], "/nonexistent.toml"),
    (["--decks", str(ROOT / "deploy" / "etc-tapis" / "decks.toml")], "tapis sim decks"),  # 3 cards a deck
])
def test_a_wrong_file_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             args: list[str], words: str) -> None:
    (tmp_path / "decks.toml").write_text(DeckRegistry.generate(["t1"]).dump(), encoding="utf-8")
    base = {"--profile": str(DEPLOY_PROFILE), "--decks": str(tmp_path / "decks.toml"), "--broker": "mqtt://127.0.0.1:1"}
    base.update(dict(zip(args[::2], args[1::2], strict=True)))
    code = main(["sim", "table", *[x for pair in base.items() for x in pair]])
    err = capsys.readouterr().err
    assert code == 2 and words in err and err.startswith("tapis sim table: ") and err.count("\n") == 1, err


@pytest.mark.parametrize("bad", [["--pace", "0"], ["--boxed-rate", "2"], ["--hands", "0"], ["--away-hands", "0"]])
def test_a_wrong_option_is_refused(bad: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["sim", "table", "--profile", "p", "--decks", "d", "--broker", "mqtt://127.0.0.1:1", *bad])
    assert exit_.value.code == 2 and bad[0] in capsys.readouterr().err


def test_sim_decks_writes_full_decks_and_refuses_a_bad_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "decks", "t1", "t2"]) == 0
    (tmp_path / "decks.toml").write_text(capsys.readouterr().out, encoding="utf-8")
    registry = DeckRegistry.load(tmp_path / "decks.toml")
    assert [len(registry.deck(d).cards) for d in ("t1/A", "t1/B", "t2/A", "t2/B")] == [52] * 4
    assert main(["sim", "decks", "t1/x"]) == 2
    assert "not a table id" in capsys.readouterr().err


def test_a_sim_table_presses_new_hand_on_its_panel_and_stops_on_sigterm(tmp_path: Path,
                                                                        broker: EmbeddedBroker) -> None:
    (tmp_path / "decks.toml").write_text(DeckRegistry.generate(["t1"]).dump(), encoding="utf-8")
    seen: queue.Queue[dict[str, object]] = queue.Queue()
    hub = MqttLink(client_id="test-hub", host=broker.host, port=broker.port)
    hub.subscribe(wire.table_events("t1"), lambda m: seen.put(json.loads(m.payload)))
    hub.start()
    proc = subprocess.Popen([sys.executable, "-m", "tapis", "sim", "table", "--profile", str(DEPLOY_PROFILE),
                             "--decks", str(tmp_path / "decks.toml"), "--broker", f"mqtt://{broker.host}:{broker.port}",
                             "--scan-ms", "40"], stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        pressed = []

        def new_hand_pressed() -> bool:
            try:
                event = seen.get(timeout=0.2)
            except queue.Empty:
                return False
            pressed.append(event)
            return event.get("type") == "dealer" and event.get("button") == "new_hand"

        assert wait_until(new_hand_pressed, 30), pressed  # the dealer's button, held on the mock GPIO17
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
        hub.stop()
    assert proc.returncode == 0, err
    assert "table t1, reader board on /dev/pts/" in err and "stopped after 0 hands" in err, err


@pytest.mark.parametrize("bad, words", [
    (["--fault-rate", "2"], "fault rate 2.0: expected 0 to 1"),
    (["--fault-rate", "often"], "--fault-rate 'often'"),
    (["--fault-rate", "0.5", "--faults", "boxed_card,duplicate_card"], "cannot make duplicate_card"),
    (["--fault-rate", "0.5", "--faults", "nope"], "no fault kind nope"),
    (["--faults", "boxed_card"], "--faults goes with --fault-rate"),
])
def test_a_wrong_fault_option_is_one_line_and_exit_2(bad: list[str], words: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["sim", "table", "--profile", "p", "--decks", "d", "--broker", "mqtt://127.0.0.1:1", *bad])
    err = capsys.readouterr().err
    assert code == 2 and words in err and err.startswith("tapis sim table: ") and err.count("\n") == 1, err


def test_a_sim_table_makes_its_faults_has_them_ruled_and_keeps_its_outbox_in_sqlite(
        tmp_path: Path, broker: EmbeddedBroker) -> None:
    (tmp_path / "decks.toml").write_text(DeckRegistry.generate(["t1"]).dump(), encoding="utf-8")
    room = Room(hub=None, tables=[], registry=DeckRegistry.generate(["t1"]))
    start_hub(room, host=broker.host, port=broker.port, ids=["t1"], seed=3)
    assert room.hub is not None
    events: list[dict[str, Any]] = []
    room.hub.add_listener(events.append)
    stop = threading.Event()
    outbox = tmp_path / "outbox.db"
    try:
        code = run_sim_table(str(DEPLOY_PROFILE), str(tmp_path / "decks.toml"), f"mqtt://{broker.host}:{broker.port}",
                             stop=stop, pace=0.03, scan_ms=40, hands=2, allin_rate=0.0, fault_rate=1.0,
                             fault_kinds=["boxed_card", "flop_without_burn"], outbox=str(outbox))
    finally:
        room.close()
    assert code == 0
    faults = [(e["kind"], e["ruling"]["decision"]) for e in events if e["type"] == "fault"]
    assert faults[:1] in ([("boxed_card", "set_aside")], [("flop_without_burn", "designate_burn")]), faults
    assert len([e for e in events if e["type"] == "hand_end"]) >= 2
    with sqlite3.connect(outbox) as db:  # the agent's own store-and-forward file, as `tapis agent --outbox`
        assert db.execute("SELECT name FROM sqlite_master WHERE name = 'outbox'").fetchone() == ("outbox",)
