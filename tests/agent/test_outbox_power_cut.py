"""The agent's outbox survives a power cut: every event it kept is still there to resend.

Written in a subprocess that then loses every byte no fsync wrote (`tests/power_cut.py`); the same
run with the simulated room's setting (`durable=False`, synchronous OFF) loses events, so the test
can fail.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from table_agent.outbox import Outbox
from tests.power_cut import build_shim, cut_power

EVENTS = 30

WRITER = textwrap.dedent("""
    import sys
    from table_agent.outbox import Outbox
    box = Outbox(sys.argv[1], durable=len(sys.argv) < 3)  # as the agent opens it, or as a simulated room
    for seq in range(1, {events} + 1):
        box.append("boot1", seq, b"event %d" % seq)
        print("stored", seq, flush=True)
    sys.stdin.read()  # killed here
""").format(events=EVENTS)


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_shim(tmp_path_factory.mktemp("shim"))


def _kept(db: Path) -> list[int]:
    box = Outbox(db)
    try:
        return [seq for _boot, seq, _payload in box.pending()]
    finally:
        box.close()


def test_every_event_the_agent_kept_survives_a_power_cut(shim: Path, tmp_path: Path) -> None:
    db = tmp_path / "outbox.db"
    assert cut_power(shim, db, WRITER, last=EVENTS) == EVENTS
    assert _kept(db) == list(range(1, EVENTS + 1))


def test_a_simulated_rooms_outbox_loses_events_in_a_power_cut_so_the_test_can_fail(
        shim: Path, tmp_path: Path) -> None:
    db = tmp_path / "outbox.db"
    assert cut_power(shim, db, WRITER, "fast", last=EVENTS) == EVENTS
    assert len(_kept(db)) < EVENTS
