"""`TableView`, the hub's admission of a table's events and the view it publishes, against literal
expected output: every field of every hub event and of the retained state (the dashboard and
`tapis replay` read these names), and the counters of admission (duplicates, gaps, agent restarts).
Written to kill the mutants of hub/room/tables.py that the behaviour tests let through (docs/testing.md)."""

from __future__ import annotations

from hub.room.tables import HubEvent, TableView, public
from tablewire import wire


def _card(seq: int, zone: str, uid: str, face: str | None, kind: str = "card_arrived",
          boot: str = "b1") -> wire.CardEvent:
    return wire.CardEvent(table="t1", boot=boot, seq=seq, at=seq / 2, type=kind,
                          zone=zone, uid=uid, card=face, deck="t1/A", order=10 + seq)


def _feed(view: TableView, event: wire.AnyTableEvent) -> list[HubEvent]:
    out: list[HubEvent] = []
    for ready, _payload in view.admit(event, b"raw"):
        out += view.apply(ready)
    return out


def test_a_hand_on_an_unmanaged_table_event_by_event() -> None:
    view = TableView("t1")
    assert _feed(view, wire.ReaderStatus(table="t1", boot="b1", seq=1, at=0.5, state="lost",
                                         detail="usb")) == [
        {"type": "reader", "table": "t1", "state": "lost", "detail": "usb"}]
    assert (view.reader, view.reader_detail) == ("lost", "usb")
    assert _feed(view, wire.DealerPressed(table="t1", boot="b1", seq=2, at=1.0, button="new_hand")) == [
        {"type": "hand_start", "table": "t1", "hand": 1}]
    assert _feed(view, _card(3, "seat:2", "04A1", "Ah")) == [
        {"type": "card", "table": "t1", "hand": 1, "zone": "seat:2", "card": "Ah", "deck": "t1/A",
         "action": "arrived", "order": 13}]
    assert _feed(view, _card(4, "board", "04A2", None)) == [
        {"type": "card", "table": "t1", "hand": 1, "zone": "board", "card": None, "deck": "t1/A",
         "action": "arrived", "order": 14}]
    assert view.zones == {"seat:2": {"04A1": "Ah"}, "board": {"04A2": "?"}}  # an unknown face is "?"
    assert _feed(view, _card(5, "board", "04A2", None, "card_left")) == [
        {"type": "card", "table": "t1", "hand": 1, "zone": "board", "card": None, "deck": "t1/A",
         "action": "left", "order": 15}]
    assert view.zones == {"seat:2": {"04A1": "Ah"}} and view.hand_open
    assert _feed(view, _card(6, "seat:2", "04A1", "Ah", "card_left")) == [
        {"type": "card", "table": "t1", "hand": 1, "zone": "seat:2", "card": "Ah", "deck": "t1/A",
         "action": "left", "order": 16},
        {"type": "hand_end", "table": "t1", "hand": 1, "why": "felt_cleared"}]
    assert not view.hand_open and view.hands_ended == 1 and view.updated_at == 3.0
    assert _feed(view, wire.DealerPressed(table="t1", boot="b1", seq=7, at=4.0, button="new_hand",
                                          seat=None)) == [{"type": "hand_start", "table": "t1", "hand": 2}]
    assert _feed(view, wire.DealerPressed(table="t1", boot="b1", seq=8, at=4.5, button="new_hand",
                                          seat=None)) == [
        {"type": "hand_end", "table": "t1", "hand": 2, "why": "new_hand"},
        {"type": "hand_start", "table": "t1", "hand": 3}]  # no card yet: the felt never cleared
    assert view.hands_ended == 2
    assert _feed(view, wire.DealerPressed(table="t1", boot="b1", seq=9, at=5.0, button="time",
                                          seat=3)) == []
    assert view.state(hole_cards=False) == {
        "v": 1, "table": "t1", "online": False, "reader": "lost", "hand": 3, "hand_open": True, "zones": {},
        "seq": 9, "gaps": 0, "duplicates": 0}


def test_a_hand_left_open_when_a_card_leaves_a_zone_it_was_never_seen_in() -> None:
    view = TableView("t1")
    _feed(view, wire.DealerPressed(table="t1", boot="b1", seq=1, at=1.0, button="new_hand"))
    assert _feed(view, _card(2, "board", "04A9", "2c", "card_left")) == [
        {"type": "card", "table": "t1", "hand": 1, "zone": "board", "card": "2c", "deck": "t1/A",
         "action": "left", "order": 12}]  # no card has lain on the felt this hand: the hand goes on
    assert view.hand_open and view.zones == {}
    _feed(view, _card(3, "seat:1", "04B1", "3c"))
    _feed(view, _card(4, "board", "04B2", "4c"))
    assert _feed(view, _card(5, "board", "04FF", None, "card_left"))[-1]["type"] == "card"
    assert view.zones == {"seat:1": {"04B1": "3c"}, "board": {"04B2": "4c"}}


