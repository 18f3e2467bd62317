"""Panel pin map: which pin each seat button, seat LED and dealer control is wired to (`[panel]` section).

Read with the table profile by `tapis agent`; consumed by `hw.panel.Panel` to build gpiozero devices.
Pins are Raspberry Pi GPIOs (`GPIO17`) or MCP23017 expander pins (`MCP20:A3` = chip 0x20, port A, bit 3).
A wrong map (pin used twice, seat missing, unknown pin) is refused with `PinMapError` naming the pin.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from hw.errors import ConfigError

MAX_SEATS = 10
PI_GPIOS = range(0, 28)  # BCM GPIO0..GPIO27 on the 40-pin header
I2C_PINS = frozenset({"GPIO2", "GPIO3"})  # SDA1/SCL1: taken by the expander bus
EXPANDER_ADDRESSES = range(0x20, 0x28)  # MCP23017 A2..A0 strapping

_GPIO = re.compile(r"^GPIO(\d{1,2})$")
_MCP = re.compile(r"^MCP([0-9A-F]{2}):([AB])([0-7])$")


class PinMapError(ConfigError):
    """A panel pin map is wrong; the message names the pin or the seat. Also a ValueError."""


class SeatPins(BaseModel):
    """One seat panel: four buttons to ground (pull-ups) and two LEDs (output high = lit)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    fold: str
    check_call: str
    bet_raise: str
    allin: str
    to_act_led: str  # « à vous de parler »
    fault_led: str  # faute / siège en infraction


