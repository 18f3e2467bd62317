"""`OutboxSender`, the agent's store-and-forward path, alone: a manual clock and a recording publish.

What it must do (table_agent/outbox.py): keep a dead run's events apart from this run's until the hub
has acknowledged them (the hub's ack names only the last run it applied: sent in one burst, this run's
events would be held behind the dead run's and the dead run's never forgotten); publish again what
waits when acks stop coming; forget on the ack.
"""

from __future__ import annotations

from hw.ports import ManualClock
from table_agent.outbox import Outbox, OutboxSender
from tablewire import wire

TOPIC = wire.table_events("t1")


def _status(boot: str, seq: int) -> wire.ReaderStatus:
    return wire.ReaderStatus(table="t1", boot=boot, seq=seq, at=float(seq), state="connected")


def _sent(published: list[tuple[str, bytes]]) -> list[tuple[str, int]]:
    out = []
    for topic, payload in published:
        assert topic == TOPIC
        event = wire.decode_table_event(topic, payload)
        out.append((event.boot, event.seq))
    return out


def _sender(box: Outbox, boot: str, clock: ManualClock,
            published: list[tuple[str, bytes]]) -> OutboxSender:
    return OutboxSender(table="t1", boot=boot, outbox=box, clock=clock, resend_after=10.0,
                        publish=lambda topic, payload: published.append((topic, payload)))


def test_a_new_run_sends_at_once_and_forgets_on_the_ack() -> None:
    box, clock = Outbox(), ManualClock()
    published: list[tuple[str, bytes]] = []
    sender = _sender(box, "run2", clock, published)
    for _ in range(3):
        sender.send(_status("run2", sender.next_seq()))
    assert _sent(published) == [("run2", 1), ("run2", 2), ("run2", 3)]
    sender.acknowledged(wire.Ack(boot="run2", seq=2))
    assert [(b, s) for b, s, _p in box.pending()] == [("run2", 3)]


def test_a_dead_runs_events_go_alone_and_this_runs_follow_once_acknowledged() -> None:
    box, clock = Outbox(), ManualClock()
    published: list[tuple[str, bytes]] = []
    for seq in (1, 2):  # a power cut left two events of run1 unacknowledged
        box.append("run1", seq, wire.encode(_status("run1", seq)))
    sender = _sender(box, "run2", clock, published)
    sender.send(_status("run2", sender.next_seq()))
    sender.send(_status("run2", sender.next_seq()))
    assert published == []  # kept, not sent: run1 goes first
    sender.resend()  # the link is up: what waits goes out, the dead run alone
    assert _sent(published) == [("run1", 1), ("run1", 2)] and sender.resent == 2
    published.clear()
    sender.acknowledged(wire.Ack(boot="run1", seq=1))  # part of run1: nothing new to send yet
    assert published == []
    sender.acknowledged(wire.Ack(boot="run1", seq=2))  # the hub has all of run1: now run2's
    assert _sent(published) == [("run2", 1), ("run2", 2)]
    published.clear()
    sender.send(_status("run2", sender.next_seq()))  # and this run's events go out at once again
    assert _sent(published) == [("run2", 3)]


def test_two_dead_runs_go_oldest_first() -> None:
    box, clock = Outbox(), ManualClock()
    published: list[tuple[str, bytes]] = []
    box.append("run1", 7, wire.encode(_status("run1", 7)))
    box.append("run2", 1, wire.encode(_status("run2", 1)))
    sender = _sender(box, "run3", clock, published)
    sender.resend()
    assert _sent(published) == [("run1", 7)]
    published.clear()
    sender.acknowledged(wire.Ack(boot="run1", seq=7))
    assert _sent(published) == [("run2", 1)]
    published.clear()
    sender.send(_status("run3", sender.next_seq()))
    assert published == []  # run2 still waits for its ack
    sender.acknowledged(wire.Ack(boot="run2", seq=1))
    assert _sent(published) == [("run3", 1)]


