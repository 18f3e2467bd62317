"""The dealer panel's 8-digit amount display: a MAX7219 7-segment module on three gpiozero outputs.

Consumes the 8-character texts `hw.panel.Panel` shows (`     600`, `AWAY   4`, blank) and shifts the
MAX7219's digit registers out on DIN/CLK/CS (`pin_factory=` injected; in CI a MockSPIDevice listens
on the mock pins). Letters a 7-segment digit cannot draw are approximated (W as u, M as n, K as H).
"""

from __future__ import annotations

from gpiozero import CompositeDevice, OutputDevice  # no type hints
from gpiozero.pins import Factory

from hw.panel_pins import DisplayPins

# MAX7219 registers
DIGIT0, DECODE_MODE, INTENSITY, SCAN_LIMIT, SHUTDOWN, DISPLAY_TEST = 0x01, 0x09, 0x0A, 0x0B, 0x0C, 0x0F

# segments in no-decode mode: bit 7 DP, then A B C D E F G
FONT: dict[str, int] = {
    " ": 0x00, "-": 0x01, "_": 0x08,
    "0": 0x7E, "1": 0x30, "2": 0x6D, "3": 0x79, "4": 0x33,
    "5": 0x5B, "6": 0x5F, "7": 0x70, "8": 0x7F, "9": 0x7B,
    "A": 0x77, "B": 0x1F, "C": 0x4E, "D": 0x3D, "E": 0x4F, "H": 0x37, "I": 0x06,
    "K": 0x37, "L": 0x0E, "M": 0x15, "P": 0x67, "S": 0x5B, "T": 0x0F, "W": 0x1C, "Y": 0x3B,
}
DIGITS = 8


def segments(text: str) -> list[int]:
    """Segment bytes for `text`, leftmost digit first, right-aligned on 8 digits; '.' lights the DP."""
    cells: list[int] = []
    for char in text.upper():
        if char == "." and cells:
            cells[-1] |= 0x80
            continue
        if char not in FONT:
            raise ValueError(f"the display cannot show {char!r} in {text!r}")
        cells.append(FONT[char])
    if len(cells) > DIGITS:
        raise ValueError(f"{text!r} does not fit on {DIGITS} digits")
    return [0] * (DIGITS - len(cells)) + cells


class MAX7219Display(CompositeDevice):
    """`show(text)` / `close()`, the `hw.panel.AmountDisplay` protocol. Writes only digits that change.

    Bit-banged rather than gpiozero's SPI: 128 bits per full update is nothing, any three pins do,
    and gpiozero 2.0's software SPI bus ignores an injected pin factory.
    """

    def __init__(self, din: str, clk: str, cs: str, *, intensity: int = 8, pin_factory: Factory) -> None:
        if not 0 <= intensity <= 15:
            raise ValueError(f"MAX7219 intensity is 0..15, got {intensity}")
        super().__init__(
            din=OutputDevice(din, pin_factory=pin_factory),
            clk=OutputDevice(clk, pin_factory=pin_factory),
            cs=OutputDevice(cs, initial_value=True, pin_factory=pin_factory),
            _order=("din", "clk", "cs"), pin_factory=pin_factory,
        )
        self._shown: list[int | None] = [None] * DIGITS
        for register, value in ((DISPLAY_TEST, 0), (DECODE_MODE, 0), (SCAN_LIMIT, DIGITS - 1),
                                (INTENSITY, intensity), (SHUTDOWN, 1)):
            self._command(register, value)
        self.show("")

    @classmethod
    def from_config(cls, pins: DisplayPins, *, pin_factory: Factory, intensity: int = 8) -> MAX7219Display:
        return cls(pins.din, pins.clk, pins.cs, intensity=intensity, pin_factory=pin_factory)

    def show(self, text: str) -> None:
        for index, cell in enumerate(segments(text)):
            if self._shown[index] != cell:
                # the digit 0 register drives the rightmost digit on the usual 8-digit modules
                self._command(DIGIT0 + DIGITS - 1 - index, cell)
                self._shown[index] = cell

    def close(self) -> None:
        if not self.closed:
            self._command(SHUTDOWN, 0)  # blank the display when the agent stops
        super().close()

    def _command(self, register: int, value: int) -> None:
        """One 16-bit frame, MSB first, sampled on CLK rising; CS rising latches it."""
        word = register << 8 | value
        self.cs.off()
        for bit in range(15, -1, -1):
            self.din.value = (word >> bit) & 1
            self.clk.on()
            self.clk.off()
        self.cs.on()
