"""A tournament table the hub loses (its agent's will: offline) and hears again: the floor knows it cannot
reach it until a fact comes live, its backlog first (docs/tournament.md, "Faults during a tournament")."""

from __future__ import annotations

from pathlib import Path

from service_helpers import db, started_floor

from hub.edge.service import HubService
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from tablewire import wire
from tablewire.mqtt import Message
from tests.hub.fake_link import RecordingLink


def _send(link: RecordingLink, event: wire.AnyTableEvent) -> None:
    link.handlers[wire.ALL_TABLE_EVENTS](Message(wire.table_events(event.table), wire.encode(event), False))


def _fact(seq: int, at: float, card: str = "") -> wire.AnyTableEvent:
    """Table t1's fact number `seq`, stamped `at` on its clock: a "new hand", else `card` to seat 1."""
    if not card:
        return wire.DealerPressed(table="t1", boot="b1", seq=seq, at=at, button="new_hand", seat=None)
    return wire.CardEvent(table="t1", boot="b1", seq=seq, at=at, type="card_arrived", zone="seat:1",
                          uid=f"{seq:08X}", card=card, deck=wire.table_deck_ids("t1")[0], order=seq)


def test_a_table_offline_is_cut_off_until_a_fact_of_it_comes_live(tmp_path: Path) -> None:
    store = EventStore(db(tmp_path))
    started_floor(store, 12, tables=2)
    link = RecordingLink()
    tables = FloorTables.open(FloorService.open(store, link=link), store)  # type: ignore[arg-type]
    wall = [5.0]
    hub = HubService(link=link, tick=0.05, floor_tables=tables, wall=lambda: wall[0])  # type: ignore[arg-type]
    hub.start()
    try:
        _send(link, _fact(1, 1.0))  # heard live: its clock's offset learned (5 - 1)
        assert hub.settle() and tables.floor.in_hand("t1") == 1

        def cut() -> set[int]:
            with hub.floor_lock:
                return set(tables.floor.require().state.unreachable)
        link.handlers[wire.ALL_TABLE_STATUS](Message(wire.table_status("t1"), wire.OFFLINE, True))
        assert hub.settle() and cut() == {1}
        wall[0] = 100.0
        _send(link, _fact(2, 2.0, card="As"))  # stamped 2: dealt at 6, heard at 100
        assert hub.settle() and cut() == {1}  # its backlog: not heard again yet
        _send(link, _fact(3, 96.0, card="Ks"))  # stamped 96: dealt now
        assert hub.settle() and cut() == set()
    finally:
        hub.stop()
        store.close()


def test_the_move_that_waited_is_sent_when_the_table_is_heard_between_hands(tmp_path: Path) -> None:
    """Table 1 cut off between hands (its hand cancelled by the TD), three players out at table 2 (10 against
    7: a player of table 1 is due to move): nothing is ordered until table 1 is heard live, then the move is
    sent to the tables as any other (`floor_moves`)."""
    store = EventStore(db(tmp_path))
    started_floor(store, 20, tables=2)
    link = RecordingLink()
    tables = FloorTables.open(FloorService.open(store, link=link), store)  # type: ignore[arg-type]
    hub = HubService(link=link, tick=0.05, floor_tables=tables, wall=lambda: 5.0)  # type: ignore[arg-type]
    sent: list[object] = []
    tables.on_moves.append(sent.extend)
    hub.start()
    try:
        _send(link, _fact(1, 1.0))
        assert hub.settle()
        link.handlers[wire.ALL_TABLE_STATUS](Message(wire.table_status("t1"), wire.OFFLINE, True))
        assert hub.settle()
        with hub.floor_lock:
            tables.cancel_hand("t1", "TD", 5.0)
            floor = tables.floor
            for name in sorted(floor.require().state.tables[2].seats.values())[:3]:
                assert floor.execute({"cmd": "eliminate", "player": name}, 5.0).ok
            assert floor.in_hand("t1") is None and floor.require().pending_moves() == []
            assert floor.require().waiting_for() == {1}
        _send(link, _fact(2, 2.0, card="As"))  # heard live
        assert hub.settle()
        with hub.floor_lock:
            assert [(m.from_table, m.to_table) for m in floor.require().pending_moves()] == [(1, 2)]
        assert [(m.from_table, m.to_table) for m in sent] == [("t1", "t2")]  # type: ignore[attr-defined]
        # and told to the dealers, as a hand's end tells its moves (a planted bug that dropped it survived)
        import json
        told = [json.loads(payload) for topic, payload, _, _ in link.published
                if topic == wire.hub_table_events("t1") and json.loads(payload)["type"] == "floor_moves"]
        assert [(m["from_table"], m["to_table"]) for e in told for m in e["moves"]] == [("t1", "t2")], told
    finally:
        hub.stop()
        store.close()


def test_the_tables_cut_off_stay_known_across_a_reread_of_the_store_and_an_undo(tmp_path: Path) -> None:
    """Which tables are cut off is the hub's knowledge of its network, not a record: a command line beside the
    hub (another writer: the floor reads the store again) or a TD's undo (the state rebuilt from the records)
    must not forget it, or the floor would order moves to or from a table it cannot reach."""
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 20, tables=2)
        floor.require().state.unreachable = {1}
        with EventStore(db(tmp_path)) as beside:  # `tapis tournament penalty --db` while the hub runs
            assert FloorService.open(beside).execute({"cmd": "penalty", "player": "p03", "kind": "warning"}, 2.0).ok
        out = floor.execute({"cmd": "penalty", "player": "p04", "kind": "warning"}, 3.0)  # reads the store again
        assert out.ok and len(floor.require().state.players["p03"].penalties) == 1
        assert floor.require().state.unreachable == {1}
        assert floor.execute({"cmd": "undo", "action": out.data["undo"]}, 4.0).ok
        assert not floor.require().state.players["p04"].penalties  # undone: the state rebuilt
        assert floor.require().state.unreachable == {1}


def test_the_final_table_drawn_when_the_table_cut_off_is_heard_says_where_each_player_comes_from(
        tmp_path: Path) -> None:
    """cdc, final table of 9: 12 players on two tables, table 1 cut off; three out at table 2 leave 9: the
    final table waits for table 1. Heard again, its draw is told to the dealers from each player's seat
    (the table he leaves tells him), as a draw at a hand's end is."""
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 12, tables=2)
        assert floor.reachable("t1", 1.0, heard=False) == []
        for name in sorted(floor.require().state.tables[2].seats.values())[:3]:
            assert floor.execute({"cmd": "eliminate", "player": name}, 2.0).ok
        seats = {p.name: (f"t{p.table}", p.seat) for p in floor.require().state.alive()}
        moves = floor.reachable("t1", 3.0, heard=True)
        assert moves and {m.reason for m in moves} == {"final"}
        assert [(m.from_table, m.from_seat) for m in moves] == [seats[m.player] for m in moves]
