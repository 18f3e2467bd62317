"""A broker that misbehaves on purpose, for what Mosquitto cannot be made to do: an asyncio server on a
loopback port, on its own thread, that runs a script the test writes for each connection.

    async def script(conn: Conn) -> None:
        await conn.read()                        # CONNECT
        conn.send(connack(receive_max=5))
        await conn.serve()                       # then as a good broker: acks, pings, until closed

    with FakeBroker(script) as broker:
        link = HubLink(client_id="hub", host=broker.host, port=broker.port)

`conn.index` says which connection it is (0 first), so a script can differ from one to the next; every
packet read is kept in `conn.received` for the test to check from its own thread.
"""

from __future__ import annotations

import asyncio
import socket
import struct
import threading
from collections import deque
from collections.abc import Awaitable, Callable

from hub.edge import mqtt5

Script = Callable[["Conn"], Awaitable[None]]


def connack(*, session_present: bool = False, code: int = 0, receive_max: int | None = None,
            keepalive: int | None = None, max_packet: int | None = None) -> bytes:
    props = b""
    if receive_max is not None:
        props += bytes((mqtt5.RECEIVE_MAXIMUM,)) + struct.pack("!H", receive_max)
    if keepalive is not None:
        props += bytes((mqtt5.SERVER_KEEP_ALIVE,)) + struct.pack("!H", keepalive)
    if max_packet is not None:
        props += bytes((mqtt5.MAXIMUM_PACKET_SIZE,)) + struct.pack("!I", max_packet)
    body = bytes((int(session_present), code)) + mqtt5.varint(len(props)) + props
    return bytes((mqtt5.CONNACK << 4,)) + mqtt5.varint(len(body)) + body


async def serve_after_connack(conn: Conn) -> None:
    """The script of a broker with nothing to say: CONNECT read, CONNACK plain, then served well."""
    await conn.read()
    conn.send(connack())
    await conn.serve()


def disconnect(code: int) -> bytes:
    return bytes((mqtt5.DISCONNECT << 4, 2, code, 0))


def publish_with(topic: str, payload: bytes, *, packet_id: int, props: bytes) -> bytes:
    """A QoS 1 PUBLISH carrying the given raw property bytes (what a well-behaved broker would not send)."""
    raw = topic.encode()
    body = struct.pack("!H", len(raw)) + raw + struct.pack("!H", packet_id) + mqtt5.varint(len(props)) + props \
        + payload
    return bytes((0x32,)) + mqtt5.varint(len(body)) + body


class Conn:
    """One client connection, seen from the broker's side."""

    def __init__(self, index: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.index = index
        self.received: list[tuple[int, bytes]] = []
        self.closed = threading.Event()  # the client hung up (or the script ended)
        self._reader, self._writer = reader, writer
        self._parser = mqtt5.Reader(1 << 28)
        self._ready: deque[tuple[int, bytes]] = deque()

    async def read(self) -> tuple[int, bytes] | None:
        """The next packet (first byte, body), or None once the client closed the connection."""
        while not self._ready:
            data = await self._reader.read(1 << 16)
            if not data:
                self.closed.set()
                return None
            packets, error = self._parser.feed(data)
            assert error is None, error
            self._ready.extend(packets)
        packet = self._ready.popleft()
        self.received.append(packet)
        return packet

    def pending(self) -> bool:
        """Packets already read from the socket that `read` has not returned yet."""
        return bool(self._ready)

    def send(self, data: bytes) -> None:
        self._writer.write(data)

    def abort(self) -> None:
        """The broker's side drops the connection without a word (a crash, a cut cable)."""
        self._writer.transport.abort()

    def reset(self) -> None:
        """The broker's host resets the connection (RST, not FIN): what a crash or a firewall does."""
        sock = self._writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self._writer.transport.abort()

    def publishes(self) -> list[mqtt5.Incoming]:
        return [mqtt5.read_publish(first, body) for first, body in self.received if first >> 4 == mqtt5.PUBLISH]

    async def serve(self, *, ack: bool = True, pings: bool = True) -> None:
        """As a good broker until the client hangs up: PUBACK each QoS 1 publish (`ack`), PINGRESP
        each PINGREQ (`pings`), SUBACK and UNSUBACK granting QoS 1."""
        while (packet := await self.read()) is not None:
            first, body = packet
            kind = first >> 4
            if kind == mqtt5.PUBLISH and first & 0x06 and ack:
                self.send(mqtt5.puback(mqtt5.read_publish(first, body).packet_id))
            elif kind == mqtt5.PINGREQ and pings:
                self.send(b"\xd0\x00")
            elif kind in (mqtt5.SUBSCRIBE, mqtt5.UNSUBSCRIBE):  # one reason code: the first filter's
                self.send(bytes(((kind + 1) << 4, 4)) + body[:2] + b"\x00\x01")
            elif kind == mqtt5.DISCONNECT:
                return


class FakeBroker:
    def __init__(self, script: Script) -> None:
        self.host = "127.0.0.1"
        self.port = 0
        self.connections: list[Conn] = []
        self._script = script
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="fake-broker", daemon=True)
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def __enter__(self) -> FakeBroker:
        self._thread.start()
        started = asyncio.run_coroutine_threadsafe(asyncio.start_server(self._accept, self.host, 0), self._loop)
        self._server = started.result(5)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def __exit__(self, *exc: object) -> None:
        async def close() -> None:
            assert self._server is not None
            self._server.close()
            for task in self._tasks:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._loop.close()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Conn(len(self.connections), reader, writer)
        self.connections.append(conn)
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            await self._script(conn)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self._tasks.discard(task)
            conn.closed.set()
            writer.transport.abort()


async def take_unacked(conn: Conn, count: int) -> None:
    """Read `count` publishes without acknowledging one, then drop the connection."""
    while len(conn.publishes()) < count:
        if await conn.read() is None:
            return
    conn.abort()


def topics(conn: Conn) -> list[str]:
    """The topics of the publishes a connection received, in order."""
    return [m.topic for m in conn.publishes()]
