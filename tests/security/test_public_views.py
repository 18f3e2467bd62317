"""What the hub publishes for viewers (`hub.room.tables.public`, `TableView.state(hole_cards=False)`):
no face of a card a player has not shown, while the hand is live. Pure, no broker.

A folded hand thrown into the muck, and a burn card, are face down at the table; the public view
must not turn them face up. The gaps these tests found (mucked and burnt cards, faults naming hole cards)
are closed in hub/room/tables.py; the live path (hub service -> public topic) is tested in
tests/hub/test_public_faults.py.
"""

from __future__ import annotations

from hub.room.tables import HubEvent, TableView, public
from tablewire import wire


def _card(seq: int, kind: str, zone: str, uid: str, card: str) -> wire.CardEvent:
    return wire.CardEvent(table="t1", boot="b", seq=seq, at=float(seq), type=kind,
                          zone=zone, uid=uid, card=card, order=seq)


def _play(view: TableView, *events: wire.CardEvent) -> list[HubEvent]:
    out: list[HubEvent] = []
    for event in events:
        for ready, _ in view.admit(event):
            out += view.apply(ready)
    return out


def _faces(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(_faces, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_faces, value)) if value else set()
    return set()


def _live_view() -> tuple[TableView, list[HubEvent]]:
    view = TableView("t1")
    out = _play(view, wire.DealerPressed(table="t1", boot="b", seq=1, at=1.0, button="new_hand"))  # type: ignore[arg-type]
    return view, out


def test_a_hole_card_is_hidden_while_at_the_seat() -> None:
    view, _ = _live_view()
    out = _play(view, _card(2, "card_arrived", "seat:3", "04AA0001", "Ah"),
                _card(3, "card_arrived", "seat:3", "04AA0002", "Kd"))
    assert [public(e)["card"] for e in out] == [None, None]
    assert view.state(hole_cards=False)["zones"] == {"seat:3": 2}
    assert view.state(hole_cards=True)["zones"] == {"seat:3": ["Ah", "Kd"]}  # the TD's view


def test_the_board_is_public() -> None:
    view, _ = _live_view()
    out = _play(view, _card(2, "card_arrived", "board", "04BB0001", "7h"))
    assert public(out[0])["card"] == "7h"
    assert view.state(hole_cards=False)["zones"] == {"board": ["7h"]}


def test_a_folded_hand_stays_face_down_in_the_muck() -> None:
    view, _ = _live_view()
    _play(view, _card(2, "card_arrived", "seat:3", "04AA0001", "Ah"),
          _card(3, "card_arrived", "seat:5", "04AA0002", "Qs"))  # seat 5 plays on
    out = _play(view, _card(4, "card_left", "seat:3", "04AA0001", "Ah"),
                _card(5, "card_arrived", "muck", "04AA0001", "Ah"))
    assert view.hand_open
    assert "Ah" not in _faces([public(e) for e in out])
    assert "Ah" not in _faces(view.state(hole_cards=False))


def test_a_burn_card_stays_face_down() -> None:
    view, _ = _live_view()
    out = _play(view, _card(2, "card_arrived", "burn", "04CC0001", "2c"))
    assert "2c" not in _faces([public(e) for e in out])
    assert "2c" not in _faces(view.state(hole_cards=False))


def _fault(seq: int, kind: str, seat: int | None, cards: list[str]) -> wire.FaultSeen:
    return wire.FaultSeen(table="t1", boot="b", seq=seq, at=float(seq), hand=1,
                          kind=kind, seat=seat, cards=cards)


def test_a_fault_naming_a_hole_card_does_not_reveal_it() -> None:
    """An extra hole card dealt to seat 3: the fault names it, the public copy must not (the TD's does)."""
    view, _ = _live_view()
    _play(view, _card(2, "card_arrived", "seat:3", "04AA0001", "Ah"),
          _card(3, "card_arrived", "seat:3", "04AA0002", "Kd"),
          _card(4, "card_arrived", "seat:3", "04AA0003", "Qc"))
    fault: HubEvent = {"type": "fault", "kind": "extra_hole_card", "seat": 3, "hand": 1, "cards": ["Qc"],
                       "ruling": {"decision": "card_returned", "article": "cdc-2013 10.7", "cards": ["Qc"],
                                  "text": "Qc donnée en trop au siège 3 / Qc dealt to seat 3 in excess"}}
    shown = public(fault)
    assert "Qc" not in _faces(shown), shown
    assert shown["cards"] == ["??"] and shown["ruling"]["cards"] == ["??"]
    assert shown["ruling"]["text"] == "?? donnée en trop au siège 3 / ?? dealt to seat 3 in excess"
    assert fault["cards"] == ["Qc"]  # the TD's copy is untouched


def test_a_fault_naming_a_board_card_stays_public() -> None:
    """A boxed card lies face up in the tray for everyone: hiding it would hide nothing and puzzle viewers."""
    fault: HubEvent = {"type": "fault", "kind": "boxed_card", "seat": None, "hand": 1, "cards": ["7h"]}
    assert public(fault) == fault
