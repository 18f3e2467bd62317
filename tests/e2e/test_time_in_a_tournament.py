"""Time called at a tournament's tables and let run out, in real processes (issue 35's audit): the shipped
closed Mosquitto, `tapis hub --db` as installed, three `tapis sim table` whose dealers call Time on the
player to act, who lets it run out. The club's rulebook file gives five seconds to think and no countdown
(cdc-2013 otherwise: his hand is dead, 4.5). What must follow each Time run out: the hub rules it on its
clock (the floor's games count in the wall's time), the hand plays on to its end, the floor counts that
hand, and the next hand is dealt at that table; no table is left waiting."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_club_room import club_tournament
from tests.e2e.test_room_as_installed import TABLES, Room, installed, run
from tests.support import wait_until

CLUB = """# Un club aux Time courts : cinq secondes de réflexion, sans décompte.
id = "club-time-court"
name = "Club au Time court"
inherits = "cdc-2013"

[ruleset]
think_seconds = 5
countdown_seconds = 0
"""
SIM = ("--pace", "0.03", "--scan-ms", "40", "--allin-rate", "0", "--boxed-rate", "0",
       "--fault-rate", "0.5", "--faults", "time_expired")
RUN_OUT = 3  # Times run out, each followed by its table's next hand


class TimeRoom(Room):
    sim_options = SIM


@pytest.fixture
def room(tmp_path: Path) -> Iterator[TimeRoom]:
    with installed(TimeRoom(tmp_path)) as ready:
        yield ready


def test_a_time_run_out_at_a_tournament_table_kills_the_hand_and_the_table_deals_on(room: TimeRoom) -> None:
    club = room.etc / "rulebooks" / "time-court.toml"
    club.write_text(CLUB, encoding="utf-8")
    assert "ok: club-time-court" in run("rules", "check", str(club))
    club_tournament(room, club)
    with ExitStack() as cleanup:
        hub, watcher = room.start_hub(cleanup)
        room.td("start")
        for table in TABLES:
            room.start(table, room.agent_command(table))

        def dealt_on() -> list[dict[str, Any]]:
            """The Times run out after which their table dealt its next hand."""
            assert hub.poll() is None, room.log("hub")
            starts = {(e["table"], e["hand"]) for e in watcher.seen(lambda e: e["type"] == "hand_start")}
            return [e for e in watcher.seen(lambda e: e["type"] == "fault" and e["kind"] == "time_expired")
                    if (e["table"], e["hand"] + 1) in starts]

        assert wait_until(lambda: len(dealt_on()) >= RUN_OUT, 240), (
            [(e["table"], e["hand"]) for e in watcher.seen(lambda e: e["type"] in ("time", "fault", "hand_refused"))],
            {t: room.log(t)[-1500:] for t in TABLES}, room.log("hub")[-3000:])
        for fault in dealt_on():
            assert fault["ruling"]["decision"] == "hand_dead" and fault["ruling"]["article"] == "cdc-2013 4.5", fault
            ended = watcher.seen(lambda e, f=fault: e["type"] == "hand_end" and e["table"] == f["table"]  # type: ignore[misc]
                                 and e["hand"] == f["hand"])
            assert ended and ended[0].get("result") != "void", ended
        refused = watcher.seen(lambda e: e["type"] == "hand_refused")
        assert not refused, refused  # no table told its hand is still in progress
        codes = room.stop()
        assert codes == {name: 0 for name in ("hub", *TABLES)}, room.stopped_logs(codes)
