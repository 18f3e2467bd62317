"""Structures (pouques §G built in, TOML) and the clock (cdc 4.1, pouques 17-18, §G heads-up)."""

from __future__ import annotations

import random

import pytest

from hub.tournament.clock import ClockState
from hub.tournament.errors import ClockError, FloorError, StructureError, TournamentError
from hub.tournament.events import Event, HeadsUpStarted, LevelStarted
from hub.tournament.structure import AnteKind, Break, Level, Structure, from_toml, pouques_2020, to_toml
from hub.tournament.tournament import Tournament

MIN = 60.0


def test_pouques_structure_matches_article_34() -> None:
    s = pouques_2020()
    assert s.starting_stack == 50_000  # article 31
    assert len(s.levels) == 26
    assert all(lv.minutes == 40 for lv in s.levels)  # article 17
    assert s.level(1) == Level(1, 50, 100, 40)
    assert s.level(2) == Level(2, 100, 200, 40)
    assert s.level(3) == Level(3, 150, 300, 40, 25, AnteKind.PER_PLAYER)
    assert s.level(6) == Level(6, 400, 800, 40, 100, AnteKind.PER_PLAYER)
    assert s.level(14) == Level(14, 3000, 6000, 40, 500, AnteKind.PER_PLAYER)
    assert s.level(21) == Level(21, 15_000, 30_000, 40, 4000, AnteKind.PER_PLAYER)
    assert s.level(26) == Level(26, 60_000, 120_000, 40, 15_000, AnteKind.PER_PLAYER)
    after = {s.items[i - 1].number: item for i, item in enumerate(s.items)  # type: ignore[union-attr]
             if isinstance(item, Break)}
    assert after[6] == Break("dîner", 60)  # article 18
    assert after[9] == Break("pause", 10)
    assert after[14].day_end
    assert after[21] == Break("dîner", 60)
    assert {17, 20, 23} <= set(after)
    assert s.heads_up_minutes == 20 and not s.heads_up_antes  # §G, last paragraph


def test_toml_round_trip_and_hand_written_file() -> None:
    s = pouques_2020()
    assert from_toml(to_toml(s)) == s
    text = """
name = "Mardi du club"
starting_stack = 20000

[[item]]
level = 1
small_blind = 25
big_blind = 50
minutes = 20

[[item]]
break = "pause"
minutes = 10

[[item]]
level = 2
small_blind = 50
big_blind = 100
ante = 100
ante_kind = "big_blind"
minutes = 20
"""
    club = from_toml(text)
    assert club.levels[1].ante_kind is AnteKind.BIG_BLIND
    assert club.heads_up_minutes is None and club.heads_up_antes
    assert from_toml(to_toml(club)) == club


@pytest.mark.parametrize("text", ["name = 'x'", "name='x'\nstarting_stack=1\n[[item]]\nlevel=1\n",
                                  "name='x'\nstarting_stack=100\n[[item]]\nlevel=2\nsmall_blind=50\n"
                                  "big_blind=25\nminutes=10\n", "not toml ["])
def test_bad_structures_are_refused(text: str) -> None:
    with pytest.raises(StructureError) as info:
        from_toml(text)
    assert isinstance(info.value, ValueError) and isinstance(info.value, TournamentError)


def started_clock(now: float = 0.0) -> ClockState:
    clock = ClockState(pouques_2020())
    for e in clock.start(now):
        clock.apply(e)
    return clock


def run(clock: ClockState, now: float) -> list[Event]:
    events = clock.due(now)
    for e in events:
        clock.apply(e)
    return events


def test_levels_roll_at_exact_boundaries_and_breaks() -> None:
    clock = started_clock(100.0)
    assert clock.remaining(100.0 + 10 * MIN) == 30 * MIN
    events = run(clock, 100.0 + 6 * 40 * MIN + 5.0)
    assert [e.at for e in events] == [100.0 + n * 40 * MIN for n in range(1, 7)]  # type: ignore[attr-defined]
    assert clock.item == Break("dîner", 60)
    assert clock.remaining(100.0 + 6 * 40 * MIN + 5.0) == 60 * MIN - 5.0
    run(clock, 100.0 + 6 * 40 * MIN + 60 * MIN)
    assert clock.level().number == 7


