"""Issue 32, the bag sheet as installed: `tapis tournament bags` and `end-day` on a tournament's file, the
chips of the hands played, the day-2 draw the same on every reprint and after the hub is started again on
its store, and the structure's day-end break ending the day on the hub's own clock once its last hand ends."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

from service_helpers import db, started_floor

from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from hub.floor.td import td_main
from hub.tournament.structure import Break, Level, Structure, pouques_2020, to_toml


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return td_main(argv, out), out.getvalue()


def test_the_bag_sheet_from_the_file_then_the_end_of_the_day_reprinted(tmp_path: Path) -> None:
    path = db(tmp_path)
    now = time.time()  # the command line's clock is the wall's
    with EventStore(path) as store:  # a hand played at table 1: the sheet's chips are its stacks
        floor = FloorService(store)
        assert floor.execute({"cmd": "new", "name": "Test", "ruleset": "cdc-2013", "tables": 2, "seed": 3,
                              "structure_toml": to_toml(pouques_2020())}, now).ok
        for cmd in ({"cmd": "register", "players": [f"p{i:02d}" for i in range(1, 20)]}, {"cmd": "seat"},
                    {"cmd": "start"}):
            assert floor.execute(cmd, now).ok  # type: ignore[arg-type]
        seats = sorted(floor.players_for_hand("t1"))
        floor.hand_started("t1", 1, now + 1)
        stacks = {seat: 50_000 for seat in seats} | {seats[0]: 61_000, seats[1]: 39_000}
        floor.hand_ended("t1", 1, stacks, now + 2)
        names = floor.require().state.tables[1].seats
        winner, loser = names[seats[0]], names[seats[1]]
    code, text = run(["bags", "--db", path])
    assert code == 0 and "Niveau 1 — jetons en jeu / Level 1 — chips in play" in text
    assert "19 joueurs / players   950 000 jetons / chips" in text
    lines = [line.split() for line in text.splitlines()[5:]]  # under the heading
    assert [(int(x[0]), int(x[1])) for x in lines] == sorted((int(x[0]), int(x[1])) for x in lines)  # table, seat
    assert f"  {winner} " in text and "61 000" in text and "39 000" in text
    assert run(["end-day", "--db", path])[0] == 0
    code, sheet = run(["bags", "--db", path])
    assert code == 0 and "Fin du jour 1 — jetons en sac / End of day 1 — chips bagged" in sheet
    assert "Tirage du jour 2 / Day 2 seat draw" in sheet
    assert run(["bags", "--day", "1", "--db", path]) == (0, sheet)  # reprinted: the same sheet
    code, csv_text = run(["bags", "--csv", "--db", path])
    rows = [line.split(";") for line in csv_text.splitlines()]
    assert rows[0][:5] == ["Table", "Siège / Seat", "Joueur / Player", "Jetons / Chips", "Sac / Bag"]
    chips = {r[2]: int(r[3]) for r in rows[1:]}
    assert (chips[winner], chips[loser], len(chips)) == (61_000, 39_000, 19)
    assert sorted(int(r[4]) for r in rows[1:]) == list(range(1, 20))
    day2 = [(int(r[5]), int(r[6])) for r in rows[1:]]
    assert len(set(day2)) == 19 and sorted({t for t, _ in day2}) == [1, 2]  # 19 players: 10 and 9
    code, js = run(["bags", "--json", "--db", path])
    assert code == 0 and json.loads(js)["data"]["kind"] == "day_end"
    assert run(["end-day", "--db", path])[0] == 2  # refused, once is enough
    assert run(["bags", "--day", "2", "--db", path])[0] == 2
    assert run(["bags", "--day", "0", "--db", path])[0] == 2  # « le jour : au moins 1 » / "the day: at least 1"


def test_the_draw_survives_a_restart_of_the_hub_and_seats_day_two(tmp_path: Path) -> None:
    path = db(tmp_path)
    with EventStore(path) as store:
        floor = started_floor(store, 23, tables=3)
        assert floor.execute({"cmd": "end_day"}, 10.0).ok
        before = floor.bags()
        draw = {r["player"]: (r["table"], r["seat"]) for r in before["draw"]}
    with EventStore(path) as store:  # the hub started again on its store, as `tapis hub --db` builds it
        tables = FloorTables.open(FloorService.open(store), store)
        again = tables.floor
        assert again.bags() == before and again.bags(1) == before
        state = again.require().state
        assert {name: (p.table, p.seat) for name, p in state.players.items()} == draw
        assert again.execute({"cmd": "clock", "action": "resume"}, 20.0).ok  # day 2
        dealt = again.players_for_hand("t1")
        assert {state.tables[1].seats[seat] for seat in dealt} == {n for n, (t, _) in draw.items() if t == 1}
        assert again.can_start_hand("t1", 21.0)


def test_the_structures_day_end_break_ends_the_day_on_the_hubs_clock(tmp_path: Path) -> None:
    structure = Structure("deux jours", 10_000, (Level(1, 25, 50, 1), Break("fin du jour 1", 0, day_end=True),
                                                 Level(2, 50, 100, 30)))
    with EventStore(db(tmp_path)) as store:
        floor = FloorService(store)
        assert floor.execute({"cmd": "new", "name": "Deux jours", "ruleset": "cdc-2013",
                              "structure_toml": to_toml(structure), "seed": 4}, 0.0).ok
        for cmd in ({"cmd": "register", "players": [f"p{i:02d}" for i in range(12)]}, {"cmd": "seat"},
                    {"cmd": "start"}):
            assert floor.execute(cmd, 0.0).ok  # type: ignore[arg-type]
        floor.hand_started("t1", 1, 30.0)
        floor.pump(70.0)  # the break: the hand dealt before it is played out first
        assert floor.bags()["kind"] == "break"
        floor.hand_ended("t1", 1, dict(floor.players_for_hand("t1")), 80.0)
        sheet = floor.bags()
        assert sheet["kind"] == "day_end" and sheet["reason"] == "structure" and sheet["at"] == 80.0
        assert FloorService.open(store).bags() == sheet  # stored with the hand's end
