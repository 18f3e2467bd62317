"""A room under a club's own rulebook (issue #31), in real processes: the club's file in the rulebooks'
folder the install makes (/etc/tapis/rulebooks), `tapis tournament new --ruleset` naming it, the file then
changed (its text is stored with the tournament, so the running tournament does not follow), the shipped
closed Mosquitto, `tapis hub --db` and three `tapis sim table` dealing exposed cards and flops without burn.
Every hand starts under the club's rulebook and the rulings the hub publishes cite the club's articles
(pcbl-2026 9 and 12, docs/rulebooks.md's example), never the changed file's."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_room_as_installed import TABLES, Room, Watcher, installed, run
from tests.support import wait_until

CLUB = Path(__file__).parents[1] / "rulebooks" / "club-bords-de-loire.toml"
CLUB_ARTICLES = {"exposed_card": "pcbl-2026 9", "flop_without_burn": "pcbl-2026 12"}
PLAYERS = [f"Joueur{i:02d}" for i in range(1, 19)]  # six a table of six seats: no table broken up
SIM = ("--pace", "0.03", "--scan-ms", "40", "--allin-rate", "0", "--boxed-rate", "0",
       "--fault-rate", "0.8", "--faults", "exposed_card,flop_without_burn")


class ClubRoom(Room):
    sim_options = SIM


@pytest.fixture
def room(tmp_path: Path) -> Iterator[ClubRoom]:
    with installed(ClubRoom(tmp_path)) as ready:
        yield ready


def club_tournament(room: Room, rulebook: Path) -> None:
    """The TD's desk before the night: a tournament under the club's file, three tables of six, its players
    registered and seated, one two-hour level (no break, no table broken up)."""
    db = str(room.db)
    (room.etc / "structure.toml").write_text(
        'name = "Club"\nstarting_stack = 200000\n\n[[item]]\nlevel = 1\nsmall_blind = 100\nbig_blind = 200\n'
        'ante = 0\nminutes = 120\n', encoding="utf-8")
    run("tournament", "new", "--db", db, "--ruleset", str(rulebook), "--structure", str(room.etc / "structure.toml"),
        "--tables", "3", "--seats", "6", "--buy-in", "20", "--payouts", "50,30,20", "--seed", "5")
    run("tournament", "register", "--db", db, *PLAYERS)
    run("tournament", "seat", "--db", db)


def test_a_room_plays_a_tournament_under_the_club_file(room: ClubRoom) -> None:
    books = room.etc / "rulebooks"  # /etc/tapis/rulebooks, as install.sh makes it
    club = books / "bords-de-loire.toml"
    shutil.copy(CLUB, club)
    assert "ok: pcbl-2026" in run("rules", "check", str(club))
    club_tournament(room, club)
    # the club rewrites its article 9 once the tournament is made: this tournament keeps the text it was made with
    club.write_text(CLUB.read_text(encoding="utf-8").replace('article = "9"', 'article = "19"')
                    .replace('"9" = ', '"19" = '), encoding="utf-8")
    assert "ok: pcbl-2026" in run("rules", "check", str(club))
    hub = room.start("hub", room.hub_command())
    watcher = Watcher(room)
    watcher.link.start(timeout=30)
    with ExitStack() as cleanup:
        cleanup.callback(watcher.link.stop)
        assert wait_until(lambda: "listening" in room.log("hub"), 30), room.log("hub")
        room.td("start")
        for table in TABLES:
            room.start(table, room.agent_command(table))

        def ruled(kinds: set[str]) -> bool:
            assert hub.poll() is None, room.log("hub")
            seen = {e["kind"] for e in watcher.seen(lambda e: e["type"] == "fault" and e["kind"] in CLUB_ARTICLES
                                                     and e["ruling"]["decision"] != "continue")}
            return kinds <= seen

        assert wait_until(lambda: ruled(set(CLUB_ARTICLES)), 120), (
            sorted({(e["type"], e.get("kind")) for e in watcher.seen(lambda e: True)}, key=str),
            [room.log(t)[-2000:] for t in TABLES])
        starts = watcher.seen(lambda e: e["type"] == "hand_start")
        assert starts and {e["ruleset"] for e in starts} == {"pcbl-2026"}
        faults: list[dict[str, Any]] = watcher.seen(lambda e: e["type"] == "fault" and e["kind"] in CLUB_ARTICLES)
        for e in faults:
            article = e["ruling"]["article"]
            if e["ruling"]["decision"] == "continue":  # substantial action voids a misdeal: cdc 7.7, inherited
                assert article == "cdc-2013 7.7", e
            else:
                assert article == CLUB_ARTICLES[e["kind"]], e
        codes = room.stop()
        assert codes == {name: 0 for name in ("hub", *TABLES)}, room.stopped_logs(codes)
