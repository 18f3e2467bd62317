"""A room that lost its hub, its broker or its disk in the middle of hands (issue #27): a hand whose dealer
gave it up gets the rulebook's ruling and the next hand deals; the TD's cancel is played store-first and
held while the store cannot write; the game and the floor never apart after a failed COMMIT; a table
that comes back is sent its hand's commands again."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from service_helpers import db, started_floor, tables_state

from hub.edge.service import HubService
from hub.floor.commands import TOURNAMENT_CMD, TOURNAMENT_RESULT
from hub.floor.service import FloorService
from hub.floor.store import EventStore, StoreError
from hub.floor.tables import FloorTables
from hub.room.game import Output
from tablewire import wire
from tablewire.mqtt import Message
from tests.hub.fake_link import RecordingLink
from tests.support import wait_until


class Table:
    """One tournament table's facts, numbered as its agent numbers them."""

    def __init__(self, tables: FloorTables, table: str = "t1", boot: str = "b1") -> None:
        self.tables, self.table, self.boot, self.seq = tables, table, boot, 0
        self.uids: dict[str, str] = {}

    def send(self, event: wire.AnyTableEvent) -> Output:
        out = self.tables.receive(self.table, event, wire.encode(event), float(event.seq))
        assert out is not None
        return out

    def head(self) -> dict[str, object]:
        self.seq += 1
        return {"table": self.table, "boot": self.boot, "seq": self.seq, "at": float(self.seq)}

    def event(self, kind: str, **fields: object) -> wire.AnyTableEvent:
        if kind == "press":
            return wire.DealerPressed(**self.head(), button="new_hand", seat=None)
        if kind == "act":
            return wire.SeatActed(**self.head(), to=None, **fields)
        face, zone = str(fields["card"]), str(fields["zone"])
        uid = self.uids.setdefault(face, f"{len(self.uids) + 1:08X}")
        return wire.CardEvent(**self.head(), type=kind, zone=zone, uid=uid, card=face,
                              deck=wire.table_deck_ids(self.table)[0], order=self.seq)

    def press(self) -> Output:
        return self.send(self.event("press"))

    def deal(self, context: wire.HandContextCmd) -> dict[int, list[str]]:
        """Two cards to every seat dealt in, in order."""
        faces = iter(f"{r}{s}" for s in "shdc" for r in "23456789TJQKA")
        order = context.seats[context.seats.index(context.first_to_deal):] + \
            context.seats[:context.seats.index(context.first_to_deal)]
        hole: dict[int, list[str]] = {}
        for _ in range(2):
            for seat in order:
                face = next(faces)
                hole.setdefault(seat, []).append(face)
                self.send(self.event("card_arrived", card=face, zone=f"seat:{seat}"))
        return hole

    def clear(self, hole: dict[int, list[str]]) -> None:
        for seat, faces in hole.items():
            for face in faces:
                self.send(self.event("card_left", card=face, zone=f"seat:{seat}"))


def context(out: Output) -> wire.HandContextCmd:
    return next(c for c in out.commands if isinstance(c, wire.HandContextCmd))


def betting(out: Output) -> wire.BettingCmd:
    return [c for c in out.commands if isinstance(c, wire.BettingCmd)][-1]


def types(out: Output) -> list[str]:
    return [e["type"] for e in out.events]


