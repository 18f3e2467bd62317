"""Which of the room's tables the tournament floor has closed: broken up (cdc-2013 3.4, pouques 35) or
gathered into the final table. Such a table is shown closed, never as empty seats with 0 chips.

Pure: reads the tournament given (the caller holds the floor's lock or runs on its thread).
"""

from __future__ import annotations

from collections.abc import Iterable

from hub.floor.service import table_number
from hub.tournament.errors import TournamentError
from hub.tournament.events import MoveOrdered, SeatDrawn
from hub.tournament.tournament import Tournament


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
