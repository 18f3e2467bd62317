"""The commands' stop on SIGTERM and Ctrl-C (`tablewire.stopping`): a signal that lands while the main thread
holds the stop event's own lock still stops the process, never hangs it (a simulated table in CI did, and was
killed 15 s after its SIGTERM)."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablewire.stopping import stop_on_signals


@pytest.fixture
def sigusr1() -> Iterator[None]:
    before = signal.getsignal(signal.SIGUSR1)
    yield
    signal.signal(signal.SIGUSR1, before)


def test_a_signal_landing_while_the_stop_event_is_locked_stops_without_hanging(sigusr1: None) -> None:
    stop = stop_on_signals((signal.SIGUSR1,))
    handler = signal.getsignal(signal.SIGUSR1)
    assert callable(handler)
    returned = threading.Event()

    def locked_when_the_signal_lands() -> None:
        # as the main thread is between two bytecodes of `stop.wait(0.01)`, holding the event's lock (CPython's
        # `Event._cond`): the handler runs there, on that thread
        with stop._cond:  # type: ignore[attr-defined]
            handler(signal.SIGUSR1, None)
        returned.set()

    threading.Thread(target=locked_when_the_signal_lands, daemon=True).start()
    assert returned.wait(5), "the signal handler waited for a lock its own thread holds"
    assert stop.wait(5), "the stop was never set"


def test_a_second_signal_is_harmless(sigusr1: None) -> None:
    stop = stop_on_signals((signal.SIGUSR1,))
    handler = signal.getsignal(signal.SIGUSR1)
    assert callable(handler)
    for _ in range(100_000):  # more than a pipe holds: the handler never blocks on a full pipe
        handler(signal.SIGUSR1, None)
    assert stop.wait(5)


ROOT = Path(__file__).resolve().parent.parent
CHILD = textwrap.dedent("""
    import sys
    from tablewire.stopping import stop_on_signals
    stop = stop_on_signals()
    print("ready", flush=True)
    while not stop.is_set():
        stop.wait(0.0005)  # a croupier's short waits, the event's lock taken a thousand times a second
    print("stopped", flush=True)
""")


def test_processes_waiting_in_short_steps_all_stop_at_sigterm() -> None:
    """Real SIGTERMs at random moments of a tight wait loop (the old handler hung about 1 in 70 of these)."""
    hung = []
    for i in range(40):
        child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True,
                                 cwd=ROOT)
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.002 * (i % 10))
        child.terminate()
        try:
            out, _ = child.communicate(timeout=10)
            assert child.returncode == 0 and out.strip() == "stopped", (child.returncode, out)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            hung.append(i)
    assert not hung, f"{len(hung)} of 40 processes did not stop at SIGTERM"


def test_a_process_that_ends_by_itself_exits_without_waiting_for_a_signal() -> None:
    """A command done before any signal (`tools/club_night.py` at its end) exits: the
    thread that waits on the pipe does not keep the process alive."""
    done = "from tablewire.stopping import stop_on_signals\nstop_on_signals()\nprint('done', flush=True)\n"
    child = subprocess.Popen([sys.executable, "-c", done], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        out, _ = child.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        raise AssertionError("the process stayed alive after its work, waiting for a signal") from None
    assert (child.returncode, out.strip()) == (0, "done")
