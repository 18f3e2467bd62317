"""A move the floor ordered as the hub died, in real processes as a club installs them: the shipped closed
Mosquitto, `tapis hub --db` with its dashboard, `tapis sim table`, the TD's `tapis tournament --broker`.

Table 3 is three players short (the TD put three of its players out before the clock started, so no move
followed), and its dealer is not there yet. The first hand that ends at table 1 or 2 orders a balancing move
to table 3 (cdc-2013 3.3): the hub is killed (SIGKILL, a power cut) as soon as that instruction is out, and
started again on its store, as systemd does. The dealers must be told again: the restarted hub says the move
(`floor_moves`, once, the same instruction) on the stream of the table the player leaves and in its dashboard's
log for that table; table 3's dealer then arrives, the player is dealt in at his new seat, and table 3 deals on.
The same through `HubService` alone: tests/floor/test_moves_after_restart.py."""

from __future__ import annotations

import json
import signal
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.dashboard import browser
from tests.e2e.test_club_room import club_tournament
from tests.e2e.test_room_as_installed import Room, TdHttp, installed
from tests.support import wait_until

CALM = ("--pace", "0.03", "--scan-ms", "40", "--allin-rate", "0", "--boxed-rate", "0")  # no one busts


class MovesRoom(Room):
    sim_options = CALM


@pytest.fixture
def moves_room(tmp_path: Path) -> Iterator[MovesRoom]:
    with installed(MovesRoom(tmp_path)) as ready:
        yield ready


def _log(room: Room, table: str) -> list[dict[str, Any]]:
    """The dashboard's log of `table`, as its table page loads it."""
    url = f"http://127.0.0.1:{room.dashboard}/api/log?t={table}"
    with urllib.request.urlopen(url, timeout=10) as answer:
        return list(json.loads(answer.read())["events"])


def test_a_move_ordered_as_the_hub_is_killed_reaches_the_tables_after_its_restart(moves_room: MovesRoom) -> None:
    room = moves_room
    club_tournament(room, Path("cdc-2013"))  # three tables of six; cdc-2013 balances at three players apart
    with ExitStack() as cleanup:
        hub, watcher = room.start_hub(cleanup)
        assert wait_until(lambda: len(watcher.clock.get("tables", {})) == 3, 15), watcher.clock
        for seat in sorted(watcher.clock["tables"]["3"]["seats"].values(), key=lambda s: s["player"])[:3]:
            said = json.loads(room.td("eliminate", seat["player"], "--json"))
            assert said["ok"] and said["data"]["moves"] == [], said  # before the clock: no balancing yet
        # the desk's floor actions have command-line words on the running hub, answered in words (then undone)
        assert "ok — Main par main mise à jour / hand for hand updated" in room.td("hand-for-hand", "on")
        assert "ok — Main par main mise à jour / hand for hand updated" in room.td("hand-for-hand", "off")
        punished = sorted(watcher.clock["tables"]["1"]["seats"].values(), key=lambda s: s["player"])[0]["player"]
        said = room.td("penalty", punished, "warning")
        assert said.startswith("ok — Sanction enregistrée / penalty recorded\n"), said
        undo = said.rsplit("tapis tournament undo ", 1)[1].strip()
        assert room.td("undo", undo) == "ok — Action annulée / action undone\n"
        status, history, _ = TdHttp(room).call("GET", "/api/td/history")  # the hub's own record of it
        [given] = [a for a in history["actions"] if a["position"] == int(undo)]
        assert status == 200 and given["event"]["type"] == "PenaltyGiven", history
        assert given["why_not"] == "déjà annulée / already undone", given
        room.td("start")
        for table in ("t1", "t2"):
            room.start(table, room.agent_command(table))

        def ordered() -> list[dict[str, Any]]:
            assert hub.poll() is None, room.log("hub")
            return [m for e in watcher.seen(lambda e: e["type"] == "floor_moves") for m in e["moves"]]

        assert wait_until(lambda: bool(ordered()), 60), (room.log("t1")[-2000:], room.log("hub")[-2000:])
        hub.send_signal(signal.SIGKILL)  # the instruction is out, the hub's machine loses power
        hub.wait(10)
        [move] = [m for e in watcher.seen(lambda e: e["type"] == "floor_moves") for m in e["moves"]]
        assert (move["to_table"], move["reason"]) == ("t3", "balance"), move
        mark = len(watcher.events)
        again = room.start("hub-again", room.hub_command())  # as systemd starts it again, on its store

        def since(kind: str, table: str | None = None) -> list[dict[str, Any]]:
            with watcher.lock:
                return [e for e in watcher.events[mark:] if e["type"] == kind and table in (None, e["table"])]

        def told() -> bool:
            assert again.poll() is None, room.log("hub-again")
            return bool(since("floor_moves"))

        assert wait_until(told, 30), room.log("hub-again")[-3000:]
        [resaid] = since("floor_moves")
        assert (resaid["table"], resaid["moves"], resaid["again"]) == (move["from_table"], [move], True), resaid
        # the dealer's table page: its log says it (its "moves to make" list is the floor's, which had it anyway)
        assert wait_until(lambda: [e["moves"] for e in _log(room, move["from_table"])
                                   if e["type"] == "floor_moves"] == [[move]], 15), _log(room, move["from_table"])
        assert wait_until(lambda: [m["player"] for m in watcher.clock.get("moves", [])] == [move["player"]], 10), (
            watcher.clock.get("moves"), json.loads(room.td("status", "--json"))["data"]["moves"], since("hand_start"))
        if browser.missing() is None:
            _table_page_says(room, cleanup, move)

        room.start("t3", room.agent_command("t3"))  # table 3's dealer arrives

        def dealt_in_and_on() -> bool:
            assert again.poll() is None, room.log("hub-again")
            starts = [e["hand"] for e in since("hand_start", "t3") if str(move["to_seat"]) in e["stacks"]]
            return bool(starts) and any(e["hand"] > starts[0] for e in since("hand_end", "t3"))

        assert wait_until(dealt_in_and_on, 90), (since("hand_start", "t3"), since("hand_refused"),
                                                 room.log("t3")[-2500:], room.log("hub-again")[-3000:])
        assert wait_until(lambda: watcher.clock.get("moves") == [], 10), watcher.clock  # carried out
        seats = watcher.clock["tables"]["3"]["seats"]
        assert seats[str(move["to_seat"])]["player"] == move["player"], seats
        assert len(since("floor_moves")) == 1, since("floor_moves")  # told once, never again once carried out
        for name in ("hub", "hub-again"):
            assert "Traceback" not in room.log(name), room.log(name)[-4000:]
        watcher.link.stop()


def _table_page_says(room: Room, cleanup: ExitStack, move: dict[str, Any]) -> None:
    """The page of the table the player leaves, opened after the restart, says where he goes, in words."""
    from playwright.sync_api import sync_playwright

    playwright = cleanup.enter_context(sync_playwright())
    chromium = browser.launch(playwright)
    cleanup.callback(chromium.close)
    page = chromium.new_page()
    page.goto(f"http://127.0.0.1:{room.dashboard}/table?t={move['from_table']}")
    number = move["to_table"][1:]
    expected = f"{move['player']}\u202f: table {move['from_table'][1:]} siège {move['from_seat']} → table {number} " \
               f"siège {move['to_seat']}"
    assert wait_until(lambda: expected in page.inner_text("#log") and "rappel" in page.inner_text("#log"), 15), \
        page.inner_text("#log")
    assert "floor_moves" not in page.inner_text("body")
    assert move["player"] in page.inner_text("#moves")  # "Moves to make": the floor's list (it had it before too)
