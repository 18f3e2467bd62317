"""A table the hub cannot hear (cut off from it) deals on; the floor plays its backlog when it is heard
again: its busts ranked by when they happened at the table (`Tournament.hand_ended(..., as_of=)`)."""

from __future__ import annotations

import dataclasses

from floor_helpers import end, start, started

from hub.tournament.events import PlacesCorrected, PlayerEliminated, event_from_dict
from hub.tournament.results import POUQUES_PAYOUTS, Standing
from hub.tournament.tournament import Tournament


def _place(t: Tournament, name: str) -> Standing:
    return next(s for s in t.standings() if s.player == name)


def _late_end(t: Tournament, table: int, now: float, as_of: float, busts: list[int]) -> list[object]:
    """`end` for a hand that ended at the table at `as_of`, heard at `now`."""
    tb = t.state.tables[table]
    chips = {seat: t.state.players[name].chips for seat, name in tb.seats.items() if seat in tb.start_stacks}
    for seat in busts:
        winner = min(s for s in chips if s not in busts)
        chips[winner] += chips[seat]
        chips[seat] = 0
    return list(t.hand_ended(table, tb.hand_no, chips, now, as_of=as_of))


def test_a_bust_heard_late_takes_the_place_it_had_when_it_happened() -> None:
    """14 entries, 12 paid. Table 1 is cut off from 100 s to 500 s: its bust at 200 s reaches the floor at
    500 s, after a bust at table 2 at 300 s. The first out is 13th (no prize), the second 12th (paid),
    whatever the order the floor heard them in; the records stay as stored, a correcting one added."""
    t = started("cdc-2013", 14, 2, buy_in_cents=10_000)
    t.state.policy = dataclasses.replace(t.state.policy, payouts=POUQUES_PAYOUTS)  # a club's paying table
    start(t, 2, 10.0)
    end(t, 2, 20.0, busts=[min(t.state.tables[2].seats)])  # 14th, heard live
    start(t, 1, 100.0)
    start(t, 2, 100.0)
    early = t.state.tables[1].seats[min(t.state.tables[1].seats)]  # out at table 1 at 200 s
    later = t.state.tables[2].seats[min(t.state.tables[2].seats)]  # out at table 2 at 300 s
    end(t, 2, 300.0, busts=[min(t.state.tables[2].seats)])
    stored = [e.to_dict() for e in t.events]
    out = _late_end(t, 1, 500.0, 200.0, busts=[min(t.state.tables[1].seats)])
    assert _place(t, early).place == 13 and _place(t, later).place == 12
    prizes = t.prizes()
    assert early not in prizes and prizes[later] > 0
    eliminated = [e for e in out if isinstance(e, PlayerEliminated)]
    assert [(e.player, e.place, e.happened, e.at) for e in eliminated] == [(early, 13, 200.0, 500.0)]
    assert [e for e in out if isinstance(e, PlacesCorrected)] == [
        PlacesCorrected(((later, 12),), t.state.policy.elimination_article, 500.0)]
    assert [e.to_dict() for e in t.events[:len(stored)]] == stored  # append-only: nothing stored was changed
    rebuilt = Tournament.replay([event_from_dict(e.to_dict()) for e in t.events])
    assert rebuilt.standings() == t.standings()
    assert {o.player: o.place for o in rebuilt.state.outs} == {o.player: o.place for o in t.state.outs}


def test_a_bust_heard_live_or_late_but_last_keeps_the_order_heard() -> None:
    """A late hand whose busts happened after every elimination recorded is ranked as before, with no
    correction; the same hand's busts are ranked by their stacks at its start (cdc 2.10), as live."""
    t = started("cdc-2013", 18, 2)
    start(t, 1, 100.0)
    start(t, 2, 100.0)
    first = t.state.tables[2].seats[min(t.state.tables[2].seats)]
    end(t, 2, 150.0, busts=[min(t.state.tables[2].seats)])
    seats = sorted(t.state.tables[1].seats)[:2]
    names = [t.state.tables[1].seats[s] for s in seats]
    out = _late_end(t, 1, 500.0, 200.0, busts=seats)
    assert not any(isinstance(e, PlacesCorrected) for e in out)
    assert _place(t, first).place == 18
    assert {_place(t, n).place for n in names} == {16} and _place(t, names[0]).tied == 2  # equal stacks tie
