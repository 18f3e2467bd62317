"""Floor reorganisation after a change of head count (hub, tournament floor).

Consumes the `FloorState` once the eliminations of a hand (or a removal, an entry) are applied;
emits, through `emit`, the final-table draw, broken tables, balancing moves and hand-for-hand
changes, each record applied before the next decision is taken.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hub.tournament import balancing, seating
from hub.tournament.events import (
    ButtonDrawn,
    Event,
    FinalTableDrawn,
    HandForHandEnded,
    HandForHandStarted,
    MoveOrdered,
    MoveReason,
    PlayerRemoved,
    RemovalReason,
    SeatDrawn,
    TableBroken,
    WaitListEntered,
)
from hub.tournament.state import FloorState, PlayerState, PlayerStatus

Emit = Callable[[Event], None]


def _emit(emit: Emit, *events: Event) -> None:
    for event in events:
        emit(event)


def reorganise(s: FloorState, rng: random.Random, now: float, emit: Emit) -> None:
    """After any change of head count: final-table draw, broken tables, balancing, hand for hand."""
    pol = s.policy
    if not s.drawn or not s.clock.started or len(s.tables) <= 1:
        return
    if s.hand_for_hand and not s.round_complete():
        return  # hand for hand: the floor moves between rounds only
    # A table the hub cannot reach (cut off) deals on with the players it has: none leaves it or is sent
    # to it (an order it cannot hear would make the hub's game depart from what it deals); it waits
    cut = s.unreachable & s.tables.keys()
    idle = {n for n, t in s.tables.items() if not t.in_hand} - cut
    if balancing.final_table_due(s.counts(), s.final_size()):
        if idle == set(s.tables):
            final_draw(s, rng, now, emit)
        return
    while (broken := balancing.table_to_break(s.counts(), s.seats_per_table)) in idle and _room_for(s, broken):
        assert broken is not None
        _break_table(s, rng, broken, now, emit)
    if broken is not None:
        return  # the table to break is mid-hand (or cut off): no one moves into it meanwhile
    idle = {n for n, t in s.tables.items() if not t.in_hand} - cut
    counts = {n: c for n, c in s.counts().items() if n not in cut}
    for src, dst in balancing.balance_moves(counts, idle, pol.balance_gap):
        _move_one(s, rng, src, dst, now, emit)
    _hand_for_hand_auto(s, now, emit)


def _room_for(s: FloorState, number: int) -> bool:
    """The tables the floor can reach have the seats for the players of table `number`, to break."""
    free = sum(s.capacity(n) - len(t.seats) for n, t in s.tables.items() if n != number and n not in s.unreachable)
    return free >= len(s.tables[number].seats)


def waiting_for(s: FloorState) -> set[int]:
    """The tables cut off that the floor waits for: it would move a player from or to them, break one or
    draw the final table if it could reach them (`reorganise` orders it when each is heard again)."""
    cut = s.unreachable & s.tables.keys()
    if not cut or not s.drawn or not s.clock.started or len(s.tables) <= 1:
        return set()
    counts = s.counts()
    if balancing.final_table_due(counts, s.final_size()):
        return cut
    broken = balancing.table_to_break(counts, s.seats_per_table)
    if broken is not None:
        return {broken} & cut or (set() if _room_for(s, broken) else cut)
    idle = {n for n, t in s.tables.items() if not t.in_hand} | cut
    return {n for move in balancing.balance_moves(counts, idle, s.policy.balance_gap) for n in move} & cut


def final_draw(s: FloorState, rng: random.Random, now: float, emit: Emit) -> None:
    pol = s.policy
    final = min(s.tables)
    names = sorted(p.name for p in s.alive())
    rng.shuffle(names)
    size = s.seats_per_table
    seats = sorted(rng.sample(range(1, size + 1), len(names)))
    pairs = tuple(zip(names, seats))
    _emit(emit, FinalTableDrawn(final, pairs, pol.final_article, now),
          ButtonDrawn(final, rng.choice(seats), pol.final_article, now))


def _break_table(s: FloorState, rng: random.Random, number: int, now: float, emit: Emit) -> None:
    pol = s.policy
    leaving = [name for _, name in sorted(s.tables[number].seats.items())]
    rng.shuffle(leaving)  # seats by draw (pouques 35, cdc 3.4)
    for name in leaving:
        p = s.players[name]
        others = [(len(t.seats), n) for n, t in s.tables.items()
                  if n != number and len(t.seats) < s.capacity(n) and n not in s.unreachable]
        dst = min(others)[1]
        target = s.tables[dst]
        seat = rng.choice(seating.free_seats(set(target.seats), s.capacity(dst)))
        waits = seating.waits_one_hand(pol.arrival_wait, seat, set(target.seats) | {seat},
                                       target.button, s.capacity(dst))
        _emit(emit, MoveOrdered(name, number, p.seat or 0, dst, seat, MoveReason.BREAK,
                                waits, pol.break_article, now))
    _emit(emit, TableBroken(number, pol.break_article, now))


def _move_one(s: FloorState, rng: random.Random, src: int, dst: int, now: float, emit: Emit) -> None:
    pol = s.policy
    source, target = s.tables[src], s.tables[dst]
    settled = {seat for seat, name in source.seats.items()
               if s.players[name].status is PlayerStatus.SEATED} or set(source.seats)
    if source.big_blind is not None:
        from_seat = seating.future_big_blind(settled, source.big_blind, s.capacity(src))
    else:
        from_seat = rng.choice(sorted(settled))
    seat = seating.choose_seat(pol.seat_choice, set(target.seats), s.capacity(dst), target.button,
                               target.big_blind, rng)
    waits = seating.waits_one_hand(pol.arrival_wait, seat, set(target.seats) | {seat}, target.button,
                                   s.capacity(dst))
    _emit(emit, MoveOrdered(source.seats[from_seat], src, from_seat, dst, seat,
                            MoveReason.BALANCE, waits, pol.move_article, now))


def _hand_for_hand_auto(s: FloorState, now: float, emit: Emit) -> None:
    """pouques 39: hand for hand while several tables remain one place before a prize jump."""
    pol = s.policy
    if not pol.hand_for_hand_before_prize_jump or pol.payouts is None:
        return
    points = pol.payouts.tier(s.entries).basis_points

    def prize(place: int) -> int:
        return points[place - 1] if 1 <= place <= len(points) else 0

    left = len(s.alive())
    due = len(s.tables) > 1 and left >= 2 and prize(left) != prize(left - 1)
    if due and not s.hand_for_hand:
        _emit(emit, HandForHandStarted(pol.hand_for_hand_article, now))
    elif not due and s.hand_for_hand:
        _emit(emit, HandForHandEnded(now))


def absent_at_deadline(s: FloorState) -> list[PlayerState]:
    """The players registered and never arrived, once the ruleset's late-arrival deadline has passed."""
    pol, clock = s.policy, s.clock
    passed = (pol.late_arrival_until_break and clock.breaks_done >= 1) or (
        pol.late_arrival_levels is not None and pol.late_arrival_levels in clock.levels_done)
    if not (clock.started and passed):
        return []
    # the few absent ones sorted, not the room's every player (the clock asks five times a second)
    return sorted((p for p in s.players.values()
                   if not p.arrived and p.status in (PlayerStatus.REGISTERED, PlayerStatus.SEATED)),
                  key=lambda p: p.name)


def late_arrival_deadline(s: FloorState, rng: random.Random, now: float, emit: Emit) -> None:
    """Players registered and never arrived are out at the ruleset's deadline (a waiting player may
    take the seat, brest II.1); then the floor reorganises."""
    pol = s.policy
    absent = absent_at_deadline(s)
    for p in absent:
        table, seat, chips = p.table, p.seat, p.chips
        _emit(emit, PlayerRemoved(p.name, RemovalReason.ABSENT, chips, pol.late_arrival_article, now))
        if pol.wait_list and s.wait_list and table is not None and seat is not None:
            # brest II.1: a waiting player takes the absent player's blinded stack.
            waiting = s.wait_list[0]
            _emit(emit, WaitListEntered(waiting, s.entries + 1, chips, "brest-2011 II.1", now),
                  SeatDrawn(waiting, table, seat, chips, now))
    if absent:
        reorganise(s, rng, now, emit)
