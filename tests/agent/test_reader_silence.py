"""A reader that falls silent for a moment (a USB hiccup, a busy Pi) lifts no card: the agent times
tags out against the reader's last frame, not against its clock (`Presence.heard`)."""

from __future__ import annotations

import queue
import time
from typing import Any

from firmware_bridge import Heartbeat, TagSeen
from hw.decks import DeckRegistry
from hw.ports import ManualClock
from hw.profile import TableProfile
from table_agent.agent import TableAgent
from table_agent.presence import Presence
from table_agent.reader import FrameRejected, FramesRead, LinkChanged
from tests.pcsc.agent_fakes import RecordingPublisher
from tests.support import wait_until


class ScriptedReader:
    """The reader worker's place: the test puts what the board said on the agent's queue."""

    def __init__(self, *, out: queue.Queue[object], **_: Any) -> None:
        self.out = out

    def start(self) -> None: ...

    def stop(self, timeout: float = 2.0) -> None: ...


def test_a_second_without_frames_lifts_no_card_and_a_lost_tag_gone_still_times_out() -> None:
    registry = DeckRegistry.generate(["t1"])
    profile = TableProfile.default("t1", seats=9)
    clock = ManualClock(100.0)
    readers: list[ScriptedReader] = []
    publisher = RecordingPublisher("t1")

    def reader(**kw: Any) -> ScriptedReader:
        readers.append(ScriptedReader(**kw))
        return readers[-1]

    agent = TableAgent(profile=profile, registry=registry, open_link=None, publisher=publisher, clock=clock,
                       reader_factory=reader)
    ace, king = (bytes.fromhex(registry.uid_of("t1/A", c)) for c in ("As", "Kd"))
    out = readers[0].out

    def scan(*tags: bytes) -> None:
        out.put(FramesRead([TagSeen(0, t) for t in tags] or [Heartbeat(0, 0)], clock.now()))

    def cards(action: str) -> list[str]:
        return [str(e["card"]) for e in publisher.all() if e["type"] == f"card_{action}"]

    agent.start()
    try:
        out.put(LinkChanged(True, "scripted", clock.now()))
        scan(ace, king)
        assert wait_until(lambda: cards("arrived") == ["As", "Kd"], 5)
        clock.advance(1.5)  # not a frame for 1.5 s: less than the 3 s after which the reader is "stalled"
        time.sleep(0.3)  # the agent's timeouts run every 0.05 s: several of them see the silence
        scan(king)  # back; this scan misses the ace (RFID misses one scan now and then)
        clock.advance(0.05)
        scan(ace, king)
        assert wait_until(lambda: agent.idle(), 5)
        assert cards("left") == [] and cards("arrived") == ["As", "Kd"]
        for _ in range(12):  # the ace is taken away and its TagGone lost: the king read scan after scan
            clock.advance(0.05)
            scan(king)
        assert wait_until(lambda: cards("left") == ["As"], 5)
    finally:
        agent.stop()


def test_a_lost_tag_gone_on_an_empty_felt_lifts_its_card_within_two_heartbeats() -> None:
    """The last card is taken and its TagGone lost on the line: the board then says only its heartbeat,
    once a second, and now and then a frame the line damaged. The card must leave the felt (issue #12:
    every heartbeat gave it a fresh window, and it stayed in seat 5 for the next hand)."""
    registry = DeckRegistry.generate(["t1"])
    profile = TableProfile.default("t1", seats=9)
    clock = ManualClock(100.0)
    readers: list[ScriptedReader] = []
    publisher = RecordingPublisher("t1")

    def reader(**kw: Any) -> ScriptedReader:
        readers.append(ScriptedReader(**kw))
        return readers[-1]

    agent = TableAgent(profile=profile, registry=registry, open_link=None, publisher=publisher, clock=clock,
                       reader_factory=reader)
    ace = bytes.fromhex(registry.uid_of("t1/A", "As"))
    out = readers[0].out

    def lifted() -> list[str]:
        return [str(e["card"]) for e in publisher.all() if e["type"] == "card_left"]

    agent.start()
    try:
        out.put(LinkChanged(True, "scripted", clock.now()))
        out.put(FramesRead([TagSeen(4, ace)], clock.now()))
        assert wait_until(lambda: agent.idle() and len(agent.zones) == 1, 5)
        taken_at = clock.now()
        bound = Presence.ghost_bound(scan_period=profile.reader.scan_period_ms / 1000, gone_after=0.5)
        for second in range(1, 5):
            clock.advance(0.5)
            out.put(FrameRejected("bad crc", b"\x00", clock.now()))
            clock.advance(0.5)
            out.put(FramesRead([Heartbeat(second * 1000, second * 20)], clock.now()))
            assert wait_until(agent.idle, 5)
            if lifted():
                break
        assert lifted() == ["As"]
        assert clock.now() - taken_at <= bound
    finally:
        agent.stop()
