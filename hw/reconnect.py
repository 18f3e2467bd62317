"""Open, serve, close and open again with backoff: the loop of every worker that holds a link to hardware.

A reader board's serial link and pcscd's context both come and go (a cable pulled, pcscd restarted);
each worker thread runs `Reconnect.run` with its own opener and session. A failed try waits 50 ms,
then twice as long each time up to `retry_max`; a session that worked (`up()`) makes the next retry fast.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

L = TypeVar("L")

FIRST_DELAY = 0.05  # seconds


class Reconnect:
    def __init__(self, stop: threading.Event, *, retry_max: float) -> None:
        self._stop = stop
        self._retry_max = retry_max
        self.delay = FIRST_DELAY

    def up(self) -> None:
        """The link works: after its loss, try again soon (50 ms), not after the last backoff."""
        self.delay = FIRST_DELAY

    def run(self, open_link: Callable[[], L], serve: Callable[[L], None], *,
            failed: Callable[[L | None, OSError], None], close: Callable[[], None]) -> None:
        """Until stopped: `serve(open_link())`. An OSError from either goes to `failed(link or None,
        err)`; `close()` ends every try; the next one waits its backoff."""
        while not self._stop.is_set():
            link: L | None = None
            try:
                link = open_link()
                serve(link)
            except OSError as err:  # hw.errors.LinkError and pcscd's errors are OSErrors
                failed(link, err)
            finally:
                close()
            self._stop.wait(self.delay)
            self.delay = min(self.delay * 2, self._retry_max)
