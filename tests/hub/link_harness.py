"""What the tests of the hub's MQTT link share: links stopped at the test's end, what the link logs, and
a link on a clock the test moves, wired to fake transports by hand (no loop runs: nothing happens but
what the test does)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from hub.edge import mqtt5
from hub.edge.link import HubLink


@pytest.fixture
def links() -> Iterator[list[HubLink]]:
    made: list[HubLink] = []
    yield made
    for link in made:
        link.stop()


def make_link(links: list[HubLink], port: int, **kw: Any) -> HubLink:
    link = HubLink(client_id="tapis-hub", host="127.0.0.1", port=port, **kw)
    links.append(link)
    return link


def said(caplog: pytest.LogCaptureFixture, level: int = logging.WARNING) -> list[str]:
    """What the link logged, at `level` and above."""
    return [r.getMessage() for r in caplog.records if r.name == "hub.edge.link" and r.levelno >= level]


class Wire:
    """What the link writes, without a socket; closing it is the broker's side going away."""

    def __init__(self) -> None:
        self.written = bytearray()
        self.writes = 0
        self.closed = self.aborted = False
        self.reading = True

    def write(self, data: bytes) -> None:
        self.written += data
        self.writes += 1

    def get_extra_info(self, _name: str) -> None:
        return None

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = True

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def packets(self) -> list[tuple[int, bytes]]:
        got, error = mqtt5.Reader(1 << 20).feed(bytes(self.written))
        assert error is None
        self.written.clear()
        return got


class Clocked:
    """A link on a clock the test moves, connected to `Wire`s by hand: no loop runs, so nothing but
    what the test does happens."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, **kw: Any) -> None:
        self.now = 100.0
        self.link = HubLink(client_id="tapis-hub", host="127.0.0.1", port=1, **kw)
        monkeypatch.setattr(self.link.loop, "time", lambda: self.now)

    def connect(self, connack_body: bytes = b"\x00\x00\x00") -> Wire:
        wire = Wire()
        self.link._made(wire)  # type: ignore[arg-type]
        self.link._packets([(mqtt5.CONNACK << 4, connack_body)])
        return wire

    def lose(self, err: Exception | None) -> None:
        self.link._lost(err)
        reconnect = self.link._reconnect
        assert reconnect is not None and not reconnect.done()  # a reconnect is on its way
        reconnect.cancel()
        self.link.loop.run_until_complete(asyncio.gather(reconnect, return_exceptions=True))

    def turn(self) -> None:
        """One turn of the loop: what was handed to it from another thread runs, and is written."""
        self.link.loop.run_until_complete(asyncio.sleep(0))
        self.link._flush()

    def close(self) -> None:
        for timer in (self.link._ping, self.link._no_connack):
            if timer is not None:
                timer.cancel()
        self.link.loop.close()


@pytest.fixture
def clocked(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clocked]:
    """A `Clocked` link with the defaults."""
    made = Clocked(monkeypatch)
    yield made
    made.close()


def kinds(wire: Wire) -> list[int]:
    return [first >> 4 for first, _ in wire.packets()]
