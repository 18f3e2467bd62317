"""What the tournament floor says of the room's tables between their own events: which ones it closed
(broken up, cdc-2013 3.4, pouques 35, or gathered into the final table: shown closed, never as empty
seats with 0 chips) and who sits where with how many chips (players moved in by a break or a balance).

Pure: reads the tournament given (the caller holds the floor's lock or runs on its thread).
"""

from __future__ import annotations

from collections.abc import Iterable

from hub.floor.moves import table_number
from hub.tournament.errors import TournamentError
from hub.tournament.events import MoveOrdered, SeatDrawn
from hub.tournament.tournament import Tournament

Seated = dict[int, tuple[str, int]]  # seat -> (player, chips)


def closed_tables(tournament: Tournament | None, tables: Iterable[str]) -> set[str]:
    """The `tables` the tournament once seated players at and no longer has.

    A table it never seated (a hub table outside the tournament) is not closed: it was never open."""
    if tournament is None:
        return set()
    state = tournament.state
    gone: dict[int, str] = {}
    for table in tables:
        try:
            number = table_number(table)
        except TournamentError:
            continue  # not a tournament table id
        if number not in state.tables:
            gone[number] = table
    if not gone:
        return set()  # the usual case: no walk through the tournament's history
    seated: set[int] = set()
    for e in tournament.events:
        if isinstance(e, SeatDrawn):
            seated.add(e.table)
        elif isinstance(e, MoveOrdered):
            seated.add(e.to_table)
    return {table for number, table in gone.items() if number in seated}


def seated_at(tournament: Tournament | None, tables: Iterable[str]) -> dict[str, Seated]:
    """Seat -> (player, chips) at each of `tables` the tournament has now (the others: absent)."""
    if tournament is None:
        return {}
    state = tournament.state
    out: dict[str, Seated] = {}
    for table in tables:
        try:
            at = state.tables.get(table_number(table))
        except TournamentError:
            continue
        if at is not None:
            out[table] = {seat: (name, state.players[name].chips) for seat, name in at.seats.items()}
    return out
