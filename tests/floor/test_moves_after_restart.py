"""The floor's moves across a hub killed and started again on its store (`tapis hub --db`), through `HubService`.

A hand's end orders a balancing move; the hub dies before the instruction leaves (its events are stored before
any packet goes: `hub.edge.service_store`), or before the floor even saw that hand's end (the last fact stored,
never played: the rebuild plays it, and the move is made during the replay). The floor already seats the player
at his new table. The hub started again tells the table he leaves, at its first connect, in the same form as a
hand's end does (`floor_moves`), once: not again at a reconnect, never once he is dealt in at his new seat."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from service_helpers import Clock, db, started_floor

from hub.edge.service import HubService
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from tablewire import wire
from tablewire.mqtt import Message
from tests.hub.fake_link import RecordingLink


class Room:
    """A hub on the store, as `tapis hub --db` builds it, and the agents of t1 and t2 sending to it."""

    def __init__(self, store: EventStore, seqs: dict[str, int] | None = None) -> None:
        self.store = store
        self.link = RecordingLink()
        self.tables = FloorTables.open(FloorService.open(store, link=self.link), store)  # type: ignore[arg-type]
        self.hub = HubService(link=self.link, clock=Clock(100_000.0), tick=3600,  # type: ignore[arg-type]
                              floor_tables=self.tables, wall=Clock(5.0).now)
        self.heard: list[dict[str, Any]] = []
        self.hub.add_listener(self.heard.append)
        self.hub.start()
        self.seqs = dict(seqs or {})

    def killed(self) -> Room:
        """This hub gone (nothing it had not sent leaves any more), a new one started on the same store."""
        self.hub.stop()
        return Room(self.store, self.seqs)

    def connected(self) -> list[dict[str, Any]]:
        """The hub (re)connects to its broker; what it said then."""
        before = len(self.heard)
        self.link.reconnect()
        assert self.hub.settle(5)
        return self.heard[before:]

    def event(self, table: str, kind: type[wire.AnyTableEvent], **fields: Any) -> wire.AnyTableEvent:
        self.seqs[table] = self.seqs.get(table, 0) + 1
        seq = self.seqs[table]
        return kind(table=table, boot=f"{table}-b1", seq=seq, at=float(seq), **fields)

    def send(self, event: wire.AnyTableEvent) -> list[dict[str, Any]]:
        before = len(self.heard)
        self.link.handlers[wire.ALL_TABLE_EVENTS](Message(wire.table_events(event.table), wire.encode(event), False))
        assert self.hub.settle(5)
        return self.heard[before:]

    def press(self, table: str) -> list[dict[str, Any]]:
        return self.send(self.event(table, wire.DealerPressed, button="new_hand", seat=None))

    def fold(self, table: str) -> wire.AnyTableEvent:
        """The next fold of `table`'s hand (not sent)."""
        game = self.tables.game(table)
        assert game is not None and game.hand is not None and game.hand.to_act is not None
        return self.event(table, wire.SeatActed, seat=game.hand.to_act, action="fold", to=None)

    def command(self, **command: Any) -> dict[str, Any]:
        result = self.hub.floor_command(command)
        assert result is not None and result.ok, result
        return dict(result.data)

    def moves_said(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [e for e in events if e["type"] == "floor_moves"]

    def published_moves(self) -> list[tuple[str, dict[str, Any]]]:
        """The `floor_moves` on the tables' public event topics: (topic, event)."""
        import json

        topics = {wire.hub_table_events(t) for t in ("t1", "t2")}
        return [(topic, json.loads(payload)) for topic, payload, _, _ in self.link.published
                if topic in topics and json.loads(payload)["type"] == "floor_moves"]


@pytest.mark.parametrize("played", [True, False], ids=["hand_end_stored", "hand_end_stored_unplayed"])
def test_a_move_ordered_as_the_hub_died_is_told_again_once_until_carried_out(tmp_path: Path, played: bool) -> None:
    with EventStore(db(tmp_path)) as store:
        started_floor(store, 20, tables=2)  # ten a table, cdc-2013: balanced at 3 players apart
        room = Room(store)
        floor = room.tables.floor
        room.press("t1")  # t1 deals; t2 has not dealt yet
        for player in sorted(floor.require().state.tables[2].seats.values())[:3]:
            assert room.command(cmd="eliminate", player=player)["moves"] == []  # t1, the giver, is in its hand
        while len(room.tables.game("t1").hand.live) > 2:  # type: ignore[union-attr]
            room.send(room.fold("t1"))
        last = room.fold("t1")  # the hand's end: t1 (10) gives one player to t2 (7)
        first: list[dict[str, Any]] = []
        if played:
            first = room.moves_said(room.send(last))
            assert len(first) == 1 and first[0]["table"] == "t1"
        else:  # the hub dies once the fold is stored, before playing it: the floor never saw the hand end
            assert store.append_table_event("t1", last.boot, last.seq, wire.encode(last), 5.0)
            assert floor.require().pending_moves() == []
        room = room.killed()  # nothing it said reached anyone: `room.heard` and its packets are the dead hub's
        floor = room.tables.floor
        [ordered] = floor.require().pending_moves()
        assert (ordered.from_table, ordered.to_table, ordered.reason.value) == (1, 2, "balance")
        assert floor.require().state.players[ordered.player].table == 2  # the floor seats him there already
        assert room.moves_said(room.heard) == []  # nothing said before the hub is connected

        said = room.moves_said(room.connected())
        assert len(said) == 1, said
        again = said[0]
        expected = {"player": ordered.player, "from_table": "t1", "from_seat": ordered.from_seat, "to_table": "t2",
                    "to_seat": ordered.to_seat, "reason": "balance", "waits_one_hand": ordered.waits_one_hand,
                    "article": ordered.article}
        assert again["moves"] == [expected], again
        assert (again["table"], again["hand"], again["again"]) == ("t1", 1, True)
        if played:  # the same instruction as the hand's end gave, on the same table's stream
            assert again["moves"] == first[0]["moves"]
            assert {k: v for k, v in again.items() if k != "again"} == first[0]
        assert [topic for topic, _ in room.published_moves()] == [wire.hub_table_events("t1")]

        assert room.moves_said(room.connected()) == []  # a network loss: the link sends its own packets again

        # t2 deals: the player is dealt in at his new seat (after a hand, if his seat must wait one)
        for _ in range(3):
            room.press("t2")
            dealt = room.tables.game("t2")
            assert dealt is not None and dealt.in_hand
            if ordered.to_seat in dealt.hand.seats:  # type: ignore[union-attr]
                break
            while dealt.in_hand:
                room.send(room.fold("t2"))
        assert ordered.to_seat in room.tables.game("t2").hand.seats  # type: ignore[union-attr]
        assert floor.require().pending_moves() == []
        room = room.killed()
        assert room.moves_said(room.connected()) == []  # carried out: not told again
        room.hub.stop()