class DealerPins(BaseModel):
    """The dealer panel: four buttons, a rotary encoder with push switch, one status LED."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    new_hand: str
    away: str
    back: str
    time: str
    encoder_a: str
    encoder_b: str
    encoder_push: str
    led: str | None = None  # lit while a seat is being picked; PWM-capable pin preferred


class DisplayPins(BaseModel):
    """The MAX7219 amount display, clocked bit by bit. The defaults are on no bus: GPIO 8-11 are SPI0's
    (the kernel's spidev claims them once SPI is enabled), 16-21 SPI1's, 14/15 the UART."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    din: str = "GPIO24"
    clk: str = "GPIO25"
    cs: str = "GPIO26"


class PanelConfig(BaseModel):
    """The `[panel]` section of a table profile. Times in milliseconds, as a TOML file writes them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seats: dict[int, SeatPins]
    dealer: DealerPins
    expanders: tuple[int, ...] = ()  # I2C addresses of the MCP23017 chips, 0x20..0x27
    i2c_bus: int = Field(default=1, ge=0)
    expander_interrupt: str | None = None  # Pi GPIO wired to every chip's INTA/INTB (open drain)
    display: DisplayPins | None = None  # the dealer's 8-digit amount display, if fitted
    bounce_ms: int = Field(default=20, ge=0, le=200)
    allin_hold_ms: int = Field(default=800, ge=0, le=5000)  # all-in needs a deliberate press
    new_hand_hold_ms: int = Field(default=1000, ge=0, le=5000)
    clear_hold_ms: int = Field(default=1000, ge=0, le=5000)  # long press on the encoder clears the amount
    pick_window_ms: int = Field(default=8000, ge=1000, le=60000)  # seat pick for away/back/time expires

    @model_validator(mode="after")
    def _check(self) -> PanelConfig:
        for address in self.expanders:
            if address not in EXPANDER_ADDRESSES:
                raise PinMapError(f"expander address {address:#04x} is not an MCP23017 address (0x20..0x27)")
        if len(set(self.expanders)) != len(self.expanders):
            raise PinMapError(f"expander addresses repeated: {[hex(a) for a in self.expanders]}")
        numbers = sorted(self.seats)
        if not numbers:
            raise PinMapError("the panel map has no seat")
        for seat in numbers:
            if not 1 <= seat <= MAX_SEATS:
                raise PinMapError(f"seat {seat}: seats are numbered 1..{MAX_SEATS}")
        missing = sorted(set(range(1, numbers[-1] + 1)) - set(numbers))
        if missing:
            raise PinMapError(f"seat {missing[0]} has no pins (seats must run 1..{numbers[-1]} without gaps)")
        owner: dict[str, str] = {}
        for use, pin in self.uses():
            self._check_pin(use, pin)
            if pin in owner:
                raise PinMapError(f"pin {pin} used twice: {owner[pin]} and {use}")
            owner[pin] = use
        return self

    def _check_pin(self, use: str, pin: str) -> None:
        if (m := _GPIO.match(pin)) is not None:
            if int(m.group(1)) not in PI_GPIOS:
                raise PinMapError(f"{use}: {pin} is not a Raspberry Pi GPIO (GPIO0..GPIO27)")
            if self.expanders and pin in I2C_PINS:
                raise PinMapError(f"{use}: {pin} carries the I2C bus to the expanders")
            return
        if (m := _MCP.match(pin)) is not None:
            if int(m.group(1), 16) not in self.expanders:
                raise PinMapError(f"{use}: {pin} is on expander 0x{m.group(1)}, not listed in expanders")
            if use == "expander_interrupt" or use.startswith(("dealer encoder", "display")):
                raise PinMapError(f"{use}: {pin} must be a Pi GPIO (needs its own edge interrupt)")
            if m.group(3) == "7" and not use.endswith("led"):
                # Microchip's datasheet (rev. D on) makes GPA7/GPB7 output-only
                raise PinMapError(f"{use}: {pin} is output-only on the MCP23017; wire a button on bits 0..6")
            return
        raise PinMapError(f"{use}: {pin!r} is not a pin name (GPIO17 or MCP20:A3)")

    def uses(self) -> Iterator[tuple[str, str]]:
        """(what, pin) for every wired pin, in map order: `seat 3 fold`, `dealer time`..."""
        for seat in sorted(self.seats):
            for field, pin in self.seats[seat]:
                yield f"seat {seat} {field}", str(pin)
        for field, pin in self.dealer:
            if pin is not None:
                yield f"dealer {field.replace('_', ' ')}", str(pin)
        if self.display is not None:
            for field, pin in self.display:
                yield f"display {field}", str(pin)
        if self.expander_interrupt is not None:
            yield "expander_interrupt", self.expander_interrupt

    def check_table(self, seats: int) -> None:
        """Refuse a map that does not cover every seat of a table of `seats` seats."""
        missing = [s for s in range(1, seats + 1) if s not in self.seats]
        if missing:
            raise PinMapError(f"the table has {seats} seats but the panel map wires none for seat {missing[0]}")

    @classmethod
    def parse(cls, data: Mapping[str, object], *, source: str = "[panel]") -> PanelConfig:
        """Validate a `[panel]` table; every problem becomes one `PinMapError` naming `source`."""
        try:
            return cls.model_validate(data)
        except ValidationError as err:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc'])}: {_message(e)}" if e["loc"] else _message(e)
                for e in err.errors()
            )
            raise PinMapError(f"{source}: {problems}") from err

    @classmethod
    def load(cls, path: str | Path) -> PanelConfig:
        """The `[panel]` table of a TOML file (a table profile, or a file of its own)."""
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as err:
            raise PinMapError(f"panel map {path}: {err}") from err
        section = data.get("panel")
        if not isinstance(section, dict):
            raise PinMapError(f"panel map {path}: no [panel] section")
        return cls.parse(section, source=f"{path} [panel]")

    @classmethod
    def reference(cls, seats: int = MAX_SEATS) -> PanelConfig:
        """The wiring of docs/panel-wiring.md: two seats per MCP23017 (odd seat port A, even port B)."""
        chips = tuple(0x20 + i for i in range((seats + 1) // 2))
        seat_pins: dict[int, SeatPins] = {}
        for seat in range(1, seats + 1):
            base = f"MCP{0x20 + (seat - 1) // 2:02X}:{'A' if seat % 2 else 'B'}"
            seat_pins[seat] = SeatPins(
                fold=f"{base}0", check_call=f"{base}1", bet_raise=f"{base}2", allin=f"{base}3",
                to_act_led=f"{base}4", fault_led=f"{base}5",
            )
        dealer = DealerPins(
            new_hand="GPIO17", away="GPIO27", back="GPIO22", time="GPIO23",
            encoder_a="GPIO5", encoder_b="GPIO6", encoder_push="GPIO13", led="GPIO12",
        )
        return cls(seats=seat_pins, dealer=dealer, expanders=chips, expander_interrupt="GPIO4",
                   display=DisplayPins())


def _message(error: object) -> str:
    # pydantic wraps our PinMapError text as "Value error, <text>": keep only the text
    msg = str(error["msg"]) if isinstance(error, dict) else str(error)
    return msg.removeprefix("Value error, ")
