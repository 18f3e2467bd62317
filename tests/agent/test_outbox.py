"""The agent's outbox: kept until acknowledged, across a restart of the agent."""

from pathlib import Path

import pytest

from table_agent.outbox import Outbox, OutboxError


def test_kept_in_order_until_acknowledged_and_across_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "outbox.db"
    box = Outbox(path)
    for seq in (1, 2, 3):
        box.append("boot1", seq, b"e%d" % seq)
    box.append("boot1", 2, b"again")  # the same event twice is one row
    assert len(box) == 3
    assert box.acknowledged("boot1", 2) == 2
    box.close()
    again = Outbox(path)  # power back: what was not acknowledged is still there
    assert list(again.pending()) == [("boot1", 3, b"e3")]
    again.append("boot2", 1, b"f1")
    assert again.acknowledged("boot2", 5) == 1 and again.last_seq("boot1") == 3
    again.close()


def test_an_unusable_file_is_a_plain_error(tmp_path: Path) -> None:
    with pytest.raises(OutboxError, match="outbox"):
        Outbox(tmp_path / "no-such-dir" / "outbox.db")


def test_durable_by_default_and_fast_when_asked(tmp_path: Path) -> None:
    """An agent's outbox is set to survive a power cut (synchronous=FULL, WAL; the cut itself:
    test_outbox_power_cut.py); a simulated room's need not."""
    box = Outbox(tmp_path / "a.db")
    assert box._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert box._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    fast = Outbox(tmp_path / "b.db", durable=False)
    assert fast._db.execute("PRAGMA synchronous").fetchone()[0] == 0  # OFF
    box.close()
    fast.close()


def test_usable_from_another_thread_than_the_one_that_opened_it(tmp_path: Path) -> None:
    """The agent opens it at start-up and uses it from its own loop's thread."""
    import threading

    box = Outbox(tmp_path / "outbox.db")
    errors: list[BaseException] = []

    def use() -> None:
        try:
            box.append("b", 1, b"x")
            assert len(box) == 1 and box.last_seq("b") == 1
        except BaseException as err:  # noqa: BLE001 - carried back to the test's thread
            errors.append(err)

    worker = threading.Thread(target=use)
    worker.start()
    worker.join()
    assert errors == []


def test_an_event_that_cannot_be_kept_is_a_plain_error_naming_it(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "outbox.db")
    box.close()
    with pytest.raises(OutboxError, match=r"cannot keep event b7/3"):
        box.append("b7", 3, b"x")