@pytest.mark.parametrize(("ruleset", "article"), [
    ("cdc-2013", "cdc-2013 8.6"),
    ("brest-2011", "cdc-2013 8.6 (brest-2011 silent)"),
    ("pouques-2020", "cdc-2013 8.6 (pouques-2020 silent)"),
    ("pcpm", "cdc-2013 8.6 (pcpm silent)"),
    ("cpt87", "cdc-2013 8.6 (cpt87 silent)"),
])
def test_a_hand_whose_felt_was_cleared_is_cancelled_bets_returned_and_the_next_deals(
        tmp_path: Path, ruleset: str, article: str) -> None:
    """The croupier gave the hand up (the hub silent) and cleared the felt, then pressed "new hand": no
    board and no hand is discernible, the hand is cancelled with every bet returned (cdc 8.6, which the
    other rulebooks leave to cdc), dealt again from the same button; a rebuilt hub agrees."""
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 12, ruleset=ruleset, tables=2)
        tables = FloorTables(floor, store)
        t = Table(tables)
        before = dict(floor.players_for_hand("t1"))
        first = t.press()
        ctx = context(first)
        hole = t.deal(ctx)
        called = t.send(t.event("act", seat=betting(first).to_act, action="call"))
        assert "action" in types(called)
        t.clear(hole)
        out = t.press()
        assert types(out)[:3] == ["ruling", "hand_end", "hand_start"], types(out)
        ruling, end, start = out.events[:3]
        assert (ruling["kind"], ruling["decision"], ruling["article"]) == (
            "board_removed", "hand_cancelled_bets_returned", article)
        assert "8.6" in ruling["text"] and "8.6" in ruling["text_en"]
        assert end["result"] == "cancelled" and {int(s): v for s, v in end["stacks"].items()} == before
        assert (start["hand"], start["button"]) == (2, ctx.button)  # dealt again (cdc 6.3)
        assert floor.in_hand("t1") == 2
        assert tables_state(FloorTables.open(FloorService.open(store), store)) == tables_state(tables)


def test_a_second_press_with_cards_still_on_the_felt_is_refused(tmp_path: Path) -> None:
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 12, tables=2)
        t = Table(FloorTables(floor, store))
        t.deal(context(t.press()))
        assert types(t.press()) == ["hand_refused"]
        assert floor.in_hand("t1") == 1


def test_presses_queued_before_any_card_deal_the_hand_again(tmp_path: Path) -> None:
    """"New hand" pressed again before any card of the hand was dealt (the presses a croupier queued while
    the hub was away, a context lost with the broker): nothing is ruled, the blinds go back and the hand
    is dealt again from the same button; a rebuilt hub agrees."""
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 12, tables=2)
        tables = FloorTables(floor, store)
        t = Table(tables)
        before = dict(floor.players_for_hand("t1"))
        first = context(t.press())
        out = t.press()
        assert types(out)[:2] == ["hand_end", "hand_start"]
        assert {int(s): v for s, v in out.events[0]["stacks"].items()} == before
        assert (context(out).hand, context(out).button) == (2, first.button)
        assert context(t.press()).hand == 3 and floor.in_hand("t1") == 3
        assert tables_state(FloorTables.open(FloorService.open(store), store)) == tables_state(tables)


def test_an_agent_that_restarted_with_an_empty_felt_gets_its_hand_given_up(tmp_path: Path) -> None:
    """A table restarted while the hub was down: its agent reports the felt afresh (nothing on it),
    its dealer presses "new hand": the hand of the dead run is given up (cdc 8.6) and the next deals."""
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 12, tables=2)
        tables = FloorTables(floor, store)
        t = Table(tables)
        t.deal(context(t.press()))
        again = Table(tables, boot="b2")
        again.uids = t.uids
        out = again.press()
        assert types(out)[:3] == ["ruling", "hand_end", "hand_start"]
        assert floor.in_hand("t1") == 2
        assert tables_state(FloorTables.open(FloorService.open(store), store)) == tables_state(tables)


def test_an_agent_that_restarted_with_the_hand_on_the_felt_goes_on(tmp_path: Path) -> None:
    """A table restarted mid-hand with its cards still on the felt: its agent reports them again, each
    is counted once where it lies, and the hand goes on ("new hand" refused: the felt is not cleared)."""
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 12, tables=2)
        tables = FloorTables(floor, store)
        t = Table(tables)
        hole = t.deal(context(t.press()))
        again = Table(tables, boot="b2")
        again.uids = t.uids
        for seat, faces in hole.items():
            for face in faces:
                again.send(again.event("card_arrived", card=face, zone=f"seat:{seat}"))
        game = tables.game("t1")
        assert game is not None and game.hole == hole
        assert types(again.press()) == ["hand_refused"] and floor.in_hand("t1") == 1


class CommitFails(EventStore):
    """A store whose COMMIT fails while `full` (SQLite on a full disk), reads going on."""

    full = False
    _wrote = False

    def _exec(self, sql: str, params: tuple[object, ...] = ()) -> sqlite3.Cursor:
        verb = sql.strip().split(None, 1)[0].upper()
        if verb in ("INSERT", "UPDATE", "DELETE", "REPLACE"):
            self._wrote = True
        elif verb in ("COMMIT", "ROLLBACK"):
            wrote, self._wrote = self._wrote, False
            if verb == "COMMIT" and self.full and wrote:
                raise StoreError(f"the event store {self.path} failed: database or disk is full")
        return super()._exec(sql, params)


