"""Entries to the tournament (hub, tournament floor: registration, arrival, re-entry, wait-list).

Consumes the `FloorState`; raises a `RegistrationError` in the ruleset's words when an entry is refused
(freezeout, registration closed, re-entry used or closed, an empty wait-list), and seats a new entry at
the shortest table, its seat drawn with the caller's seeded `random.Random`, emitting through `emit`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hub.tournament import seating
from hub.tournament.errors import RegistrationError
from hub.tournament.events import Event, SeatDrawn
from hub.tournament.results import wait_list_stack
from hub.tournament.state import FloorState, PlayerState, PlayerStatus

Emit = Callable[[Event], None]


def past(s: FloorState, level: int) -> bool:
    """Level `level` is over: played out, or jumped past by the TD."""
    return level in s.clock.levels_done or s.clock.level().number > level


def verify_register(s: FloorState, player: str, present: bool) -> None:
    """A new entry (not a re-entry): refused when he is entered, or registration has closed."""
    pol = s.policy
    if player in s.players and s.players[player].status is PlayerStatus.OUT:
        raise RegistrationError(f"no re-entry under {pol.ruleset} (freezeout)")
    if player in s.players:
        raise RegistrationError(f"{player} is already entered (one entry per person)")
    if s.clock.started and not (pol.late_registration_levels and not past(s, pol.late_registration_levels)):
        raise RegistrationError(f"registration is closed ({pol.late_arrival_article})")
    if s.drawn and not present:
        raise RegistrationError("a late registration is made in person")


def verify_arrival(s: FloorState, p: PlayerState) -> None:
    """A registered player arrives: not twice, nor after the late-arrival deadline put him out."""
    if p.arrived:
        raise RegistrationError(f"{p.name} has already arrived")
    if p.status is PlayerStatus.OUT:
        raise RegistrationError(f"{p.name} arrived too late ({s.policy.late_arrival_article})")


def verify_reentry(s: FloorState, p: PlayerState) -> None:
    """Re-entry after elimination (pouques 7, 22: once, within the first 6 levels)."""
    pol = s.policy
    if not pol.reentries:
        raise RegistrationError(f"no re-entry under {pol.ruleset} (freezeout)")
    if p.status is not PlayerStatus.OUT or p.name in s.ranked_last:
        raise RegistrationError(f"{p.name} is not eliminated")
    if p.entries > pol.reentries:
        raise RegistrationError(f"{p.name} has used his re-entry ({pol.reentry_article})")
    if past(s, pol.reentry_levels):
        raise RegistrationError(f"re-entry closed after level {pol.reentry_levels} ({pol.reentry_article})")


def verify_join_wait_list(s: FloorState, player: str) -> None:
    if not s.policy.wait_list:
        raise RegistrationError(f"no wait-list under {s.policy.ruleset}")
    if player in s.players:
        raise RegistrationError(f"{player} is already entered")


def wait_list_entry(s: FloorState) -> tuple[str, int]:
    """The first waiting player and the brest II.2 stack he enters with after an elimination."""
    if not s.wait_list:
        raise RegistrationError("the wait-list is empty")
    if not s.clock.started or not s.outs:
        raise RegistrationError("a wait-list player enters after an elimination (brest-2011 II.2)")
    stack = wait_list_stack(s.structure.starting_stack, s.structure.levels, s.clock.level().number)
    if stack <= 0:
        raise RegistrationError(f"the wait-list stack would be {stack} (brest-2011 II.2)")
    return s.wait_list[0], stack


def seat_new(s: FloorState, rng: random.Random, player: str, chips: int, now: float, emit: Emit) -> None:
    """A new entry sits at the shortest table, seat drawn at random (pouques 9)."""
    open_tables = [(len(t.seats), n) for n, t in s.tables.items() if len(t.seats) < s.capacity(n)]
    if open_tables:
        table = min(open_tables)[1]
    else:
        table = max(s.tables, default=0) + 1
    occupied = set(s.tables[table].seats) if table in s.tables else set()
    seat = rng.choice(seating.free_seats(occupied, s.capacity(table)))
    emit(SeatDrawn(player, table, seat, chips, now))
