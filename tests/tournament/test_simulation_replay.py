"""A 60-player, 6-table tournament played to one winner under each ruleset with random stack
changes (invariants after every hand), and event-sourced replay giving an identical state."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from floor_helpers import started
from tournament_sim import play

from hub.tournament.errors import EventError
from hub.tournament.events import Event, HandEnded, PlayerEliminated, event_from_dict
from hub.tournament.tournament import Tournament

RULESETS = ["cdc-2013", "brest-2011", "pouques-2020", "pcpm", "cpt87"]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sixty_players_play_down_to_one_winner(ruleset: str, seed: int) -> None:
    t, report = play(ruleset, players=60, tables=6, seed=seed)
    alive = t.state.alive()
    assert len(alive) == 1 and alive[0].chips == 600_000
    standings = t.standings()
    assert [s.place for s in standings] == list(range(1, 61))
    assert standings[0].player == alive[0].name
    assert report.broken >= 4 and report.moves > report.broken  # tables broke and balanced
    assert report.max_gap_at_round_end < t.state.policy.balance_gap
    assert report.checks == report.hands > 100
    assert t.state.final_table is not None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_replaying_the_stored_events_rebuilds_the_same_tournament(ruleset: str) -> None:
    t, _ = play(ruleset, seed=7)
    stored = json.dumps([e.to_dict() for e in t.events])  # what the event store keeps
    rebuilt = Tournament.replay(event_from_dict(d) for d in json.loads(stored))
    assert rebuilt.state == t.state
    assert rebuilt.standings() == t.standings()
    assert rebuilt.snapshot(10**7) == t.snapshot(10**7)


def test_replay_midway_then_carry_on_identically() -> None:
    """A hub killed mid-tournament comes back and continues with the same decisions."""
    t, _ = play("pouques-2020", seed=5)
    for cut in (50, 300, len(t.events) // 2):
        partial = Tournament.replay(t.events[:cut])
        whole = Tournament.replay(t.events)
        for event in t.events[cut:]:
            partial.apply(event)
        assert partial.state == whole.state


def test_every_event_round_trips_and_is_named_in_the_past_tense() -> None:
    t, _ = play("cdc-2013", seed=2)
    kinds = {type(e) for e in t.events}
    assert len(kinds) >= 10
    for event in t.events:
        assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event
    past = re.compile(r"(ed|Drawn|Broken|Given|Went)(?=[A-Z]|$)")
    for cls in Event.registry.values():
        assert past.search(cls.__name__), cls.__name__
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen


def test_bad_records_are_refused() -> None:
    with pytest.raises(EventError):
        event_from_dict({"type": "Nonsense"})
    with pytest.raises(EventError):
        event_from_dict({"type": "HandEnded", "table": 1})
    good = HandEnded(1, 2, ((3, 400),), 5.0).to_dict()
    assert good["stacks"] == [[3, 400]] and good["schema"] == 1


@pytest.mark.parametrize(("ruleset", "seed"), [(ruleset, seed) for seed, ruleset in enumerate(RULESETS, 5)])
def test_the_views_kept_between_records_are_the_ones_built_afresh(ruleset: str, seed: int) -> None:
    """What the floor keeps between records says at every point of a whole tournament what a view built
    from nothing says: the clock's snapshot (`FloorState.views`, until the next record), each table's
    part of it (`FloorState.table_views`, until a record touches that table), the players still in
    (until a record changes a status), the players per table (kept across records that seat no one), the
    tables play stops at, and the re-entries."""
    played, _ = play(ruleset, seed=seed)
    events = list(played.events)
    t = Tournament.replay(events[:1])
    checked, kept_tables = 0, 0
    for event in events[1:]:
        t.snapshot(10**7)  # the views kept from before this record
        t.state.alive()
        t.apply(event)
        kept_tables += len(t.state.table_views)
        kept, alive, counts = t.snapshot(10**7), t.state.alive(), t.state.counts()
        stopped, reentries = set(t.state.stopped()), t.state.reentries()
        t.state.views.clear()
        t.state.table_views.clear()
        t.state._alive = t.state._counts = t.state._stopped = t.state._reentries = None
        assert kept == t.snapshot(10**7), type(event).__name__
        assert alive == t.state.alive(), type(event).__name__
        assert list(counts.items()) == list(t.state.counts().items()), type(event).__name__  # in order too
        assert stopped == t.state.stopped(), type(event).__name__
        assert reentries == t.state.reentries(), type(event).__name__
        checked += 1
    assert checked > 500
    assert kept_tables > checked  # tables' views were kept across records, not all rebuilt each time


def test_a_table_stopped_by_the_other_tables_counts_shows_it_without_a_record_of_its_own() -> None:
    """cdc 3.3: play stops at a table three short of the fullest. The fullest losing a player restarts
    the short one: its view, kept since its own last record, must say so."""
    t = started("cdc-2013", 27, 3)

    def out(table: int, k: int) -> None:
        seat, name = sorted(t.state.tables[table].seats.items())[0]
        t.apply(PlayerEliminated(name, table, seat, 27 - k, 1000, k, True, "3.3", 1.0))

    for k in range(3):
        out(3, k)
    assert [v["stopped"] for v in t.snapshot(2.0)["tables"].values()] == [False, False, True]
    out(1, 3)
    out(2, 4)  # 8, 8, 6: two short
    assert [v["stopped"] for v in t.snapshot(2.0)["tables"].values()] == [False, False, False]
