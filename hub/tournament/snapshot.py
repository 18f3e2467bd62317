"""The clock-screen and dashboard view of the floor (hub, tournament -> MQTT retained state).

Consumes the `FloorState`, the clock projected to `now` and the pending moves; emits one JSON-ready
dict (schema-versioned) that the hub publishes retained every second and on every change.
"""

from __future__ import annotations

import functools

from hub.tournament.clock import ClockState
from hub.tournament.errors import table_label
from hub.tournament.events import JSON, MoveOrdered
from hub.tournament.floor import waiting_for
from hub.tournament.state import DrawnSeat, FloorState, PlayerState, PlayerStatus, TableState
from hub.tournament.structure import Break, Level

SNAPSHOT_SCHEMA = 1


def _next_level(clock: ClockState) -> dict[str, JSON] | None:
    for item in clock.structure.items[clock.index + 1:]:
        if isinstance(item, Level):
            return {"level": item.number, "small_blind": item.small_blind,
                    "big_blind": item.big_blind, "ante": item.ante}
    return None


SCHEDULE_AHEAD = 6  # items of the structure after the current one, for the clock screen


def _schedule(clock: ClockState) -> list[JSON]:
    """The levels and breaks to come (the clock screen's blind schedule)."""
    out: list[JSON] = []
    for item in clock.structure.items[clock.index + 1:clock.index + 1 + SCHEDULE_AHEAD]:
        if isinstance(item, Level):
            out.append({"level": item.number, "small_blind": item.small_blind, "big_blind": item.big_blind,
                        "ante": item.ante, "minutes": item.minutes})
        else:
            out.append({"break": item.name, "minutes": item.minutes})
    return out


def _registration(s: FloorState) -> dict[str, JSON]:
    """Until which level a new entry (or a late one) and a re-entry are taken, and how many re-entries."""
    p = s.policy
    until = p.late_registration_levels or p.late_arrival_levels
    return {"late_registration_level": until or None,
            "reentry_level": p.reentry_levels if p.reentries else None,
            "reentries": s.reentries()}


# Each status's word, looked up: an enum's `.value` is a descriptor call, and the snapshot asks it for every
# player of the room once a second (a third of the snapshot's time at 900 players)
_STATUS_WORD = {status: status.value for status in PlayerStatus}
_SEATED = PlayerStatus.SEATED


def _seat_status(p: PlayerState, now: float, serving: bool = False) -> str:
    """A seated player who is not at the table (not arrived yet, gone away) shows as absent: his hands are
    dealt dead and his blinds taken (cdc 2.8, 5.1); one serving a penalty (hands or rounds still to be dealt
    dead, a suspension running) as penalised: the table deals him dead with no incident, only this says why."""
    status = p.status
    if status is _SEATED and not p.present:
        return "absent"
    if status is _SEATED and (serving or p.dead_hands > 0 or p.suspended_until > now):
        return "penalty"
    return _STATUS_WORD[status]


@functools.lru_cache(maxsize=4096)
def _move(move: MoveOrdered) -> dict[str, JSON]:
    """A pending move as the snapshot shows it: worked out once per move (a break-up moves a table's
    players, and the snapshot lists them every second until each sits down). Shared: read only."""
    return move.to_dict()


@functools.lru_cache(maxsize=64)
def _drawn(move: DrawnSeat) -> dict[str, JSON]:
    """A final-table draw's reseating still to make, shown as a pending move is (`_move`). Shared: read only."""
    return {"player": move.player, "from_table": move.from_table, "from_seat": move.from_seat,
            "to_table": move.to_table, "to_seat": move.to_seat, "reason": move.reason, "waits_one_hand": False,
            "article": move.article}


def _moves(s: FloorState, moves: list[MoveOrdered]) -> list[JSON]:
    """The moves to make: those ordered, then the final table's draw until its first hand. Not the next day's
    draw: it reseats the whole room, given by the bag sheet and the seating chart (and said to its tables)."""
    out: list[JSON] = [_move(m) for m in moves]
    drawn = s.drawn_seats  # one draw's: the next replaces it (a day's may hold the whole room: not walked)
    if drawn and next(iter(drawn.values())).reason == "final":
        out.extend(_drawn(d) for d in drawn.values())
    return out