class FullForTheFloor(EventStore):
    """The table event goes in; what the floor stores because of it (a hand's end) does not."""

    full = False

    def _exec(self, sql: str, params: tuple[object, ...] = ()) -> sqlite3.Cursor:
        if self.full and "tournament_event" in sql and sql.lstrip().upper().startswith("INSERT"):
            raise StoreError(f"the event store {self.path} failed: database or disk is full")
        return super()._exec(sql, params)


def test_a_hand_end_the_store_refused_leaves_game_and_floor_together(tmp_path: Path) -> None:
    """The last fold is stored and ends the hand; the floor cannot store the hand's end: the game is
    rebuilt as stored (the hand in progress, as for the floor), and the hub's retry of the same fold
    ends it in both."""
    with FullForTheFloor(db(tmp_path)) as store:
        floor = started_floor(store, 12, tables=2)
        tables = FloorTables(floor, store)
        t = Table(tables)
        out = t.press()
        t.deal(context(out))
        while True:
            fold = t.event("act", seat=betting(out).to_act, action="fold")
            game = tables.game("t1")
            assert game is not None and game.hand is not None
            if len(game.hand.live) == 2:
                break
            out = t.send(fold)
        store.full = True
        with pytest.raises(StoreError):
            tables.receive("t1", fold, wire.encode(fold), float(fold.seq))
        game = tables.game("t1")
        assert game is not None and game.in_hand and floor.in_hand("t1") == 1
        store.full = False
        retried = tables.receive("t1", fold, wire.encode(fold), float(fold.seq))  # the hub's retry
        assert retried is not None and "hand_end" in types(retried)
        assert floor.in_hand("t1") is None
        assert "hand_start" in types(t.press())
        assert tables_state(FloorTables.open(FloorService.open(store), store)) == tables_state(tables)


def _hub(tmp_path: Path, ruleset: str = "cdc-2013") -> tuple[CommitFails, FloorTables, HubService, RecordingLink]:
    store = CommitFails(db(tmp_path))
    started_floor(store, 12, tables=2, ruleset=ruleset)
    link = RecordingLink()
    tables = FloorTables.open(FloorService.open(store, link=link), store)  # type: ignore[arg-type]
    hub = HubService(link=link, tick=0.05, floor_tables=tables, wall=lambda: 5.0)  # type: ignore[arg-type]
    hub.start()
    return store, tables, hub, link


def _send(link: RecordingLink, event: wire.AnyTableEvent) -> None:
    link.handlers[wire.ALL_TABLE_EVENTS](Message(wire.table_events(event.table), wire.encode(event), False))


def _results(link: RecordingLink) -> list[dict[str, object]]:
    return [json.loads(p) for topic, p, _, _ in list(link.published) if topic == TOURNAMENT_RESULT]


def test_a_cancel_sent_while_the_store_cannot_write_is_played_once_it_can(tmp_path: Path) -> None:
    """`tapis tournament cancel-hand` while the disk is full: not answered "ok", not dropped: held, the
    game and the floor still in the hand; once the store writes it is played once, answered with the
    ruling, and the next "new hand" deals."""
    store, tables, hub, link = _hub(tmp_path)
    try:
        t = Table(tables)
        _send(link, t.event("press"))
        assert hub.settle() and tables.floor.in_hand("t1") == 1
        store.full = True
        link.handlers[TOURNAMENT_CMD](Message(TOURNAMENT_CMD, json.dumps(
            {"cmd": "cancel_hand", "table": "t1", "by": "alice", "id": "c1"}).encode(), False))
        assert wait_until(lambda: tables.floor.held == 1)
        assert hub.settle() and hub.tick(5.0)
        # read as the dashboard reads it, under the floor's lock: the hub retries the held cancel every
        # 0.2 s and, each time the COMMIT fails, rebuilds the table's game from the store
        with hub.floor_lock:
            game = tables.game("t1")
            assert game is not None and game.in_hand and tables.floor.in_hand("t1") == 1
        held = [r for r in _results(link) if r["id"] == "c1"]  # said not stored yet, never "ok"
        assert len(held) == 1 and not held[0]["ok"] and held[0]["data"] == {"held": True, "table": "t1", "hand": 1}
        assert "pas encore enregistré" in str(held[0]["error_fr"]) and "not stored yet" in str(held[0]["error_en"])
        store.full = False
        assert wait_until(lambda: len([r for r in _results(link) if r["id"] == "c1"]) == 2)
        answer = [r for r in _results(link) if r["id"] == "c1"][1]
        assert answer["ok"] and answer["data"]["article"] == "cdc-2013 6.4", answer  # type: ignore[index]
        with hub.floor_lock:
            game = tables.game("t1")  # the game of the last rebuild, which played the cancel
            assert tables.floor.in_hand("t1") is None and game is not None and not game.in_hand
        events = [json.loads(p) for topic, p, _, _ in list(link.published) if topic == wire.hub_table_events("t1")]
        assert [e["kind"] for e in events if e["type"] == "ruling"] == ["td_cancel"]  # played once
        _send(link, t.event("press"))
        assert hub.settle() and tables.floor.in_hand("t1") == 2
    finally:
        hub.stop()
        store.close()