def test_pause_resume_add_remove_jump() -> None:
    clock = started_clock()
    for e in clock.pause(10 * MIN, "chip race"):  # pouques 33: the count stops
        clock.apply(e)
    with pytest.raises(ClockError):
        clock.pause(11 * MIN, "again")
    assert run(clock, 500 * MIN) == []  # paused: no level change
    assert clock.remaining(500 * MIN) == 30 * MIN
    for e in clock.resume(500 * MIN):
        clock.apply(e)
    for e in clock.adjust(5 * MIN, 500 * MIN):
        clock.apply(e)
    assert clock.remaining(500 * MIN) == 35 * MIN
    for e in clock.adjust(-34 * MIN, 500 * MIN):
        clock.apply(e)
    assert clock.remaining(500 * MIN) == 1 * MIN
    with pytest.raises(ClockError):
        clock.adjust(-2 * MIN, 500 * MIN)
    assert [e.index for e in run(clock, 501 * MIN)] == [1]  # type: ignore[attr-defined]
    for e in clock.jump(5, 502 * MIN):
        clock.apply(e)
    assert clock.level().small_blind == 300 and clock.remaining(502 * MIN) == 40 * MIN
    with pytest.raises(ClockError):
        clock.jump(99, 502 * MIN)


def test_a_second_pause_in_one_level_keeps_the_time_played_before_the_first() -> None:
    """Level 1 of 40 minutes: 10 played, a pause, 5 more, a second pause: 25 minutes are left,
    through the second pause and after it; the level ends 15 minutes after the second resume."""
    clock = started_clock()
    for when, command in ((10 * MIN, "pause"), (20 * MIN, "resume"), (25 * MIN, "pause"),
                          (90 * MIN, "resume")):
        events = clock.pause(when, "TD") if command == "pause" else clock.resume(when)
        for e in events:
            clock.apply(e)
        assert clock.remaining(when) == (30 if when < 25 * MIN else 25) * MIN, (command, when)
    assert clock.elapsed_at(100 * MIN) == 25 * MIN
    assert run(clock, 114 * MIN) == [] and clock.remaining(114 * MIN) == 1 * MIN
    assert [(e.index, e.at) for e in run(clock, 116 * MIN)] == [(1, 115 * MIN)]  # type: ignore[attr-defined]


def test_day_one_ends_paused_and_day_two_resumes_at_level_15() -> None:
    clock = started_clock()
    run(clock, 10_000 * MIN)
    assert isinstance(clock.item, Break) and clock.item.day_end and not clock.running
    assert clock.level().number == 14
    for e in clock.resume(20_000 * MIN):
        clock.apply(e)
    assert clock.level().number == 15 and clock.remaining(20_000 * MIN) == 40 * MIN


def test_next_break_in() -> None:
    clock = started_clock()
    assert clock.next_break_in(10 * MIN) == 5 * 40 * MIN + 30 * MIN


def test_heads_up_levels_of_20_minutes_without_antes() -> None:
    clock = started_clock()
    run(clock, 3 * 40 * MIN + 5 * MIN)  # level 4, 35 min left
    clock.apply(HeadsUpStarted("§G", 125 * MIN))
    assert clock.remaining(125 * MIN) == 20 * MIN  # capped at the heads-up duration
    run(clock, 145 * MIN)
    assert clock.level().number == 5 and clock.remaining(145 * MIN) == 20 * MIN


def two_table_event(ruleset: str = "cdc-2013") -> Tournament:
    structure = Structure("t", 10_000, (Level(1, 25, 50, 20), Level(2, 50, 100, 20, 10, AnteKind.PER_PLAYER),
                                        Break("pause", 10), Level(3, 75, 150, 20, 15, AnteKind.PER_PLAYER)))
    t = Tournament(name="t", ruleset=ruleset, structure=structure, now=0.0, rng=random.Random(5))
    for i in range(18):
        t.register(f"p{i:02d}", 0.0)
    t.draw_seats(0.0, tables=2)
    t.start(0.0)
    return t