def build_snapshot(s: FloorState, clock: ClockState, now: float, moves: list[MoveOrdered]) -> dict[str, JSON]:
    level = clock.level()
    no_ante = s.heads_up and not s.structure.heads_up_antes  # pouques §G
    ante = 0 if no_ante else level.ante
    alive = s.alive()
    rule = s.policy.payouts
    payouts: list[JSON] = list(rule.payouts(s.entries, s.buy_in_cents, players=len(s.players))) if rule else []
    tables, registration = _seats_view(s)
    item = clock.item
    return {
        "schema": SNAPSHOT_SCHEMA, "name": s.name, "ruleset": s.policy.ruleset,
        "started": clock.started, "running": clock.running, "on_break": isinstance(item, Break),
        "break": item.name if isinstance(item, Break) else None,
        "level": level.number, "small_blind": level.small_blind, "big_blind": level.big_blind,
        "ante": ante, "ante_kind": level.ante_kind.value if ante else "none",
        "next_level": _next_level(clock),
        "time_left": round(clock.remaining(now), 3), "next_break_in": clock.next_break_in(now),
        "players_left": len(alive), "entries": s.entries,
        "average_stack": s.chips_total // len(alive) if alive else 0,
        "prize_pool_cents": rule.prize_pool(s.entries, s.buy_in_cents) if rule else 0,
        "payouts_cents": payouts, "hand_for_hand": s.hand_for_hand, "heads_up": s.heads_up,
        "final_table": s.final_table, "tables": tables, "moves": _moves(s, moves),
        "chips_in_play": s.chips_total, "minutes": item.minutes, "schedule": _schedule(clock),
        "floor_waits": _waits(s), "penalties": _ladder(s), **registration,
    }


def _ladder(s: FloorState) -> list[JSON]:
    """The ruleset's penalties, lightest first, with the amount each takes (hands, rounds, minutes; 0 and 0:
    none): the desk offers these only, as the rulebook writes them."""
    return [{"kind": step.kind.value, "low": step.low, "high": step.high, "article": step.article}
            for step in s.policy.penalties]


def _waits(s: FloorState) -> dict[str, JSON]:
    """Table number -> why the floor waits for it (French, English): cut off from the hub, it would give or
    take a player (or be broken, or go to the final table's draw). Empty while every table is heard."""
    if not s.unreachable:
        return {}
    out: dict[str, JSON] = {}
    for number in sorted(waiting_for(s)):
        label = table_label(number)
        out[str(number)] = {
            "fr": f"{label} injoignable : le placement l'attend, aucun joueur n'y va ni n'en part avant son retour",
            "en": f"{label} unreachable: seating waits for it, no player moves to or from it until it is back"}
    return out


def _seats_view(s: FloorState) -> tuple[dict[str, JSON], dict[str, JSON]]:
    """Every table's seats and the registration, kept until the next record applied (`FloorState.views`);
    each table's part kept until a record touches it (`FloorState.table_views`). Shared: read only."""
    cached = s.views.get("snapshot")
    if cached is not None:
        return cached  # type: ignore[return-value]
    stopped = s.stopped()
    kept = s.table_views
    tables: dict[str, JSON] = {}
    for number, t in sorted(s.tables.items()):
        is_stopped = number in stopped  # moves with the other tables' counts: not a record of this one
        view = kept.get(number)
        if view is None or view["stopped"] is not is_stopped:  # type: ignore[index]
            view = kept[number] = _table_view(s, t, is_stopped)
        tables[str(number)] = view  # type: ignore[assignment]
    if len(kept) > len(s.tables):
        for number in kept.keys() - s.tables.keys():
            del kept[number]
    view_pair = (tables, _registration(s))
    s.views["snapshot"] = view_pair
    return view_pair


def _table_view(s: FloorState, t: TableState, stopped: bool) -> dict[str, JSON]:
    seats: dict[str, JSON] = {
        # `serving`: this hand is his penalty's last dead one (counted off as it was dealt)
        str(seat): {"player": name, "chips": s.players[name].chips,
                    "status": _seat_status(s.players[name], s.now, t.in_hand and name in t.dead_hands_taken)}
        for seat, name in sorted(t.seats.items())}
    return {"hand_no": t.hand_no, "in_hand": t.in_hand, "level": t.level, "stopped": stopped, "seats": seats}
