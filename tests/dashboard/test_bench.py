"""The latency benchmark still runs (a tiny room, one second): its figures are in docs/dashboard.md."""

from __future__ import annotations

import pytest

from tests.dashboard import bench_dashboard


def test_bench_runs_and_viewers_get_no_hole_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_dashboard.main(["--tables", "4", "--clients", "3", "--tds", "1", "--rate", "5",
                                 "--seconds", "1"]) == 0
    out = capsys.readouterr().out
    assert "hub event -> SSE client (viewer)" in out and "hub event -> SSE client (TD    )" in out
    assert "hole-card leaks in viewers' streams: 0" in out
