"""A player registered "not arrived yet" (issue #26, point 6): his seat is dealt and blinded as the
ruleset says, his hand dead from the start and never asked to act, his arrival accepted until the
ruleset's limit, and the room shows him absent."""

from __future__ import annotations

from pathlib import Path

import pytest
from service_helpers import db

from hub.floor.commands import NewTournament
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from hub.tournament.structure import pouques_2020, to_toml
from tablewire import wire

ARTICLES = {"cdc-2013": "cdc-2013 5.1", "pcpm": "pcpm Retards et absents", "brest-2011": "brest-2011 III.13"}


def absent_floor(store: EventStore, ruleset: str) -> FloorService:
    floor = FloorService(store)
    floor.create(NewTournament(name="Test", ruleset=ruleset, structure_toml=to_toml(pouques_2020()), tables=1,
                               buy_in_cents=5_000, payouts="50,30,20", seed=3), 0.0)
    for cmd in ({"cmd": "register", "players": ["p1", "p2", "p3", "p4", "p5"]},
                {"cmd": "register", "players": ["Zoé"], "present": False}, {"cmd": "seat"}, {"cmd": "start"}):
        result = floor.execute(cmd, 0.0)  # type: ignore[arg-type]
        assert result.ok, result.error
    return floor


def _press(seq: int) -> wire.DealerPressed:
    return wire.DealerPressed(table="t1", boot="b1", seq=seq, at=float(seq), button="new_hand", seat=None)


@pytest.mark.parametrize("ruleset", sorted(ARTICLES))
def test_an_absent_players_hand_is_dead_from_the_start_and_he_may_still_arrive(tmp_path: Path, ruleset: str) -> None:
    with EventStore(db(tmp_path)) as store:
        floor = absent_floor(store, ruleset)
        tables = FloorTables(floor, store)
        state = floor.require().state
        zoe = next(seat for seat, name in state.tables[1].seats.items() if not state.players[name].arrived)
        name = state.tables[1].seats[zoe]
        snapshot = floor.snapshot(1.0)
        shown = snapshot["tables"]["1"]["seats"][str(zoe)]  # type: ignore[index, call-overload]
        assert shown["status"] == "absent"  # type: ignore[index, call-overload]  # the room shows him absent, not seated
        out = tables.receive("t1", _press(1), wire.encode(_press(1)), 1.0)
        assert out is not None
        context = next(c for c in out.commands if isinstance(c, wire.HandContextCmd))
        assert zoe in context.seats and zoe in context.away  # dealt, and the table knows he is away
        dead = [e for e in out.events if e["type"] == "ruling" and e["seat"] == zoe]
        assert [(e["decision"], e["article"]) for e in dead] == [("hand_dead", ARTICLES[ruleset])]
        game = tables.game("t1")
        assert game is not None and game.hand is not None
        assert zoe not in game.hand.live and game.hand.to_act != zoe
        result = floor.execute({"cmd": "arrive", "player": name}, 2.0)
        assert result.ok, result.error  # level 1: well within the late-arrival limit


@pytest.mark.parametrize("ruleset", sorted(ARTICLES))
def test_the_table_seeing_the_absent_seat_away_is_no_second_incident(tmp_path: Path, ruleset: str) -> None:
    """The hub ruled his hand dead as it began; the table, told he is away, sees his seat empty at the deadline
    card and says so. That is the same ruling, told to the table for its display and its dealer: not a fault
    for the TD to acknowledge at every hand (nor one the dealer's statistics count against him)."""
    with EventStore(db(tmp_path)) as store:
        floor = absent_floor(store, ruleset)
        tables = FloorTables(floor, store)
        state = floor.require().state
        zoe = next(seat for seat, name in state.tables[1].seats.items() if not state.players[name].arrived)
        tables.receive("t1", _press(1), wire.encode(_press(1)), 1.0)
        seen = wire.FaultSeen(table="t1", boot="b1", seq=2, at=2.0, hand=1, kind="absent_player", seat=zoe,
                              details={"deadline": "first_card", "deal_position": 1})
        out = tables.receive("t1", seen, wire.encode(seen), 2.0)
        assert out is not None
        assert [e for e in out.events if e["type"] in ("fault", "ruling")] == [], out.events
        told = [c for c in out.commands if isinstance(c, wire.RulingCmd)]
        said = [(c.kind, c.decision, c.seat, c.dead_seats) for c in told]
        assert said == [("absent_player", "hand_dead", zoe, [zoe])], said


def test_cpt87_seats_a_late_player_on_arrival_with_his_full_stack(tmp_path: Path) -> None:
    """cpt87 3.4: the stack of a player not arrived is not blinded: he is seated when he comes."""
    with EventStore(db(tmp_path)) as store:
        floor = absent_floor(store, "cpt87")
        state = floor.require().state
        late = next(name for name, p in state.players.items() if not p.arrived)
        assert late not in state.tables[1].seats.values()
        assert floor.execute({"cmd": "arrive", "player": late}, 2.0).ok
        state = floor.require().state
        assert late in state.tables[1].seats.values() and state.players[late].chips == state.structure.starting_stack
