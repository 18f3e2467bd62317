"""A fault's aftermath at a tournament table, through the hub as installed (`tapis hub --db`): the table's
wire events through `HubService`'s link handler, the TD's commands through the floor's command path, the
game under the floor (`FloorTables` on a real `EventStore`), and again in a hub restarted from its store.
The cash hub's own games (`tests/hub/test_fault_aftermath.py`) never change players between hands nor
restart from a store; a tournament table does both: a hand dealt again (misdeal, the TD's cancel) after a
blind left, at hand for hand, with a penalty's dead hand; a seat away across a restart and a move; a table
waiting for the TD's decision across a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from service_helpers import db, hub_on_store, started_floor

from hub.edge.service import HubService
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from tablewire import wire
from tablewire.mqtt import Message
from tests.hub.fake_link import RecordingLink


class Room:
    """A hub on the store, as `tapis hub --db` runs it, and table t1's agent (boot b1) sending to it."""

    link: RecordingLink
    tables: FloorTables
    hub: HubService
    heard: list[dict[str, Any]]

    def __init__(self, store: EventStore, seq: int = 0) -> None:
        self.link, self.tables, self.hub, self.heard = hub_on_store(store)
        self.seq = seq

    def restarted(self, store: EventStore) -> Room:
        """This hub stopped, and a new one started on the same store (the agent numbering on)."""
        self.hub.stop()
        return Room(store, self.seq)

    def send(self, event: wire.AnyTableEvent) -> list[dict[str, Any]]:
        before = len(self.heard)
        self.link.handlers[wire.ALL_TABLE_EVENTS](Message(wire.table_events(event.table), wire.encode(event), False))
        assert self.hub.settle(5)
        return self.heard[before:]

    def head(self) -> dict[str, Any]:
        self.seq += 1
        return {"table": "t1", "boot": "b1", "seq": self.seq, "at": float(self.seq)}

    def press(self, button: str = "new_hand", seat: int | None = None) -> list[dict[str, Any]]:
        return self.send(wire.DealerPressed(**self.head(), button=button, seat=seat))

    def fault(self, kind: str, cards: list[str], **details: Any) -> list[dict[str, Any]]:
        game = self.tables.game("t1")
        assert game is not None
        return self.send(wire.FaultSeen(**self.head(), hand=game.hand_no, kind=kind, seat=None, cards=cards,
                                        details=details))

    def command(self, **command: Any) -> dict[str, Any]:
        """A TD's command as the dashboard and `tapis tournament --broker` send it to the running hub."""
        before = len(self.heard)
        result = self.hub.floor_command(command)
        assert result is not None and result.ok, result
        return {"data": result.data, "heard": self.heard[before:]}

    def started(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        [start] = [e for e in events if e["type"] == "hand_start"]
        return start


def _seated(floor: FloorService) -> dict[int, str]:
    return dict(floor.require().state.tables[1].seats)


@pytest.mark.parametrize("restart", [False, True])
@pytest.mark.parametrize("how", ["misdeal", "td_cancel"])
def test_a_hand_dealt_again_after_the_big_blind_was_eliminated_deals(tmp_path: Path, how: str, restart: bool) -> None:
    """A misdeal (cdc 6.3) or the TD's cancel with every bet returned (cdc 6.4) is dealt again with the same
    button; a player the TD asked out during that hand (issue #30, point 7) leaves at its end. If he was
    the big blind, the blind goes to the next player: before, the hub dealt on the empty seat (an internal
    error, the floor's hand started and the table's not)."""
    with EventStore(db(tmp_path)) as store:
        started_floor(store, 12, tables=2)
        room = Room(store)
        floor = room.tables.floor
        first = room.started(room.press())
        assert (first["button"], first["small_blind"], first["big_blind"]) == (9, 2, 4)
        out_player = _seated(floor)[4]
        assert room.command(cmd="eliminate", player=out_player)["data"]["moves"] == []
        if how == "misdeal":
            ended = room.fault("boxed_card", ["5h"], during_deal=True, boxed_in_deal=2, boxed_after_deal=0)
        else:
            ended = room.command(cmd="cancel_hand", table="t1", by="alice")["heard"]
        [end] = [e for e in ended if e["type"] == "hand_end"]
        assert end["result"] in ("misdeal", "cancelled") and floor.in_hand("t1") is None
        assert 4 not in _seated(floor) and not floor.require().state.players[out_player].alive
        assert floor.players_for_hand("t1") == {2: 50_000, 5: 50_000, 6: 50_000, 7: 50_000, 9: 50_000}
        if restart:
            room = room.restarted(store)
            floor = room.tables.floor
        try:
            again = room.started(room.press())
            assert (again["hand"], again["button"], again["small_blind"], again["big_blind"]) == (2, 9, 2, 5)
            assert floor.in_hand("t1") == 2 and room.hub.stats.internal_errors == 0
            game = room.tables.game("t1")
            assert game is not None and game.in_hand and game.hand_no == 2
            room = room.restarted(store)
            game = room.tables.game("t1")
            assert game is not None and game.in_hand and game.positions is not None
            assert (game.positions.button, game.positions.big_blind) == (9, 5)
        finally:
            room.hub.stop()


def _context(room: Room) -> wire.HandContextCmd:
    """The last hand context the hub sent table t1."""
    topic = wire.table_commands("t1")
    sent = [wire.decode_command(topic, p) for t, p, _, _ in room.link.published if t == topic]
    return [c for c in sent if isinstance(c, wire.HandContextCmd)][-1]


def test_a_seat_away_stays_away_in_the_hub_restarted_from_its_store(tmp_path: Path) -> None:
    """The dealer's "away" (cdc 5.1: the player left the table) lasts until his "back": the next hands'
    context lists the seat, so the table rules his hand dead at the ruleset's deadline. The hub kept it in
    memory only: restarted from its store, it forgot him (his hands dealt live, his turn waited for)."""
    with EventStore(db(tmp_path)) as store:
        started_floor(store, 12, tables=2)
        room = Room(store)
        try:
            room.press()
            away = room.press("away", 6)
            assert [(e["type"], e.get("state")) for e in away][:1] == [("seat", "away")]
            room.command(cmd="cancel_hand", table="t1", by="alice")
            room.press()
            assert (_context(room).hand, _context(room).away) == (2, [6])
            room.command(cmd="cancel_hand", table="t1", by="alice")
            room = room.restarted(store)
            room.press()
            assert (_context(room).hand, _context(room).away) == (3, [6])
            room = room.restarted(store)  # mid-hand this time: the hand's context as it was sent
            assert room.tables.game("t1") is not None and set(room.tables.game("t1").away) == {6}  # type: ignore[union-attr]
            room.press("back", 6)
            room.command(cmd="cancel_hand", table="t1", by="alice")
            room = room.restarted(store)
            room.press()
            assert (_context(room).hand, _context(room).away) == (4, [])
        finally:
            room.hub.stop()


def test_a_player_seated_where_one_was_away_is_dealt_in(tmp_path: Path) -> None:
    """The away seat is the player's, not the seat's: he moves to another table (the TD's move, a balance)
    and the player the floor seats there next is dealt in, not ruled absent at the deadline."""
    with EventStore(db(tmp_path)) as store:
        started_floor(store, 12, tables=2)
        room = Room(store)
        try:
            room.press()
            room.press("away", 6)
            room.command(cmd="cancel_hand", table="t1", by="alice")
            seats = room.tables.floor.require().state.tables
            left, comes = seats[1].seats[6], seats[2].seats[4]
            room.command(cmd="move", player=left, table="t2", seat=1)
            room.command(cmd="move", player=comes, table="t1", seat=6)
            assert room.tables.floor.players_for_hand("t1")[6] == 50_000
            room.press()
            assert (_context(room).hand, 6 in _context(room).seats, _context(room).away) == (2, True, [])
        finally:
            room.hub.stop()


@pytest.mark.parametrize("restart", [False, True])
def test_at_hand_for_hand_a_misdealt_table_deals_its_hand_again_at_once(tmp_path: Path, restart: bool) -> None:
    """Hand for hand (pouques 39), a table's misdeal is dealt again at once: its hand of the round is still
    to play. Before, the floor counted the misdeal as that hand and refused the redeal until every other
    table had played (its players a hand short of the round, at the bubble). Its real hand counts."""
    with EventStore(db(tmp_path)) as store:
        started_floor(store, 12, tables=2)
        room = Room(store)
        try:
            room.command(cmd="hand_for_hand", on=True)
            room.press()
            room.fault("boxed_card", ["5h"], during_deal=True, boxed_in_deal=2, boxed_after_deal=0)
            if restart:
                room = room.restarted(store)
            again = room.started(room.press())
            assert (again["hand"], again["button"]) == (2, 9)
            game = room.tables.game("t1")
            assert game is not None and game.hand is not None
            while game.in_hand:  # folded round to the big blind: a hand played
                assert game.hand.to_act is not None
                room.send(wire.SeatActed(**room.head(), seat=game.hand.to_act, action="fold", to=None))
            assert [e["type"] for e in room.press()] == ["hand_refused"]  # now it waits for table 2
        finally:
            room.hub.stop()


@pytest.mark.parametrize("restart", [False, True])
def test_a_penalty_hand_dealt_dead_is_dealt_dead_again_after_a_misdeal(tmp_path: Path, restart: bool) -> None:
    """cdc 12.1-12.2: the warning's hand is dealt dead. A misdeal voids that hand and it is dealt again: the
    player's hand is dead in the redeal, not live (before, the misdeal had served his penalty)."""
    with EventStore(db(tmp_path)) as store:
        started_floor(store, 12, tables=2)
        room = Room(store)
        try:
            player = _seated(room.tables.floor)[5]
            room.command(cmd="penalty", player=player, kind="warning", amount=1)
            room.press()
            assert 5 in _context(room).away  # his hand dealt dead
            room.fault("boxed_card", ["5h"], during_deal=True, boxed_in_deal=2, boxed_after_deal=0)
            if restart:
                room = room.restarted(store)
            room.press()
            assert (_context(room).hand, 5 in _context(room).away) == (2, True)
            room.command(cmd="cancel_hand", table="t1", by="alice")  # brest would share the pot; cdc: void again
            room.press()
            assert (_context(room).hand, 5 in _context(room).away) == (3, True)
            game = room.tables.game("t1")
            assert game is not None and game.hand is not None
            while game.in_hand:  # folded round to the big blind: the hand is played, his penalty served
                assert game.hand.to_act is not None
                room.send(wire.SeatActed(**room.head(), seat=game.hand.to_act, action="fold", to=None))
            room.press()
            assert (_context(room).hand, 5 in _context(room).away) == (4, False)
        finally:
            room.hub.stop()


def test_a_table_waiting_for_the_td_still_waits_in_the_restarted_hub_and_his_decision_reaches_it(
        tmp_path: Path) -> None:
    """cpt87 6.3, two boxed cards after the deal: the TD's call. The hub restarted from its store while the
    table waits still waits (a press refused in words), and the dashboard's decision (`HubService.decide`,
    through the floor) is carried out at the rebuilt table; a hub restarted again has it decided."""
    with EventStore(db(tmp_path)) as store:
        started_floor(store, 12, ruleset="cpt87", tables=2)
        room = Room(store)
        try:
            room.press()
            for n, card in ((1, "5h"), (2, "6h")):
                room.fault("boxed_card", [card], during_deal=False, boxed_in_deal=0, boxed_after_deal=n)
            room = room.restarted(store)
            game = room.tables.game("t1")
            assert game is not None and game.waiting_td and game.hand is not None and game.hand.to_act is not None
            seat = game.hand.to_act
            [refused] = room.send(wire.SeatActed(**room.head(), seat=seat, action="fold", to=None))
            assert refused["status"] == "rejected" and refused["reason"] == "waiting for the TD's decision"
            before = len(room.heard)
            room.hub.decide("t1", "boxed_card", "set_aside", "alice")
            assert room.hub.settle(5)
            assert [(e["type"], e.get("decision")) for e in room.heard[before:]] == [("ruling", "set_aside")]
            assert not game.waiting_td and room.tables.floor.in_hand("t1") == 1
            room = room.restarted(store)
            game = room.tables.game("t1")
            assert game is not None and game.in_hand and not game.waiting_td
            [folded] = room.send(wire.SeatActed(**room.head(), seat=seat, action="fold", to=None))
            assert folded["status"] == "accepted"
        finally:
            room.hub.stop()


@pytest.mark.parametrize(("kept", "players", "again"), [
    ((1, 3, 5), [1, 3, 5, 7], (1, 3, 5)),  # everyone still there: the same button and blinds (cdc 6.3)
    ((1, 3, 5), [1, 3, 7], (1, 3, 7)),  # the big blind left: to the next player
    ((1, 3, 6), [3, 4, 5], (1, None, 3)),  # button and big blind left: the small blind's player has the big
    ((1, 3, 5), [3, 5], (3, 3, 5)),  # heads-up: the other player has the button and the small blind
    ((1, 3, 5), [1, 5], (1, 1, 5)),
])
def test_the_button_and_blinds_of_a_hand_dealt_again_after_players_left(
        kept: tuple[int, int | None, int], players: list[int], again: tuple[int, int | None, int]) -> None:
    """A void hand dealt again keeps its button and blinds; a blind who left at its end gives his blind up
    as the dead-button rule places it (`hand_context.dealt_again`)."""
    from hub.floor.hand_context import dealt_again
    from hub.rules import Positions

    assert dealt_again(Positions(*kept), players) == Positions(*again)
