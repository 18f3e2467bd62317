"""The MQTT contract and the hub's table view, without a broker."""

import pytest

from hub.room.tables import TableView, public
from tablewire import wire

TOPIC = wire.table_events("t1")


def card(seq: int, zone: str, card: str | None = "As", kind: str = "card_arrived", boot: str = "b1",
         uid: str = "04AA") -> wire.CardEvent:
    return wire.CardEvent(table="t1", boot=boot, seq=seq, at=float(seq), type=kind, zone=zone, uid=uid,
                          card=card, deck="t1/A", order=seq)


def test_round_trip() -> None:
    event = card(1, "seat:3")
    assert wire.decode_table_event(TOPIC, wire.encode(event)) == event


@pytest.mark.parametrize("payload, message", [
    (b"", "Invalid JSON"),
    (b"\xff\xfe", "Invalid JSON"),
    (b"[]", "Input should be an object"),
    (b"{}", "discriminator"),
    (b'{"type": "card_arrived"}', "Field required"),
    (b'{"v": 2, "type": "dealer", "table": "t1", "boot": "b", "seq": 1, "at": 0, "button": "new_hand"}', "v"),
    (b'{"v": 1, "type": "dealer", "table": "t1", "boot": "b", "seq": 0, "at": 0, "button": "new_hand"}', "seq"),
    # no agent numbers its own hands: a new hand is the dealer's press, numbered by the hub
    (b'{"v": 1, "type": "hand_started", "table": "t1", "boot": "b", "seq": 1, "at": 0, "hand": 1}',
     "does not match any of the expected tags"),
    (b'{"v": 1, "type": "card_arrived", "table": "t1", "boot": "b", "seq": 1, "at": 0, "zone": "seat:3",'
     b' "uid": "04AA", "card": "Zz", "order": 1}', "card"),
    (b'{"v": 1, "type": "card_arrived", "table": "t1", "boot": "b", "seq": 1, "at": 0, "zone": "roof",'
     b' "uid": "04AA", "order": 1}', "zone"),
    (b'{"v": 1, "type": "dealer", "table": "t1", "boot": "b", "seq": 1, "at": 0, "button": "new_hand", "x": 1}',
     "Extra inputs"),
])
def test_malformed_payloads_are_payload_errors(payload: bytes, message: str) -> None:
    with pytest.raises(wire.PayloadError, match=message):
        wire.decode_table_event(TOPIC, payload)


def test_a_table_cannot_speak_for_another() -> None:
    with pytest.raises(wire.PayloadError, match="claims table 't1'"):
        wire.decode_table_event(wire.table_events("t2"), wire.encode(card(1, "board")))
    with pytest.raises(wire.PayloadError, match="not a table topic"):
        wire.table_of("tapis/v1/hub/status")


def test_view_tracks_cards_and_ends_the_hand_when_the_felt_clears() -> None:
    view = TableView("t1")
    new_hand = wire.DealerPressed(table="t1", boot="b1", seq=1, at=0, button="new_hand")
    assert view.apply(new_hand)[0]["type"] == "hand_start"
    view.apply(card(2, "seat:3", "As", uid="01"))
    view.apply(card(3, "board", "Kd", uid="02"))
    assert view.state(hole_cards=True)["zones"] == {"seat:3": ["As"], "board": ["Kd"]}
    assert view.state(hole_cards=False)["zones"] == {"seat:3": 1, "board": ["Kd"]}
    assert view.apply(card(4, "seat:3", "As", kind="card_left", uid="01"))[-1]["type"] == "card"
    out = view.apply(card(5, "board", "Kd", kind="card_left", uid="02"))
    assert out[-1] == {"type": "hand_end", "table": "t1", "hand": 1, "why": "felt_cleared"}


def test_duplicates_ignored_gaps_held_until_filled_boots_apart() -> None:
    view = TableView("t1")
    one, two, three, four = (card(i, "board", uid=f"0{i}") for i in (1, 2, 3, 4))
    assert [e.seq for e, _ in view.admit(one)] == [1]
    assert view.admit(one) == [] and view.duplicates == 1
    assert view.admit(four) == [] and view.admit(three) == []  # 2 is missing: nothing applied out of order
    assert view.gaps == 2 and view.last_seq == 1
    assert [e.seq for e, _ in view.admit(two)] == [2, 3, 4]  # the outbox resent it
    assert view.admit(three) == [] and view.duplicates == 2
    other = card(1, "muck", uid="09", boot="b2")  # the agent restarted: its own numbering
    assert [e.seq for e, _ in view.admit(other)] == [1]
    assert view.last_by_boot == {"b1": 4, "b2": 1}


def test_public_events_hide_hole_cards_only() -> None:
    hole = {"type": "card", "zone": "seat:2", "card": "As"}
    assert public(hole)["card"] is None and hole["card"] == "As"
    assert public({"type": "card", "zone": "board", "card": "As"})["card"] == "As"


def test_an_unknown_fault_kind_is_malformed() -> None:
    payload = (b'{"v": 1, "type": "fault", "table": "t1", "boot": "b", "seq": 1, "at": 0, "hand": 1,'
               b' "kind": "bogus_kind"}')
    with pytest.raises(wire.PayloadError, match="fault.kind"):
        wire.decode_table_event(TOPIC, payload)
