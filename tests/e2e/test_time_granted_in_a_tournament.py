"""A Time the TD grants at a cpt87 tournament's tables, in real processes: the shipped closed Mosquitto,
`tapis hub --db` as installed with its dashboard, three `tapis sim table` whose dealers press Time on the
player to act, who waits for the TD's answer and lets a granted Time run out. The club's file inherits
cpt87 (the TD grants Time, 4.5) with five seconds to think and a two-second countdown. The TD grants each
request on the dashboard, over its HTTP as the page's button does. What must follow: the request on the
TD's list, the countdown from his decision, the hand dead (cpt87 4.5) on the hub's clock, the hand played
to its end and counted, and the table's next hand dealt. Before, under cpt87, a Time could never run."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_club_room import club_tournament
from tests.e2e.test_room_as_installed import TABLES, Room, TdHttp, installed, run
from tests.support import wait_until

CLUB = """# Un club sous cpt87 aux Time courts : cinq secondes de réflexion, deux de décompte, le DT accorde.
id = "club-cpt87-court"
name = "Club cpt87 au Time court"
inherits = "cpt87"

[ruleset]
think_seconds = 5
countdown_seconds = 2
"""
SIM = ("--pace", "0.03", "--scan-ms", "40", "--allin-rate", "0", "--boxed-rate", "0",
       "--fault-rate", "0.5", "--faults", "time_expired")
RUN_OUT = 2  # granted Times run out, each followed by its table's next hand


class TimeRoom(Room):
    sim_options = SIM


@pytest.fixture
def room(tmp_path: Path) -> Iterator[TimeRoom]:
    with installed(TimeRoom(tmp_path)) as ready:
        yield ready


class TdPage(TdHttp):
    """The TD on the room page: each Time request waiting there granted."""

    def grant_every_request(self, granted: list[dict[str, Any]]) -> None:
        """Each Time request waiting on the room page granted (its "Time accordé" button)."""
        status, room, _ = self.call("GET", "/api/room")
        assert status == 200, room
        for fault in room["faults"]:
            if fault["kind"] == "time_request" and fault["needs_decision"]:
                assert fault["options"] == ["grant_time", "refuse_time"], fault
                status, body, _ = self.call("POST", "/api/td/decide", {"fault": fault["id"], "option": "grant_time"})
                assert status == 200, body
                granted.append(fault)


def test_the_td_grants_time_on_the_dashboard_and_it_runs_out(room: TimeRoom) -> None:
    club = room.etc / "rulebooks" / "cpt87-court.toml"
    club.write_text(CLUB, encoding="utf-8")
    assert "ok: club-cpt87-court" in run("rules", "check", str(club))
    club_tournament(room, club)
    with ExitStack() as cleanup:
        hub, watcher = room.start_hub(cleanup)
        room.td("start")
        for table in TABLES:
            room.start(table, room.agent_command(table))
        page = TdPage(room)
        granted: list[dict[str, Any]] = []

        def dealt_on() -> list[dict[str, Any]]:
            """The granted Times run out after which their table dealt its next hand."""
            assert hub.poll() is None, room.log("hub")
            page.grant_every_request(granted)
            starts = {(e["table"], e["hand"]) for e in watcher.seen(lambda e: e["type"] == "hand_start")}
            return [e for e in watcher.seen(lambda e: e["type"] == "fault" and e["kind"] == "time_expired")
                    if (e["table"], e["hand"] + 1) in starts]

        assert wait_until(lambda: len(dealt_on()) >= RUN_OUT, 240, step=0.1), (
            [(e["type"], e["table"], e["hand"]) for e in watcher.seen(
                lambda e: e["type"] in ("time", "fault", "ruling", "time_request_lapsed", "decision_refused"))],
            {t: room.log(t)[-1500:] for t in TABLES}, room.log("hub")[-3000:])
        for fault in dealt_on():
            assert fault["ruling"]["decision"] == "hand_dead" and fault["ruling"]["article"] == "cpt87 4.5", fault
            [called] = watcher.seen(lambda e, f=fault: e["type"] == "time" and e["table"] == f["table"]  # type: ignore[misc]
                                    and e["hand"] == f["hand"] and e["seat"] == f["seat"])
            assert called["by"] == "td" and called["expires_at"] - called["countdown_at"] == pytest.approx(2.0), called
            [request] = [g for g in granted if (g["table"], g["hand"], g["seat"]) ==
                         (fault["table"], fault["hand"], fault["seat"])]
            assert request["ruling"]["article"] == "cpt87 4.5", request
            ended = watcher.seen(lambda e, f=fault: e["type"] == "hand_end" and e["table"] == f["table"]  # type: ignore[misc]
                                 and e["hand"] == f["hand"])
            assert ended and ended[0].get("result") != "void", ended
        refused = watcher.seen(lambda e: e["type"] == "hand_refused")
        assert not refused, refused  # no table told its hand is still in progress
        codes = room.stop()
        assert codes == {name: 0 for name in ("hub", *TABLES)}, room.stopped_logs(codes)
