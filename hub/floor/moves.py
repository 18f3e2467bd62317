"""The moves the floor tells the tables (hub, floor: tournament events -> dealers' instructions).

Holds the hub's table ids for the tournament's table numbers ("t1" <-> 1), `MoveInstruction` (a player
leaves one seat for another, and why), and what a batch of floor events asks of the dealers: moves, broken
tables, the final-table draw, the next day's draw, the seats an undo puts back; and those still to carry
out, which a hub started again on its store tells the tables again (`pending_instructions`). Pure: no IO.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from hub.floor.store import JSON
from hub.tournament.errors import FloorError
from hub.tournament.events import DayEnded, Event, FinalTableDrawn, HandStarted, MoveOrdered, TableBroken
from hub.tournament.tournament import Tournament


def table_id(number: int) -> str:
    """The hub's table id for the tournament's table number (1 -> "t1")."""
    return f"t{number}"


def table_number(table: str) -> int:
    """The tournament's table number for a hub table id ("t3" -> 3); a FloorError otherwise."""
    if table.startswith("t") and table[1:].isdigit() and int(table[1:]) > 0:
        return int(table[1:])
    raise FloorError(f"table {table!r} is not a tournament table (t1, t2, ...)")


@dataclass(frozen=True, slots=True)
class MoveInstruction:
    """Tell a table: `player` leaves `from_table`/`from_seat` for `to_table`/`to_seat` (hub table ids)."""

    player: str
    from_table: str
    from_seat: int
    to_table: str
    to_seat: int
    reason: str  # balance, break, td, final, day (the next day's draw)
    waits_one_hand: bool
    article: str

    def to_dict(self) -> dict[str, JSON]:
        return {"player": self.player, "from_table": self.from_table, "from_seat": self.from_seat,
                "to_table": self.to_table, "to_seat": self.to_seat, "reason": self.reason,
                "waits_one_hand": self.waits_one_hand, "article": self.article}



def move_instructions(events: list[Event], before: Mapping[str, tuple[int, int]]) -> list[MoveInstruction]:
    """What the tables must do after a batch of floor events: moves, breaks, the final-table draw.

    `before` maps each player to his (table, seat) before the batch (the final draw only names
    where players go)."""
    out: list[MoveInstruction] = []
    seats = dict(before)
    for e in events:
        if isinstance(e, MoveOrdered):
            seats[e.player] = (e.to_table, e.to_seat)
            out.append(_ordered(e))
        elif isinstance(e, FinalTableDrawn):
            for name, seat in e.seats:
                old = seats.get(name, (0, 0))
                if old != (e.table, seat):
                    out.append(MoveInstruction(name, table_id(old[0]) if old[0] else "", old[1],
                                               table_id(e.table), seat, "final", False, e.article))
        elif isinstance(e, DayEnded):  # the next day's draw: everyone who changes seat is told where
            for name, table, seat in e.draw:
                old = seats.get(name, (0, 0))
                seats[name] = (table, seat)
                if old != (table, seat):
                    out.append(MoveInstruction(name, table_id(old[0]) if old[0] else "", old[1], table_id(table),
                                               seat, "day", False, f"jour {e.day + 1} / day {e.day + 1}"))
        elif isinstance(e, TableBroken):
            pass  # its players' MoveOrdered records came first
    return out


def pending_instructions(t: Tournament) -> list[MoveInstruction]:
    """The instructions the tables were given and still have to carry out, each as it was given: the moves
    ordered whose player is not yet dealt in at his new seat (`Tournament.pending_moves`), and the final
    table's draw until the final table deals its first hand. What a restarted hub tells the tables again."""
    return [_ordered(m) for m in t.pending_moves()] + _final_draw_pending(t)


def _final_draw_pending(t: Tournament) -> list[MoveInstruction]:
    """The final table's draw, while its first hand is still to deal (its button drawn, `fresh_button`): each
    player who changes seat, from where the floor had him before the draw (the state then, replayed: only in
    that short wait, at a hub's start). A draw taken back since (`undo`) seats no one: none of its moves."""
    s = t.state
    final = s.tables.get(s.final_table) if s.final_table is not None else None
    if final is None or len(s.tables) != 1 or not final.fresh_button:
        return []
    for i in range(len(t.events) - 1, 0, -1):
        drawn = t.events[i]
        if isinstance(drawn, HandStarted | DayEnded):  # dealt since, or seated again by a day's draw
            return []
        if isinstance(drawn, FinalTableDrawn):
            break
    else:
        return []
    then = Tournament.replay(t.events[:i]).state
    before = {p.name: (p.table, p.seat) for p in then.alive() if p.table is not None and p.seat is not None}
    return [m for m in move_instructions([drawn], before)
            if (s.players[m.player].table, s.players[m.player].seat) == (drawn.table, m.to_seat)]


def _ordered(e: MoveOrdered) -> MoveInstruction:
    return MoveInstruction(e.player, table_id(e.from_table), e.from_seat, table_id(e.to_table), e.to_seat,
                           e.reason.value, e.waits_one_hand, e.article)


def seat_changes(before: Mapping[str, tuple[int, int]], after: Mapping[str, tuple[int, int]]) -> list[MoveInstruction]:
    """What the dealers must do after an action changed seats its own way (an undo puts players back)."""
    out = []
    for name, (table, seat) in sorted(after.items()):
        old = before.get(name, (0, 0))
        if old != (table, seat):
            out.append(MoveInstruction(name, table_id(old[0]) if old[0] else "", old[1], table_id(table), seat,
                                       "td", False, "TD"))
    return out
