"""Small helpers the end-to-end tests share: waiting for a condition, a two-seat table's profile."""

from __future__ import annotations

import time
from collections.abc import Callable

# A two-seat table on one reader board (antennas 0-5), `{url}` to fill with the board's port.
TWO_SEAT_PROFILE = """table = "t1"
seats = 2
[reader]
url = "{url}"
[antennas]
0 = "seat:1"
1 = "seat:2"
2 = "board"
3 = "burn"
4 = "muck"
5 = "tray"
"""


def wait_until(condition: Callable[[], object], timeout: float = 10.0, step: float = 0.02) -> bool:
    """Poll `condition` until it holds (True) or `timeout` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return False
