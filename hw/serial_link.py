"""The serial adapter: a `hw.ports.ByteLink` over `serial.serial_for_url`.

Sits under the table agent's reader worker, which feeds what `read` returns to a
`firmware_bridge.Decoder`. One class for a USB device path, a pty path (the reader board simulator),
`socket://127.0.0.1:N`, `loop://` and `spy://`; pyserial errors come out as `hw.errors.LinkError`.
"""

from __future__ import annotations

import serial

from hw.errors import LinkError


class SerialLink:
    """A reader board's byte stream. `read` returns what arrived within `timeout` seconds (b"" if
    nothing did) without waiting for `size` bytes; every failure, at open or later, is a `LinkError`."""

    def __init__(self, url: str, *, baudrate: int = 115200, timeout: float = 0.05) -> None:
        if timeout <= 0:
            # 0 would make read() spin, None would block forever and close() could not stop a reader
            raise ValueError(f"timeout must be positive seconds, got {timeout}")
        self.url = url
        try:
            self._port = serial.serial_for_url(url, baudrate=baudrate, timeout=timeout)
        except (serial.SerialException, OSError, ValueError) as err:
            raise LinkError(f"cannot open reader link {url}: {err}") from err

    @property
    def is_open(self) -> bool:
        return bool(self._port.is_open)

    def read(self, size: int = 4096) -> bytes:
        """Block up to the timeout for the first byte, then take what is already waiting, up to `size`."""
        try:
            data = bytearray(self._port.read(1))
            if not data:
                return b""
            waiting = self._port.in_waiting
            while waiting and len(data) < size:
                data += self._port.read(min(waiting, size - len(data)))
                waiting = self._port.in_waiting
            return bytes(data)
        except (serial.SerialException, OSError, TypeError, AttributeError) as err:
            # TypeError/AttributeError: pyserial's read on a port closed by another thread
            raise LinkError(f"reader link {self.url} lost: {err}") from err

    def write(self, data: bytes) -> None:
        try:
            self._port.write(data)
        except (serial.SerialException, OSError, TypeError, AttributeError) as err:
            raise LinkError(f"reader link {self.url} lost while writing: {err}") from err

    def reset_input(self) -> None:
        """Discard bytes received but not yet read (stale frames after a reopen)."""
        try:
            self._port.reset_input_buffer()
        except (serial.SerialException, OSError) as err:
            raise LinkError(f"reader link {self.url} lost: {err}") from err

    def close(self) -> None:
        """Idempotent."""
        try:
            self._port.close()
        except (serial.SerialException, OSError) as err:
            raise LinkError(f"closing reader link {self.url}: {err}") from err

    def __enter__(self) -> SerialLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
