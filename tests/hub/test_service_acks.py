"""The hub's retained acknowledgements are what each table's outbox forgets by: they must come again
when a table resends (ours was lost), after a reconnect (the broker may have lost them), and a hub that
starts afresh reads them back instead of waiting for events no outbox still holds."""

from __future__ import annotations

from typing import cast

from hub.edge.service import HubService
from hub.room.tables import TableView
from tablewire import wire
from tablewire.mqtt import Message, MqttLink
from tests.hub.fake_link import RecordingLink
from tests.support import wait_until


def event(seq: int, boot: str = "b1", table: str = "t1") -> Message:
    status = wire.ReaderStatus(table=table, boot=boot, seq=seq, at=0.0, state="connected")
    return Message(wire.table_events(table), wire.encode(status), False)


def acks(link: RecordingLink) -> list[tuple[str, int]]:
    return [(a.boot, a.seq) for a in (wire.decode_ack(t, p) for t, p, _r, _q in link.published
                                      if t == wire.hub_ack("t1"))]


def running(link: RecordingLink) -> HubService:
    hub = HubService(link=cast(MqttLink, link), tick=0.02)
    hub.start()
    return hub


def test_an_ack_is_said_again_when_the_table_resends_and_after_a_reconnect() -> None:
    link = RecordingLink()
    hub = running(link)
    try:
        for seq in (1, 2, 3):
            link.handlers[wire.ALL_TABLE_EVENTS](event(seq))
        assert wait_until(lambda: acks(link) and acks(link)[-1] == ("b1", 3))
        sent = len(acks(link))
        link.handlers[wire.ALL_TABLE_EVENTS](event(2))  # the outbox did not hear us: it resends
        assert wait_until(lambda: len(acks(link)) == sent + 1) and acks(link)[-1] == ("b1", 3)
        link.reconnect()  # a broker that restarted may have lost every retained ack
        assert wait_until(lambda: len(acks(link)) == sent + 2) and acks(link)[-1] == ("b1", 3)
    finally:
        hub.stop()


def test_a_hub_that_starts_afresh_resumes_each_table_after_its_retained_ack() -> None:
    link = RecordingLink()
    hub = running(link)
    try:
        link.handlers[wire.ALL_TABLE_EVENTS](event(501))  # the outbox forgot 1-500: the last hub had them
        assert wait_until(hub.idle) and hub.tables["t1"].last_seq == 0  # held behind the gap
        retained = wire.encode(wire.Ack(boot="b1", seq=500))
        link.handlers[wire.hub_ack("+")](Message(wire.hub_ack("t1"), retained, True))
        assert wait_until(lambda: hub.tables["t1"].last_seq == 501)
        assert wait_until(lambda: acks(link) == [("b1", 501)])  # not 500 again: that one is retained
        link.handlers[wire.hub_ack("+")](Message(wire.hub_ack("t1"), b"{not json", True))
        assert wait_until(lambda: hub.stats.malformed == 1)
    finally:
        hub.stop()


def test_resume_after_drops_what_the_ack_covers_and_never_goes_back() -> None:
    view = TableView("t1")
    for seq in (499, 501, 502):
        assert view.admit(wire.decode_table_event(wire.table_events("t1"), event(seq).payload)) == []
    assert [e.seq for e, _ in view.resume_after("b1", 500)] == [501, 502]
    assert view.held["b1"] == {} and (view.boot, view.last_seq) == ("b1", 502)
    assert view.resume_after("b1", 400) == [] and view.last_seq == 502  # an older ack changes nothing

