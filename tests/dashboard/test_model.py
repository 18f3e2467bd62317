"""The dashboard's pure room model: what a TD and a viewer are given, faults acknowledged and decided."""

from __future__ import annotations

import pytest

from hub.dashboard.model import BadDecision, Role, RoomModel, UnknownFault, capture, for_viewer, viewer_event
from hub.room.game import TableGame, TableSetup
from hub.room.tables import TableView
from hub.rules import Level

# cpt87 6.3: two boxed cards in a hand are the TD's decision, between these two remedies.
CPT87_BOXED = {"type": "fault", "table": "t1", "hand": 1, "kind": "boxed_card", "seat": 2, "cards": ["As"],
               "ruling": {"decision": "td_decision", "article": "cpt87 6.3", "seat": 2, "cards": ["As"],
                          "options": ["set_aside", "hand_cancelled_pot_split"],
                          "text": "Feuille morte — main 1 — siège 2 — As — cpt87 6.3"}}


def _game_with_hole_cards() -> tuple[TableView, TableGame]:
    game = TableGame("t1", TableSetup(players={1: 20_000, 2: 20_000, 3: 20_000}, button=1, level=Level(50, 100),
                                      ruleset="cdc-2013", seats=9))
    game.new_hand(0.0)
    game.hole = {2: ["As", "Ah"], 3: ["Kd", "Kc"], 1: ["7c"]}
    view = TableView("t1", online=True, managed=True)
    view.zones = {"seat:2": {"01": "As", "02": "Ah"}, "seat:3": {"03": "Kd", "04": "Kc"}, "seat:1": {"05": "7c"}}
    return view, game


def test_capture_reads_the_engine_blinds_and_turn() -> None:
    view, game = _game_with_hole_cards()
    snap = capture(view, game)
    # Button 1: small blind seat 2 (50), big blind seat 3 (100); the button speaks first pre-flop.
    seats = {s["seat"]: s for s in snap["seats"]}
    assert (seats[2]["bet"], seats[3]["bet"], seats[1]["bet"]) == (50, 100, 0)
    assert (seats[2]["stack"], seats[3]["stack"]) == (19_950, 19_900)
    assert snap["to_act"] == 1 and snap["pot"] == 150 and snap["button"] == 1 and snap["street"] == "preflop"
    assert seats[2]["hole"] == ["As", "Ah"] and snap["zones"]["seat:3"] == ["Kd", "Kc"]


def test_a_player_seated_during_the_hand_shows_his_chips_and_waits_not_folded_with_0() -> None:
    """A move into a table mid-hand seats him at once (the floor): the room showed « joueur05 · 0 · couché »
    until the next hand, beside 2,625 chips in the players' list."""
    view, game = _game_with_hole_cards()
    seats = {s["seat"]: s for s in capture(view, game, {1: ("Ada", 19_900), 2: ("Bob", 20_000),
                                                         3: ("Cy", 20_000), 7: ("Joueur 5", 2_625)})["seats"]}
    assert (seats[7]["player"], seats[7]["stack"], seats[7]["waiting"], seats[7]["live"]) == ("Joueur 5", 2_625, True,
                                                                                              False)
    assert not seats[2]["waiting"] and seats[2]["stack"] == 19_950  # dealt in: the hand's stack


def test_a_seat_the_dealer_marked_away_shows_away_until_he_is_back() -> None:
    """The room page marks the seat the dealer pressed away (`TableGame.away`), from hand to hand, until "back"."""
    view, game = _game_with_hole_cards()
    game.dealer("away", 3, 1.0)
    seats = {s["seat"]: s for s in capture(view, game)["seats"]}
    assert seats[3]["away"] and not seats[1]["away"] and not seats[2]["away"]
    game.dealer("back", 3, 2.0)
    assert not any(s["away"] for s in capture(view, game)["seats"])


def test_viewer_snapshot_has_counts_not_faces() -> None:
    view, game = _game_with_hole_cards()
    snap = for_viewer(capture(view, game))
    assert snap["zones"] == {"seat:2": 2, "seat:3": 2, "seat:1": 1}
    assert [s.get("hole") for s in snap["seats"]] == [None, None, None]
    assert [s["hole_count"] for s in snap["seats"]] == [1, 2, 2]
    for face in ("As", "Ah", "Kd", "Kc", "7c"):
        assert face not in repr(snap)


def test_viewer_events_hide_seat_cards_and_fault_cards_even_in_the_text() -> None:
    card = {"type": "card", "table": "t1", "hand": 1, "zone": "seat:2", "card": "As", "action": "arrived"}
    board = {"type": "card", "table": "t1", "hand": 1, "zone": "board", "card": "9h", "action": "arrived"}
    assert viewer_event(card)["card"] is None
    assert viewer_event(board)["card"] == "9h"  # the board is public
    fault = viewer_event(CPT87_BOXED)
    assert fault["cards"] == [] and fault["ruling"]["cards"] == []
    assert fault["ruling"]["text"] == "Feuille morte — main 1 — siège 2 — ?? — cpt87 6.3"
    assert fault["ruling"]["options"] == ["set_aside", "hand_cancelled_pot_split"]
    assert CPT87_BOXED["cards"] == ["As"]  # the TD's copy is untouched


def test_fault_opened_acknowledged_once() -> None:
    model = RoomModel()
    fault = model.apply({**CPT87_BOXED, "ruling": {"decision": "misdeal", "article": "cdc-2013 8.1"}}, None, 10.0)
    assert fault is not None and fault.open and not fault.needs_decision
    model.acknowledge(fault.id, "alice", 11.0)
    model.acknowledge(fault.id, "bob", 12.0)
    assert (fault.acked_by, fault.acked_at, fault.open) == ("alice", 11.0, False)
    with pytest.raises(UnknownFault):
        model.acknowledge("f999", "alice", 13.0)


def test_td_decision_needs_one_of_its_options() -> None:
    model = RoomModel()
    fault = model.apply(CPT87_BOXED, None, 10.0)
    assert fault is not None and fault.needs_decision
    model.acknowledge(fault.id, "alice", 11.0)
    assert fault.open  # seen, but still waiting for the TD's choice
    with pytest.raises(BadDecision, match="not an option"):
        model.decide(fault.id, "misdeal", "alice", 12.0)
    taken = model.decide(fault.id, "set_aside", "alice", 12.0)
    assert taken.to_dict() == {"type": "td_decided", "fault": fault.id, "table": "t1", "hand": 1,
                               "kind": "boxed_card", "option": "set_aside", "by": "alice", "at": 12.0}
    assert not fault.open
    with pytest.raises(BadDecision, match="already decided"):
        model.decide(fault.id, "set_aside", "alice", 13.0)


def test_room_for_a_viewer_hides_fault_cards() -> None:
    model = RoomModel()
    model.apply(CPT87_BOXED, None, 10.0)
    assert model.room(Role.VIEWER)["faults"][0]["cards"] == []
    assert model.room(Role.TD)["faults"][0]["cards"] == ["As"]


def test_closed_faults_dropped_first_past_the_limit() -> None:
    from hub.dashboard import model as m

    room = RoomModel()
    first = room.apply(CPT87_BOXED, None, 0.0)
    assert first is not None
    closed = room.apply({**CPT87_BOXED, "ruling": {"decision": "misdeal"}}, None, 1.0)
    assert closed is not None
    room.acknowledge(closed.id, "alice", 1.0)
    for i in range(m.MAX_FAULTS - 1):
        room.apply(CPT87_BOXED, None, 2.0 + i)
    assert len(room.faults) == m.MAX_FAULTS
    assert first.id in room.faults and closed.id not in room.faults
