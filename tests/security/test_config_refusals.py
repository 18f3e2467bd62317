"""Silent acceptance and tracebacks (#15 point 10): each bad input is one line naming the file or
the key, exit status 2, or a refusal at load, never a traceback nor a silent change.
"""

from __future__ import annotations

import queue
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hub.dashboard import Dashboard
from hub.floor.commands import CommandError, decode_command
from hub.floor.store import EventStore, StoreError
from hub.floor.td import td_main
from hub.tournament.errors import StructureError
from hub.tournament.structure import from_toml, pouques_2020, to_toml
from hw.decks import DeckRegistry
from hw.errors import ConfigError
from hw.ports import MonotonicClock
from table_agent.reader import LinkChanged, ReaderWorker
from tablewire.broker_url import parse_url
from tests.dashboard.helpers import ScriptedRoom

# --- deck registry ---------------------------------------------------------------------------------

DECKS = {
    "deck-is-a-number": "deck = 5\n",
    "deck-is-a-string": 'deck = "t1"\n',
    "empty": "",
    "no-deck": "[other]\nx = 1\n",
    "same-tag-twice": '[deck.a]\ntable = "t1"\n[deck.a.cards]\n04A1B2C3 = "As"\n"04:A1:B2:C3" = "Kd"\n',
    "card-a-number": '[deck.a]\n[deck.a.cards]\n04A1B2C3 = 5\n',
    "table-a-number": '[deck.a]\ntable = 3\n[deck.a.cards]\n04A1B2C3 = "As"\n',
    "bad-uid": '[deck.a]\n[deck.a.cards]\nZZ = "As"\n',
    "bad-card": '[deck.a]\n[deck.a.cards]\n04A1B2C3 = "Zz"\n',
    "binary": "\udcff\udcfe\x00",
}


