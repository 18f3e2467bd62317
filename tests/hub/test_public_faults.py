"""A fault that names a hole card, through the real hub service: what goes out on the table's public
topic (`tapis/v1/hub/tables/<t>/events`, readable by every viewer) must not show that card while the
hand is live; the TD's copy (the listeners: dashboard, journal) keeps it. No broker: the service's
MQTT link records what it publishes (`tests/hub/fake_link.py`)."""

from __future__ import annotations

import json
from typing import Any

from tablewire import wire
from tests.dashboard.helpers import ScriptedRoom
from tests.hub.fake_link import RecordingLink


def _public_events(link: RecordingLink, table: str) -> list[dict[str, Any]]:
    return [json.loads(p) for t, p, _r, _q in link.published if t == wire.hub_table_events(table)]


def test_a_fault_naming_a_hole_card_is_hidden_on_the_public_topic() -> None:
    link = RecordingLink()
    room = ScriptedRoom(link=link)  # type: ignore[arg-type]
    td_saw: list[dict[str, Any]] = []
    room.hub.add_listener(td_saw.append)
    room.hub.start()
    try:
        room.configure("t1", {3: 10_000, 5: 10_000}, button=3)
        room.new_hand("t1")
        for zone, face in (("seat:5", "Ah"), ("seat:3", "Kd"), ("seat:5", "Qc"), ("seat:3", "Js"),
                           ("seat:5", "9s")):  # seat 5 gets a third card
            room.card("t1", zone, face)
        room.fault("t1", 1, "extra_hole_card", seat=5, cards=["9s"])
        room.settle()
    finally:
        room.hub.stop()
    faults = [e for e in _public_events(link, "t1") if e.get("type") == "fault"]
    td_faults = [e for e in td_saw if e.get("type") == "fault"]
    assert td_faults and td_faults[0]["cards"] == ["9s"]  # the fault was ruled, and the TD sees the card
    assert faults and faults[0]["kind"] == "extra_hole_card"
    published = b"".join(p for t, p, _r, _q in link.published if t.startswith(f"{wire.ROOT}/hub/table/"))
    for face in ("Ah", "Kd", "Qc", "Js", "9s"):  # no hole card anywhere a viewer can read
        assert face.encode() not in published, face
