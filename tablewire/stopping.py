"""A process's stop on SIGTERM (systemd) or SIGINT (Ctrl-C), as a `threading.Event` the process waits on.

Not `signal.signal(sig, lambda *_: stop.set())`: Python runs a handler in the main thread between two
bytecodes, possibly while that thread holds the event's own lock inside `stop.wait(...)`; `set()` then waits
for a lock its own thread holds, forever (the warning on locks in signal handlers in Python's `signal` docs).
A simulated table, whose croupier waits on its stop in 10 ms steps, hung so at one SIGTERM in a CI run and
was killed. Here the handler only writes a byte to a pipe, which takes no lock, and a small thread reading
the pipe sets the event: the main thread, never blocked, lets the lock go."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterable

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def stop_on_signals(signals: Iterable[signal.Signals] = STOP_SIGNALS) -> threading.Event:
    """Install handlers for `signals` (from the main thread) and return the event they set."""
    stop = threading.Event()
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)  # a handler never blocks, even on a full pipe

    def handler(_signum: int, _frame: object) -> None:
        try:
            os.write(write_end, b"\0")
        except BlockingIOError:  # the pipe is full: a stop is already on its way
            pass

    def relay() -> None:
        os.read(read_end, 1)
        stop.set()

    threading.Thread(target=relay, name="stop-on-signal", daemon=True).start()
    for sig in signals:
        signal.signal(sig, handler)
    return stop