@pytest.mark.parametrize("case", sorted(DECKS))
def test_deck_registry_refused_at_load(case: str, tmp_path: Path) -> None:
    path = tmp_path / f"{case}.toml"
    path.write_bytes(DECKS[case].encode("utf-8", "surrogateescape"))
    with pytest.raises(ConfigError) as err:
        DeckRegistry.load(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_a_good_registry_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "decks.toml"
    path.write_text(DeckRegistry.generate(["t1"]).dump())
    assert len(DeckRegistry.load(path)) == 104


# --- broker URLs -----------------------------------------------------------------------------------

@pytest.mark.parametrize("url", ["http://127.0.0.1:1883", "mqtts://127.0.0.1:8883", "mqtt://127.0.0.1:99999",
                                 "mqtt://127.0.0.1:0", "mqtt://:1883", "mqtt://h:x", "ws://h:1", "h:١٢",
                                 "mqtt://http://h:1883"])
def test_broker_urls_refused_at_once(url: str) -> None:
    with pytest.raises(ValueError, match="broker URL"):
        parse_url(url)


def test_good_broker_urls() -> None:
    assert parse_url("mqtt://127.0.0.1:1883") == ("127.0.0.1", 1883)
    assert parse_url("localhost:65535") == ("localhost", 65535)


def test_td_command_line_with_an_https_broker_exits_2_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    began = time.monotonic()
    assert td_main(["status", "--broker", "http://127.0.0.1:1883"]) == 2
    assert time.monotonic() - began < 5 and "broker URL" in capsys.readouterr().err


# --- TD command line: numbers and names ------------------------------------------------------------

def _new(db: Path, *extra: str) -> list[str]:
    return ["new", "--ruleset", "pouques-2020", "--structure", "pouques", "--db", str(db), *extra]


@pytest.mark.parametrize("buy_in", ["inf", "-inf", "nan", "-5", "1e300"])
def test_buy_in_must_be_finite(buy_in: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    assert td_main([*_new(db), f"--buy-in={buy_in}"]) == 2
    assert "--buy-in" in capsys.readouterr().err


@pytest.mark.parametrize("args", [["level", "inf"], ["level", "nan"], ["add", "inf"], ["add", "nan"],
                                  ["remove", "inf"], ["level", "2.5"]])
def test_clock_values_must_be_finite(args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    assert td_main([*_new(db), "--buy-in", "10"]) == 0
    assert td_main(["clock", *args, "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tapis tournament clock:") and err.count("\n") == 1, err


@pytest.mark.parametrize("minutes", ["inf", "-inf", "nan", "1e400"])
def test_structure_minutes_must_be_finite(minutes: str) -> None:
    text = to_toml(pouques_2020()).replace("minutes = 40", f"minutes = {minutes}", 1)
    assert text != to_toml(pouques_2020())
    with pytest.raises(StructureError):
        from_toml(text)


@pytest.mark.parametrize("name", ["", " ", "Ada\nBea", "Ada\r", "\x1b[31mred", " Ada", "x" * 61])
def test_register_refuses_blank_and_multiline_names(name: str, tmp_path: Path) -> None:
    with pytest.raises(CommandError):
        decode_command({"cmd": "register", "players": [name]})
    db = tmp_path / "t.db"
    assert td_main([*_new(db), "--buy-in", "10"]) == 0
    assert td_main(["register", name, "--db", str(db)]) == 2
    assert decode_command({"cmd": "register", "players": ["Ana-María O'Neil"]})


# --- ports, files of other programs ----------------------------------------------------------------

@pytest.mark.parametrize("port", [70000, -1])
def test_dashboard_port_out_of_range(port: int) -> None:
    room = ScriptedRoom()
    with pytest.raises(ValueError, match="dashboard port"):
        Dashboard(room.hub, port=port)


def test_hub_dashboard_70000_exits_2_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "hub.cli", "hub", "--dashboard", "70000"], capture_output=True,
                          text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "dashboard port 70000" in done.stderr


def _foreign(path: Path) -> bytes:
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)")
        con.execute("INSERT INTO invoices (amount) VALUES (12.5)")
    con.close()
    return path.read_bytes()


def test_another_programs_sqlite_file_is_left_untouched(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "accounts.db"
    before = _foreign(path)
    with pytest.raises(StoreError, match="another program"):
        EventStore(path)
    assert td_main(["status", "--db", str(path)]) == 2
    assert "another program" in capsys.readouterr().err
    assert path.read_bytes() == before
    with sqlite3.connect(path) as con:
        names = {n for (n,) in con.execute("SELECT name FROM sqlite_master")}
    assert names == {"invoices"}


def test_tapis_stores_still_open(tmp_path: Path) -> None:
    path = tmp_path / "room.db"
    with EventStore(path) as store:
        store.put_config("k", 1)
    with EventStore(path) as store:
        assert store.get_config("k") == 1
    legacy = tmp_path / "legacy.db"  # made before the application id: user_version and our tables
    with EventStore(legacy) as store:
        store.put_config("k", 2)
    with sqlite3.connect(legacy) as con:
        con.execute("PRAGMA application_id=0")
    con.close()
    with EventStore(legacy) as store:
        assert store.get_config("k") == 2


# --- a reader that is not there --------------------------------------------------------------------

def test_a_missing_serial_device_is_a_reader_down() -> None:
    out: queue.Queue[object] = queue.Queue()

    def missing() -> object:
        raise FileNotFoundError(2, "No such file or directory", "/dev/ttyACM7")

    worker = ReaderWorker(open_link=missing, out=out, clock=MonotonicClock(), retry_max=0.05)  # type: ignore[arg-type]
    worker.start()
    try:
        first = out.get(timeout=5)
        assert isinstance(first, LinkChanged) and not first.up and "/dev/ttyACM7" in first.detail
        time.sleep(0.5)  # several more tries: said once, not once per try
        assert out.empty()
    finally:
        worker.stop()


def test_an_agent_without_its_serial_device_publishes_its_reader_lost() -> None:
    """Through the table agent: the status every screen shows says the reader is down, naming the device."""
    from hw.ports import ManualClock
    from hw.profile import TableProfile
    from table_agent.agent import TableAgent
    from tests.pcsc.agent_fakes import RecordingPublisher
    from tests.support import wait_until

    def missing() -> object:
        raise FileNotFoundError(2, "No such file or directory", "/dev/ttyACM7")

    publisher = RecordingPublisher("t1")
    agent = TableAgent(profile=TableProfile.default("t1", seats=9), registry=DeckRegistry.generate(["t1"]),
                       open_link=missing, publisher=publisher, clock=ManualClock(100.0))  # type: ignore[arg-type]
    agent.start()
    try:
        def lost() -> list[dict[str, object]]:
            return [e for e in publisher.all() if e["type"] == "reader_status" and e.get("state") == "lost"]
        assert wait_until(lambda: lost(), 5), [e["type"] for e in publisher.all()]
        assert "/dev/ttyACM7" in str(lost()[0]["detail"])
    finally:
        agent.stop()