def test_what_waits_is_sent_again_when_acks_stop() -> None:
    box, clock = Outbox(), ManualClock()
    published: list[tuple[str, bytes]] = []
    sender = _sender(box, "run1", clock, published)
    sender.send(_status("run1", sender.next_seq()))
    published.clear()  # the hub never acknowledges (it lost its session, or the message was lost)
    clock.advance(9.0)
    sender.check(clock.now())
    assert published == []  # not yet: acks may be on their way
    clock.advance(2.0)
    sender.check(clock.now())
    assert _sent(published) == [("run1", 1)] and sender.resent == 1
    published.clear()
    clock.advance(5.0)
    sender.check(clock.now())
    assert published == []  # the resend restarted the wait
    clock.advance(6.0)
    sender.check(clock.now())
    assert _sent(published) == [("run1", 1)]


def test_an_ack_that_frees_something_restarts_the_wait_and_an_empty_outbox_is_quiet() -> None:
    box, clock = Outbox(), ManualClock()
    published: list[tuple[str, bytes]] = []
    sender = _sender(box, "run1", clock, published)
    sender.send(_status("run1", sender.next_seq()))
    sender.send(_status("run1", sender.next_seq()))
    published.clear()
    clock.advance(8.0)
    sender.acknowledged(wire.Ack(boot="run1", seq=1))  # progress: the hub is there
    clock.advance(8.0)
    sender.check(clock.now())
    assert published == []  # 8 s since the last progress, not 16
    clock.advance(3.0)
    sender.check(clock.now())
    assert _sent(published) == [("run1", 2)]
    sender.acknowledged(wire.Ack(boot="run1", seq=2))
    published.clear()
    clock.advance(60.0)
    sender.check(clock.now())
    assert published == []  # nothing waits: nothing to resend
    sender.acknowledged(wire.Ack(boot="run1", seq=2))  # the same ack again frees nothing
    assert published == []


def test_an_ack_that_frees_nothing_does_not_postpone_the_resend() -> None:
    """The hub's retained ack comes again (a reconnect, QoS 1) naming what was already forgotten:
    it is no sign that the hub stores what waits, so the resend stays due 10 s after the last
    progress."""
    box, clock = Outbox(), ManualClock()
    published: list[tuple[str, bytes]] = []
    sender = _sender(box, "run1", clock, published)
    sender.send(_status("run1", sender.next_seq()))
    sender.acknowledged(wire.Ack(boot="run1", seq=1))  # progress at 0 s
    sender.send(_status("run1", sender.next_seq()))
    published.clear()
    for _ in range(2):
        clock.advance(5.0)
        sender.acknowledged(wire.Ack(boot="run1", seq=1))  # the same ack: frees nothing
    clock.advance(0.5)
    sender.check(clock.now())
    assert _sent(published) == [("run1", 2)]  # 10.5 s since the ack that freed seq 1


def test_the_wait_counts_from_the_last_resend_even_one_cut_short_by_a_dead_run() -> None:
    box, clock = Outbox(), ManualClock()
    published: list[tuple[str, bytes]] = []
    box.append("run1", 1, wire.encode(_status("run1", 1)))
    box.append("run2", 1, wire.encode(_status("run2", 1)))
    sender = _sender(box, "run3", clock, published)
    clock.advance(9.0)
    sender.resend()  # run1 only: stops at run2's first event
    published.clear()
    clock.advance(5.0)
    sender.check(clock.now())
    assert published == []  # 5 s since that resend


def test_ten_seconds_by_default_and_exactly_ten_is_not_yet() -> None:
    box, clock = Outbox(), ManualClock()
    published: list[tuple[str, bytes]] = []
    sender = OutboxSender(table="t1", boot="run1", outbox=box, clock=clock,
                          publish=lambda topic, payload: published.append((topic, payload)))
    sender.send(_status("run1", sender.next_seq()))
    published.clear()
    clock.advance(10.0)
    sender.check(clock.now())
    assert published == []
    clock.advance(0.25)
    sender.check(clock.now())
    assert _sent(published) == [("run1", 1)]
