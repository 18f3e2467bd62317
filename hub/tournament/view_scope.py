"""Which of the floor's cached views a record can change (hub, tournament floor): the tables it touches, and
whether it leaves the players still in as they were. Read by `FloorState.apply` to keep a festival's clock
snapshot from being rebuilt whole at every record. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from hub.tournament.events import (
    ButtonDrawn,
    ChipsColouredUp,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    DealAgreed,
    EliminationAsked,
    Event,
    HandEnded,
    HandForHandEnded,
    HandForHandStarted,
    HandStarted,
    HeadsUpStarted,
    LevelStarted,
    MoveAsked,
    MoveConfirmed,
    MoveLapsed,
    MoveOrdered,
    PenaltyGiven,
    PlacesCorrected,
    PlayerArrived,
    PlayerEliminated,
    PlayerReentered,
    PlayerRegistered,
    PlayerRemoved,
    PlayerWentAway,
    SeatDrawn,
    StacksCorrected,
    TableBroken,
    TimeAdjusted,
    WaitListEntered,
    WaitListJoined,
)


class Seated(Protocol):
    """A player as far as this module reads him (`hub.tournament.state.PlayerState`)."""

    @property
    def table(self) -> int | None: ...


# The records that change no more of the clock's view of the tables (hand, level, seats, stacks, status)
# than the table they name (a table broken: its players moved by records of their own), the one a player
# moves to, and the one their player sits at before and after. Any other record (the final table drawn, a
# day's draw, a colour-up) redraws them all.
LOCAL: frozenset[type[Event]] = frozenset({
    PlayerRegistered, PlayerArrived, PlayerReentered, WaitListJoined, WaitListEntered, SeatDrawn, ButtonDrawn,
    ClockStarted, LevelStarted, ClockPaused, ClockResumed, TimeAdjusted, HeadsUpStarted, HandStarted, HandEnded,
    StacksCorrected, PlayerEliminated, EliminationAsked, DealAgreed, PlayerRemoved, PlayerWentAway, MoveOrdered,
    MoveConfirmed, TableBroken, HandForHandStarted, HandForHandEnded, PenaltyGiven, PlacesCorrected, MoveAsked,
    MoveLapsed})


# The records whose handler changes no player's status: the players still in stay the same objects
SAME_PLAYERS_IN: frozenset[type[Event]] = frozenset({
    HandStarted, HandEnded, StacksCorrected, ClockStarted, LevelStarted, ClockPaused, ClockResumed, TimeAdjusted,
    HeadsUpStarted, ButtonDrawn, EliminationAsked, DealAgreed, PlayerArrived, PlayerWentAway, PenaltyGiven,
    HandForHandStarted, HandForHandEnded, ChipsColouredUp, PlacesCorrected, MoveAsked, MoveLapsed})


# The records whose handler changes the status of their own player and no other's
ONE_PLAYER: frozenset[type[Event]] = frozenset({
    PlayerRegistered, PlayerReentered, WaitListJoined, WaitListEntered, SeatDrawn, PlayerEliminated, PlayerRemoved,
    MoveOrdered, MoveConfirmed})


def touched_tables(players: Mapping[str, Seated], e: Event) -> set[int | None] | None:
    """The tables whose view `e` may change, as far as known before it is applied; None: all of them."""
    if type(e) not in LOCAL:
        return None
    touched: set[int | None] = {getattr(e, "table", None), getattr(e, "to_table", None)}
    player = getattr(e, "player", None)
    if player is not None and player in players:
        touched.add(players[player].table)
    return touched
