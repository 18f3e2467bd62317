"""A td_decision the hub can no longer apply (issue #14, point 5): its hand is over, or the hub refused
the TD's choice (`decision_refused`). It loses its "Décider" buttons and is never shown as decided: the
page shows it as not applied, with the reason in French and English."""

from __future__ import annotations

import pytest

from hub.dashboard import Dashboard
from hub.dashboard.model import BadDecision, Role, RoomModel
from tests.dashboard.helpers import ScriptedRoom, SseClient
from tests.dashboard.test_http import deal_hole_cards, login, request
from tests.dashboard.test_model import CPT87_BOXED


def test_a_hand_that_ends_retires_its_pending_decision() -> None:
    model = RoomModel()
    fault = model.apply(CPT87_BOXED, None, 1.0)
    assert fault is not None and fault.needs_decision
    assert model.retire({"type": "hand_end", "table": "t2", "hand": 1}) == []  # another table's hand
    assert model.retire({"type": "hand_end", "table": "t1", "hand": 1}) == [fault]
    shown = fault.to_dict(Role.TD)
    assert (shown["needs_decision"], shown["decision"]) == (False, None)
    assert shown["open"]  # still to be seen ("Vu") by the TD, as any fault
    assert "donne terminée" in shown["refused"]["fr"] and "hand is over" in shown["refused"]["en"]
    with pytest.raises(BadDecision, match="hand is over"):
        model.decide(fault.id, "set_aside", "alice", 2.0)


def test_a_refused_decision_is_not_shown_as_decided() -> None:
    model = RoomModel()
    fault = model.apply(CPT87_BOXED, None, 1.0)
    assert fault is not None
    model.decide(fault.id, "set_aside", "alice", 2.0)
    refused = {"type": "decision_refused", "table": "t1", "hand": 1, "kind": "boxed_card", "option": "set_aside",
               "reason": "no decision pending for the TD in this hand"}
    assert model.retire(refused) == [fault]
    shown = fault.to_dict(Role.VIEWER)
    assert shown["decision"] is None and shown["needs_decision"] is False
    assert shown["refused"] == {"fr": "refusée par le hub : aucune décision en attente dans cette donne",
                                "en": "refused by the hub: no decision pending for the TD in this hand"}


def test_the_page_hears_that_a_decision_was_refused_or_its_hand_ended(room: ScriptedRoom,
                                                                       dashboard: Dashboard) -> None:
    dashboard.on_decision = lambda d: room.hub.decide(d.table, d.kind, d.option, d.by)
    cookie, csrf = login(dashboard)
    viewer = SseClient(dashboard.url)
    try:
        deal_hole_cards(room)
        room.fault("t1", 1, "boxed_card", seat=2, cards=["As"], boxed_in_deal=2, during_deal=True)
        room.settle()
        first = viewer.wait_for(lambda n, d: n == "fault" and d["needs_decision"])
        room.hub.decide("t1", "boxed_card", "set_aside", "bob")  # another TD's screen decided it first
        room.settle()
        status, _, _ = request(dashboard, "POST", "/api/td/decide", {"fault": first["id"], "option": "set_aside"},
                               cookie=cookie, csrf=csrf)
        assert status == 200  # taken by the page, then refused by the hub
        refused = viewer.wait_for(lambda n, d: n == "fault" and d["id"] == first["id"] and d["refused"])
        assert refused["decision"] is None and not refused["needs_decision"]
        assert "refusée" in refused["refused"]["fr"] and "refused" in refused["refused"]["en"]

        room.fault("t1", 1, "boxed_card", seat=3, cards=["Kd"], boxed_in_deal=3, during_deal=True)
        room.settle()
        second = viewer.wait_for(lambda n, d: n == "fault" and d["id"] != first["id"] and d["needs_decision"])
        room.new_hand("t1")  # the hand is over: the decision has nothing left to apply to
        room.settle()
        stale = viewer.wait_for(lambda n, d: n == "fault" and d["id"] == second["id"] and d["refused"])
        assert not stale["needs_decision"] and "hand is over" in stale["refused"]["en"]
        status, body, _ = request(dashboard, "POST", "/api/td/decide", {"fault": second["id"], "option": "set_aside"},
                                  cookie=cookie, csrf=csrf)
        assert status == 409 and "hand is over" in body["error"]
    finally:
        viewer.close()
