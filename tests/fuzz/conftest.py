"""The fuzz run's figures: examples run and seconds per property, printed at the end of the session."""

from __future__ import annotations

import pytest
from fuzz_budget import EXAMPLES, LARGE, SECONDS


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not EXAMPLES:
        return
    failed = len(terminalreporter.stats.get("failed", []))
    mode = f"large run, TAPIS_FUZZ_EXAMPLES={LARGE}" if LARGE else "default run"
    terminalreporter.write_sep("-", f"fuzz figures ({mode})")
    for name in sorted(EXAMPLES):
        rate = EXAMPLES[name] / SECONDS[name] if SECONDS.get(name) else 0.0
        terminalreporter.write_line(f"{name:48} {EXAMPLES[name]:>9} examples {SECONDS.get(name, 0.0):8.1f} s "
                                    f"{rate:9.0f}/s")
    terminalreporter.write_line(f"{'total':48} {sum(EXAMPLES.values()):>9} examples, failing tests: {failed}")
