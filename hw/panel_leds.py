"""LED policy: which seat and dealer LEDs are on, off or blinking, from what the table shows now.

Pure (no gpiozero, no clock reads): consumes `TableLights` (seat to act, seats at fault, Time countdown)
and the time `now` passed in; emits a `LedFrame`. `hw.panel.Panel.refresh()` applies the frame to the
gpiozero LEDs, so blinking follows the injected clock and tests see exact pin histories.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class LedMode(StrEnum):
    OFF = "off"
    ON = "on"
    BLINK = "blink"


@dataclass(frozen=True, slots=True)
class LedState:
    """One LED's behaviour. A blinking LED is lit for the first half of each `period` after `origin`."""

    mode: LedMode
    period: float | None = None  # seconds per on+off cycle, BLINK only
    origin: float = 0.0  # phase reference, so a countdown blinks on its whole seconds

    def __post_init__(self) -> None:
        if (self.mode is LedMode.BLINK) != (self.period is not None):
            raise ValueError(f"a blinking LED needs a period, a steady one none: {self!r}")
        if self.period is not None and self.period <= 0:
            raise ValueError(f"blink period must be positive, got {self.period}")

    def lit_at(self, now: float) -> bool:
        if self.mode is LedMode.ON:
            return True
        if self.mode is LedMode.OFF or self.period is None:
            return False
        return (now - self.origin) % self.period < self.period / 2

    @property
    def hertz(self) -> float:
        return 0.0 if self.period is None else 1.0 / self.period


OFF = LedState(LedMode.OFF)
ON = LedState(LedMode.ON)


@dataclass(frozen=True, slots=True)
class TableLights:
    """What the table must show, as the agent learns it from the hub and the dealing monitor."""

    to_act: int | None = None  # seat whose turn it is (à qui de parler)
    faults: frozenset[int] = frozenset()  # seats at fault, lit until the ruling is applied
    time_seat: int | None = None  # seat on which Time was called
    time_ends_at: float | None = None  # clock time when its countdown runs out
    td_wait: bool = False  # play stopped until the TD decides (attente de la décision du directeur)

    def __post_init__(self) -> None:
        if (self.time_seat is None) != (self.time_ends_at is None):
            raise ValueError("a Time countdown needs both its seat and its end time")


@dataclass(frozen=True, slots=True)
class LedFrame:
    """Every LED's state at one instant: per seat the to-act and fault LEDs, and the dealer LED."""

    to_act: dict[int, LedState] = field(default_factory=dict)
    fault: dict[int, LedState] = field(default_factory=dict)
    dealer: LedState = OFF


class LedPolicy:
    """Steady to-act LED for the seat to act; during Time it blinks, faster in the last `fast_below` s.

    A seat at fault has its fault LED steady on. When the countdown has run out the to-act LED goes
    steady again until the hub rules (cdc 4.5: hand dead). The dealer LED blinks while a seat is being
    picked for away/back/time and is steady while a Time countdown runs. While the table waits for
    the TD's decision nobody speaks: no to-act LED, and the dealer LED blinks fast (`td_period`) until
    he decides.
    """

    def __init__(
        self,
        seats: int,
        *,
        slow_period: float = 1.0,
        fast_period: float = 0.25,
        fast_below: float = 10.0,
        pick_period: float = 0.5,
        td_period: float = 0.2,
    ) -> None:
        if not 1 <= seats <= 10:
            raise ValueError(f"a table has 1..10 seats, got {seats}")
        if not 0 < fast_period < slow_period:
            raise ValueError("the last seconds must blink faster: need 0 < fast_period < slow_period")
        self.seats = seats
        self.slow_period = slow_period
        self.fast_period = fast_period
        self.fast_below = fast_below
        self.pick_period = pick_period
        self.td_period = td_period

    def countdown(self, lights: TableLights, now: float) -> LedState:
        """The blinking of the seat under Time, `now` seconds into the clock."""
        assert lights.time_ends_at is not None
        remaining = lights.time_ends_at - now
        if remaining <= 0:
            return ON
        period = self.fast_period if remaining <= self.fast_below else self.slow_period
        return LedState(LedMode.BLINK, period, origin=lights.time_ends_at)

    def decide(self, lights: TableLights, now: float, *, picking: bool = False) -> LedFrame:
        to_act: dict[int, LedState] = {}
        fault: dict[int, LedState] = {}
        for seat in range(1, self.seats + 1):
            if lights.td_wait:
                to_act[seat] = OFF
            elif lights.time_seat == seat:
                to_act[seat] = self.countdown(lights, now)
            elif lights.to_act == seat:
                to_act[seat] = ON
            else:
                to_act[seat] = OFF
            fault[seat] = ON if seat in lights.faults else OFF
        if picking:
            dealer = LedState(LedMode.BLINK, self.pick_period, origin=0.0)
        elif lights.td_wait:
            dealer = LedState(LedMode.BLINK, self.td_period, origin=0.0)
        elif lights.time_ends_at is not None and lights.time_ends_at > now:
            dealer = ON
        else:
            dealer = OFF
        return LedFrame(to_act=to_act, fault=fault, dealer=dealer)
