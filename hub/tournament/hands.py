"""A table's hand as the floor sees it (hub, tournament floor: table facts -> checks and eliminations).

Consumes the `FloorState` and the clock of the hand's time; answers whether a table may start a hand
(`verify_start_hand` raises the floor's words when not), who is dealt dead, and emits, through `emit`,
the eliminations of the players a hand left at zero (ranked by their stack at its start, cdc 2.10)
and the heads-up that follows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from hub.tournament import balancing
from hub.tournament.clock import ClockState
from hub.tournament.errors import FloorError, table_label
from hub.tournament.events import Event, HeadsUpStarted, PlacesCorrected, PlayerEliminated
from hub.tournament.state import FloorState, PlayerState, TableState
from hub.tournament.structure import Break

Emit = Callable[[Event], None]


def verify_start_hand(s: FloorState, t: TableState, clock: ClockState, table: int) -> None:
    """Raise a `FloorError` when table `table` (`t`) may not start a hand on `clock`."""
    if not clock.started:
        raise FloorError("the tournament has not started")
    if isinstance(clock.item, Break):
        raise FloorError(f"on a break ({clock.item.name})")
    if s.day_over:
        raise FloorError(f"day {len(s.days)} is over: the next one starts when the TD resumes the clock")
    if t.in_hand:
        raise FloorError(f"{table_label(table)} is already in hand {t.hand_no}")
    counts = s.counts()  # every table's: once per hand start, not once per question
    if balancing.final_table_due(counts, s.final_size()):
        raise FloorError("play stops for the final-table draw")
    if s.hand_for_hand and t.played_round and not s.round_complete():
        raise FloorError("hand for hand: waiting for the other tables (pouques 39)")
    if table in s.stopped():
        raise FloorError(f"{table_label(table)} is short: play stops until balanced ({s.policy.balance_article})")
    if sum(1 for name in t.seats.values() if not s.players[name].waits_one_hand) < 2:
        raise FloorError(f"{table_label(table)} has fewer than two players")


def dealt_dead(p: PlayerState, now: float) -> bool:
    """The player's hand is dealt dead: absent, or serving a penalty (blinds and antes still taken)."""
    return not p.present or p.dead_hands > 0 or p.suspended_until > now


def knocked_out_by(pots: Iterable[tuple[Sequence[int], Sequence[int]]],
                   stacks: Mapping[int, int]) -> dict[int, tuple[int, ...]]:
    """For each seat a hand left at zero, who knocked him out (a bounty's winners): the winners of the last
    pot his chips went into, the one with the fewest players eligible among those he was in (a side pot he
    could not win is not his), sharing him when they split it. `pots`: (eligible seats, winners) each."""
    pots = [(tuple(eligible), tuple(winners)) for eligible, winners in pots]
    out: dict[int, tuple[int, ...]] = {}
    for seat in sorted(s for s, chips in stacks.items() if chips == 0):
        his = [p for p in pots if seat in p[0]]
        if his:
            out[seat] = tuple(w for w in min(his, key=lambda p: len(p[0]))[1] if w != seat)
    return out


def eliminate_busted(s: FloorState, table: int, start: dict[int, int], now: float, emit: Emit, *,
                     happened: float | None = None, by: Mapping[int, tuple[int, ...]] | None = None) -> None:
    """Players at zero are out, ranked by their stack at the start of the hand (cdc 2.10). `happened`:
    when the hand ended at the table, if the hub heard it late (a table cut off): they rank among the
    players out by that time, and those recorded out since who went out after it have their provisional
    place corrected (`PlacesCorrected`: one player fewer was left when they went out). `by`: the seats that
    knocked each one out (`Tournament.hand_ended`)."""
    pol = s.policy
    t = s.tables[table]
    group = s.h4h_group if s.hand_for_hand and s.h4h_group is not None else s.next_group
    by_stack = pol.bubble_ranked_by_stack if s.hand_for_hand else True
    when = now if happened is None else happened
    late = when < now
    # hand for hand, the round's busts share a group whenever heard (ranked as today)
    after = [o for o in s.outs if o.happened > when and o.group != group] if late and start else []
    left = len(s.alive()) - len(start)
    for rank, seat in enumerate(sorted(start, key=lambda seat: (-start[seat], seat))):
        knocked = tuple(t.seats[w] for w in (by or {}).get(seat, ()) if w in t.seats and w != seat)
        emit(PlayerEliminated(t.seats[seat], table, seat, left + len(after) + 1 + rank, start[seat],
                              group, by_stack, pol.elimination_article, now, when if late else None, knocked))
    corrected = tuple((o.player, o.place - len(start)) for o in after if o.place > 0)
    if corrected:
        emit(PlacesCorrected(corrected, pol.elimination_article, now))
    structure = s.structure
    # Each elimination applied makes the room's players be counted afresh (every player of a festival):
    # at most `len(start)` fewer are in now, so two left is possible only where `left` is two or fewer
    if (left <= 2 and len(s.alive()) == 2 and not s.heads_up
            and (structure.heads_up_minutes is not None or not structure.heads_up_antes)):
        emit(HeadsUpStarted(pol.heads_up_article, now))
