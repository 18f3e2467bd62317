"""The clock's details the TD sees (hub/tournament/clock.py): its refusals word for word, the
reason each event carries, the counts of levels and breaks played, and its edges (before the
start, on a break, past the last level). Written from the mutation triage of issue 29."""

from __future__ import annotations

import pytest

from hub.tournament.clock import ClockState
from hub.tournament.errors import ClockError
from hub.tournament.events import ClockPaused, ClockResumed, Event, LevelStarted
from hub.tournament.structure import Break, Level, Structure, pouques_2020

MIN = 60.0
SHORT = Structure("short", 1_000, (Break("accueil", 10), Level(1, 50, 100, 20), Level(2, 100, 200, 30),
                                   Break("pause", 5), Level(3, 200, 400, 40)))


def apply(clock: ClockState, events: list[Event]) -> list[Event]:
    for e in events:
        clock.apply(e)
    return events


def started(structure: Structure = SHORT, now: float = 0.0) -> ClockState:
    clock = ClockState(structure)
    apply(clock, clock.start(now))
    return clock


def test_before_the_start_the_first_item_and_the_first_break_are_announced() -> None:
    clock = ClockState(pouques_2020())
    assert clock.remaining(123.0) == 40 * MIN
    assert clock.next_break_in(123.0) == 6 * 40 * MIN  # the dinner break after level 6
    assert clock.level().number == 1


def test_a_structure_opening_on_a_break_plays_its_first_level_there() -> None:
    clock = started()
    assert clock.on_break and clock.level() == Level(1, 50, 100, 20)
    assert clock.next_break_in(0.0) == 0.0


def test_refusals_word_for_word() -> None:
    fresh = ClockState(SHORT)
    for command in (lambda: fresh.pause(0.0, "TD"), lambda: fresh.resume(0.0), lambda: fresh.adjust(60, 0.0),
                    lambda: fresh.jump(2, 0.0)):
        with pytest.raises(ClockError, match="^the clock is not started$"):
            command()
    clock = started(pouques_2020())
    with pytest.raises(ClockError, match="^the clock is already started$"):
        clock.start(1.0)
    with pytest.raises(ClockError, match="^the clock is not paused$"):
        clock.resume(1.0)
    with pytest.raises(ClockError, match="^adjust by a non-zero number of seconds$"):
        clock.adjust(0, 1.0)
    with pytest.raises(ClockError, match="^only 2400 s left, cannot remove 2500 s$"):
        clock.adjust(-2_500, 0.0)
    with pytest.raises(ClockError, match="^level 1 is already in play$"):
        clock.jump(1, 0.0)
    with pytest.raises(ClockError, match="no level 99"):
        clock.jump(99, 0.0)
    apply(clock, clock.pause(1.0, "TD"))
    with pytest.raises(ClockError, match="^the clock is already paused$"):
        clock.pause(2.0, "TD")


def test_time_adjusts_to_the_second_down_to_nothing_left() -> None:
    clock = started(pouques_2020())
    apply(clock, clock.adjust(1, 0.0))
    assert clock.remaining(0.0) == 40 * MIN + 1
    apply(clock, clock.adjust(-(40 * MIN + 1), 0.0))  # all that is left: allowed
    assert clock.remaining(0.0) == 0.0


def test_each_event_says_why() -> None:
    clock = started(pouques_2020())
    assert clock.pause(5.0, "chip race") == [ClockPaused("chip race", 5.0)]
    assert clock.jump(3, 5.0) == [LevelStarted(2, "jumped", 5.0)]
    assert apply(clock, clock.due(40 * MIN)) == [LevelStarted(1, "elapsed", 40 * MIN)]
    day_end = next(i for i, item in enumerate(clock.structure.items) if isinstance(item, Break) and item.day_end)
    apply(clock, [LevelStarted(day_end - 1, "jumped", 50 * MIN)])
    night = clock.structure.items[day_end]
    assert isinstance(night, Break)
    ended = apply(clock, clock.due(90 * MIN + 1))
    assert ended == [LevelStarted(day_end, "elapsed", 90 * MIN), ClockPaused(night.name, 90 * MIN)]
    assert clock.resume(1_000 * MIN) == [ClockResumed(1_000 * MIN), LevelStarted(day_end + 1, "resumed", 1_000 * MIN)]


def test_levels_and_breaks_played_are_counted_once_and_not_on_a_jump_back() -> None:
    clock = started()
    apply(clock, clock.due(10 * MIN + 20 * MIN + 30 * MIN))  # the welcome break, levels 1 and 2
    assert (clock.index, clock.levels_done, clock.breaks_done) == (3, [1, 2], 1)
    apply(clock, clock.jump(1, 61 * MIN))  # back from the pause to level 1: nothing more played
    assert (clock.levels_done, clock.breaks_done) == ([1, 2], 1)


def test_past_the_last_level_the_clock_stays_on_it_at_zero() -> None:
    clock = started()
    apply(clock, clock.jump(3, 0.0))
    assert apply(clock, clock.due(1_000 * MIN)) == []
    assert clock.index == 4 and clock.remaining(1_000 * MIN) == 0.0
    assert clock.next_break_in(1_000 * MIN) is None


def test_before_the_start_the_first_item_is_the_one_announced_even_a_break() -> None:
    assert ClockState(SHORT).remaining(0.0) == 10 * MIN


def test_every_break_played_is_counted() -> None:
    clock = started()
    apply(clock, clock.due((10 + 20 + 30 + 5) * MIN))
    assert (clock.levels_done, clock.breaks_done, clock.level().number) == ([1, 2], 2, 3)


def test_after_a_night_break_the_next_level_starts_and_after_the_last_one_nothing() -> None:
    night = Structure("two days", 1_000, (Level(1, 50, 100, 20), Break("nuit", 0, day_end=True),
                                          Level(2, 100, 200, 20)))
    clock = started(night)
    apply(clock, clock.due(20 * MIN))
    assert not clock.running and clock.on_break
    assert clock.resume(30 * MIN) == [ClockResumed(30 * MIN), LevelStarted(2, "resumed", 30 * MIN)]
    final = Structure("one day", 1_000, (Level(1, 50, 100, 20), Break("fin", 0, day_end=True)))
    clock = started(final)
    apply(clock, clock.due(20 * MIN))
    assert clock.resume(30 * MIN) == [ClockResumed(30 * MIN)]
