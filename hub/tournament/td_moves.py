"""The TD's own moves (cdc-2013 3.3: tables designated at the TD's discretion; hub, tournament floor).

Between hands a move is ordered at once; asked while the player's table is in a hand he is dealt in, it is
recorded (`MoveAsked`) and made when that hand ends, as an elimination asked then: the hand in progress is
played as it was dealt. One that cannot be made any more at that moment lapses, saying why (`MoveLapsed`).
Pure: state in, records out through `emit`.
"""

from __future__ import annotations

from collections.abc import Callable

from hub.tournament import seating
from hub.tournament.errors import FloorError, table_label
from hub.tournament.events import Event, MoveLapsed, MoveOrdered, MoveReason
from hub.tournament.state import FloorState, PlayerState

Emit = Callable[[Event], None]


def verify_move(s: FloorState, p: PlayerState, table: int, seat: int) -> None:
    """Raise a `FloorError` in plain words when `p` cannot move to `table`, `seat`."""
    target = s.tables.get(table)
    if target is None:
        raise FloorError(f"no {table_label(table)} in play")
    if p.table is None or p.seat is None or p.table == table:
        raise FloorError(f"{p.name} cannot move to {table_label(table)}")
    if seat in target.seats or not 1 <= seat <= s.capacity(table):
        raise FloorError(f"seat {seat} at {table_label(table)} is not free")


def order_move(s: FloorState, p: PlayerState, table: int, seat: int, now: float, emit: Emit) -> None:
    verify_move(s, p, table, seat)
    assert p.table is not None and p.seat is not None
    target = s.tables[table]
    waits = seating.waits_one_hand(s.policy.arrival_wait, seat, set(target.seats) | {seat}, target.button,
                                   s.capacity(table))
    emit(MoveOrdered(p.name, p.table, p.seat, table, seat, MoveReason.TD, waits, "TD", now))


def asked_moves(s: FloorState, table: int, now: float, emit: Emit) -> None:
    """The moves the TD asked during the hand `table` just ended, made now; one that cannot be any more (he
    is out, the table named was broken, the seat taken meanwhile) lapses, saying why."""
    for name, asked in sorted(s.moves_asked.items()):
        if asked.table != table:
            continue
        p = s.players[name]
        try:
            if not p.alive or p.table != table:
                raise FloorError(f"{name} is out" if not p.alive else f"{name} was moved meanwhile")
            order_move(s, p, asked.to_table, asked.to_seat, now, emit)
        except FloorError as err:
            emit(MoveLapsed(name, asked.to_table, asked.to_seat, str(err), now))
