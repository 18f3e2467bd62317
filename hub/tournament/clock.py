"""The tournament clock as pure state (hub, tournament floor).

Consumes clock events (`ClockStarted`, `LevelStarted`, `ClockPaused`, `ClockResumed`,
`TimeAdjusted`, `HeadsUpStarted`) through `apply`; `due(now)` emits the level changes that
`now` has reached, each stamped with its exact boundary time so that a replay is identical.
`ClockHistory` keeps those events with their times, to know the clock at a past time.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from hub.tournament.errors import ClockError
from hub.tournament.events import (
    ClockPaused,
    ClockResumed,
    ClockStarted,
    Event,
    HeadsUpStarted,
    LevelStarted,
    TimeAdjusted,
)
from hub.tournament.structure import Break, Item, Level, Structure


@dataclass
class ClockState:
    structure: Structure
    started: bool = False
    running: bool = False
    index: int = 0  # current item of the structure (level or break)
    elapsed: float = 0.0  # seconds spent in the current item up to `since`
    since: float = 0.0
    extra: float = 0.0  # seconds added to (or removed from) the current item
    heads_up: bool = False
    levels_done: list[int] = field(default_factory=list)  # level numbers fully played
    breaks_done: int = 0

    # --- queries -------------------------------------------------------------------------

    @property
    def item(self) -> Item:
        return self.structure.items[self.index]

    @property
    def on_break(self) -> bool:
        return isinstance(self.item, Break)

    def level(self) -> Level:
        """The level in force (during a break: the last level played)."""
        for idx in range(self.index, -1, -1):
            item = self.structure.items[idx]
            if isinstance(item, Level):
                return item
        return self.structure.levels[0]

    def duration(self, index: int) -> float:
        item = self.structure.items[index]
        if isinstance(item, Level) and self.heads_up and self.structure.heads_up_minutes:
            return self.structure.heads_up_minutes * 60.0
        return item.minutes * 60.0

    def elapsed_at(self, now: float) -> float:
        return self.elapsed + (now - self.since if self.running else 0.0)

    def remaining(self, now: float) -> float:
        """Seconds left in the current item at `now` (0 on the last item once overrun)."""
        if not self.started:
            return self.duration(0)
        return max(0.0, self.duration(self.index) + self.extra - self.elapsed_at(now))

    def next_break_in(self, now: float) -> float | None:
        """Seconds of play until the next break starts (None if none is scheduled)."""
        if not self.started:
            total = 0.0
            start = 0
        elif self.on_break:
            return 0.0
        else:
            total = self.remaining(now)
            start = self.index + 1
        for idx in range(start, len(self.structure.items)):
            if isinstance(self.structure.items[idx], Break):
                return total
            total += self.duration(idx)
        return None

    # --- commands: check, then return the events to apply ---------------------------------

    def due(self, now: float) -> list[Event]:
        """Level changes reached by `now`, each at its boundary; a day-end break pauses."""
        if not (self.started and self.running):
            return []
        out: list[Event] = []
        index, elapsed, since, extra = self.index, self.elapsed, self.since, self.extra
        while index + 1 < len(self.structure.items):
            left = self.duration(index) + extra - elapsed
            if now - since < left:
                break
            boundary = since + left
            index, elapsed, since, extra = index + 1, 0.0, boundary, 0.0
            out.append(LevelStarted(index, "elapsed", boundary))
            item = self.structure.items[index]
            if isinstance(item, Break) and item.day_end:
                out.append(ClockPaused(item.name, boundary))
                break
        return out

    def start(self, now: float) -> list[Event]:
        if self.started:
            raise ClockError("the clock is already started")
        return [ClockStarted(now)]

    def pause(self, now: float, reason: str) -> list[Event]:
        self._need_started()
        if not self.running:
            raise ClockError("the clock is already paused")
        return [ClockPaused(reason, now)]

    def resume(self, now: float) -> list[Event]:
        self._need_started()
        if self.running:
            raise ClockError("the clock is not paused")
        item = self.item
        if isinstance(item, Break) and item.day_end and self.index + 1 < len(self.structure.items):
            # Day 2 resumes with the next level at full time (pouques 16, 20).
            return [ClockResumed(now), LevelStarted(self.index + 1, "resumed", now)]
        return [ClockResumed(now)]

    def adjust(self, seconds: float, now: float) -> list[Event]:
        self._need_started()
        if seconds == 0:
            raise ClockError("adjust by a non-zero number of seconds")
        if self.remaining(now) + seconds < 0:
            raise ClockError(f"only {self.remaining(now):.0f} s left, cannot remove {-seconds:.0f} s")
        return [TimeAdjusted(seconds, now)]

    def jump(self, level_number: int, now: float) -> list[Event]:
        self._need_started()
        try:
            index = self.structure.index_of_level(level_number)
        except ValueError as err:
            raise ClockError(str(err)) from err
        if index == self.index:
            raise ClockError(f"level {level_number} is already in play")
        return [LevelStarted(index, "jumped", now)]

    def _need_started(self) -> None:
        if not self.started:
            raise ClockError("the clock is not started")

    # --- state changes ---------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        if isinstance(event, ClockStarted):
            self.started, self.running, self.index = True, True, 0
            self.elapsed, self.since, self.extra = 0.0, event.at, 0.0
        elif isinstance(event, LevelStarted):
            if isinstance(self.item, Level) and event.index > self.index:
                self.levels_done.append(self.item.number)
            elif isinstance(self.item, Break) and event.index > self.index:
                self.breaks_done += 1
            self.index, self.elapsed, self.since, self.extra = event.index, 0.0, event.at, 0.0
        elif isinstance(event, ClockPaused):
            self.elapsed = self.elapsed_at(event.at)
            self.since, self.running = event.at, False
        elif isinstance(event, ClockResumed):
            self.since, self.running = event.at, True
        elif isinstance(event, TimeAdjusted):
            self.extra += event.seconds
        elif isinstance(event, HeadsUpStarted):
            before = self.remaining(event.at) if self.started else 0.0
            elapsed = self.elapsed_at(event.at)
            self.heads_up = True
            if self.started and isinstance(self.item, Level):
                # The level in play keeps its time, capped at the heads-up duration.
                self.extra = min(before, self.duration(self.index)) + elapsed - self.duration(self.index)


# The events `ClockState.apply` takes: the clock's history, kept to know the clock at a past time.
CLOCK_EVENTS = (ClockStarted, LevelStarted, ClockPaused, ClockResumed, TimeAdjusted, HeadsUpStarted)


@dataclass
class ClockHistory:
    """The clock's records with their times, kept beside the state: a hand that started at a table the
    hub could not hear is set up with the clock of its own time."""

    log: list[tuple[float, Event]] = field(default_factory=list)  # (at, event)

    def record(self, event: Event) -> None:
        if isinstance(event, CLOCK_EVENTS):
            self.log.append((event.at, event))

    def at(self, clock: ClockState, now: float) -> ClockState:
        """The clock at `now`: `clock` (today's) run forward, or before its last change rebuilt from
        the history up to `now`. `clock` itself is not changed."""
        if not self.log or now >= self.log[-1][0]:
            past_clock = dataclasses.replace(clock, levels_done=list(clock.levels_done))
        else:
            past_clock = ClockState(clock.structure)
            for at, past in self.log:
                if at <= now:
                    past_clock.apply(past)
        for event in past_clock.due(now):
            past_clock.apply(event)
        return past_clock
