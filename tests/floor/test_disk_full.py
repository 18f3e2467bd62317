"""Nothing lost on a full disk: the hub acknowledges only what its store holds.

A real `tapis hub --db` process on a real Mosquitto, its store on a small tmpfs that we fill while
seq 6-10 arrive, then free before seq 11: the table's outbox (the agent's `OutboxSender`) must keep
6-10 while the disk is full, the hub must say so (retained `hub/health`, not as "malformed"), and
once the disk has room the store holds 1-11 and only then is the outbox empty. Where mounting is not
permitted, the same story runs in-process with the store's writes failing at its boundary.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest

from hub.dashboard import Dashboard
from hub.edge.broker import EmbeddedBroker
from hub.edge.service import HubService
from hub.edge.shard import hub_health_topic
from hub.floor.service import FloorService
from hub.floor.store import EventStore, StoreError
from hub.floor.tables import FloorTables
from hw.ports import ManualClock
from simulators.tournament_room import TableLine
from tablewire import wire
from tablewire.mqtt import Message, MqttLink
from tests.support import wait_until

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)],
                          capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.decode().strip()}): the injected test covers it")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path) -> Path:
    """Write until the disk says ENOSPC; returns the filler to delete."""
    filler = disk / "filler"
    # unbuffered: a buffered file would flush its refused bytes again when closed, and raise there
    with open(filler, "wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 65536)
                out.flush()
                os.fsync(out.fileno())
        except OSError:
            pass
    return filler


class Health:
    def __init__(self, host: str, port: int) -> None:
        self.last: dict[str, object] = {}
        self.hub_online = False
        self.link = MqttLink(client_id="health-viewer", host=host, port=port)
        self.link.subscribe(hub_health_topic(None), self._got)
        self.link.subscribe(wire.HUB_STATUS, lambda m: setattr(self, "hub_online", m.payload == wire.ONLINE))
        self.link.start()

    def _got(self, message: Message) -> None:
        self.last = json.loads(message.payload)


def status(seq: int) -> wire.ReaderStatus:
    return wire.ReaderStatus(table="t1", boot="b1", seq=seq, at=float(seq), state="connected", detail=f"n{seq}")


def send(line: TableLine, seqs: range) -> None:
    for seq in seqs:
        assert line.sender.next_seq() == seq
        line.sender.send(status(seq))


def pending(line: TableLine) -> list[int]:
    line.pump()
    return sorted(seq for _b, seq, _p in line.outbox.pending())


def stored(db: Path) -> list[int]:
    with sqlite3.connect(db) as con:
        return [s for (s,) in con.execute("SELECT seq FROM table_event WHERE tbl = 't1' ORDER BY seq")]


def story(line: TableLine, health: Health, clock: ManualClock, *, make_full, make_room,  # type: ignore[no-untyped-def]
          shown=lambda: None) -> None:
    send(line, range(1, 6))
    assert wait_until(lambda: pending(line) == [], 15), "seq 1-5 never acknowledged"
    make_full()
    send(line, range(6, 11))
    # However long we wait (resends included), the outbox keeps 6-10: nothing was acknowledged past 5.
    for _ in range(3):
        assert not wait_until(lambda: len(pending(line)) < 5, 1.5), "acknowledged what the store does not hold"
        clock.advance(11)  # past the outbox's resend delay: it sends 6-10 again
    assert pending(line) == [6, 7, 8, 9, 10]
    assert wait_until(lambda: health.last.get("store") == "down", 15), f"the hub did not say: {health.last}"
    assert health.last["malformed"] == 0 and int(cast(int, health.last["store_errors"])) >= 1
    assert shown() in (None, "down")
    make_room()
    send(line, range(11, 12))
    assert wait_until(lambda: pending(line) == [], 15), f"never recovered: outbox {pending(line)}"
    assert wait_until(lambda: health.last.get("store") == "ok", 10), health.last
    assert shown() in (None, "ok")


def test_a_full_disk_stops_the_acks_and_loses_nothing(small_disk: Path, tmp_path: Path) -> None:
    db = small_disk / "room.db"
    clock = ManualClock(1.0)
    with EmbeddedBroker() as broker:
        hub = subprocess.Popen([sys.executable, "-m", "hub.cli", "hub", "--broker", broker.url, "--db", str(db),
                                "--tables", "t1", "--dashboard", "0"], cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
        line = TableLine("t1", boot="b1", outbox=tmp_path / "outbox.db", host=broker.host, port=broker.port,
                         clock=clock)
        health = Health(broker.host, broker.port)
        filler: list[Path] = []
        try:
            assert wait_until(lambda: health.hub_online, 20), "the hub never came online"
            line.connect()
            story(line, health, clock, make_full=lambda: filler.append(fill(small_disk)),
                  make_room=lambda: filler[0].unlink())
        finally:
            line.close()
            health.link.stop()
            hub.terminate()
            _out, err = hub.communicate(timeout=15)
        assert stored(db) == list(range(1, 12))
        assert b"THE EVENT STORE CANNOT WRITE" in err
        assert b"Traceback" not in err


class FlakyStore(EventStore):
    """The store's boundary fails like a full disk while `full` is set."""

    full = False

    def _exec(self, sql: str, params: tuple[object, ...] = ()) -> sqlite3.Cursor:
        if self.full and not sql.lstrip().upper().startswith(("SELECT", "ROLLBACK", "PRAGMA")):
            raise StoreError(f"the event store {self.path} failed: database or disk is full")
        return super()._exec(sql, params)