def test_a_level_ending_mid_hand_applies_at_the_next_hand() -> None:
    """cdc 4.1, brest VI.1, cpt87 4.1: the hand in progress keeps its blinds."""
    t = two_table_event()
    first = t.hand_started(1, 1, 19 * MIN + 50.0)
    assert (first.number, first.small_blind, first.big_blind) == (1, 25, 50)
    t.hand_started(2, 1, 19 * MIN + 55.0)
    assert t.snapshot(20 * MIN + 30.0)["level"] == 2  # the clock has moved on...
    assert t.hand_level(1) == 1  # ...the hand in progress has not
    stacks = {seat: 10_000 for seat in t.state.tables[1].seats}
    t.hand_ended(1, 1, stacks, 20 * MIN + 30.0)
    assert [type(e).__name__ for e in t.events if isinstance(e, LevelStarted)] == ["LevelStarted"]
    second = t.hand_started(1, 2, 20 * MIN + 40.0)
    assert (second.number, second.big_blind, second.ante) == (2, 100, 10)
    assert t.hand_level(2) == 1  # table 2 still plays its level-1 hand


def test_no_hand_starts_during_a_break_or_before_the_start() -> None:
    t = two_table_event()
    with pytest.raises(FloorError):
        t.hand_started(1, 1, 41 * MIN)  # on the break after level 2
    assert not t.can_start_hand(1, 45 * MIN) and t.can_start_hand(1, 51 * MIN)


def test_time_does_not_go_backwards() -> None:
    t = two_table_event()
    t.tick(100.0)
    with pytest.raises(ClockError):
        t.tick(50.0)


def test_a_hand_heard_late_is_set_up_at_the_level_it_started() -> None:
    """A table cut off the hub: its hand pressed at 19:50 is heard at 20:30, after level 2 began."""
    t = two_table_event()
    t.tick(20 * MIN + 30.0)
    level = t.hand_started(1, 1, 20 * MIN + 30.0, as_of=19 * MIN + 50.0)
    assert (level.number, level.big_blind) == (1, 50) and t.hand_level(1) == 1
    started = t.events[-1]
    assert started.at == 19 * MIN + 50.0  # type: ignore[attr-defined]
    assert t.snapshot(20 * MIN + 30.0)["level"] == 2  # the clock stays where it is
    with pytest.raises(ClockError):
        t.tick(20 * MIN)  # and still does not go backwards
    assert t.hand_started(2, 1, 20 * MIN + 31.0).number == 2  # a table heard live: today's level
    again = Tournament.replay(t.events)
    assert again.hand_level(1) == 1 and again.state.clock.index == t.state.clock.index


def test_a_hand_begun_before_a_break_is_played_one_begun_during_it_is_not() -> None:
    t = two_table_event()
    t.tick(41 * MIN)  # the break after level 2 began at 40:00
    assert t.hand_started(1, 1, 41 * MIN, as_of=39 * MIN + 55.0).number == 2  # legal when dealt
    with pytest.raises(FloorError, match="break"):
        t.hand_started(2, 1, 41 * MIN, as_of=40 * MIN + 5.0)


def test_a_hand_pressed_after_its_arrival_is_set_up_at_the_arrival() -> None:
    """`as_of` later than `now` (clocks' error): exactly as a hand with no `as_of`."""
    plain, early = two_table_event(), two_table_event()
    for t, as_of in ((plain, None), (early, 20 * MIN + 5.0)):
        t.hand_started(1, 1, 19 * MIN + 59.0, as_of=as_of)
    assert [e.to_dict() for e in plain.events] == [e.to_dict() for e in early.events]


def test_the_clock_as_of_a_past_time_counts_pauses_and_added_time() -> None:
    """The level in force at a past time is rebuilt from the clock's own events."""
    t = two_table_event()
    t.pause(10 * MIN, "TD")
    t.resume(15 * MIN)  # level 1 now ends at 25:00
    t.add_time(60.0, 16 * MIN)  # ...at 26:00
    t.tick(27 * MIN)
    assert t.hand_started(1, 1, 27 * MIN, as_of=25 * MIN + 50.0).number == 1
    assert t.hand_started(2, 1, 27 * MIN, as_of=26 * MIN + 10.0).number == 2
