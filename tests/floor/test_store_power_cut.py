"""The hub's event store survives a power cut: every event it said it stored is still there.

The store is built as `tapis hub --db` builds it (`hub.cli.build_hub`) and written in a subprocess
that then loses every byte no fsync wrote (`tests/power_cut.py`: a kill -9 alone loses nothing the
page cache held, so it cannot tell FULL from NORMAL).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from hub.cli import build_hub
from hub.floor.store import EventStore
from tests.power_cut import build_shim, cut_power

EVENTS = 30

WRITER = textwrap.dedent("""
    import sys
    from hub.cli import build_hub
    parts = build_hub("127.0.0.1", 9, sys.argv[1])  # port 9: nothing is connected before start()
    store = parts.store
    assert store is not None
    if len(sys.argv) > 2:  # the bug this test is for, put in on purpose
        store._db.execute("PRAGMA synchronous=" + sys.argv[2])
    for seq in range(1, {events} + 1):
        store.append_table_event("t1", "boot1", seq, b"event %d" % seq, float(seq))
        print("stored", seq, flush=True)
    sys.stdin.read()  # killed here
""").format(events=EVENTS)


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_shim(tmp_path_factory.mktemp("shim"))


def _stored(db: Path) -> list[int]:
    with EventStore(db) as store:
        return [row.seq for row in store.table_rows(table="t1")]


def test_the_running_hubs_store_connection_syncs_every_commit(tmp_path: Path) -> None:
    store = build_hub("127.0.0.1", 9, str(tmp_path / "hub.db")).store
    assert store is not None
    with store:
        db = store._db  # noqa: SLF001 - the live connection the hub writes with
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL, not NORMAL (1)
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_every_event_the_hub_stored_survives_a_power_cut(shim: Path, tmp_path: Path) -> None:
    db = tmp_path / "hub.db"
    assert cut_power(shim, db, WRITER, last=EVENTS) == EVENTS
    assert _stored(db) == list(range(1, EVENTS + 1))


def test_the_power_cut_loses_unsynced_events_so_the_test_can_fail(shim: Path, tmp_path: Path) -> None:
    """The same run with the store at NORMAL (WAL synced only at checkpoints): the cut loses what
    the store said it had stored. Without this, the test above could pass on a shim that drops
    nothing."""
    db = tmp_path / "hub.db"
    assert cut_power(shim, db, WRITER, "NORMAL", last=EVENTS) == EVENTS
    assert len(_stored(db)) < EVENTS
