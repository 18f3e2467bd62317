"""The hub's event store survives a power cut: every event it acknowledged is still there.

The store is built as `tapis hub --db` builds it (`hub.cli.build_hub`) and written in a subprocess
that then loses every byte no fsync wrote (`tests/power_cut.py`: a kill -9 alone loses nothing the
page cache held, so it cannot tell FULL from NORMAL). The hub groups its commits: a COMMIT does not wait
for the disk, the barriers its link runs before it writes a turn's packets (its acknowledgements) do
(`EventStore.group_sync`); the writer says "stored" where the hub would acknowledge: after them.
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
    barriers = parts.link._before_write  # what the hub's link runs before it writes an acknowledgement
    if len(sys.argv) > 2:  # the bug this test is for, put in on purpose: acknowledged before the sync
        barriers = []
    for seq in range(1, {events} + 1):
        store.append_table_event("t1", "boot1", seq, b"event %d" % seq, float(seq))
        for barrier in barriers:
            barrier()
        print("stored", seq, flush=True)
    sys.stdin.read()  # killed here
""").format(events=EVENTS)


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_shim(tmp_path_factory.mktemp("shim"))


def _stored(db: Path) -> list[int]:
    with EventStore(db) as store:
        return [row.seq for row in store.table_rows(table="t1")]


def test_the_running_hubs_store_syncs_before_its_link_writes(tmp_path: Path) -> None:
    parts = build_hub("127.0.0.1", 9, str(tmp_path / "hub.db"))
    store = parts.store
    assert store is not None
    with store:
        db = store._db  # noqa: SLF001 - the live connection the hub writes with
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL: the link's barrier syncs
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert parts.link._before_write == [store.sync]  # noqa: SLF001


def test_every_event_the_hub_stored_survives_a_power_cut(shim: Path, tmp_path: Path) -> None:
    db = tmp_path / "hub.db"
    assert cut_power(shim, db, WRITER, last=EVENTS) == EVENTS
    assert _stored(db) == list(range(1, EVENTS + 1))


def test_the_power_cut_loses_unsynced_events_so_the_test_can_fail(shim: Path, tmp_path: Path) -> None:
    """The same run acknowledging before the link's barrier (the store at NORMAL, its WAL synced only at
    checkpoints): the cut loses what the hub said it had stored. Without this, the test above could
    pass on a shim that drops nothing."""
    db = tmp_path / "hub.db"
    assert cut_power(shim, db, WRITER, "NORMAL", last=EVENTS) == EVENTS
    assert len(_stored(db)) < EVENTS