def test_a_table_back_online_is_sent_its_hand_again(tmp_path: Path) -> None:
    """A clean MQTT session loses the commands sent while the table was away: when it says it is online
    again (or resends an event the hub has) it is sent the betting state again, and the context while no
    card was dealt."""
    store, tables, hub, link = _hub(tmp_path)
    try:
        t = Table(tables)
        press = t.event("press")
        _send(link, press)
        assert hub.settle()

        def sent() -> list[wire.AnyCommand]:
            return [wire.decode_command(topic, p) for topic, p, _, _ in list(link.published)
                    if topic == wire.table_commands("t1")]
        first = sent()
        assert [type(c).__name__ for c in first] == ["HandContextCmd", "BettingCmd"]
        link.handlers[wire.ALL_TABLE_STATUS](Message(wire.table_status("t1"), wire.ONLINE, True))
        assert hub.settle() and sent()[len(first):] == first  # the same context and betting, again
        card = t.event("card_arrived", card="As", zone="seat:1")
        _send(link, card)
        assert hub.settle()
        done = len(sent())
        _send(link, card)  # resent: the hub has it
        assert hub.settle()
        again = sent()[done:]
        assert [type(c).__name__ for c in again] == ["BettingCmd"] and again[0] == first[1]
    finally:
        hub.stop()
        store.close()


def test_a_decision_sent_while_the_store_cannot_write_is_played_once_it_can(tmp_path: Path) -> None:
    """`tapis tournament decide` while the disk is full (cpt87 6.3, two boxed cards: the TD's call): held,
    the table still waiting for him, then played once the store writes, as a cancel is."""
    store, tables, hub, link = _hub(tmp_path, "cpt87")
    try:
        t = Table(tables)
        _send(link, t.event("press"))
        for n, card in ((1, "5h"), (2, "9c")):
            _send(link, wire.FaultSeen(**t.head(), hand=1, kind="boxed_card", seat=None,
                                       cards=[card], details={"during_deal": False, "boxed_in_deal": 0,
                                                             "boxed_after_deal": n}))
        assert hub.settle()
        game = tables.game("t1")
        assert game is not None and game.waiting_td
        store.full = True
        link.handlers[TOURNAMENT_CMD](Message(TOURNAMENT_CMD, json.dumps(
            {"cmd": "decide", "table": "t1", "option": "set_aside", "id": "d1"}).encode(), False))
        assert wait_until(lambda: tables.floor.held == 1)
        assert hub.settle() and hub.tick(5.0)
        with hub.floor_lock:  # rebuilt from the store after each failed COMMIT, on the hub's thread
            game = tables.game("t1")
            assert game is not None and game.waiting_td
        assert [r["ok"] for r in _results(link) if r["id"] == "d1"] == [False]
        store.full = False
        assert wait_until(lambda: len([r for r in _results(link) if r["id"] == "d1"]) == 2)
        assert [r for r in _results(link) if r["id"] == "d1"][1]["ok"]
        with hub.floor_lock:
            game = tables.game("t1")
            assert game is not None and not game.waiting_td and game.in_hand
        assert tables_state(FloorTables.open(FloorService.open(store), store)) == tables_state(tables)
    finally:
        hub.stop()
        store.close()
