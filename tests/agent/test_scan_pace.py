"""The board's real scan period read from its heartbeats (issue #33 point 1): the agent's presence and
read-order windows follow it, and a pace far from the profile's is said in plain words."""

from __future__ import annotations

import pytest

from firmware_bridge import Heartbeat
from hw.ports import ManualClock
from table_agent.reader import FramesRead, LinkChanged
from table_agent.scan_pace import PaceChanged, ScanPace
from tests.agent.test_reader_silence import scripted_agent
from tests.support import wait_until


def beats(period_ms: float, count: int, *, start_ms: int = 1000, first_scan: int = 0) -> list[Heartbeat]:
    """A board scanning every `period_ms`, one heartbeat a second."""
    return [Heartbeat(start_ms + 1000 * i, first_scan + int(1000 * i / period_ms)) for i in range(count)]


def test_a_dealt_tables_pace_is_followed_and_noted_when_the_profile_asks_back_to_back_scans() -> None:
    pace = ScanPace(configured_ms=50)
    changes = [c for c in map(pace.beat, beats(282, 6)) if c is not None]
    assert changes and 265 <= changes[-1].period_ms <= 300  # one second holds 3 or 4 such scans
    assert pace.period_ms == changes[-1].period_ms and not changes[-1].disagrees
    said = changes[-1].describe()
    assert f"toutes les {pace.period_ms} ms" in said and f"scans every {pace.period_ms} ms, windows follow it" in said


def test_a_fixed_pace_the_board_cannot_keep_is_a_warning_in_plain_words() -> None:
    pace = ScanPace(configured_ms=200)
    changes = [c for c in map(pace.beat, beats(282, 6)) if c is not None]
    assert changes and changes[-1].disagrees
    said = changes[-1].describe()
    assert "le profil dit 200 ms" in said and "the profile says 200 ms" in said
    assert f"set scan_period_ms = {pace.period_ms}" in said


def test_a_board_faster_than_asked_disagrees() -> None:
    assert PaceChanged(90, 300).disagrees and not PaceChanged(290, 300).disagrees


def test_a_pace_within_a_quarter_of_the_profile_changes_nothing() -> None:
    pace = ScanPace(configured_ms=300)
    assert [pace.beat(b) for b in beats(282, 6)] == [None] * 6
    assert pace.period_ms == 300 and pace.measured_ms == pytest.approx(282, rel=0.1)


def test_a_rebooted_or_stopped_board_is_measured_anew() -> None:
    pace = ScanPace(configured_ms=300)
    for beat in beats(300, 3):
        pace.beat(beat)
    assert pace.beat(Heartbeat(1000, 0)) is None  # rebooted: counters from zero, nothing to compare
    assert pace.beat(Heartbeat(2000, 0)) is None  # idle after the reboot, until StartScan
    change = [c for c in map(pace.beat, beats(90, 5, start_ms=3000)) if c is not None]
    assert change == [PaceChanged(change[0].period_ms, 300)] and 85 <= change[0].period_ms <= 95


def test_the_agents_windows_follow_the_boards_heartbeats() -> None:
    clock = ManualClock(100.0)
    agent, readers, publisher, registry = scripted_agent(clock)  # scan_period_ms = 50, as a profile left alone says
    assert agent.watch.judge.window == pytest.approx(0.075)
    agent.start()
    try:
        readers[0].out.put(LinkChanged(True, "scripted", clock.now()))
        for beat in beats(282, 6):
            assert wait_until(agent.idle, 5)  # each beat read before the clock moves on
            clock.advance(1.0)
            readers[0].out.put(FramesRead([beat], clock.now()))
        assert wait_until(lambda: agent.stats.scan_period_ms > 200, 5)
        period = agent.stats.scan_period_ms / 1000
        assert agent.presence.scan_period == period and agent.presence.gone_after == pytest.approx(10 * period)
        assert agent.watch.judge.window == pytest.approx(1.5 * period)
        status = [e for e in publisher.all() if e["type"] == "reader_status"][-1]
        assert status["state"] == "connected"
        assert f"the board scans every {agent.stats.scan_period_ms} ms" in str(status["detail"])
    finally:
        agent.stop()
