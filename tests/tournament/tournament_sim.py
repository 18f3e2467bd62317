"""A simulated tournament for the tests and the benchmark: random stack changes at every table,
hands started and ended in random order, moves confirmed when the mover is dealt in, and the
floor's invariants checked after every hand (seats unique, tables within the gap, chips kept)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hub.tournament.state import PlayerStatus
from hub.tournament.structure import AnteKind, Level, Structure
from hub.tournament.tournament import Tournament


def quick_structure(minutes: int = 20) -> Structure:
    levels = [Level(n, 25 * n, 50 * n, minutes, 5 * n if n > 2 else 0,
                    AnteKind.PER_PLAYER if n > 2 else AnteKind.NONE) for n in range(1, 40)]
    return Structure("sim", 10_000, tuple(levels))


@dataclass
class SimReport:
    hands: int = 0
    moves: int = 0
    broken: int = 0
    checks: int = 0
    max_gap_at_round_end: int = 0
    tables_seen: list[int] = field(default_factory=list)


def check_invariants(t: Tournament, expected_chips: int) -> None:
    s = t.state
    seen: set[tuple[int, int]] = set()
    for number, table in s.tables.items():
        for seat, name in table.seats.items():
            p = s.players[name]
            assert p.alive, f"{name} seated but {p.status}"
            assert (p.table, p.seat) == (number, seat), f"{name} thinks he is at {p.table}/{p.seat}"
            assert 1 <= seat <= s.capacity(number)
            assert (number, seat) not in seen
            seen.add((number, seat))
    alive = s.alive()
    assert len(seen) == len(alive), "every live player has exactly one seat"
    assert len({p.name for p in alive}) == len(alive)
    assert t.chips_in_play() == s.chips_total == expected_chips, "chips are conserved"


def play_hand_stacks(chips: dict[int, int], rng: random.Random) -> dict[int, int]:
    """Random chip movement between two players of the hand; an all-in busts the shorter stack."""
    out = dict(chips)
    seats = [s for s, c in out.items() if c > 0]
    if len(seats) < 2:
        return out
    a, b = rng.sample(seats, 2)
    amount = min(out[a], out[b])
    if rng.random() > 0.35:
        amount = max(1, amount * rng.randint(1, 9) // 10)
    winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
    out[winner] += amount
    out[loser] -= amount
    return out


def play(ruleset: str, *, players: int = 60, tables: int = 6, seed: int = 1,
         max_rounds: int = 20_000, check: bool = True) -> tuple[Tournament, SimReport]:
    rng = random.Random(seed)
    t = Tournament(name="sim", ruleset=ruleset, structure=quick_structure(), now=0.0,
                   rng=random.Random(seed + 1000), seats_per_table=10, buy_in_cents=35_000)
    for i in range(players):
        t.register(f"p{i:03d}", 0.0)
    t.draw_seats(0.0, tables=tables)
    t.start(0.0)
    total = players * 10_000
    gap = t.state.policy.balance_gap
    report = SimReport()
    now = 0.0
    check_invariants(t, total)
    for _ in range(max_rounds):
        if len(t.state.alive()) == 1:
            break
        now += 30.0
        report.tables_seen.append(len(t.state.tables))
        started: list[int] = []
        for number in sorted(t.state.tables):
            if not t.can_start_hand(number, now):
                continue
            table = t.state.tables[number]
            dealt = [name for name in table.seats.values()
                     if t.state.players[name].status is PlayerStatus.MOVING
                     and not t.state.players[name].waits_one_hand]
            t.hand_started(number, table.hand_no + 1, now)
            for name in dealt:
                t.move_confirmed(name, number, now)
            started.append(number)
        if not started:
            clock = t.state.clock
            assert clock.on_break or not clock.running, "no table can play: floor deadlock"
            now += clock.remaining(now) + 1.0
            continue
        rng.shuffle(started)
        for number in started:
            now += 1.0
            table = t.state.tables[number]
            chips = {seat: t.state.players[name].chips for seat, name in table.seats.items()
                     if seat in table.start_stacks}
            before = len(t.events)
            t.hand_ended(number, table.hand_no, play_hand_stacks(chips, rng), now)
            new = t.events[before:]
            report.moves += sum(type(e).__name__ == "MoveOrdered" for e in new)
            report.broken += sum(type(e).__name__ == "TableBroken" for e in new)
            report.hands += 1
            if check:
                check_invariants(t, total)
                report.checks += 1
        counts = list(t.state.counts().values())
        if all(not tb.in_hand for tb in t.state.tables.values()) and len(counts) > 1:
            spread = max(counts) - min(counts)
            report.max_gap_at_round_end = max(report.max_gap_at_round_end, spread)
            assert spread < gap, f"tables {t.state.counts()} not balanced ({gap})"
    return t, report
