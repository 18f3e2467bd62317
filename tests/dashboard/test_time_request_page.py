"""A cpt87 Time request on the TD's room page: a decision to take (grant or refuse) that does not block the
table, and that leaves the TD's list when the player acts before he comes."""

from __future__ import annotations

from hub.dashboard.model import Role, RoomModel, capture
from hub.room.game import TableGame, TableSetup
from hub.room.tables import TableView
from hub.rules import Level


def _requested() -> tuple[TableView, TableGame, dict[str, object]]:
    game = TableGame("t1", TableSetup(players={1: 20_000, 2: 20_000, 3: 20_000}, button=1, level=Level(50, 100),
                                      ruleset="cpt87", seats=9))
    game.new_hand(0.0)
    assert game.hand is not None and game.hand.to_act == 1
    [asked] = [e for e in game.dealer("time", 1, 5.0).events if e["type"] == "fault"]
    return TableView("t1", online=True, managed=True), game, asked


def test_a_time_request_asks_the_td_without_blocking_the_table() -> None:
    view, game, asked = _requested()
    model = RoomModel()
    fault = model.apply(asked, capture(view, game), 1.0)
    assert fault is not None and fault.needs_decision
    shown = fault.to_dict(Role.TD)
    assert (shown["kind"], shown["options"]) == ("time_request", ["grant_time", "refuse_time"])
    assert model.tables["t1"]["pending_td"] == 0  # not "waiting for the TD's decision": play goes on


def test_a_request_the_player_answered_leaves_the_tds_list() -> None:
    view, game, asked = _requested()
    model = RoomModel()
    fault = model.apply(asked, capture(view, game), 1.0)
    assert fault is not None
    [lapsed] = [e for e in game.action(1, "call", None).events if e["type"] == "time_request_lapsed"]
    assert model.retire({**lapsed, "table": "t2"}) == []  # another table's
    assert model.retire(lapsed) == [fault]
    shown = fault.to_dict(Role.TD)
    assert not shown["needs_decision"] and shown["decision"] is None
    assert "caduque" in shown["refused"]["fr"] and "lapsed" in shown["refused"]["en"]
