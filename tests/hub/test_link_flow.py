"""The hub's MQTT link carrying the room's traffic (issue 29, round two): what it sends again after a
reconnect and how, what waits and in which order, subscriptions coming and going, and a clean stop.
A link on a clock the test moves (`link_harness`) or a broker of the tests' own (`fake_broker`)."""

from __future__ import annotations

import logging
import socket
import struct

import pytest

from hub.edge import mqtt5
from hub.edge.link import HubLink
from tests.hub.fake_broker import Conn, FakeBroker, connack
from tests.hub.link_harness import Clocked, Wire, clocked, links, make_link, said
from tests.support import wait_until

__all__ = ["clocked", "links"]  # fixtures


def _connack(**props: int) -> bytes:
    raw = b""
    for name, value in props.items():
        kind = getattr(mqtt5, name.upper())
        raw += bytes((kind,)) + (struct.pack("!I", value) if kind == mqtt5.MAXIMUM_PACKET_SIZE
                                 else struct.pack("!H", value))
    return b"\x00\x00" + mqtt5.varint(len(raw)) + raw


def _publishes(wire: Wire) -> list[tuple[int, mqtt5.Incoming]]:
    """(first byte, publish) of each PUBLISH written since the last look."""
    return [(first, mqtt5.read_publish(first, body)) for first, body in wire.packets() if first >> 4 == mqtt5.PUBLISH]


# --- A clean stop --------------------------------------------------------------------------------------


def test_what_was_published_just_before_stop_reaches_the_broker_before_the_disconnect(
        links: list[HubLink]) -> None:
    """The hub's last words at shutdown (its `offline` status, a table's final state) are written
    before the DISCONNECT, in the same turn: none is lost to the close."""
    async def script(conn: Conn) -> None:
        await conn.read()
        conn.send(connack())
        await conn.serve()

    with FakeBroker(script) as broker:
        link = make_link(links, broker.port)
        link.start()

        link.publish("room/hub/status", b"offline", retain=True, qos=0)
        link.stop()
        assert broker.connections[0].closed.wait(2)
        kinds = [first >> 4 for first, _ in broker.connections[0].received]
        assert kinds[-2:] == [mqtt5.PUBLISH, mqtt5.DISCONNECT]
