"""Undo of a TD action as a compensating record (hub, tournament floor).

Consumes the event log and the positions of one TD action's records; decides whether it can be
undone (nothing played since at its tables or by its players) and which records still count.
The records stay in the log: `ActionReverted(first, last)` says they no longer count. Pure.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hub.tournament.errors import FloorError
from hub.tournament.events import (
    ActionReverted,
    ChipsColouredUp,
    ClockPaused,
    ClockResumed,
    DayEnded,
    DealAgreed,
    EliminationAsked,
    Event,
    LevelStarted,
    MoveAsked,
    MoveOrdered,
    MoveReason,
    PenaltyGiven,
    PlayerReentered,
    PlayerRegistered,
    StacksCorrected,
    TimeAdjusted,
    WaitListEntered,
    WaitListJoined,
)

# Records that open a TD action a TD may undo (what follows in the same batch are its consequences).
UNDOABLE = (StacksCorrected, EliminationAsked, MoveAsked, DealAgreed, PenaltyGiven, ChipsColouredUp, PlayerRegistered,
            PlayerReentered, WaitListJoined, WaitListEntered)
# Records that touch no table and no player: the clock running on does not block an undo.
_NEUTRAL = (LevelStarted, ClockPaused, ClockResumed, TimeAdjusted, ActionReverted)


def undone(events: Sequence[Event]) -> set[int]:
    """Positions of the records that no longer count (the undo records themselves included)."""
    out: set[int] = set()
    for position, e in enumerate(events):
        if isinstance(e, ActionReverted):
            out.update(range(e.first, e.last + 1))
            out.add(position)
    return out


def counting(events: Sequence[Event]) -> Iterator[Event]:
    """The records that count, in order."""
    gone = undone(events)
    return (e for position, e in enumerate(events) if position not in gone)


def opens_action(event: Event) -> bool:
    return isinstance(event, UNDOABLE) or (isinstance(event, MoveOrdered) and event.reason is MoveReason.TD)


def verify_undo(events: Sequence[Event], first: int, last: int) -> None:
    """Raise a `FloorError` in plain words when the records `first`..`last` cannot be undone."""
    if not (0 < first <= last < len(events)) or not opens_action(events[first]):
        raise FloorError("rien à annuler à cet endroit / nothing to undo there")
    gone = undone(events)
    if gone & set(range(first, last + 1)):
        raise FloorError("cette action est déjà annulée / this action is already undone")
    tables: set[int] = set()
    players: set[str] = set()
    for e in events[first:last + 1]:
        tables.update(_tables(e))
        players.update(_players(e))
    for position in range(last + 1, len(events)):
        e = events[position]
        if position in gone or isinstance(e, _NEUTRAL):
            continue
        if isinstance(e, DayEnded) or tables & set(_tables(e)) or players & set(_players(e)):  # a day's end reseats all
            raise FloorError("trop tard pour annuler : la table ou le joueur a joué depuis ; corriger les tapis / "
                             "too late to undo: the table or the player has played since; correct the stacks")


def _tables(e: Event) -> list[int]:
    return [v for name in ("table", "from_table", "to_table") if isinstance(v := getattr(e, name, None), int) and v]


def _players(e: Event) -> list[str]:
    names = [v for name in ("player",) if isinstance(v := getattr(e, name, None), str)]
    names.extend(getattr(e, "winners", ()))
    for pairs in (getattr(e, "seats", ()), getattr(e, "stacks", ())):
        names.extend(pair[0] for pair in pairs if isinstance(pair, tuple) and isinstance(pair[0], str))
    return names