def test_a_store_that_cannot_write_is_never_acknowledged_past(tmp_path: Path) -> None:
    store = FlakyStore(tmp_path / "room.db")
    clock = ManualClock(1.0)
    with EmbeddedBroker() as broker:
        link = MqttLink(client_id="tapis-hub", host=broker.host, port=broker.port)
        service = HubService(link=link, tick=0.05, floor_tables=FloorTables.open(FloorService.open(store, link=link),
                                                                                   store))
        service.start()
        link.start()
        line = TableLine("t1", boot="b1", outbox=tmp_path / "outbox.db", host=broker.host, port=broker.port,
                         clock=clock)
        health = Health(broker.host, broker.port)
        dashboard = Dashboard(service, port=0).start()

        def shown() -> object:  # what the TD's page is told about the store
            with urllib.request.urlopen(f"{dashboard.url}/api/room", timeout=5) as reply:
                return json.load(reply)["hub"]["store"]
        try:
            line.connect()
            story(line, health, clock, make_full=lambda: setattr(store, "full", True),
                  make_room=lambda: setattr(store, "full", False), shown=shown)
            assert service.stats.malformed == 0 and service.store_down is None
        finally:
            dashboard.stop()
            line.close()
            health.link.stop()
            link.stop()
            service.stop()
        assert [row.seq for row in store.table_rows(table="t1")] == list(range(1, 12))
        store.close()


class FullForTheFloor(EventStore):
    """The table event goes in; what the floor stores because of it (a hand's start) does not."""

    full = False

    def _exec(self, sql: str, params: tuple[object, ...] = ()) -> sqlite3.Cursor:
        if self.full and "tournament_event" in sql and sql.lstrip().upper().startswith("INSERT"):
            raise StoreError(f"the event store {self.path} failed: database or disk is full")
        return super()._exec(sql, params)


def test_a_press_whose_hand_start_could_not_be_stored_is_played_when_tried_again(tmp_path: Path) -> None:
    from service_helpers import floor_state, started_floor, tables_state

    press = wire.DealerPressed(table="t1", boot="b1", seq=1, at=5.0, button="new_hand", seat=None)
    with EventStore(tmp_path / "straight.db") as store:
        floor = started_floor(store, 12, tables=2)
        tables = FloorTables(floor, store)
        tables.receive("t1", press, wire.encode(press), 10.0)
        straight = floor_state(floor, 100.0), tables_state(tables)
    assert straight[1]["t1"]["in_hand"]
    with FullForTheFloor(tmp_path / "full.db") as store:
        floor = started_floor(store, 12, tables=2)
        tables = FloorTables(floor, store)
        store.full = True
        with pytest.raises(StoreError):
            tables.receive("t1", press, wire.encode(press), 10.0)
        assert tables.game("t1") is None or not tables.game("t1").in_hand  # type: ignore[union-attr]
        store.full = False
        out = tables.receive("t1", press, wire.encode(press), 10.0)  # the hub's retry: not a duplicate
        assert out is not None
        assert (floor_state(floor, 100.0), tables_state(tables)) == straight
        assert tables.receive("t1", press, wire.encode(press), 10.0) is None  # now it is one
