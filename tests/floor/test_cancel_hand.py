"""A blocked table can be unblocked (issue #14, point 6): the TD cancels the hand in progress ("annuler
la donne") with `tapis tournament cancel-hand` or the dashboard; the chips go as the ruleset's cancelled
hand says, its article cited in the ruling; a rebuilt hub cancels it again at the same point."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from service_helpers import db, started_floor, tables_state

from hub.floor.service import FloorService
from hub.floor.store import JSON, EventStore
from hub.floor.tables import FloorTables
from hub.floor.td import td_main
from hub.room.game import TableGame, TableSetup
from hub.room.hand_cancel import cancel_ruling
from hub.rules import Level
from tablewire import wire


@pytest.mark.parametrize(("ruleset", "article", "decision"), [
    ("cdc-2013", "cdc-2013 6.4", "hand_cancelled_bets_returned"),
    ("pouques-2020", "cdc-2013 6.4 (pouques-2020 silent)", "hand_cancelled_bets_returned"),
    ("pcpm", "cdc-2013 6.4 (pcpm silent)", "hand_cancelled_bets_returned"),
    ("brest-2011", "brest-2011 III.11", "hand_cancelled_pot_split"),
    ("cpt87", "cpt87 6.4", "hand_cancelled_pot_split"),
])
def test_the_td_cancel_cites_the_rulesets_cancelled_hand(ruleset: str, article: str, decision: str) -> None:
    stacks = {1: 10_000, 2: 10_000, 3: 10_000}
    game = TableGame("t1", TableSetup(players=stacks, button=1, level=Level(50, 100), ruleset=ruleset, seats=9))
    game.new_hand(0.0)
    assert game.hand is not None and game.hand.pot > 0  # the blinds are in
    out = game.cancel("alice")
    ruling = next(e for e in out.events if e["type"] == "ruling")
    assert (ruling["kind"], ruling["decision"], ruling["article"], ruling["by"]) == ("td_cancel", decision, article,
                                                                                    "alice")
    assert article in ruling["text"] and "annulée" in ruling["text"] and "cancelled" in ruling["text_en"]
    end = next(e for e in out.events if e["type"] == "hand_end")
    assert end["result"] == "cancelled"
    # Pre-flop no round is finished: whether bets go back or the pot of finished rounds is shared,
    # every player has what he had before the hand.
    assert {int(s): v for s, v in end["stacks"].items()} == stacks
    assert any(isinstance(c, wire.HandOverCmd) for c in out.commands) and not game.in_hand
    assert [e["type"] for e in game.cancel("alice").events] == ["cancel_refused"]


def _press(seq: int) -> wire.DealerPressed:
    return wire.DealerPressed(table="t1", boot="b1", seq=seq, at=float(seq), button="new_hand", seat=None)


def test_a_blocked_table_is_unblocked_and_a_rebuilt_hub_agrees(tmp_path: Path) -> None:
    path = db(tmp_path)
    with EventStore(path) as store:
        floor = started_floor(store, 12, tables=2)
        tables = FloorTables(floor, store)
        before = dict(floor.players_for_hand("t1"))
        tables.receive("t1", _press(1), wire.encode(_press(1)), 1.0)
        card = wire.CardEvent(table="t1", boot="b1", seq=2, at=2.0, type="card_arrived", zone="seat:2",
                              uid="0A0B", card="As", deck=wire.table_deck_ids("t1")[0], order=1)
        tables.receive("t1", card, wire.encode(card), 2.0)  # dealt: the hand's cards lie on the felt
        # "new hand" again: "the hand in progress has not ended", forever
        out = tables.receive("t1", _press(3), wire.encode(_press(3)), 3.0)
        assert out is not None and out.events[0]["type"] == "hand_refused"
        out = tables.cancel_hand("t1", "alice", 3.5)
        assert [e["type"] for e in out.events][:2] == ["ruling", "hand_end"]
        assert floor.in_hand("t1") is None and floor.players_for_hand("t1") == before
        cancelled = tables_state(tables)
        assert tables_state(FloorTables.open(FloorService.open(store), store)) == cancelled  # killed here
        out = tables.receive("t1", _press(4), wire.encode(_press(4)), 4.0)
        assert out is not None and any(e["type"] == "hand_start" for e in out.events)
        straight = tables_state(tables)
        assert straight["t1"]["hand_no"] == 2 and straight["t1"]["in_hand"]
    with EventStore(path) as store:
        rebuilt = FloorTables.open(FloorService.open(store), store)
        assert tables_state(rebuilt) == straight


def test_the_floor_command_needs_a_hand_and_the_hub(tmp_path: Path) -> None:
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 12, tables=2)
        tables = FloorTables(floor, store)
        refused = floor.execute({"cmd": "cancel_hand", "table": "t1"}, 1.0)
        assert not refused.ok and "no hand in progress" in str(refused.error) and "pas de donne" in str(refused.error)
        tables.receive("t1", _press(1), wire.encode(_press(1)), 1.0)
        alone = floor.execute({"cmd": "cancel_hand", "table": "t1"}, 2.0)
        assert not alone.ok and "--broker" in str(alone.error)
        asked: list[tuple[str, str, int]] = []

        def cancel(table: str, by: str, hand: int) -> dict[str, JSON]:
            asked.append((table, by, hand))
            return dict(cancel_ruling("cdc-2013").to_dict())
        floor.on_cancel_hand = cancel
        result = floor.execute({"cmd": "cancel_hand", "table": "t1", "by": "alice"}, 3.0)
        assert result.ok and asked == [("t1", "alice", 1)]
        assert (result.data["hand"], result.data["article"]) == (1, "cdc-2013 6.4")


def test_tapis_tournament_cancel_hand(tmp_path: Path) -> None:
    path = db(tmp_path)
    with EventStore(path) as store:
        started_floor(store, 12, tables=2)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = td_main(["cancel-hand", "1", "--db", path])
    assert status == 2 and "tapis tournament cancel-hand:" in err.getvalue() and "no hand in progress at Table 1" \
        in err.getvalue()