def test_admission_duplicates_gaps_and_an_agent_restart() -> None:
    view = TableView("t1")
    assert [e.seq for e, _ in view.admit(_card(1, "seat:1", "04A1", "Ah"))] == [1]
    view.apply(_card(1, "seat:1", "04A1", "Ah"))
    assert view.admit(_card(3, "seat:1", "04A3", "Ad")) == [] and view.gaps == 1
    assert view.admit(_card(3, "seat:1", "04A3", "Ad")) == [] and view.duplicates == 1  # held already
    assert view.admit(_card(1, "seat:1", "04A1", "Ah")) == [] and view.duplicates == 2  # applied already
    assert [e.seq for e, _ in view.admit(_card(2, "seat:1", "04A2", "Ac"))] == [2, 3]
    assert (view.boot, view.last_seq, view.updated_at) == ("b1", 3, 1.5)
    assert view.resyncs == 0
    assert [e.seq for e, _ in view.admit(_card(1, "board", "04B1", "Kh", boot="b2"))] == [1]
    assert view.resyncs == 1 and view.zones == {}  # a new run reports afresh what it sees
    assert (view.boot, view.last_seq) == ("b2", 1)
    assert [e.seq for e, _ in view.admit(_card(2, "board", "04B2", "Kd", boot="b2"))] == [2]
    assert view.resyncs == 1  # seq 2 of the same run is no restart
    assert [e.seq for e, _ in view.admit(_card(1, "board", "04C1", "Qh", boot="b3"))] == [1]
    assert view.resyncs == 2
    fresh = TableView("t2")
    fresh.admit(_card(1, "seat:1", "04A1", "Ah"))
    assert fresh.resyncs == 0  # the first run a hub hears of is no restart


def test_resume_after_an_ack_read_back() -> None:
    view = TableView("t1")
    assert view.admit(_card(5, "seat:1", "04A5", "5h")) == []
    assert view.admit(_card(7, "seat:1", "04A7", "7h")) == []
    assert [e.seq for e, _ in view.resume_after("b1", 4)] == [5]  # 1-4 were stored by the last hub
    assert view.held["b1"] == {7: (_card(7, "seat:1", "04A7", "7h"), b"")}
    assert (view.boot, view.last_seq) == ("b1", 5)
    assert view.resume_after("b1", 5) == []  # an ack for what is already applied changes nothing
    assert [e.seq for e, _ in view.resume_after("b1", 6)] == [7]
    other = TableView("t1")
    other.admit(_card(1, "seat:1", "04A1", "Ah"))
    assert other.resume_after("b1", 1) == [] and other.last_by_boot == {"b1": 1}
    assert other.resume_after("b9", 3) == [] and other.last_by_boot == {"b1": 1, "b9": 3}
    assert other.boot == "b1"  # an ack of another run does not change the run the view follows


def test_online_status_is_said_once_per_change() -> None:
    view = TableView("t1")
    assert view.set_online(True) == [{"type": "table_status", "table": "t1", "online": True}]
    assert view.set_online(True) == []
    assert view.set_online(False) == [{"type": "table_status", "table": "t1", "online": False}]


def test_public_leaves_an_event_without_a_zone_alone() -> None:
    event: HubEvent = {"type": "card", "table": "t1", "hand": 1, "card": "Ah"}
    assert public(event) == event


def test_an_ack_at_a_held_event_drops_it_and_an_ack_of_an_unheard_run_lets_it_start_there() -> None:
    view = TableView("t1")
    view.admit(_card(5, "seat:1", "04A5", "5h"))
    assert view.resume_after("b1", 5) == [] and view.held["b1"] == {}  # the last hub had stored 5
    assert view.last_by_boot["b1"] == 5
    fresh = TableView("t1")
    assert fresh.resume_after("b1", 1) == [] and fresh.last_by_boot == {"b1": 1}
    assert [e.seq for e, _ in fresh.admit(_card(2, "seat:1", "04A2", "2h"))] == [2]  # no gap behind it


def test_a_hand_ended_reads_false_not_null_in_the_state() -> None:
    view = TableView("t1")
    _feed(view, wire.DealerPressed(table="t1", boot="b1", seq=1, at=1.0, button="new_hand"))
    _feed(view, _card(2, "board", "04A1", "Ah"))
    _feed(view, _card(3, "board", "04A1", "Ah", "card_left"))
    assert view.state(hole_cards=True)["hand_open"] is False
