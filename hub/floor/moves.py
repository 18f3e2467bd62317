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
from hub.tournament.events import DayEnded, Event, FinalTableDrawn, MoveOrdered, TableBroken
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



def told_at(move: Mapping[str, JSON]) -> str:
    """The table whose stream says a move (`floor_moves`): the one the player leaves, whose dealer sends him;
    for the next day's draw the one he sits at the next day (yesterday's may no longer play)."""
    leaves = move.get("from_table") if move.get("reason") != "day" else None
    return str(leaves or move.get("to_table"))


def move_instructions(events: list[Event], before: Mapping[str, tuple[int, int]]) -> list[MoveInstruction]:
    """What the tables must do after a batch of floor events: moves, breaks, the final-table draw, the next
    day's draw.

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
            # from where he bagged: a hand's end that ends the day has not the seats before it (`hand_ended`)
            bagged = {name: (table, seat) for name, table, seat, _, _ in e.bags}
            for name, table, seat in e.draw:
                old = bagged.get(name) or seats.get(name, (0, 0))
                seats[name] = (table, seat)
                if old != (table, seat):
                    out.append(MoveInstruction(name, table_id(old[0]) if old[0] else "", old[1], table_id(table),
                                               seat, "day", False, f"jour {e.day + 1} / day {e.day + 1}"))
        elif isinstance(e, TableBroken):
            pass  # its players' MoveOrdered records came first
    return out


def pending_instructions(t: Tournament) -> list[MoveInstruction]:
    """The instructions the tables were given and still have to carry out, each as it was given: the moves
    ordered whose player is not yet dealt in at his new seat (`Tournament.pending_moves`), then the last
    draw's reseatings (the final table's, the next day's) until the player's new table deals its first hand
    (`FloorState.drawn_seats`). What a restarted hub tells the tables again."""
    drawn = [MoveInstruction(d.player, table_id(d.from_table) if d.from_table else "", d.from_seat,
                             table_id(d.to_table), d.to_seat, d.reason, False, d.article)
             for d in t.state.drawn_seats.values()]
    return [_ordered(m) for m in t.pending_moves()] + drawn


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
