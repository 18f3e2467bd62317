"""The end of a day of play: chips bagged from the hands played, the next day's seat draw (balanced,
seeded, recorded), on the TD's word or at the structure's day-end break once the last hand has ended."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from hub.floor.bag_sheet import bags_csv, bags_text, sheet
from hub.tournament.errors import FloorError
from hub.tournament.events import ClockPaused, DayEnded, event_from_dict
from hub.tournament.structure import Break, Level, Structure
from hub.tournament.tournament import Tournament
from tests.tournament.floor_helpers import end, start, started


def test_the_td_ends_the_day_with_the_chips_of_the_hands_played_and_a_balanced_draw() -> None:
    t = started("pouques-2020", 23, 3)
    start(t, 1, 10.0)
    seats = sorted(t.state.tables[1].start_stacks)
    end(t, 1, 20.0, stacks={seats[0]: 10_000 + 2_500, seats[1]: 10_000 - 2_500})
    winner, loser = t.state.tables[1].seats[seats[0]], t.state.tables[1].seats[seats[1]]
    events = t.end_day(30.0)
    assert isinstance(events[0], ClockPaused) and not t.state.clock.running
    day = next(e for e in events if isinstance(e, DayEnded))
    assert (day.day, day.reason) == (1, "td")
    chips = {name: c for name, _, _, c, _ in day.bags}
    assert (chips[winner], chips[loser]) == (12_500, 7_500)
    # the bags by table then seat, numbered in that order
    assert [(tb, s) for _, tb, s, _, _ in day.bags] == sorted((tb, s) for _, tb, s, _, _ in day.bags)
    assert [bag for *_, bag in day.bags] == list(range(1, 24))
    # the draw: everyone once, 3 tables of 8, 8 and 7, a button at an occupied seat of each
    assert sorted(name for name, _, _ in day.draw) == sorted(chips)
    assert sorted(Counter(tb for _, tb, _ in day.draw).values()) == [7, 8, 8]
    assert all((tb, seat) in {(x, s) for _, x, s in day.draw} for tb, seat in day.buttons)
    # the floor seats everyone at the draw's place; no hand until the TD resumes the clock
    assert {name: (p.table, p.seat) for name, p in t.state.players.items()} == {
        name: (tb, s) for name, tb, s in day.draw}
    with pytest.raises(FloorError, match="over"):
        start(t, 1, 40.0)
    with pytest.raises(FloorError, match="déjà fini"):
        t.end_day(41.0)
    t.resume(50.0)
    start(t, 2, 60.0)
    assert t.state.day == 2 and not t.state.day_over


def test_the_day_does_not_end_while_a_hand_is_played() -> None:
    t = started("pouques-2020", 12, 2)
    start(t, 2, 10.0)
    with pytest.raises(FloorError, match="Table 2"):
        t.end_day(20.0)
    assert not t.state.days


def test_the_structures_day_end_break_ends_the_day_when_the_last_hand_ends() -> None:
    structure = Structure("two days", 10_000, (Level(1, 25, 50, 1), Break("fin du jour 1", 0, day_end=True),
                                                Level(2, 50, 100, 30)))
    t = started("pouques-2020", 12, 2, structure=structure)
    start(t, 1, 30.0)  # dealt before the break: played out
    t.tick(90.0)
    assert t.state.clock.on_break and not t.state.days  # table 1 still plays its hand
    end(t, 1, 100.0)
    assert t.state.day_over and t.state.days[0].reason == "structure" and t.state.days[0].at == 100.0
    t.resume(200.0)
    assert t.state.clock.level().number == 2 and t.state.clock.running


def test_the_draw_is_seeded_and_a_replay_gives_the_same_day() -> None:
    def day_one(seed: int) -> Tournament:
        t = started("pouques-2020", 31, 4)
        t._rng = random.Random(seed)  # the floor reseeds before each command (FloorService._reseed)
        t.end_day(5.0)
        return t

    a, b, c = day_one(1), day_one(1), day_one(2)
    assert a.state.days == b.state.days and a.state.days[0].draw != c.state.days[0].draw
    day = a.state.days[0]
    assert event_from_dict(json.loads(json.dumps(day.to_dict()))) == day  # as the store keeps it
    again = Tournament.replay(a.events, rng=random.Random(99))
    assert again.state.days == a.state.days
    assert sheet(again.state) == sheet(a.state) == sheet(a.state, day=1)


def test_the_sheet_at_a_break_and_at_the_end_of_a_day() -> None:
    structure = Structure("evening", 10_000, (Level(1, 25, 50, 1), Break("pause", 10), Level(2, 50, 100, 30)))
    t = started("cdc-2013", 12, 2, structure=structure)
    t.tick(61.0)
    data = sheet(t.state)
    assert (data["kind"], data["break"], data["players_left"], data["chips_total"]) == ("break", "pause", 12, 120_000)
    rows: Any = data["rows"]
    assert [(r["table"], r["seat"]) for r in rows] == sorted((r["table"], r["seat"]) for r in rows)
    assert "Pause (pause)" in bags_text(data) and "bag" not in bags_csv(data).lower()
    t.end_day(70.0)
    data = sheet(t.state)
    assert data["kind"] == "day_end" and data["next_day"] == 2
    csv_lines = bags_csv(data).splitlines()
    assert csv_lines[0].split(";")[4] == "Sac / Bag" and len(csv_lines) == 13
    assert "Tirage du jour 2 / Day 2 seat draw" in bags_text(data)
    with pytest.raises(FloorError, match="day 2 has not ended"):
        sheet(t.state, day=2)


def test_the_printed_sheet_names_tables_as_the_dashboard_does() -> None:
    """« Table 3 », capital and all, as on the dashboard and the table's screen; « Tables 2, 5 »."""
    row = {"table": 1, "seat": 3, "player": "Bea", "chips": 39_000, "bag": 2, "next_table": 2, "next_seat": 5}
    data = {"kind": "day_end", "day": 1, "next_day": 2, "name": "Pouques", "players_left": 2, "chips_total": 78_000,
            "average": 39_000, "rows": [row], "draw": [], "buttons": []}
    assert "Table 2 siège/seat 5" in bags_text(data)
    assert "! Table 3 : donne en cours" in bags_text({**data, "kind": "play", "level": 4, "in_hand": [3]})
    assert "! Tables 2, 5 : donne en cours" in bags_text({**data, "kind": "play", "level": 4, "in_hand": [2, 5]})
