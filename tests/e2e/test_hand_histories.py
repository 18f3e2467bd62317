"""Every hand on record (issue #32), in real processes: the room of `test_room_as_installed` (the closed
Mosquitto, `tapis hub --db`, three `tapis sim table` whose croupiers make dealing faults, a TD who
decides what the tables wait for with `tapis tournament decide`) plays until HANDS hands have ended;
`tapis hands export` writes one history per hand, the public and the TD's, and PokerKit replays every
played one to the finishing stacks the hub published for that hand (over MQTT, not from the file). A
misdeal or a hand cancelled (no PHH can say "void") must hold its starting stacks, or its shared pot; a
hand whose dead big blind never got his turn (PHH cannot say it either) must say so in its record.
The statistics count the faults the hub published for those hands, and the tables' own in the store.

HANDS is what runs in about two minutes on a 2-core machine (the figures are printed); the issue's
200: `TAPIS_HISTORY_HANDS=200`.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
import tomllib
import warnings
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

import pytest

from hub.edge.broker import find_mosquitto
from hub.floor.store import EventStore
from hub.history.stats import statistics
from hub.history.store import HistoryStore
from hub.rules.phh import loads, replay_hand
from tablewire import wire
from tests.e2e import test_room_as_installed as installed
from tests.support import wait_until

pokerkit = pytest.importorskip("pokerkit")

HANDS = int(os.environ.get("TAPIS_HISTORY_HANDS", "30"))
PLAYERS = [f"Joueur{i:02d}" for i in range(1, 28)]  # nine a table: three tables the whole time
STRUCTURE = """name = "Historique"
starting_stack = 20000

[[item]]
level = 1
small_blind = 50
big_blind = 100
ante = 0
minutes = 60

