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
from service_helpers import db, hub_on_store, started_floor

from hub.edge.service import HubService
from hub.floor.moves import pending_instructions
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from tablewire import wire
from tablewire.mqtt import Message
from tests.hub.fake_link import RecordingLink


class Room:
    """A hub on the store, as `tapis hub --db` builds it, and the agents of t1 and t2 sending to it."""

    link: RecordingLink
    tables: FloorTables
    hub: HubService
    heard: list[dict[str, Any]]

    def __init__(self, store: EventStore, seqs: dict[str, int] | None = None) -> None:
        self.store = store
        self.link, self.tables, self.hub, self.heard = hub_on_store(store)
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


def _to_a_hand_end(store: EventStore, players: int) -> tuple[Room, wire.AnyTableEvent]:
    """Two tables, t2 three players short before it deals (the TD put them out while t1, the giver, was in its
    hand: nothing moved); t1's hand folded to its last action, returned unsent: the end that orders the moves."""
    started_floor(store, players, tables=2)  # cdc-2013: balanced at 3 players apart; a final table of 10
    room = Room(store)
    floor = room.tables.floor
    room.press("t1")
    for player in sorted(floor.require().state.tables[2].seats.values())[:3]:
        assert room.command(cmd="eliminate", player=player)["moves"] == []
    while len(room.tables.game("t1").hand.live) > 2:  # type: ignore[union-attr]
        room.send(room.fold("t1"))
    return room, room.fold("t1")


