"""A register-level NXP MFRC522 on a fake SPI bus, with cards in its field (picc_model), on a
simulated clock: the real `hw/firmware/tapis_mfrc522.py` runs against it unchanged.

SPI as the datasheet (8.1.2) has it: first byte `(reg << 1) | 0x80` to read, `reg << 1` to write;
a write sends any number of bytes to that one register (a FIFO burst), a read sends one address
byte per byte wanted (the same FIFO address n times is a burst read) and a last 0x00. Registers
modelled: CommandReg (Idle, Transmit, Transceive, CalcCRC, SoftReset), ComIrqReg, DivIrqReg,
ErrorReg, Status2Reg, FIFODataReg/FIFOLevelReg (64 bytes), ControlReg (RxLastBits), BitFramingReg
(StartSend, RxAlign, TxLastBits), CollReg, TxControlReg (the field), the timer, VersionReg, CRC result.

CollReg.CollPos is ambiguous between sources, so three readings are selectable:
- "frame": the position of the first collision in the received frame, the RxAlign offset included
  (how NXP's HAL reads it, adding the bytes it already knows);
- "uid": counted from the start of the UID CLn, the bits the reader sent included (how the Arduino
  MFRC522 library reads it);
- "received": counted from the first bit received, RxAlign not included (the datasheet's words read
  literally: "the bit position of the first detected collision in a received frame").
`parity_with_coll` raises ParityErr with CollErr (the parity bit of a collided byte collides too).

Time: each SPI call costs `call_us` (MicroPython's per-call overhead, an assumption) plus its bytes
at `spi_hz`; a frame on air takes the ISO 14443 bit times at 106 kbit/s (picc_model).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from picc_model import OFF, Card, Reception, answer, crc_a, frame_air_us

COLL_READINGS = ("frame", "uid", "received")

COMMAND, COM_IRQ, DIV_IRQ, ERROR, STATUS2, FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = (
    0x01, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x0E)
TX_CONTROL, CRC_H, CRC_L, T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, VERSION = (
    0x14, 0x21, 0x22, 0x2A, 0x2B, 0x2C, 0x2D, 0x37)
IDLE, CALC_CRC, TRANSMIT, TRANSCEIVE, SOFT_RESET = 0x00, 0x03, 0x04, 0x0C, 0x0F
TX_IRQ, RX_IRQ, IDLE_IRQ, ERR_IRQ, TIMER_IRQ = 0x40, 0x20, 0x10, 0x02, 0x01
COLL_ERR, PARITY_ERR, BUFFER_OVFL = 0x08, 0x02, 0x10
RESET_VALUES = {COMMAND: 0x20, COM_IRQ: 0x14, DIV_IRQ: 0x00, ERROR: 0x00, STATUS2: 0x00, CONTROL: 0x10,
                BIT_FRAMING: 0x00, COLL: 0x80, TX_CONTROL: 0x80, T_MODE: 0x00, T_PRESCALER: 0x00,
                T_RELOAD_H: 0x00, T_RELOAD_L: 0x00}


@dataclass
class Clock:
    now_us: float = 0.0

    def sleep_ms(self, ms: int) -> None:
        self.now_us += ms * 1000


@dataclass
class Stats:
    """What the firmware cost: SPI calls and bytes, frames sent and their air time."""

    spi_calls: int = 0
    spi_bytes: int = 0
    polls: int = 0  # of the calls, reads of ComIrqReg alone: waiting on the air, not costing time
    frames: int = 0
    air_us: float = 0.0


@dataclass
class Exchange:
    """A frame in flight: done at `done_us`, then these bits in the FIFO (or a timeout)."""

    done_us: float
    reception: Reception | None
    expects_answer: bool
    command: bytes
    tx_bits: int


@dataclass
class Mfrc522Model:
    clock: Clock
    cards: list[Card] = field(default_factory=list)
    coll_reading: str = "frame"
    parity_with_coll: bool = False
    version: int = 0x92
    stats: Stats = field(default_factory=Stats)
    regs: dict[int, int] = field(default_factory=dict)
    fifo: bytearray = field(default_factory=bytearray)
    flight: Exchange | None = None
    field_on: bool = False

    def __post_init__(self) -> None:
        if self.coll_reading not in COLL_READINGS:
            raise ValueError(f"coll_reading is one of {', '.join(COLL_READINGS)}")
        self.regs = dict(RESET_VALUES)

    # --- the cards ------------------------------------------------------------------------------

    def place(self, card: Card) -> None:
        """A card in this chip's field; the same `Card` may lie in two chips' fields (between antennas)."""
        card.state = OFF
        if self.field_on:
            card.power(True, self.clock.now_us)
        self.cards.append(card)

    def remove(self, card: Card) -> None:
        self.cards.remove(card)

    def _field(self, on: bool) -> None:
        if on and not self.field_on:
            for card in self.cards:
                card.power(True, self.clock.now_us)
        if not on and self.field_on:
            for card in self.cards:
                card.power(False, self.clock.now_us)
        self.field_on = on

    # --- SPI ------------------------------------------------------------------------------------

    def transfer(self, out: bytes) -> bytes:
        """One chip-select period: the bytes clocked in on MISO for those clocked out on MOSI."""
        self._settle()
        address = out[0]
        if address & 0x01:
            raise AssertionError("MFRC522 SPI address byte has bit 0 = 0 (datasheet 8.1.2.3)")
        if address & 0x80:  # read: every byte sent but the last names the next register to read
            reads = [self._read((b >> 1) & 0x3F) if b & 0x80 else 0 for b in out[:-1]]
            if out[-1] != 0 and len(out) > 1:
                raise AssertionError("a read sequence ends with 0x00")
            return bytes([0] + reads)
        register = (address >> 1) & 0x3F
        for value in out[1:]:
            self._write(register, value)
        return bytes(len(out))

    # --- registers ------------------------------------------------------------------------------

    def _read(self, register: int) -> int:
        self._settle()
        if register == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if register == FIFO_LEVEL:
            return len(self.fifo)
        if register == VERSION:
            return self.version
        if register == STATUS2:
            return 0x01 if self.flight is None else 0x06  # ModemState: idle, or receiving
        return self.regs.get(register, 0)

    def _write(self, register: int, value: int) -> None:
        self._settle()
        if register == COMMAND:
            self._command(value & 0x0F)
            if value & 0x0F not in (SOFT_RESET, CALC_CRC):  # those end at once: the chip is idle again
                self.regs[COMMAND] = (self.regs[COMMAND] & 0xF0) | (value & 0x0F)
        elif register in (COM_IRQ, DIV_IRQ):
            mask = value & 0x7F
            self.regs[register] = self.regs[register] | mask if value & 0x80 else self.regs[register] & ~mask
        elif register == FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo.append(value)
            else:
                self.regs[ERROR] |= BUFFER_OVFL
        elif register == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
                self.regs[ERROR] &= ~BUFFER_OVFL
        elif register == COLL:
            self.regs[COLL] = (self.regs[COLL] & 0x7F) | (value & 0x80)  # only ValuesAfterColl is writable
        elif register == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value & 0x77
            if value & 0x80 and self.regs[COMMAND] & 0x0F == TRANSCEIVE:
                self._send(expects_answer=True)
        elif register == TX_CONTROL:
            self.regs[TX_CONTROL] = value
            self._field(value & 0x03 == 0x03)
        elif register not in (ERROR, STATUS2, CONTROL, VERSION, CRC_H, CRC_L):
            self.regs[register] = value

    def _command(self, command: int) -> None:
        if command == IDLE:
            self.flight = None
        elif command == SOFT_RESET:
            self.regs = dict(RESET_VALUES)
            self.fifo.clear()
            self.flight = None
            self._field(False)
        elif command == CALC_CRC:
            crc = crc_a(bytes(self.fifo))
            self.fifo.clear()
            self.regs[CRC_L], self.regs[CRC_H] = crc[0], crc[1]
            self.regs[DIV_IRQ] |= 0x04  # CRCIRq
        elif command == TRANSMIT:
            self.regs[COMMAND] = (self.regs[COMMAND] & 0xF0) | TRANSMIT
            self._send(expects_answer=False)

    def _timeout_us(self) -> float | None:
        if not self.regs[T_MODE] & 0x80:  # TAuto off: nothing starts the timer
            return None
        prescaler = ((self.regs[T_MODE] & 0x0F) << 8) | self.regs[T_PRESCALER]
        reload = (self.regs[T_RELOAD_H] << 8) | self.regs[T_RELOAD_L]
        return (reload + 1) * (2 * prescaler + 1) / 13.56

    def _send(self, expects_answer: bool) -> None:
        """StartSend: the FIFO goes on air; the cards hear it once it is sent."""
        framing = self.regs[BIT_FRAMING]
        last_bits = framing & 0x07
        data = bytes(self.fifo)
        self.fifo.clear()
        tx_bits = len(data) * 8 - ((8 - last_bits) if last_bits else 0)
        tx_us = frame_air_us(tx_bits)
        self.stats.frames += 1
        start = self.clock.now_us
        reception = answer(self.cards, data, tx_bits, start + tx_us) if self.field_on else None
        if not expects_answer:
            done = start + tx_us
        elif reception is not None:
            done = start + tx_us + reception.air_us
        else:
            timeout = self._timeout_us()
            done = start + tx_us + timeout if timeout is not None else float("inf")
        self.stats.air_us += min(done, start + 1e6) - start
        self.flight = Exchange(done, reception, expects_answer, data, tx_bits)

    def _settle(self) -> None:
        """The frame in flight lands once the clock has passed its end."""
        flight = self.flight
        if flight is None or self.clock.now_us < flight.done_us:
            return
        self.flight = None
        command = self.regs[COMMAND] & 0x0F
        self.regs[COMMAND] = (self.regs[COMMAND] & 0xF0) | IDLE
        self.regs[COM_IRQ] |= TX_IRQ
        if not flight.expects_answer:
            self.regs[COM_IRQ] |= IDLE_IRQ
            return
        if flight.reception is None:
            self.regs[COM_IRQ] |= TIMER_IRQ
            self.regs[COMMAND] = (self.regs[COMMAND] & 0xF0) | command  # Transceive waits on
            return
        self._receive(flight)

    def _receive(self, flight: Exchange) -> None:
        reception = flight.reception
        assert reception is not None
        align = (self.regs[BIT_FRAMING] >> 4) & 0x07
        bits = list(reception.bits)
        error = 0
        coll = self.regs[COLL] & 0x80
        if reception.collision is not None:
            first = reception.collision
            error |= COLL_ERR | (PARITY_ERR if self.parity_with_coll and reception.parity_collided else 0)
            if not coll & 0x80:  # ValuesAfterColl = 0: bits after the collision are cleared
                bits = bits[:first + 1] + [0] * (len(bits) - first - 1)
            position = align + first + 1  # "frame": 1-based, in the FIFO's bits, RxAlign included
            if self.coll_reading == "uid" and flight.command[:1] in (b"\x93", b"\x95", b"\x97"):
                nvb = flight.command[1]
                position = ((nvb >> 4) - 2) * 8 + (nvb & 7) + first + 1
            elif self.coll_reading == "received":
                position = first + 1
            coll |= (position & 0x1F) if position <= 32 else 0x20
        else:
            coll |= 0x20  # CollPosNotValid: no collision
        stream = [0] * align + bits
        data = bytearray((len(stream) + 7) // 8)
        for index, bit in enumerate(stream):
            data[index >> 3] |= bit << (index & 7)
        self.fifo[:] = data[:64]
        self.regs[ERROR] = error
        self.regs[COLL] = coll
        self.regs[CONTROL] = (self.regs[CONTROL] & 0xF8) | (len(stream) % 8)
        self.regs[COM_IRQ] |= RX_IRQ | IDLE_IRQ | (ERR_IRQ if error else 0)


class Pin:
    def __init__(self, number: object = 0, mode: int = 1, value: int = 1) -> None:
        self.number, self._value = number, value

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return self._value
        self._value = v
        return None


@dataclass
class SpiBus:
    """machine.SPI for the firmware: routes each call to the chip whose chip select is low. A chip
    that is dead or absent leaves MISO to its pull: 0x00 with the pull-down, 0xFF floating high."""

    clock: Clock
    chips: dict[int, Mfrc522Model | None] = field(default_factory=dict)
    pins: list[Pin] = field(default_factory=list)
    spi_hz: int = 10_000_000
    call_us: float = 30.0
    miso_idle: int = 0x00
    stats: Stats = field(default_factory=Stats)

    def add(self, chip: Mfrc522Model | None) -> Pin:
        pin = Pin(len(self.pins))
        self.chips[len(self.pins)] = chip
        self.pins.append(pin)
        return pin

    def _transfer(self, out: bytes) -> bytes:
        self.stats.spi_calls += 1
        self.stats.spi_bytes += len(out)
        self.stats.polls += bytes(out[:1]) == bytes((COM_IRQ << 1 | 0x80,)) and len(out) == 2
        self.clock.now_us += self.call_us + len(out) * 8 / self.spi_hz * 1e6
        selected = [i for i, pin in enumerate(self.pins) if pin.value() == 0]
        assert len(selected) <= 1, "two chip selects low at once"
        chip = self.chips.get(selected[0]) if selected else None
        if chip is None:
            return bytes([self.miso_idle]) * len(out)
        return chip.transfer(bytes(out))

    def write(self, data: bytes) -> None:
        self._transfer(bytes(data))

    def write_readinto(self, out: bytes, into: bytearray) -> None:
        into[:] = self._transfer(bytes(out))
