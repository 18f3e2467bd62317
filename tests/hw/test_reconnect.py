"""`hw.reconnect.Reconnect`: the one open/backoff/close loop of the reader and PC/SC workers."""

import threading

from hw.reconnect import Reconnect


class CountedStop(threading.Event):
    """Records each backoff wait instead of sleeping; stops the loop after `tries` waits."""

    def __init__(self, tries: int) -> None:
        super().__init__()
        self.tries = tries
        self.waits: list[float] = []

    def wait(self, timeout: float | None = None) -> bool:
        self.waits.append(timeout or 0.0)
        if len(self.waits) >= self.tries:
            self.set()
        return self.is_set()


def test_failed_opens_back_off_doubling_up_to_the_maximum() -> None:
    stop = CountedStop(tries=6)
    failures: list[tuple[object, str]] = []
    closes: list[int] = []

    def refuse() -> object:
        raise OSError("no such device")

    Reconnect(stop, retry_max=0.5).run(refuse, lambda _: None, failed=lambda link, err: failures.append(
        (link, str(err))), close=lambda: closes.append(1))
    assert stop.waits == [0.05, 0.1, 0.2, 0.4, 0.5, 0.5]
    assert failures == [(None, "no such device")] * 6 and len(closes) == 6


def test_a_link_that_worked_is_retried_fast_and_reported_with_its_link() -> None:
    stop = CountedStop(tries=5)
    opened: list[str | OSError] = [OSError("busy"), OSError("busy"), "link-1", OSError("busy"), "link-2"]
    failures: list[object] = []

    def open_link() -> str:
        item = opened.pop(0)
        if isinstance(item, OSError):
            raise item
        return item

    def serve(link: str) -> None:
        reconnect.up()
        raise OSError(f"{link} unplugged")

    reconnect = Reconnect(stop, retry_max=2.0)
    reconnect.run(open_link, serve, failed=lambda link, err: failures.append(link), close=lambda: None)
    assert stop.waits == [0.05, 0.1, 0.05, 0.1, 0.05]  # after each working link: 50 ms again
    assert failures == [None, None, "link-1", None, "link-2"]


def test_stop_during_a_session_ends_the_loop() -> None:
    stop = CountedStop(tries=99)
    served: list[str] = []

    def serve(link: str) -> None:
        served.append(link)
        stop.set()

    Reconnect(stop, retry_max=2.0).run(lambda: "link", serve, failed=lambda *_: None, close=lambda: None)
    assert served == ["link"]