def _by_player(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(moves, key=lambda m: str(m["player"]))


@pytest.mark.parametrize(("players", "reason"), [(20, "balance"), (12, "final")])
@pytest.mark.parametrize("played", [True, False], ids=["hand_end_stored", "hand_end_stored_unplayed"])
def test_moves_ordered_as_the_hub_died_are_told_again_once_until_carried_out(tmp_path: Path, played: bool,
                                                                               players: int, reason: str) -> None:
    """20 players: t1 (10) gives one to t2 (7). 12 players: the 9 left fit the final table (t1), drawn at once."""
    with EventStore(db(tmp_path, "straight.db")) as straight:  # the hub that did not die: what it told
        room, last = _to_a_hand_end(straight, players)
        firsts = room.moves_said(room.send(last))
        room.hub.stop()
    first = {"moves": [m for e in firsts for m in e["moves"]]}
    assert first["moves"] and {m["reason"] for m in first["moves"]} == {reason}, firsts
    # each said on the stream of the table the player leaves, at once: the final draw to both tables' dealers
    assert all(m["from_table"] == e["table"] for e in firsts for m in e["moves"]), firsts
    assert sorted(e["table"] for e in firsts) == (["t1"] if reason == "balance" else ["t1", "t2"]), firsts
    with EventStore(db(tmp_path)) as store:
        room, last = _to_a_hand_end(store, players)
        if played:
            assert room.moves_said(room.send(last)) == firsts
        else:  # the hub dies once the fold is stored, before playing it: the floor never saw the hand end
            assert store.append_table_event("t1", last.boot, last.seq, wire.encode(last), 5.0)
            assert room.tables.floor.require().pending_moves() == []
        room = room.killed()  # nothing it said reached anyone: `room.heard` and its packets are the dead hub's
        floor = room.tables.floor
        for move in first["moves"]:  # the floor seats them at their new seats already
            player = floor.require().state.players[move["player"]]
            assert (f"t{player.table}", player.seat) == (move["to_table"], move["to_seat"])
        assert room.moves_said(room.heard) == []  # nothing said before the hub is connected

        said = room.moves_said(room.connected())
        # the same instructions, each once, on the stream of the table the player leaves, marked as said again
        assert _by_player([m for e in said for m in e["moves"]]) == _by_player(first["moves"]), said
        assert all(m["from_table"] == e["table"] and e["again"] is True for e in said for m in e["moves"])
        assert [e["hand"] for e in said if e["table"] == "t1"] == [1]  # t1's hand whose end ordered them
        assert sorted(topic for topic, _ in room.published_moves()) == sorted(
            wire.hub_table_events(e["table"]) for e in said)

        assert room.moves_said(room.connected()) == []  # a network loss: the link sends its own packets again

        # their new table deals: they are dealt in at their new seats (after a hand, if a seat must wait one)
        to = {m["to_table"] for m in first["moves"]}
        assert len(to) == 1
        [table] = to
        seats = {int(m["to_seat"]) for m in first["moves"]}
        for _ in range(3):
            room.press(table)
            dealt = room.tables.game(table)
            assert dealt is not None and dealt.hand is not None
            if seats <= set(dealt.hand.seats):
                break
            while dealt.in_hand:
                room.send(room.fold(table))
        assert seats <= set(room.tables.game(table).hand.seats)  # type: ignore[union-attr]
        assert pending_instructions(floor.require()) == []
        room = room.killed()
        assert room.moves_said(room.connected()) == []  # carried out: not told again
        room.hub.stop()


def test_the_moves_a_tds_command_makes_are_told_to_the_tables(tmp_path: Path) -> None:
    """A TD's command that moves players (his own move; eliminations between hands that unbalance the tables)
    is said to the tables as a hand's end says its moves (`floor_moves` on the stream of the table the player
    leaves), from the dashboard (its HTTP thread runs the floor) as from `tapis tournament --broker`."""
    import threading

    with EventStore(db(tmp_path)) as store:
        started_floor(store, 20, tables=2)  # 10 and 10; cdc-2013 balances at 3 apart
        room = Room(store)
        floor = room.tables.floor
        t2 = sorted(floor.require().state.tables[2].seats.values())

        def dashboard(command: dict[str, Any]) -> dict[str, Any]:  # as `Dashboard.floor_command` runs it
            out: list[dict[str, Any]] = []

            def run() -> None:
                with room.hub.floor_lock:
                    out.append(floor.execute(command, 10.0).model_dump())
            thread = threading.Thread(target=run)
            thread.start()
            thread.join()
            assert room.hub.settle(5)
            return out[0]

        for player in t2[:2]:
            assert dashboard({"cmd": "eliminate", "player": player})["data"]["moves"] == []
        assert room.moves_said(room.heard) == []
        third = dashboard({"cmd": "eliminate", "player": t2[2]})["data"]["moves"]  # 10 against 7: one moves
        assert [m["reason"] for m in third] == ["balance"]
        [said] = room.moves_said(room.heard)
        assert (said["table"], said["moves"], "again" in said) == (third[0]["from_table"], third, False)
        # the TD's own move, through the hub (`tapis tournament move`)
        mover = sorted(floor.require().state.tables[1].seats.values())[0]
        free = min(set(range(1, 11)) - set(floor.require().state.tables[2].seats))
        before = len(room.heard)
        moved = room.command(cmd="move", player=mover, table="t2", seat=free)["moves"]
        assert room.hub.settle(5)
        assert [e["moves"] for e in room.moves_said(room.heard[before:])] == [moved] and moved
        room.hub.stop()


def test_the_moves_the_clock_makes_are_handed_to_the_hub_too() -> None:
    """cdc 2.8: the players still absent at the end of level 2 are removed; the tables they leave unbalanced,
    the clock's own move goes to the hub to be said (`FloorService.on_moves`), not only to the moves box."""
    from hub.floor.commands import NewTournament
    from hub.tournament.structure import pouques_2020, to_toml

    with EventStore(":memory:") as store:
        floor = FloorService(store)
        floor.create(NewTournament(name="T", ruleset="cdc-2013", structure_toml=to_toml(pouques_2020()), tables=2,
                                   buy_in_cents=0, payouts="50,30,20", seed=4), 0.0)
        names = [f"p{i:02d}" for i in range(1, 21)]
        for command in ({"cmd": "register", "players": names[:14]},
                        {"cmd": "register", "players": names[14:], "present": False},
                        {"cmd": "seat"}, {"cmd": "start"}):
            assert floor.execute(command, 0.0).ok  # type: ignore[arg-type]
        absent = {n: sum(p in names[14:] for p in t.seats.values()) for n, t in floor.require().state.tables.items()}
        assert absent == {1: 1, 2: 5}  # the draw (seed 4): table 2 is left with 5, table 1 with 9
        said: list[list[dict[str, Any]]] = []
        floor.on_moves = said.append
        for minute in (61, 90, 120, 121):
            floor.pump(minute * 60.0)
        assert [[(m["from_table"], m["to_table"], m["reason"]) for m in moves] for moves in said] == [
            [("t1", "t2", "balance")]], said


def test_the_final_draw_is_in_the_moves_box_until_the_final_table_deals(tmp_path: Path) -> None:
    """The clock's moves (the TD's "Déplacements à faire" box, the table pages') list the final table's draw
    as they list the moves ordered: each player it reseats, from where he sat, until the final table deals its
    first hand; a hub started again on its store lists them the same."""
    with EventStore(db(tmp_path)) as store:
        room, last = _to_a_hand_end(store, 12)
        said = {"moves": [m for e in room.moves_said(room.send(last)) for m in e["moves"]]}
        assert {m["reason"] for m in said["moves"]} == {"final"} and len(said["moves"]) > 1, said

        def box(room: Room) -> list[tuple[str, str, int, str, int, str]]:
            snap: dict[str, Any] = room.tables.floor.snapshot(10.0)
            return sorted((m["player"], f"t{m['from_table']}", m["from_seat"], f"t{m['to_table']}", m["to_seat"],
                           m["reason"]) for m in snap["moves"])
        wanted = sorted((m["player"], m["from_table"], m["from_seat"], m["to_table"], m["to_seat"], m["reason"])
                        for m in said["moves"])
        assert box(room) == wanted
        room = room.killed()
        assert box(room) == wanted  # rebuilt from the file
        [final] = {m["to_table"] for m in said["moves"]}
        room.press(final)  # the final table's first hand: every player sits where the draw put him
        assert box(room) == [] and pending_instructions(room.tables.floor.require()) == []
        room.hub.stop()


def test_a_player_out_before_the_final_table_deals_is_no_longer_a_move_to_make(tmp_path: Path) -> None:
    """The TD puts out a player the final draw reseated, before the final table's first hand: his move leaves
    the moves box and is not told again by a hub started on its store (he no longer goes there)."""
    with EventStore(db(tmp_path)) as store:
        room, last = _to_a_hand_end(store, 12)
        drawn = [m for e in room.moves_said(room.send(last)) for m in e["moves"]]
        assert {m["reason"] for m in drawn} == {"final"} and len(drawn) > 1, drawn
        gone = drawn[0]["player"]
        assert room.command(cmd="eliminate", player=gone)["moves"] == []
        snap: dict[str, Any] = room.tables.floor.snapshot(10.0)
        assert sorted(m["player"] for m in snap["moves"]) == sorted(m["player"] for m in drawn[1:])
        room = room.killed()
        told = [m["player"] for e in room.moves_said(room.connected()) for m in e["moves"]]
        assert sorted(told) == sorted(m["player"] for m in drawn[1:]), told
        room.hub.stop()


def test_the_next_days_draw_is_told_to_its_tables_and_again_until_each_deals(tmp_path: Path) -> None:
    """The TD's "fin de journée" draws the next day's seats: each table of the next day is told who sits where
    (`floor_moves` on its own stream: the day before's table may not play), and a hub started again on its
    store (overnight, say) tells it again, once per start, until that table deals the day's first hand. The
    moves box leaves it out: it reseats the whole room (the bag sheet and the seating chart give it)."""
    with EventStore(db(tmp_path)) as store:
        started_floor(store, 20, tables=2)  # 10 and 10: the next day too, every player drawn afresh
        room = Room(store)
        room.command(cmd="end_day")
        assert room.hub.settle(5)
        told = room.moves_said(room.heard)
        day = [m for e in told for m in e["moves"]]
        assert day and {m["reason"] for m in day} == {"day"} and all("again" not in e for e in told), told
        assert all(m["to_table"] == e["table"] for e in told for m in e["moves"])
        sheet: dict[str, Any] = room.tables.floor.bags()
        bags = {r["player"]: (f"t{r['table']}", r["seat"]) for r in sheet["rows"]}
        assert all((m["from_table"], m["from_seat"]) == bags[m["player"]] for m in day)
        assert room.tables.floor.snapshot(10.0)["moves"] == []

        room = room.killed()
        said = room.moves_said(room.connected())
        assert _by_player([m for e in said for m in e["moves"]]) == _by_player(day), said
        assert all(m["to_table"] == e["table"] and e["again"] is True for e in said for m in e["moves"])
        assert room.moves_said(room.connected()) == []  # once per start

        room.command(cmd="clock", action="resume")  # day 2: t1 deals its first hand, t2 not yet
        room.press("t1")
        room = room.killed()
        said = room.moves_said(room.connected())
        assert [e["table"] for e in said] == ["t2"]
        assert _by_player(said[0]["moves"]) == _by_player([m for m in day if m["to_table"] == "t2"])
        room.press("t2")
        room = room.killed()
        assert room.moves_said(room.connected()) == []  # carried out: not told again
        room.hub.stop()


def test_a_day_ended_by_a_hands_end_says_where_each_player_bagged() -> None:
    """The structure's day-end break ends the day at the last hand's end, whose batch has not every player's
    seat before it (`FloorService.hand_ended`): the draw's moves say where each player sat all the same (his
    bag's table and seat), not "a new seat"."""
    import random

    from hub.floor.moves import move_instructions
    from hub.tournament.events import DayEnded
    from hub.tournament.structure import pouques_2020
    from hub.tournament.tournament import Tournament

    t = Tournament(name="T", ruleset="cdc-2013", structure=pouques_2020(), now=0.0, rng=random.Random(3))
    for name in (f"p{i:02d}" for i in range(1, 21)):
        t.register(name, 0.0)
    t.draw_seats(0.0, tables=2)
    t.start(0.0)
    events = t.end_day(10.0)
    [ended] = [e for e in events if isinstance(e, DayEnded)]
    bagged = {name: (f"t{table}", seat) for name, table, seat, _, _ in ended.bags}
    moves = move_instructions(events, {})
    assert moves and all((m.from_table, m.from_seat) == bagged[m.player] for m in moves)


def test_a_move_ordered_by_another_tables_hand_end_is_said_to_the_table_the_player_leaves(tmp_path: Path) -> None:
    """Three players at t2 asked out during its hand: at that hand's end t2 holds 7 against t1's 10, and a
    player of t1 goes over (cdc-2013 3.3). t1's dealer sends him: the move is said on t1's stream (its page's
    log, its LEDs' table), not on t2's whose hand ended; once, as it went out with the hand's end's turn."""
    with EventStore(db(tmp_path)) as store:
        started_floor(store, 20, tables=2)
        room = Room(store)
        floor = room.tables.floor
        room.press("t2")
        for player in sorted(floor.require().state.tables[2].seats.values())[:3]:
            assert room.command(cmd="eliminate", player=player)["moves"] == []  # out when t2's hand ends
        said: list[dict[str, Any]] = []
        while room.tables.game("t2").in_hand:  # type: ignore[union-attr]
            said += room.moves_said(room.send(room.fold("t2")))
        [event] = said
        assert event["table"] == "t1" and [(m["from_table"], m["to_table"], m["reason"]) for m in event["moves"]] == [
            ("t1", "t2", "balance")], said
        assert [topic for topic, _ in room.published_moves()] == [wire.hub_table_events("t1")]
        assert event["hand"] == 0  # t1 has dealt no hand yet: the hand it is told between
        room.hub.stop()
