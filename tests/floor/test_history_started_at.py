"""A hand's history, and the dashboard's "hand running since", say when it started, also when the hub was
restarted during it.

The recorder hears a hand in progress at a restart from `FloorTables.open`'s replay, and took the time it
heard it (the restart) as the hand's start: the record, and the hands-per-hour and durations read from
the records (`tapis hands`), said the hand started then. Through the hub, as `tapis hub --db` records."""

from __future__ import annotations

from pathlib import Path

from service_helpers import Clock, db, floor_hub, send, started_floor

from hub.floor.store import EventStore
from hub.history.recorder import HandRecorder
from hub.history.store import HistoryStore
from tablewire import wire


def test_a_hand_the_hub_restarted_in_is_on_record_from_its_start(tmp_path: Path) -> None:
    store = EventStore(db(tmp_path))
    started_floor(store, 12, tables=2)
    wall = Clock(5.0)
    hub, tables, _ = floor_hub(store, Clock(100_000.0), wall)
    try:
        send(hub, wire.DealerPressed(table="t1", boot="b1", seq=1, at=1.0, button="new_hand", seat=None))
        game = tables.game("t1")
        assert game is not None and game.hand is not None and game.hand.to_act is not None
        wall.t = 20.0
        send(hub, wire.SeatActed(table="t1", boot="b1", seq=2, at=2.0, seat=game.hand.to_act, action="fold"))
    finally:
        hub.stop()
    wall.t = 300.0  # the hub back five minutes later, the hand still on
    again, rebuilt, _ = floor_hub(store, Clock(7.0), wall)
    recorder = HandRecorder(rebuilt, wall=wall.now)
    again.add_listener(recorder.event, reads_store=True)
    try:
        game = rebuilt.game("t1")
        assert game is not None and game.hand_no == 1
        assert again.tables["t1"].hand_since == 5.0, "the dashboard's hand runs since the restart"
        seq = 2
        while game.hand is not None and game.in_hand and game.hand.to_act is not None:
            seq += 1
            send(again, wire.SeatActed(table="t1", boot="b1", seq=seq, at=seq, seat=game.hand.to_act, action="fold"))
        assert not game.in_hand and recorder.written == 1
        record = HistoryStore(store).record("t1", 1, td=True)
        assert record is not None and (record["started_at"], record["ended_at"]) == (5.0, 300.0)
    finally:
        again.stop()
        store.close()


def test_a_hands_record_names_the_players_the_floor_seated(tmp_path: Path) -> None:
    """The record names each seat's player as the floor seated him when the hand began (the TD's replay and the
    dealer's statistics read them), not "seat N"."""
    store = EventStore(db(tmp_path))
    started_floor(store, 12, tables=2)
    wall = Clock(5.0)
    hub, tables, _ = floor_hub(store, Clock(100_000.0), wall)
    recorder = HandRecorder(tables, wall=wall.now)
    hub.add_listener(recorder.event, reads_store=True)
    try:
        seated = tables.seated("t1")
        send(hub, wire.DealerPressed(table="t1", boot="b1", seq=1, at=1.0, button="new_hand", seat=None))
        game = tables.game("t1")
        assert game is not None and game.hand is not None
        seq = 1
        while game.in_hand and game.hand.to_act is not None:
            seq += 1
            send(hub, wire.SeatActed(table="t1", boot="b1", seq=seq, at=seq, seat=game.hand.to_act, action="fold"))
        assert recorder.written == 1
        record = HistoryStore(store).record("t1", 1, td=True)
        assert record is not None and len(seated) > 2
        assert dict(zip(record["seats"], record["players"])) == {s: seated[s] for s in record["seats"]}
    finally:
        hub.stop()
        store.close()
