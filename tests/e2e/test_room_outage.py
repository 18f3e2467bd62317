"""A room as a club installs it loses its hub, its broker or its disk in the middle of hands (issue #27), in
real processes: the shipped broker config with users and TLS, `tapis hub --db ... --dashboard`, three
`tapis sim table`, a cdc-2013 tournament (`test_room_as_installed.Room`). Each test waits until every
table is in the middle of a hand, makes one fault (the hub killed with SIGKILL and started again,
Mosquitto killed with SIGKILL and started again, the hub stopped with SIGSTOP for 30 s, the store's
file system full), ends it, and checks that every table plays a whole hand again within
`DEALS_AGAIN` seconds (docs/td-guide.md, "Quand les écrans se figent") with no TD action; a TD's
cancel sent while the store cannot write is played once it can; a table restarted while the hub is down
deals again too. The simulated croupier gives a hand
up after 5 s without the hub (clears the felt, presses "new hand"): the hub rules it (cdc-2013 8.6)."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.edge.broker import find_mosquitto
from tests.e2e.test_room_as_installed import TABLES, Room, Watcher, _listening, run, tapis
from tests.support import wait_until

DEALS_AGAIN = 30.0  # seconds after the fault ends: docs/td-guide.md
PLAYERS = [f"Joueur{i:02d}" for i in range(1, 19)]  # six a table of six seats: no table broken up
SIM = ("--pace", "0.03", "--scan-ms", "40", "--allin-rate", "0", "--boxed-rate", "0")


class OutageRoom(Room):
    """The room, its broker a process the test may kill and start again on the same ports, its store
    on a small file system of its own when this machine lets the test mount one."""

    def __init__(self, tmp: Path) -> None:
        super().__init__(tmp)
        self.broker: subprocess.Popen[bytes] | None = None
        self.disk: Path | None = None

    def start_broker(self) -> None:
        self.broker = subprocess.Popen([find_mosquitto(), "-c", str(self.tmp / "mosquitto.conf")], cwd=self.tmp,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert wait_until(lambda: _listening(self.tls_port) and _listening(self.port), 20), "Mosquitto did not start"

    def agent_command(self, table: str) -> list[str]:
        command = super().agent_command(table)
        at = command.index("--pace")
        return command[:at] + list(SIM) + command[at + 8:]  # no boxed card, no all-in: calm hands


@pytest.fixture
def room(tmp_path: Path) -> Iterator[OutageRoom]:
    room = OutageRoom(tmp_path)
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(disk)], capture_output=True,
                             check=False).returncode == 0
    if mounted:
        room.disk, room.db = disk, disk / "tournament.db"
    room.install()
    room.start_broker()
    try:
        yield room
    finally:
        room.stop()
        if room.broker is not None and room.broker.poll() is None:
            room.broker.terminate()
            room.broker.wait(10)
        if mounted:
            subprocess.run(["umount", "-l", str(disk)], check=False)
        shutil.rmtree(tmp_path / "room", ignore_errors=True)  # private keys: not left in /tmp


def _open(room: OutageRoom) -> Watcher:
    """A tournament, the hub, its start, the three tables dealing; the watcher follows the hub's events."""
    db = str(room.db)
    (room.etc / "structure.toml").write_text(
        'name = "Outage"\nstarting_stack = 200000\n\n[[item]]\nlevel = 1\nsmall_blind = 100\nbig_blind = 200\n'
        'ante = 0\nminutes = 120\n', encoding="utf-8")
    run("tournament", "new", "--db", db, "--ruleset", "cdc-2013", "--structure", str(room.etc / "structure.toml"),
        "--tables", "3", "--seats", "6", "--buy-in", "20", "--payouts", "50,30,20", "--seed", "5")
    run("tournament", "register", "--db", db, *PLAYERS)
    run("tournament", "seat", "--db", db)
    room.start("hub", room.hub_command())
    watcher = Watcher(room)
    watcher.link.start(timeout=30)
    assert wait_until(lambda: "listening" in room.log("hub"), 30), room.log("hub")
    room.td("start")
    for table in TABLES:
        room.start(table, room.agent_command(table))
    return watcher


