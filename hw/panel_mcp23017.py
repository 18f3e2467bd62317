"""MCP23017 I2C expanders as a gpiozero pin factory, so seat panels are ordinary gpiozero devices.

`ExpanderFactory` serves `MCP20:A0`-style pins from the chips over an `I2CBus` (smbus2's `SMBus` on a
Pi, a simulated chip in tests) and every other pin from the Pi's own factory (the dealer panel). Input
changes arrive on one shared interrupt GPIO (INTA/INTB mirrored, open drain) or by `poll()`; they reach
the gpiozero devices as `when_changed` calls, exactly like Pi pins. A press is taken from INTCAP (the
port as it was when the interrupt fired), then the present level from GPIO: a tap released before the
Pi reads the chip is still a press then a release.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from typing import Protocol

from gpiozero import PinInvalidFunction, PinInvalidPull
from gpiozero.pins import BoardInfo, Factory, Pin, PinInfo
from gpiozero.pins.pi import PiPin

from hw.errors import LinkError
from hw.panel_expander import PORTS, expander_header, with_expanders

log = logging.getLogger(__name__)

# registers with IOCON.BANK = 0 (power-on): port A at the even address, port B at the next
IODIR, GPINTEN, DEFVAL, INTCON, IOCON, GPPU, INTF, INTCAP, GPIO, OLAT = (
    0x00, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x14,
)
IOCON_MIRROR, IOCON_ODR = 0x40, 0x04  # one INT line for both ports; open drain so chips share a wire
CHECK_EVERY = 0.5  # seconds between checks of the chips' configuration by `service()`


class I2CBus(Protocol):
    """The three calls of smbus2.SMBus the driver needs."""

    def read_byte_data(self, i2c_addr: int, register: int) -> int: ...

    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None: ...

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int) -> list[int]: ...


class _Chip:
    """Cached registers of one MCP23017, so a pin change costs one I2C write."""

    def __init__(self, address: int) -> None:
        self.address = address
        self.iodir = [0xFF, 0xFF]  # power-on: all inputs
        self.gppu = [0, 0]
        self.gpinten = [0, 0]
        self.olat = [0, 0]
        self.levels = [0xFF, 0xFF]  # last levels seen on the inputs


class ExpanderPin(PiPin):
    """One MCP23017 I/O. No PWM, no hardware debounce (the panel debounces), pull-up or floating."""

    def __init__(self, factory: ExpanderFactory, info: PinInfo, chip: _Chip, port: int, bit: int) -> None:
        super().__init__(factory, info)
        self._chip, self._port, self._bit = chip, port, bit
        self._mask = 1 << bit
        self._bounce: float | None = None
        self._edges = "both"

    def close(self) -> None:
        self.when_changed = None
        self.function = "input"

    def _get_function(self) -> str:
        return "input" if self._chip.iodir[self._port] & self._mask else "output"

    def _set_function(self, value: str) -> None:
        if value not in ("input", "output"):
            raise PinInvalidFunction(f"{self!r}: an expander pin is input or output, not {value}")
        iodir = self._chip.iodir[self._port]
        iodir = iodir | self._mask if value == "input" else iodir & ~self._mask
        self._factory._write(self._chip, IODIR, self._port, iodir, self._chip.iodir)

    def _get_state(self) -> bool:
        if self._get_function() == "output":
            return bool(self._chip.olat[self._port] & self._mask)
        # chip.levels is left alone: it is what poll() last dispatched, so no pending change is lost
        return bool(self._factory._read(self._chip, GPIO + self._port) & self._mask)

    def _set_state(self, value: float) -> None:
        if self._get_function() == "input":
            raise PinInvalidFunction(f"cannot set the state of input {self!r}")
        olat = self._chip.olat[self._port]
        olat = olat | self._mask if value else olat & ~self._mask
        self._factory._write(self._chip, OLAT, self._port, olat, self._chip.olat)

    def _get_pull(self) -> str:
        return "up" if self._chip.gppu[self._port] & self._mask else "floating"

    def _set_pull(self, value: str) -> None:
        if value not in ("up", "floating"):
            raise PinInvalidPull(f"{self!r}: the MCP23017 has pull-ups only, not {value}")
        gppu = self._chip.gppu[self._port]
        gppu = gppu | self._mask if value == "up" else gppu & ~self._mask
        self._factory._write(self._chip, GPPU, self._port, gppu, self._chip.gppu)

    def _get_bounce(self) -> float | None:
        return self._bounce

    def _set_bounce(self, value: float | None) -> None:
        self._bounce = None if value is None else float(value)  # kept for gpiozero; debounce is the panel's

    def _get_edges(self) -> str:
        return self._edges

    def _set_edges(self, value: str) -> None:
        self._edges = value

    def _enable_event_detect(self) -> None:
        # start this pin from its present level; the other bits of the port keep theirs
        level = self._factory._read(self._chip, GPIO + self._port) & self._mask
        self._chip.levels[self._port] = self._chip.levels[self._port] & ~self._mask | level
        gpinten = self._chip.gpinten[self._port] | self._mask
        self._factory._write(self._chip, GPINTEN, self._port, gpinten, self._chip.gpinten)

    def _disable_event_detect(self) -> None:
        gpinten = self._chip.gpinten[self._port] & ~self._mask
        self._factory._write(self._chip, GPINTEN, self._port, gpinten, self._chip.gpinten)

    def _changed(self, ticks: float, level: bool) -> None:
        if self._edges == "both" or (self._edges == "rising") == level:
            self._call_when_changed(ticks, level)


class ExpanderFactory(Factory):
    """Pins of the MCP23017s at `expanders` over `bus`, and every other pin from `base`.

    `interrupt`: the Pi GPIO (on `base`) that all chips' INT outputs pull low; without it, call
    `poll()` periodically. I2C failures raise `LinkError` (an OSError).
    """

    def __init__(
        self, base: Factory, bus: I2CBus, expanders: Iterable[int], *, interrupt: str | None = None
    ) -> None:
        super().__init__()
        self._base = base
        self._bus = bus
        self._bus_lock = threading.RLock()
        self._chips = {address: _Chip(address) for address in expanders}
        self._pins: dict[str, ExpanderPin] = {}
        self._board: BoardInfo | None = None
        self._infos: dict[str, tuple[PinInfo, _Chip, int, int]] = {}
        for address, chip in self._chips.items():
            for info in expander_header(address).pins.values():
                alias = next(n for n in info.names if not n.startswith("MCP:"))
                port, bit = PORTS.index(alias[-2]), int(alias[-1])
                for name in info.names:
                    self._infos[name] = (info, chip, port, bit)
            self._write(chip, IOCON, 0, IOCON_MIRROR | IOCON_ODR)
            self._write(chip, IOCON, 1, IOCON_MIRROR | IOCON_ODR)
            for port in (0, 1):
                chip.levels[port] = self._read(chip, GPIO + port)
        self._next_check: float | None = None
        self._interrupt: Pin | None = None
        if interrupt is not None:
            self._interrupt = base.pin(interrupt)
            self._interrupt.function = "input"
            self._interrupt.pull = "up"
            self._interrupt.edges = "falling"
            self._interrupt.when_changed = self._on_interrupt

    def pin(self, name: str) -> Pin:
        found = self._infos.get(name)
        if found is None:
            return self._base.pin(name)
        info, chip, port, bit = found
        pin = self._pins.get(info.name)
        if pin is None:
            pin = self._pins[info.name] = ExpanderPin(self, info, chip, port, bit)
        return pin

    def _get_board_info(self) -> BoardInfo:
        if self._board is None:
            self._board = with_expanders(self._base.board_info, self._chips)
        return self._board

    def ticks(self) -> float:
        return float(self._base.ticks())

    def ticks_diff(self, later: float, earlier: float) -> float:
        return float(self._base.ticks_diff(later, earlier))

    def close(self) -> None:
        if self._interrupt is not None:
            self._interrupt.when_changed = None
        for pin in self._pins.values():
            pin.close()
        self._pins.clear()

    def poll(self) -> int:
        """Read every chip's inputs and fire `when_changed` for each changed pin; returns how many."""
        fired: list[tuple[ExpanderPin, bool]] = []
        with self._bus_lock:
            for chip in self._chips.values():
                if not any(chip.gpinten):
                    continue
                intf, intcap, gpio = self._read_ports(chip)  # one transaction; it releases INT
                for port in (0, 1):
                    for pin, level in self._port_changes(chip, port, intf[port], intcap[port], gpio[port]):
                        fired.append((pin, level))
        ticks = self.ticks()
        for pin, level in fired:  # outside the bus lock: handlers may light LEDs
            pin._changed(ticks, level)
        return len(fired)

    def _port_changes(self, chip: _Chip, port: int, intf: int, intcap: int,
                      gpio: int) -> list[tuple[ExpanderPin, bool]]:
        """A pin that raised the interrupt (INTF) changes first to its level at that moment (INTCAP),
        then, if it differs, to its level now (GPIO): a quick tap is a press and a release, not nothing."""
        out: list[tuple[ExpanderPin, bool]] = []
        enabled = chip.gpinten[port]
        for bit in range(8):
            mask = 1 << bit
            if not enabled & mask:
                continue
            pin = self._pins.get(f"MCP:{chip.address * 16 + port * 8 + bit}")
            level = chip.levels[port] & mask
            steps = ([intcap & mask] if intf & mask else []) + [gpio & mask]
            for step in steps:
                if step != level:
                    level = step
                    if pin is not None:
                        out.append((pin, bool(step)))
        chip.levels[port] = gpio
        return out

    def service(self, now: float) -> list[int]:
        """Every `CHECK_EVERY` s of `now` (the panel's clock; `Panel.refresh()` calls this): restore
        chips that lost their configuration, then poll once for edges the interrupt line missed.
        A browned-out chip's INT is push-pull (IOCON = 0): it holds the shared line high against the
        others, so no falling edge comes until it is restored. Returns the addresses restored."""
        if self._next_check is not None and now < self._next_check:
            return []
        self._next_check = now + CHECK_EVERY
        try:
            restored = self.restore()
            if restored:
                log.warning("MCP23017 %s lost their configuration (brown-out?): restored",
                            ", ".join(f"{a:#04x}" for a in restored))
                self.poll()
        except LinkError:
            log.exception("expanders not checked")  # the agent's loop goes on; the next check retries
            return []
        return restored

    def restore(self) -> list[int]:
        """Rewrite the configuration of any chip that lost it (brown-out, a cable kicked at the table).

        Compares each chip's IODIR and IOCON with what the driver set; returns the addresses rewritten.
        `service()` calls it; it costs three reads per chip when all is well.
        """
        restored: list[int] = []
        with self._bus_lock:
            for chip in self._chips.values():
                iocon = self._read(chip, IOCON)
                iodir = [self._read(chip, IODIR), self._read(chip, IODIR + 1)]
                if iocon == IOCON_MIRROR | IOCON_ODR and iodir == chip.iodir:
                    continue
                self._write(chip, IOCON, 0, IOCON_MIRROR | IOCON_ODR)
                self._write(chip, IOCON, 1, IOCON_MIRROR | IOCON_ODR)
                for port in (0, 1):
                    # latch before direction, so an LED does not flash on the way
                    for register, cache in ((OLAT, chip.olat), (GPPU, chip.gppu), (IODIR, chip.iodir),
                                            (GPINTEN, chip.gpinten)):
                        self._write(chip, register, port, cache[port])
                restored.append(chip.address)
        return restored

    def _on_interrupt(self, ticks: float, state: bool) -> None:
        # chips share the line: while any still holds it low no new falling edge comes, so drain
        try:
            for _ in range(8):
                self.poll()
                if self._interrupt is None or self._interrupt.state:
                    return
        except LinkError:
            # on gpiozero's callback thread: report, never kill it; the next edge or poll() retries
            log.exception("expander interrupt not served")

    def _read(self, chip: _Chip, register: int) -> int:
        try:
            with self._bus_lock:
                return int(self._bus.read_byte_data(chip.address, register))
        except OSError as err:
            raise LinkError(f"I2C read of MCP23017 {chip.address:#04x} register {register:#04x}: {err}") from err

    def _read_ports(self, chip: _Chip) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
        """INTF, INTCAP and GPIO of both ports in one sequential read from INTFA (0x0E..0x13, IOCON.SEQOP
        left at 0: the address increments). Reading INTCAP releases INT; GPIO, read after, is now."""
        try:
            with self._bus_lock:
                data = self._bus.read_i2c_block_data(chip.address, INTF, 6)
        except OSError as err:
            raise LinkError(f"I2C read of MCP23017 {chip.address:#04x} INTF..GPIO: {err}") from err
        if len(data) != 6:
            raise LinkError(f"I2C read of MCP23017 {chip.address:#04x} INTF..GPIO: {len(data)} bytes, wanted 6")
        return (int(data[0]), int(data[1])), (int(data[2]), int(data[3])), (int(data[4]), int(data[5]))

    def _write(self, chip: _Chip, register: int, port: int, value: int,
               cache: list[int] | None = None) -> None:
        try:
            with self._bus_lock:
                self._bus.write_byte_data(chip.address, register + port, value & 0xFF)
                if cache is not None:
                    cache[port] = value & 0xFF
        except OSError as err:
            raise LinkError(f"I2C write to MCP23017 {chip.address:#04x} register {register + port:#04x}: "
                            f"{err}") from err

