"""A cpt87 Time request at a tournament table, through the hub as a table sends its buttons and the TD
decides (the dashboard's button, `tapis tournament decide`), and across a hub restart.

cpt87 4.5: the TD grants Time, then 30 s to decide and a 10-second countdown, the hand dead at its end.
The dealer's press was a bare ruling nobody could decide: no Time ever ran under cpt87. The grant's
countdown counts from the TD's decision on the tournament's wall clock (the hub's monotonic one apart),
and a hub rebuilt from its store counts it from then too, not from the replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from service_helpers import Clock, db, floor_hub, game_state, send, started_floor

from hub.edge.service import HubService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from hub.floor.td import render
from tablewire import wire
from tests.support import wait_until


def _requested(hub: HubService, tables: FloorTables) -> int:
    """Table t1's first hand under cpt87, Time pressed on the player to act (at the wall's 2.0 s): his seat."""
    send(hub, wire.DealerPressed(table="t1", boot="b1", seq=1, at=1.0, button="new_hand", seat=None))
    game = tables.game("t1")
    assert game is not None and game.hand is not None and game.hand.to_act is not None
    slow = game.hand.to_act
    send(hub, wire.DealerPressed(table="t1", boot="b1", seq=2, at=2.0, button="time", seat=slow))
    return slow


def _granted_at_20(store: EventStore, wall: Clock) -> tuple[HubService, FloorTables, list[dict[str, Any]], int]:
    """A cpt87 tournament on `store`, its hub started, t1's Time requested at the wall's 5 s and granted by the
    TD (Ada) at 20 s, as `tapis tournament decide t1 grant_time` sends it: the hub, its tables, what it said,
    the seat granted."""
    started_floor(store, 12, ruleset="cpt87", tables=2)
    hub, tables, heard = floor_hub(store, Clock(100_000.0), wall)
    try:
        slow = _requested(hub, tables)
        wall.t = 20.0
        result = hub.floor_command({"cmd": "decide", "table": "t1", "option": "grant_time", "kind": "", "by": "Ada"})
        assert result is not None and result.ok, result
    except BaseException:
        hub.stop()
        raise
    return hub, tables, heard, slow


def _of(heard: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in heard if e["type"] == kind]


def test_the_td_grants_on_the_dashboard_and_the_time_runs_out_on_the_wall_clock(tmp_path: Path) -> None:
    store = EventStore(db(tmp_path))
    started_floor(store, 12, ruleset="cpt87", tables=2)
    clock, wall = Clock(100_000.0), Clock(5.0)  # the hub's uptime, the tournament's wall time
    hub, tables, heard = floor_hub(store, clock, wall)
    try:
        slow = _requested(hub, tables)
        game = tables.game("t1")
        assert game is not None
        [asked] = _of(heard, "fault")
        assert (asked["kind"], asked["seat"], asked["ruling"]["options"]) == ("time_request", slow,
                                                                              ["grant_time", "refuse_time"])
        assert not game.waiting_td and not game.timing
        clock.t, wall.t = clock.t + 25, wall.t + 25
        hub.decide("t1", "time_request", "grant_time", "Ada")  # the dashboard's button (`on_decision`)
        assert wait_until(lambda: _of(heard, "time") != [])
        [called] = _of(heard, "time")
        assert (called["countdown_at"], called["expires_at"]) == (60.0, 70.0)  # the wall's, from his decision
        assert tables.store.get_config("td_decided/t1") == [
            {"hand": 1, "row": 2, "kind": "time_request", "option": "grant_time", "by": "Ada", "at": 30.0}]
        clock.t, wall.t = clock.t + 39, wall.t + 39
        assert hub.tick(5) and _of(heard, "fault")[1:] == []
        clock.t, wall.t = clock.t + 1, wall.t + 1
        assert hub.tick(5)
        [dead] = _of(heard, "fault")[1:]
        assert (dead["kind"], dead["seat"], dead["ruling"]["article"]) == ("time_expired", slow, "cpt87 4.5")
        assert game.hand is not None and slow not in game.hand.live
    finally:
        hub.stop()
        store.close()


def test_the_td_refuses_with_tapis_tournament_and_play_goes_on(tmp_path: Path) -> None:
    store = EventStore(db(tmp_path))
    started_floor(store, 12, ruleset="cpt87", tables=2)
    clock, wall = Clock(100_000.0), Clock(5.0)
    hub, tables, heard = floor_hub(store, clock, wall)
    try:
        slow = _requested(hub, tables)
        # as `tapis tournament decide t1 refuse_time --by Ada` sends it: no kind, the table's only decision
        result = hub.floor_command({"cmd": "decide", "table": "t1", "option": "refuse_time", "kind": "", "by": "Ada"})
        assert result is not None and result.ok, result
        assert render(result).splitlines() == [  # what the TD reads at his terminal, in words
            "Table 1, donne / hand 1",
            f"  Time refusé par le directeur de tournoi : le siège {slow} joue sans décompte.",
            f"  Time refused by the tournament director: seat {slow} plays on without a countdown."]
        [ruling] = _of(heard, "ruling")
        assert (ruling["decision"], ruling["seat"], ruling["by"]) == ("refuse_time", slow, "Ada")
        game = tables.game("t1")
        assert game is not None and not game.timing and game.pending_td == []
        wall.t += 1_000
        assert hub.tick(5) and [f["kind"] for f in _of(heard, "fault")] == ["time_request"]
        send(hub, wire.SeatActed(table="t1", boot="b1", seq=3, at=3.0, seat=slow, action="call"))
        assert game.hand is not None and game.hand.to_act != slow
    finally:
        hub.stop()
        store.close()


def test_a_request_left_pending_is_still_pending_after_a_restart_and_lapses_when_he_acts(tmp_path: Path) -> None:
    store = EventStore(db(tmp_path))
    started_floor(store, 12, ruleset="cpt87", tables=2)
    wall = Clock(5.0)
    hub, tables, _ = floor_hub(store, Clock(100_000.0), wall)
    try:
        slow = _requested(hub, tables)
    finally:
        hub.stop()
    again, rebuilt, heard = floor_hub(store, Clock(7.0), wall)  # a new process: another monotonic clock
    try:
        game = rebuilt.game("t1")
        assert game is not None and [e["kind"] for e in game.pending_td] == ["time_request"]
        assert not game.waiting_td and rebuilt.floor.in_hand("t1") == 1
        send(again, wire.SeatActed(table="t1", boot="b1", seq=3, at=3.0, seat=slow, action="call"))
        [lapsed] = _of(heard, "time_request_lapsed")
        assert lapsed["seat"] == slow and game.pending_td == []
        result = again.floor_command({"cmd": "decide", "table": "t1", "option": "grant_time", "kind": "", "by": "Ada"})
        assert result is not None and not result.ok  # in words, French then English
        assert str(result.error).startswith("décision refusée par le hub : aucune décision en attente dans cette")
        assert result.error_en == "decision refused by the hub: no decision pending for the TD in this hand"
    finally:
        again.stop()
        store.close()


def test_a_granted_time_counts_from_the_grant_across_a_restart(tmp_path: Path) -> None:
    store, wall = EventStore(db(tmp_path)), Clock(5.0)
    hub, tables, heard, slow = _granted_at_20(store, wall)
    try:
        [called] = _of(heard, "time")
        assert called["expires_at"] == 60.0
    finally:
        hub.stop()
    wall.t = 50.0  # the hub comes back 30 s after the grant: 10 s left, not the whole 40 again
    again, rebuilt, told = floor_hub(store, Clock(7.0), wall)
    try:
        game = rebuilt.game("t1")
        assert game is not None and game.timing and game.pending_td == []
        assert game.hand is not None and game.hand.time_call is not None
        assert (game.hand.time_call.seat, game.hand.time_call.expires_at) == (slow, 60.0)
        wall.t = 59.0
        assert again.tick(5) and _of(told, "fault") == []
        wall.t = 60.0
        assert again.tick(5)
        [dead] = _of(told, "fault")
        assert (dead["kind"], dead["seat"]) == ("time_expired", slow)
        assert slow not in game.hand.live
    finally:
        again.stop()
        store.close()


def test_a_store_whose_decisions_have_no_time_still_loads(tmp_path: Path) -> None:
    """Decision marks stored before they kept their time: the grant is played again at the replay's time."""
    store = EventStore(db(tmp_path))
    started_floor(store, 12, ruleset="cpt87", tables=2)
    wall = Clock(5.0)
    hub, tables, _ = floor_hub(store, Clock(100_000.0), wall)
    try:
        _requested(hub, tables)
        result = hub.floor_command({"cmd": "decide", "table": "t1", "option": "grant_time", "kind": "", "by": "Ada"})
        assert result is not None and result.ok, result
    finally:
        hub.stop()
    marks = store.get_config("td_decided/t1")
    assert isinstance(marks, list) and isinstance(marks[0], dict)
    store.put_config("td_decided/t1", [{k: v for k, v in marks[0].items() if k != "at"}])
    again, rebuilt, _ = floor_hub(store, Clock(7.0), wall)
    try:
        game = rebuilt.game("t1")
        assert game is not None and game.pending_td == [] and game.in_hand
    finally:
        again.stop()
        store.close()


def test_the_hand_after_a_granted_time_ran_out_is_rebuilt_as_played(tmp_path: Path) -> None:
    """Nothing stores the run out: a rebuilt hub plays the grant at its time, then rules the run out before
    the next fact at that fact's time (`FloorTables.play`), as the hub's clock did live."""
    store, wall = EventStore(db(tmp_path)), Clock(5.0)
    hub, tables, heard, slow = _granted_at_20(store, wall)
    try:
        wall.t = 60.0
        assert hub.tick(5) and [f["kind"] for f in _of(heard, "fault")] == ["time_request", "time_expired"]
        game = tables.game("t1")
        assert game is not None and game.hand is not None and slow not in game.hand.live
        after = game.hand.to_act
        assert after is not None
        wall.t = 65.0
        send(hub, wire.SeatActed(table="t1", boot="b1", seq=3, at=3.0, seat=after, action="fold"))
        assert after not in game.hand.live  # his fold, in turn
        played = game_state(game)
    finally:
        hub.stop()
    again, rebuilt, _ = floor_hub(store, Clock(7.0), wall)
    try:
        replayed = rebuilt.game("t1")
        assert replayed is not None and game_state(replayed) == played and not replayed.timing
    finally:
        again.stop()
        store.close()
