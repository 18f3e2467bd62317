"""The end of a day of play: the bags and the next day's seat draw (hub, tournament floor).

Consumes the `FloorState` once every table is between hands; emits, through `emit`, one `DayEnded`
record holding each player's chips as bagged (with his bag number) and the next day's tables and
seats, drawn with the caller's seeded `random.Random`. The day ends on the TD's word ("fin de
journée") or at the structure's day-end break (`Break.day_end`) once the last hands have ended.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from hub.tournament import seating
from hub.tournament.errors import FloorError, table_label
from hub.tournament.events import DayEnded, Event
from hub.tournament.state import FloorState
from hub.tournament.structure import Break

Emit = Callable[[Event], None]


def verify_end_day(s: FloorState) -> None:
    """Raise a `FloorError` in plain words ("fr / en") when the day cannot end now."""
    if not s.clock.started:
        raise FloorError("le tournoi n'a pas commencé / the tournament has not started")
    if s.day_over:
        raise FloorError(f"le jour {len(s.days)} est déjà fini : reprendre l'horloge pour jouer le jour suivant / "
                         f"day {len(s.days)} is already over: resume the clock to play the next day")
    playing = sorted(n for n, t in s.tables.items() if t.in_hand)
    if playing:
        tables = ", ".join(table_label(n) for n in playing)
        raise FloorError(f"une donne se joue encore ({tables}) : la journée finit quand elle est finie / "
                         f"a hand is still in play ({tables}): the day ends once it is over")
    if len(s.alive()) < 2:
        raise FloorError("le tournoi est fini : il n'y a pas de jour suivant / "
                         "the tournament is over: there is no next day")


def day_end_due(s: FloorState) -> bool:
    """The structure's day-end break is reached, every hand has ended and the day is not ended yet."""
    if not (s.clock.started and s.clock.on_break) or s.day_over:
        return False
    item = s.clock.item
    if not (isinstance(item, Break) and item.day_end) or len(s.alive()) < 2:
        return False
    return not any(t.in_hand for t in s.tables.values())


def end_day(s: FloorState, rng: random.Random, now: float, emit: Emit, *, reason: str) -> None:
    """The bags as they stand (numbered by table and seat) and the next day's draw, in one record."""
    alive = sorted(s.alive(), key=lambda p: (p.table or 0, p.seat or 0, p.name))
    bags = tuple((p.name, p.table or 0, p.seat or 0, p.chips, number) for number, p in enumerate(alive, start=1))
    draw, buttons = next_day_draw(s, sorted(p.name for p in alive), rng)
    emit(DayEnded(s.day, reason, bags, draw, buttons, now))


def next_day_draw(s: FloorState, names: list[str], rng: random.Random
                  ) -> tuple[tuple[tuple[str, int, int], ...], tuple[tuple[int, int], ...]]:
    """Random seats at as few tables as fit, within one player of each other (pouques 21, cdc 3.1),
    tables numbered from 1 (the final table keeps its number); a button drawn at each table."""
    if s.final_table is not None:
        tables = [s.final_table]
    else:
        tables = list(range(1, math.ceil(len(names) / s.seats_per_table) + 1))
    seats = sorted(seating.draw_seats(names, tables, s.seats_per_table, rng), key=lambda r: (r[1], r[2]))
    buttons = tuple((table, rng.choice([seat for _, t, seat in seats if t == table])) for table in tables)
    return tuple(seats), buttons
