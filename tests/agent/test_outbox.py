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
