"""A table's retained states go out once per short window, the latest: a burst of events costs one pair
of states, not one pair per event; a hand's end is published at once, and nothing is left stale at
shutdown. The pure part (`Coalescer`) is tested with given times."""

from __future__ import annotations

import json
import time
from typing import cast

import pytest

from hub.edge.coalesce import Coalescer
from hub.edge.service import HubService
from tablewire import wire
from tablewire.mqtt import Message, MqttLink
from tests.hub.fake_link import RecordingLink
from tests.support import wait_until


def test_the_coalescer_gives_each_table_once_when_its_window_has_passed() -> None:
    c = Coalescer(0.03)
    c.mark("t1", 10.0)
    c.mark("t2", 10.01)
    c.mark("t1", 10.02)  # a later change keeps t1's first due time
    assert c.next_due() == pytest.approx(10.03)
    assert c.due(10.029) == []
    assert c.due(10.03) == ["t1"]
    assert len(c) == 1 and c.due(10.05) == ["t2"] and not c and c.next_due() is None
    c.mark("t1", 11.0)  # a new window once published
    assert c.next_due() == pytest.approx(11.03)
    assert c.take("t1") and not c.take("t1")
    c.mark("t1", 12.0)
    c.mark("t2", 12.0)
    assert sorted(c.take_all()) == ["t1", "t2"] and not c


def test_a_negative_window_is_refused_in_plain_words() -> None:
    with pytest.raises(ValueError, match="state window -1"):
        Coalescer(-1)


def _deliver(link: RecordingLink, event: wire.AnyTableEvent) -> None:
    link.handlers[wire.ALL_TABLE_EVENTS](Message(wire.table_events(event.table), wire.encode(event), False))


def _card(seq: int, zone: str = "board", kind: str = "card_arrived", uid: str | None = None) -> wire.CardEvent:
    return wire.CardEvent(table="t1", boot="b", seq=seq, at=0.0, type=kind, zone=zone,
                          uid=uid or f"{seq:02X}", card="7h", order=seq)


def _states(link: RecordingLink, topic: str) -> list[dict[str, object]]:
    return [json.loads(p) for t, p, _, _ in link.published if t == topic]


def test_a_burst_of_events_publishes_one_pair_of_states_the_latest() -> None:
    link = RecordingLink()
    hub = HubService(link=cast(MqttLink, link), state_window=0.2)
    for seq in range(1, 11):  # ten card events queued before the consumer runs: one burst
        _deliver(link, _card(seq))
    hub.start()
    try:
        assert wait_until(hub.idle)
        public, td = _states(link, wire.hub_table_state("t1")), _states(link, wire.hub_td_state("t1"))
        assert len(public) == len(td) == 1
        assert public[0]["seq"] == td[0]["seq"] == 10
        assert sum(t == wire.hub_table_events("t1") for t, *_ in link.published) == 10  # every event kept
    finally:
        hub.stop()


def test_no_window_publishes_the_states_of_every_event_as_before() -> None:
    link = RecordingLink()
    hub = HubService(link=cast(MqttLink, link), state_window=0)
    for seq in range(1, 4):
        _deliver(link, _card(seq))
    hub.start()
    try:
        assert wait_until(hub.idle)
        assert [s["seq"] for s in _states(link, wire.hub_table_state("t1"))] == [1, 2, 3]
    finally:
        hub.stop()


def test_a_hands_end_is_published_at_once_and_shutdown_leaves_nothing_stale() -> None:
    link = RecordingLink()
    hub = HubService(link=cast(MqttLink, link), state_window=60.0)  # a window no test waits for
    hub.start()
    try:
        _deliver(link, wire.DealerPressed(table="t1", boot="b", seq=1, at=0.0, button="new_hand"))
        _deliver(link, _card(2, uid="AA"))
        _deliver(link, _card(3, kind="card_left", uid="AA"))  # the felt cleared: the hand ends
        assert hub.settle()
        public = _states(link, wire.hub_table_state("t1"))
        assert public and public[-1]["hand_open"] is False and public[-1]["seq"] == 3
        _deliver(link, _card(4))
        assert hub.settle()
        time.sleep(0.1)
        assert _states(link, wire.hub_table_state("t1"))[-1]["seq"] == 3  # waits for its window
        assert not hub.idle()
    finally:
        hub.stop()
    assert _states(link, wire.hub_table_state("t1"))[-1]["seq"] == 4
    assert _states(link, wire.hub_td_state("t1"))[-1]["seq"] == 4


def test_a_reconnect_publishes_the_pending_states_with_the_others() -> None:
    link = RecordingLink()
    hub = HubService(link=cast(MqttLink, link), state_window=60.0)
    hub.start()
    try:
        _deliver(link, _card(1))
        assert hub.settle()
        link.reconnect()
        assert wait_until(hub.idle)  # nothing pending any more: the reconnect published it
        assert _states(link, wire.hub_table_state("t1"))[-1]["seq"] == 1
    finally:
        hub.stop()