[[item]]
level = 2
small_blind = 100
big_blind = 200
ante = 25
minutes = 60
"""
SIM = ("--pace", "0.02", "--scan-ms", "30", "--allin-rate", "0.01", "--fault-rate", "0.25")


def _td(room: installed.Room, watcher: installed.Watcher, stop: threading.Event, decided: Counter[str]) -> None:
    """The TD: every decision a table waits for, the first option offered, with `tapis tournament decide`."""
    done: set[tuple[str, int, str]] = set()
    while not stop.is_set():
        for e in watcher.seen(lambda e: e["type"] == "fault" and (e.get("ruling") or {}).get("decision")
                              == "td_decision" and not e["ruling"].get("joins")):
            key = (e["table"], e["hand"], str(e.get("kind")))
            if key in done:
                continue
            done.add(key)
            option = e["ruling"]["options"][0]
            try:
                room.td("decide", e["table"], option, "--kind", str(e.get("kind")))
                decided[option] += 1
            except AssertionError:  # moot meanwhile (the hand ended): the hub refused it, in words
                decided["refused"] += 1
        stop.wait(0.3)


def _pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = None
        for state in pokerkit.HandHistory.loads(text):  # noqa: B007 - the last state is the hand's end
            pass
    assert state is not None
    return [int(v) for v in state.stacks]


def test_every_hand_of_a_room_with_faults_is_on_record_and_pokerkit_replays_it(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(installed, "SIM_OPTIONS", SIM)
    room = installed.Room(tmp_path)
    room.install()
    (room.etc / "structure.toml").write_text(STRUCTURE, encoding="utf-8")
    db = str(room.db)
    installed.run("tournament", "new", "--db", db, "--ruleset", "cdc-2013", "--structure",
                  str(room.etc / "structure.toml"), "--tables", "3", "--seats", "9", "--buy-in", "20",
                  "--payouts", "50,30,20", "--seed", "5")
    installed.run("tournament", "register", "--db", db, *PLAYERS)
    installed.run("tournament", "seat", "--db", db)
    broker = subprocess.Popen([find_mosquitto(), "-c", str(tmp_path / "mosquitto.conf")], cwd=tmp_path,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    decided: Counter[str] = Counter()
    with ExitStack() as stack:
        stack.callback(broker.wait, 10)
        stack.callback(broker.terminate)
        stack.callback(room.stop)
        assert wait_until(lambda: installed._listening(room.tls_port) and installed._listening(room.port), 20)
        hub = room.start("hub", room.hub_command())
        watcher = installed.Watcher(room)
        watcher.link.start(timeout=30)
        stack.callback(watcher.link.stop)
        assert wait_until(lambda: "listening" in room.log("hub"), 30), room.log("hub")
        room.td("start")
        stop = threading.Event()
        td = threading.Thread(target=_td, args=(room, watcher, stop, decided), name="td", daemon=True)
        td.start()
        stack.callback(td.join, 30)
        stack.callback(stop.set)
        started = time.monotonic()
        for table in installed.TABLES:
            room.start(table, room.agent_command(table))

        def ended() -> int:
            assert hub.poll() is None, room.log("hub")[-3000:]
            return len(watcher.seen(lambda e: e["type"] == "hand_end"))

        assert wait_until(lambda: ended() >= HANDS, 60 + HANDS * 10, step=0.5), \
            (ended(), [room.log(t)[-2000:] for t in installed.TABLES])
        played = time.monotonic() - started
        codes = room.stop()
        assert codes["hub"] == 0, room.log("hub")[-3000:]
        ends = {(e["table"], e["hand"]): e for e in watcher.seen(lambda e: e["type"] == "hand_end")}
        published = [e for e in watcher.seen(lambda e: e["type"] == "fault") if (e["table"], e["hand"]) in ends]
        faults = Counter(str(e.get("kind")) for e in published)
    public, td_dir = tmp_path / "public", tmp_path / "td"
    installed.run("hands", "export", "--db", db, "--out", str(public))
    installed.run("hands", "export", "--db", db, "--out", str(td_dir), "--td")
    files = sorted(public.glob("*.phh"))
    assert len(files) == len(ends) >= HANDS, (len(files), len(ends))
    replay_started = time.monotonic()
    void = unsaid = 0
    for version in (public, td_dir):
        for path in sorted(version.glob("*.phh")):
            text = path.read_text(encoding="utf-8")
            doc = tomllib.loads(text)
            end = ends[(doc["table"], doc["hand"])]
            hub_stacks = [int(end["stacks"][str(s)]) for s in doc["seats"]]
            assert doc["finishing_stacks"] == hub_stacks, path.name
            if doc["_tapis_void"]:  # a misdeal or a hand cancelled: no PHH says void; its stacks as ruled
                void += 1
                assert end["result"] in ("misdeal", "cancelled")
                if not end.get("pots"):
                    assert hub_stacks == doc["starting_stacks"], path.name
                continue
            if not doc["_tapis_replayable"]:
                # What PHH cannot say, said in the record and counted below: a hand a ruling made dead (an
                # absent player's big blind) whose turn never came, everyone else folding to one player
                # before it (the hub ends the hand there, PHH waits for that player's action); a split
                # pot's odd chips one each (brest VIII.13, pcpm: PHH gives them all to the first winner).
                dead = [r for r in doc["_tapis_rulings"] + doc["_tapis_faults"] if r.get("decision") == "hand_dead"]
                said = doc["_tapis_problems"]
                assert (dead and said == ["the actions end before the hand does"]) or \
                    (len(said) == 1 and said[0].startswith("odd chips one each")), (path.name, said)
                unsaid += 1
                continue
            assert _pokerkit_stacks(text) == hub_stacks, (path.name, text)
            assert list(replay_hand(loads(text))) == hub_stacks, path.name  # and `tapis phh`'s engine
    replay = time.monotonic() - replay_started
    # what PHH cannot say is counted and bounded: a twentieth of the hands at most (one in 200 here)
    assert unsaid // 2 <= max(1, len(files) // 20), (unsaid // 2, len(files))
    # the statistics' faults: those the hub published for these hands, and the table's own in the event store
    with EventStore(db) as store:
        stats = statistics(HistoryStore(store).records())[0]
        stored: Counter[str] = Counter()
        for row in store.table_rows():
            event = wire.decode_table_event(wire.table_events(row.table), row.payload)
            if isinstance(event, wire.FaultSeen) and event.kind != "out_of_turn" and (row.table, event.hand) in ends:
                stored[str(event.kind)] += 1
    assert stats.hands == len(ends) and dict(stats.faults) == dict(faults), (stats.faults, faults)
    assert {k: stats.faults[k] for k in stored} == dict(stored), (stats.faults, stored)
    assert set(stats.faults) - set(stored) <= {"insufficient_bet", "out_of_turn", "time_expired"}  # the engine's
    print(f"\n{len(ends)} hands ended in {played:.0f} s of play ({len(ends) / played * 3600:.0f} an hour, 3 tables); "
          f"{len(files)} histories each version, {void // 2} void, {unsaid // 2} a dead hand PHH cannot say; "
          f"PokerKit and ours replayed {2 * len(files) - void - unsaid} to the hub's stacks in {replay:.1f} s; "
          f"faults {dict(faults)}; TD decisions {dict(decided)}")