def _mid_hand(watcher: Watcher) -> bool:
    """Every table is in a hand it started and has dealt cards in: a card arrived in a seat. Not one
    leaving a seat: the hand before's, swept just before "new hand", may be heard leaving after the
    press (the reader says a card is gone a few scans after it is lifted), under the new hand's number."""
    opened: dict[str, int] = {}
    dealt: set[str] = set()
    for e in watcher.seen(lambda e: e["type"] in ("hand_start", "hand_end", "card")):
        table = e["table"]
        if e["type"] == "hand_start":
            opened[table] = e["hand"]
            dealt.discard(table)
        elif e["type"] == "hand_end":
            opened.pop(table, None)
        elif (opened.get(table) == e.get("hand") and e.get("action") == "arrived"
              and str(e.get("zone", "")).startswith("seat:")):
            dealt.add(table)
    return all(t in opened and t in dealt for t in TABLES)


def _hands_played_since(watcher: Watcher, mark: int) -> dict[str, list[dict[str, Any]]]:
    """Per table: the hands started after event `mark` and played to their end (not cancelled)."""
    with watcher.lock:
        events = list(watcher.events[mark:])
    started = {(e["table"], e["hand"]) for e in events if e["type"] == "hand_start"}
    played: dict[str, list[dict[str, Any]]] = {t: [] for t in TABLES}
    for e in events:
        if e["type"] == "hand_end" and (e["table"], e["hand"]) in started and e.get("result") != "cancelled":
            played[e["table"]].append(e)
    return played


def _deals_again(room: OutageRoom, watcher: Watcher, mark: int, why: str) -> None:
    if wait_until(lambda: all(_hands_played_since(watcher, mark).values()), DEALS_AGAIN):
        return
    played = _hands_played_since(watcher, mark)
    stuck = [t for t, hands in played.items() if not hands]
    with watcher.lock:
        seen = [(e["type"], e.get("hand"), e.get("result") or e.get("reason") or e.get("kind") or e.get("action"))
                for e in watcher.events[mark - 10:] if e["table"] in stuck and e["type"] != "card"]
    hubs = [room.log(h)[-2500:] for h in room.logs if "hub" in h]
    pytest.fail(f"{why}: {stuck} dealt no hand again within {DEALS_AGAIN:g} s; their hub events {seen}; "
                f"logs {[room.log(t)[-2500:] for t in stuck]}; hub {hubs}")


def _start_dealing(room: OutageRoom) -> Watcher:
    watcher = _open(room)
    assert wait_until(lambda: _mid_hand(watcher), 40), (watcher.seen(lambda e: e["type"] == "hand_refused"),
                                                         room.log("hub")[-3000:])
    return watcher


def _no_chips_lost(room: OutageRoom, watcher: Watcher) -> None:
    """The chips the floor holds are the chips bought: no hand counted twice nor lost; no hub logged a
    traceback (a TD's command dropped on a StoreError did)."""
    for name in (n for n in room.logs if "hub" in n):
        assert "Traceback" not in room.log(name), room.log(name)[-4000:]
    snap = json.loads(room.td("status", "--json"))["data"]
    ends = [(e["table"], e["hand"], e.get("result"), sum(e["stacks"].values()))
            for e in watcher.seen(lambda e: e["type"] == "hand_end")]
    assert snap["chips_in_play"] == 200000 * len(PLAYERS), (snap, ends)
    total = sum(s["chips"] for t in snap["tables"].values() for s in t["seats"].values())
    assert total == 200000 * len(PLAYERS), (snap, ends)


