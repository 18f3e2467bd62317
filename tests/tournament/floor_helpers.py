"""Small builders shared by the floor tests: a started tournament and hands with chosen busts."""

from __future__ import annotations

import random

from hub.tournament.structure import Level, Structure
from hub.tournament.tournament import Tournament

STRUCTURE = Structure("test", 10_000, tuple(Level(n, 25 * n, 50 * n, 30) for n in range(1, 30)))


def started(ruleset: str, players: int, tables: int, *, seed: int = 7, buy_in_cents: int = 0,
            paid_places: int = 0, structure: Structure = STRUCTURE) -> Tournament:
    t = Tournament(name="test", ruleset=ruleset, structure=structure, now=0.0, rng=random.Random(seed),
                   buy_in_cents=buy_in_cents, paid_places=paid_places)
    for i in range(players):
        t.register(f"p{i:03d}", 0.0)
    t.draw_seats(0.0, tables=tables)
    t.start(0.0)
    return t


def start(t: Tournament, table: int, now: float, *, button: int | None = None,
          big_blind: int | None = None) -> None:
    t.hand_started(table, t.state.tables[table].hand_no + 1, now, button=button, big_blind=big_blind)


def end(t: Tournament, table: int, now: float, busts: list[int] | None = None,
        stacks: dict[int, int] | None = None) -> list[object]:
    """End the hand: `busts` lose everything to the first surviving seat; chips are conserved."""
    tb = t.state.tables[table]
    chips = {seat: t.state.players[name].chips for seat, name in tb.seats.items() if seat in tb.start_stacks}
    if stacks is not None:
        chips.update(stacks)
    for seat in busts or []:
        winner = min(s for s in chips if s not in (busts or []))
        chips[winner] += chips[seat]
        chips[seat] = 0
    return list(t.hand_ended(table, tb.hand_no, chips, now))


def clockwise(start: int, seats: int = 10) -> list[int]:
    return [(start + k - 1) % seats + 1 for k in range(1, seats + 1)]
