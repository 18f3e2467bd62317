"""SerialLink, the ByteLink over serial_for_url: loop://, a raw pty, socket://127.0.0.1, failures."""

from __future__ import annotations

import os
import socket
import threading
import tty
from collections.abc import Iterator

import pytest

from firmware_bridge import Decoder, StartScan, TagSeen, encode
from hw.errors import HardwareError, LinkError
from hw.ports import ByteLink
from hw.serial_link import SerialLink


def read_exactly(link: SerialLink, size: int) -> bytes:
    data = b""
    for _ in range(200):  # 200 timeouts of 50 ms: a generous bound, not a timing assertion
        data += link.read(size - len(data))
        if len(data) >= size:
            break
    return data


@pytest.fixture
def pty_pair() -> Iterator[tuple[int, str]]:
    master, slave = os.openpty()
    tty.setraw(slave)
    yield master, os.ttyname(slave)
    for fd in (master, slave):
        try:
            os.close(fd)
        except OSError:
            pass  # the test closed it on purpose


def test_loop_url_is_a_byte_link_that_echoes() -> None:
    with SerialLink("loop://") as link:
        assert isinstance(link, ByteLink)
        seen = TagSeen(2, bytes.fromhex("04a1b2c3"), -47)
        link.write(encode(seen) * 3)
        assert Decoder().feed(read_exactly(link, len(encode(seen)) * 3)) == [seen] * 3
        assert link.read() == b""  # nothing more: empty on timeout


def test_read_takes_what_is_waiting_up_to_size() -> None:
    with SerialLink("loop://") as link:
        link.write(bytes(range(100)))
        assert read_exactly(link, 30) == bytes(range(30))
        assert read_exactly(link, 70) == bytes(range(30, 100))


def test_a_raw_pty_carries_every_byte_value_both_ways(pty_pair: tuple[int, str]) -> None:
    master, path = pty_pair
    every_byte = bytes(range(256))  # 0x03 (^C), 0x0A (LF), 0x0D (CR), 0x11 (XON) must pass untouched
    with SerialLink(path) as link:
        os.write(master, every_byte)
        assert read_exactly(link, 256) == every_byte
        link.write(every_byte)
        got = b""
        while len(got) < 256:
            got += os.read(master, 256)
        assert got == every_byte


def test_the_board_end_of_a_pty_closing_is_a_link_error(pty_pair: tuple[int, str]) -> None:
    master, path = pty_pair
    link = SerialLink(path)
    os.write(master, encode(StartScan()))
    assert read_exactly(link, len(encode(StartScan()))) == encode(StartScan())
    os.close(master)
    with pytest.raises(LinkError) as info:
        for _ in range(10):
            link.read()
    assert isinstance(info.value, OSError) and isinstance(info.value, HardwareError)
    assert info.value.__cause__ is not None
    link.close()


def test_opening_a_missing_device_is_a_link_error() -> None:
    with pytest.raises(LinkError, match="cannot open reader link /dev/tapis-no-such-reader"):
        SerialLink("/dev/tapis-no-such-reader")
    with pytest.raises(LinkError, match="cannot open reader link nonsense://x"):
        SerialLink("nonsense://x")


def test_using_a_closed_link_is_a_link_error() -> None:
    link = SerialLink("loop://")
    link.close()
    link.close()  # idempotent
    with pytest.raises(LinkError):
        link.read()
    with pytest.raises(LinkError):
        link.write(b"\x00")


def test_a_non_positive_timeout_is_refused() -> None:
    with pytest.raises(ValueError, match="timeout must be positive"):
        SerialLink("loop://", timeout=0)


def test_socket_url_to_a_loopback_simulator() -> None:
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    frames = [TagSeen(i % 20, bytes([4, i, i, i])) for i in range(1, 50)]
    wire = b"".join(encode(f) for f in frames)

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            # pyserial drains the socket when it opens: speak only once the host has spoken
            assert conn.recv(16) == encode(StartScan())
            conn.sendall(wire)

    thread = threading.Thread(target=serve)
    thread.start()
    try:
        with SerialLink(f"socket://127.0.0.1:{port}") as link:
            link.write(encode(StartScan()))
            assert Decoder().feed(read_exactly(link, len(wire))) == frames
    finally:
        thread.join(timeout=5)
        server.close()
