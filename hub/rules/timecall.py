"""The Time call: a think period then a counted-down delay; the hand is dead when it runs out.

Called by `Hand.call_time` / `Hand.tick`; consumes the time `now` (seconds, from the hub's
injected clock, never read here) and emits a `TimeCall` to display, or a `hand_dead` ruling of
kind `time_expired` citing the ruleset (cdc 4.5, brest IV.6, pouques 63, pcpm, cpt87 4.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from hub.rules.records import Decision, FaultKind, RulesError, Ruling, RulingGiven
from hub.rules.rulesets import Ruleset, TimeCaller


class TimeCallRefused(RulesError, ValueError):
    """Time cannot be called now, on that seat, or by that person under the ruleset."""


class TimePhase(StrEnum):
    THINKING = "thinking"  # délai de réflexion
    COUNTDOWN = "countdown"  # décompte des dernières secondes
    EXPIRED = "expired"


@dataclass(frozen=True, slots=True)
class TimeCall:
    seat: int
    called_at: float
    countdown_at: float
    expires_at: float
    caller: TimeCaller
    article: str

    def phase(self, now: float) -> TimePhase:
        if now >= self.expires_at:
            return TimePhase.EXPIRED
        return TimePhase.COUNTDOWN if now >= self.countdown_at else TimePhase.THINKING

    def remaining(self, now: float) -> float:
        return max(0.0, self.expires_at - now)


class TimedHand(Protocol):
    """What the Time call reads and changes of a hand (`hub.rules.hand.Hand`, which calls this
    module: declared here so the two import one way)."""

    time_call: TimeCall | None

    @property
    def rules(self) -> Ruleset: ...
    @property
    def round_open(self) -> bool: ...
    @property
    def to_act(self) -> int | None: ...

    def kill_hand(self, seat: int, ruling: Ruling) -> RulingGiven: ...


def call(hand: TimedHand, seat: int, now: float, caller: TimeCaller) -> TimeCall | Ruling:
    rules = hand.rules
    article = rules.article("time")
    if not hand.round_open or seat != hand.to_act:
        raise TimeCallRefused(f"Time is called on the player to act (seat {hand.to_act}), "
                              f"not seat {seat}")
    if caller not in rules.time_callers:
        allowed = ", ".join(sorted(rules.time_callers))
        raise TimeCallRefused(f"under {article} Time may be called by: {allowed}")
    if rules.time_needs_td and caller is not TimeCaller.OFFICIAL:
        # cpt87 4.5: the TD decides whether to grant it (a request at the table, `hub.room.table_time`);
        # granting is a call by an official.
        return Ruling(Decision.TD_DECISION, article, seat, None, ("grant_time", "refuse_time"))
    tc = TimeCall(seat, now, now + rules.think_seconds,
                  now + rules.think_seconds + rules.countdown_seconds, caller, article)
    hand.time_call = tc
    return tc


def tick(hand: TimedHand, now: float) -> list[RulingGiven]:
    tc = hand.time_call
    if tc is None or now < tc.expires_at:
        return []
    hand.time_call = None
    if tc.seat != hand.to_act or not hand.round_open:
        return []
    ruling = Ruling(Decision.HAND_DEAD, tc.article, tc.seat, FaultKind.TIME_EXPIRED)
    return [hand.kill_hand(tc.seat, ruling)]
