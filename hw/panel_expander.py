"""MCP23017 expander pins as gpiozero pins: seat panels hang off I2C expanders, not bare Pi GPIOs.

Adds one header per expander (pins named `MCP20:A0`..`MCP20:B7`) to a factory's board info, so
gpiozero devices reserve and find expander pins like any GPIO. `MockExpanderFactory` is gpiozero's
`MockFactory` with those headers: CI drives expander pins with `drive_low()` like Pi pins.
"""

from __future__ import annotations

from collections.abc import Iterable

from gpiozero.pins import BoardInfo, HeaderInfo, PinInfo
from gpiozero.pins.mock import MockFactory, MockPin

PORTS = ("A", "B")  # GPA0..7 and GPB0..7


def expander_pin_number(address: int, port: str, bit: int) -> int:
    """A unique number per expander pin (address * 16 + port * 8 + bit), above every Pi GPIO."""
    return address * 16 + PORTS.index(port) * 8 + bit


def expander_header(address: int) -> HeaderInfo:
    """The 16 I/O pins of the MCP23017 at `address`, as a gpiozero header named `MCP20` (etc.)."""
    label = f"MCP{address:02X}"
    pins: dict[int, PinInfo] = {}
    for port in PORTS:
        for bit in range(8):
            number = expander_pin_number(address, port, bit)
            alias = f"{label}:{port}{bit}"
            # PiPin parses int(name[4:]): the canonical name keeps that shape, the alias is what maps use
            pins[number] = PinInfo(
                number=number, name=f"MCP:{number}", names=frozenset({alias, f"MCP:{number}"}),
                pull="", row=PORTS.index(port) + 1, col=bit + 1, interfaces=frozenset({"gpio"}),
            )
    return HeaderInfo(name=label, rows=2, columns=8, pins=pins)


def with_expanders(board: BoardInfo, addresses: Iterable[int]) -> BoardInfo:
    """`board` plus one header per expander address."""
    headers = dict(board.headers)
    for address in addresses:
        headers[f"MCP{address:02X}"] = expander_header(address)
    return board._replace(headers=headers)


class MockExpanderFactory(MockFactory):  # gpiozero ships no type hints
    """gpiozero's MockFactory (same MockPin, `drive_low()`, `states`) with MCP23017 headers added."""

    def __init__(
        self, expanders: Iterable[int], *, revision: str | None = None, pin_class: type[MockPin] | None = None
    ) -> None:
        super().__init__(revision=revision, pin_class=pin_class)
        self._expanders = tuple(expanders)
        self._board: BoardInfo | None = None

    def _get_board_info(self) -> BoardInfo:
        if self._board is None:
            self._board = with_expanders(super()._get_board_info(), self._expanders)
        return self._board