def test_the_hub_killed_mid_hand(room: OutageRoom) -> None:
    watcher = _start_dealing(room)
    try:
        room.procs[0].send_signal(signal.SIGKILL)
        room.procs[0].wait(10)
        time.sleep(8)  # the croupiers give their hands up after 5 s  # noqa: TID251 - the outage itself
        mark = len(watcher.events)
        room.start("hub-again", room.hub_command())
        _deals_again(room, watcher, mark, "hub killed")
        _no_chips_lost(room, watcher)
    finally:
        watcher.link.stop()


def test_the_broker_killed_mid_hand(room: OutageRoom) -> None:
    watcher = _start_dealing(room)
    try:
        assert room.broker is not None
        room.broker.send_signal(signal.SIGKILL)
        room.broker.wait(10)
        time.sleep(3)  # noqa: TID251 - the outage itself
        room.start_broker()
        mark = len(watcher.events)
        _deals_again(room, watcher, mark, "broker killed")
        _no_chips_lost(room, watcher)
    finally:
        watcher.link.stop()


def test_the_hub_stopped_30_s_mid_hand(room: OutageRoom) -> None:
    watcher = _start_dealing(room)
    try:
        hub = room.procs[0]
        hub.send_signal(signal.SIGSTOP)
        time.sleep(30)  # noqa: TID251 - the outage itself
        mark = len(watcher.events)
        hub.send_signal(signal.SIGCONT)
        _deals_again(room, watcher, mark, "hub stopped")
        _no_chips_lost(room, watcher)
    finally:
        watcher.link.stop()


def test_the_store_full_mid_hand_and_a_cancel_sent_meanwhile(room: OutageRoom) -> None:
    if room.disk is None:
        pytest.skip("cannot mount a file system here: tests/floor/test_outage.py covers the held cancel")
    watcher = _start_dealing(room)
    filler = room.disk / "filler"
    try:
        with open(filler, "wb", buffering=0) as out:
            try:
                while True:
                    out.write(b"\0" * 65536)
            except OSError:
                pass
        assert wait_until(lambda: '"store": "down"' in room.log("hub") or "CANNOT WRITE" in room.log("hub"), 15), \
            room.log("hub")[-2000:]
        cancel = subprocess.run(tapis("tournament", "--broker", f"mqtt://127.0.0.1:{room.port}", "--password-file",
                                      str(room.room / "credentials" / "td.json"), "cancel-hand", "1"),
                                capture_output=True, text=True, timeout=60)
        assert "not stored yet" in cancel.stdout + cancel.stderr, (cancel.stdout, cancel.stderr)
        time.sleep(6)  # the croupiers give their hands up after 5 s  # noqa: TID251 - the outage itself
        mark = len(watcher.events)
        filler.unlink()
        assert wait_until(lambda: watcher.seen(lambda e: e["type"] in ("ruling", "cancel_refused")
                                               and e["table"] == "t1" and e.get("by") == "TD"), 15), \
            room.log("hub")[-3000:]
        _deals_again(room, watcher, mark, "store full")
        _no_chips_lost(room, watcher)
    finally:
        filler.unlink(missing_ok=True)
        watcher.link.stop()


def test_a_table_restarted_while_the_hub_is_down(room: OutageRoom) -> None:
    """The hub killed; meanwhile t2's process is killed and started again (a new boot, an empty felt):
    once the hub is back, t2's hand of the dead run is given up (cdc 8.6) and every table deals again."""
    watcher = _start_dealing(room)
    try:
        room.procs[0].send_signal(signal.SIGKILL)
        room.procs[0].wait(10)
        t2 = room.procs[1 + TABLES.index("t2")]
        t2.send_signal(signal.SIGKILL)
        t2.wait(10)
        room.start("t2-again", room.agent_command("t2"))
        time.sleep(6)  # the other croupiers give their hands up after 5 s  # noqa: TID251 - the outage itself
        mark = len(watcher.events)
        room.start("hub-again", room.hub_command())
        _deals_again(room, watcher, mark, "t2 restarted while the hub was down")
        _no_chips_lost(room, watcher)
    finally:
        watcher.link.stop()
