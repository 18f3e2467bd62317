"""The agent asks the reader board where its scan is (`ReportAntennas`, issue #33's latency budget) and
follows cards the same on a board that says it (`AntennaDone`) and on an older one that drops the
request: a card taken from the muck, read late in a scan, to seat 1, read first, moves either way."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator

import pytest

from firmware_bridge import ReportAntennas
from hw.decks import DeckRegistry
from hw.ports import MonotonicClock
from hw.profile import TableProfile
from hw.serial_link import SerialLink
from simulators.reader_board import ReaderBoardSimulator
from table_agent.agent import TableAgent
from table_agent.events import Zone
from tests.pcsc.agent_fakes import RecordingPublisher
from tests.support import wait_until

MUCK = Zone.parse("muck")
SEAT_1 = Zone.seat_zone(1)


@pytest.fixture(params=[True, False], ids=["board says antennas done", "older board"])
def table(request: pytest.FixtureRequest) -> Iterator[tuple[ReaderBoardSimulator, TableAgent, DeckRegistry]]:
    registry = DeckRegistry.generate(["t1"])
    profile = TableProfile.default("t1", seats=9)
    board = ReaderBoardSimulator(antennas=len(profile.antennas), scan_period=0.02, miss_rate=0.0,
                                 dropout_rate=0.0, rng=random.Random(3), report_antennas=request.param)
    board.start()
    agent = TableAgent(profile=profile, registry=registry, publisher=RecordingPublisher("t1"),
                       clock=MonotonicClock(), open_link=functools.partial(SerialLink, board.port))
    agent.start()
    try:
        yield board, agent, registry
    finally:
        agent.stop()
        board.close()


def test_the_agent_asks_and_a_card_from_the_muck_to_a_seat_moves_either_way(
        table: tuple[ReaderBoardSimulator, TableAgent, DeckRegistry]) -> None:
    board, agent, registry = table
    assert wait_until(lambda: ReportAntennas() in board.host_frames)  # asked before StartScan
    assert board.host_frames.index(ReportAntennas()) < len(board.host_frames) - 1
    profile = agent.profile
    uid = registry.uid_of("t1/A", "As")
    board.place(profile.antenna_of(MUCK), bytes.fromhex(uid))
    assert wait_until(lambda: agent.zones.zone_of(uid.upper()) == MUCK)
    board.remove(profile.antenna_of(MUCK), bytes.fromhex(uid))
    board.place(profile.antenna_of(SEAT_1), bytes.fromhex(uid))
    assert wait_until(lambda: agent.zones.zone_of(uid.upper()) == SEAT_1)
    assert agent.stats.rejected == 0
