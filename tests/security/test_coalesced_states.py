"""The retained states coalesced per table (`hub.edge.coalesce`) stay private: the public topic gets the
public view of the table as it is when the window closes, never the TD's view of it. Hole cards, a
mucked hand and a burn, dealt in one burst (one window), then published: no face on the public topic;
every face on the TD topic."""

from __future__ import annotations

import json
from typing import cast

from hub.edge.service import HubService
from tablewire import wire
from tablewire.mqtt import Message, MqttLink
from tests.hub.fake_link import RecordingLink
from tests.support import wait_until

HIDDEN = {"seat:3": ["Ah", "Kd"], "muck": ["Qs"], "burn": ["2c"]}


def _faces(payload: bytes) -> set[str]:
    found: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, str):
            found.add(node)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(json.loads(payload))
    return found


def test_a_burst_coalesced_into_one_state_shows_no_face_down_card_on_the_public_topic() -> None:
    link = RecordingLink()
    hub = HubService(link=cast(MqttLink, link), state_window=0.2)
    seq = 0
    for zone, cards in [*HIDDEN.items(), ("board", ["7h"])]:
        for card in cards:
            seq += 1
            event = wire.CardEvent(table="t1", boot="b", seq=seq, at=0.0, type="card_arrived", zone=zone,
                                   uid=f"{seq:02X}", card=card, order=seq)
            link.handlers[wire.ALL_TABLE_EVENTS](Message(wire.table_events("t1"), wire.encode(event), False))
    hub.start()
    try:
        assert wait_until(hub.idle)
    finally:
        hub.stop()
    public = [p for t, p, _, _ in link.published if t == wire.hub_table_state("t1")]
    td = [p for t, p, _, _ in link.published if t == wire.hub_td_state("t1")]
    assert len(public) == len(td) == 1  # coalesced: one state for the burst
    hidden = {c for cards in HIDDEN.values() for c in cards}
    assert not _faces(public[0]) & hidden
    assert json.loads(public[0])["zones"] == {"seat:3": 2, "muck": 1, "burn": 1, "board": ["7h"]}
    assert _faces(td[0]) >= hidden | {"7h"}
    public_topics = [p for t, p, _, _ in link.published if not t.startswith(f"{wire.ROOT}/hub/td/")]
    assert not set().union(*(_faces(p) for p in public_topics if p.startswith(b"{"))) & hidden
