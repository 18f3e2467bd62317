"""NXP MFRC522 reader chips on one SPI bus, one chip per antenna, one RF field on at a time.

`Mfrc522` gives `tapis_iso14443` its `transceive` and `anticollision` through the chip's registers;
`AntennaBank` is what `tapis_board.Board` scans. Not yet run on hardware here: bench it first.
"""

from tapis_iso14443 import Iso14443a

COMMAND, COM_IEN, COM_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = (
    0x01, 0x02, 0x04, 0x06, 0x09, 0x0A, 0x0C, 0x0D, 0x0E)
MODE, TX_CONTROL, TX_ASK, RF_CFG, T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, VERSION = (
    0x11, 0x14, 0x15, 0x26, 0x2A, 0x2B, 0x2C, 0x2D, 0x37)
IDLE, TRANSCEIVE, SOFT_RESET = 0x00, 0x0C, 0x0F
KNOWN_VERSIONS = (0x88, 0x90, 0x91, 0x92, 0x12)  # FM17522 clone, MFRC522 v0.0/1.0/2.0, and a common clone


class ChipSilent(OSError):
    """The chip's registers read back nothing sensible: not powered, not wired, or its CS stuck."""


class Mfrc522:
    def __init__(self, spi, cs, sleep_ms, gain: int = 0x70):
        self.spi = spi
        self.cs = cs
        self.sleep_ms = sleep_ms
        self.gain = gain  # RFCfgReg RxGain: 0x70 = 48 dB, the maximum; lower it if neighbours cross-talk
        self._buf = bytearray(2)

    def _write(self, reg: int, value: int) -> None:
        self._buf[0], self._buf[1] = (reg << 1) & 0x7E, value
        self.cs.value(0)
        self.spi.write(self._buf)
        self.cs.value(1)

    def _read(self, reg: int) -> int:
        self._buf[0], self._buf[1] = ((reg << 1) & 0x7E) | 0x80, 0
        self.cs.value(0)
        self.spi.write_readinto(self._buf, self._buf)
        self.cs.value(1)
        return self._buf[1]

    def _set(self, reg: int, mask: int) -> None:
        self._write(reg, self._read(reg) | mask)

    def _clear(self, reg: int, mask: int) -> None:
        self._write(reg, self._read(reg) & ~mask & 0xFF)

    def init(self) -> int:
        """Soft reset and the usual 14443-A settings; returns the version byte, raises ChipSilent."""
        self._write(COMMAND, SOFT_RESET)
        self.sleep_ms(50)
        version = self._read(VERSION)
        if version in (0x00, 0xFF):
            raise ChipSilent("MFRC522 version register reads %02X" % version)
        self._write(T_MODE, 0x80)  # timer starts after each transmission: it is the answer timeout
        self._write(T_PRESCALER, 0xA9)  # 13.56 MHz / (2 * 0xA9 + 1) ~ 40 kHz: 25 us per tick
        self._write(T_RELOAD_H, 0x00)
        self._write(T_RELOAD_L, 0x28)  # 40 ticks = 1 ms: a card answers within 0.1 ms, silence is fast
        self._write(TX_ASK, 0x40)  # 100 % ASK, as 14443-A requires
        self._write(MODE, 0x3D)  # CRC preset 6363 (CRC_A)
        self._write(RF_CFG, self.gain)
        self.field(False)
        return version

    def field(self, on: bool) -> None:
        """The antenna's 13.56 MHz field; off, cards lose power and return to IDLE."""
        if on:
            self._set(TX_CONTROL, 0x03)
        else:
            self._clear(TX_CONTROL, 0x03)

    def _exchange(self, data: bytes, last_bits: int, rx_align: int):
        """(FIFO bytes, valid bits in the last byte, collision register or None) or None on timeout."""
        self._write(COMMAND, IDLE)
        self._write(COM_IRQ, 0x7F)  # clear every interrupt request bit
        self._write(FIFO_LEVEL, 0x80)  # flush the FIFO
        for byte in data:
            self._write(FIFO_DATA, byte)
        self._write(BIT_FRAMING, (rx_align << 4) | last_bits)
        self._write(COMMAND, TRANSCEIVE)
        self._set(BIT_FRAMING, 0x80)  # StartSend
        for _ in range(200):  # the 1 ms timer fires long before this many SPI reads
            irq = self._read(COM_IRQ)
            if irq & 0x30:  # RxIRq or IdleIRq: an answer came
                break
            if irq & 0x01:  # TimerIRq: no card answered
                self._clear(BIT_FRAMING, 0x80)
                return None
        else:
            raise ChipSilent("MFRC522 never finished a transceive")
        self._clear(BIT_FRAMING, 0x80)
        error = self._read(ERROR)
        if error & 0x13:  # BufferOvfl, ParityErr, ProtocolErr: a garbled answer, treat as none
            return None
        count = self._read(FIFO_LEVEL)
        received = bytes(self._read(FIFO_DATA) for _ in range(count))
        bits = self._read(CONTROL) & 0x07
        coll = self._read(COLL) if error & 0x08 else None  # CollErr
        return received, bits, coll

    def transceive(self, data: bytes, last_bits: int = 0):
        answer = self._exchange(data, last_bits, 0)
        if answer is None or answer[2] is not None:
            return None
        return answer[0]

    def anticollision(self, sel: int, known: bytes, known_bits: int):
        """ANTICOLLISION with `known_bits` of the UID CLn already fixed: (5-byte buffer, valid bits,
        collided). The chip puts the first received bit at bit `rx_align` of the first byte."""
        whole, rest = known_bits >> 3, known_bits & 7
        nvb = ((2 + whole) << 4) | rest
        head = bytes((sel, nvb)) + known[:whole + (1 if rest else 0)]
        answer = self._exchange(head, rest, rest)
        if answer is None:
            return None
        received, _bits, coll = answer
        buffer = bytearray(known[:5])
        for i, byte in enumerate(received):
            at = whole + i
            if at >= 5:
                break
            if i == 0 and rest:
                mask = (0xFF << rest) & 0xFF
                buffer[at] = (buffer[at] & ~mask & 0xFF) | (byte & mask)  # keep the bits we sent
            else:
                buffer[at] = byte
        if coll is None:
            return bytes(buffer), 40, False
        if coll & 0x20:  # CollPosNotValid: beyond the frame, treat as garbled
            return None
        position = (coll & 0x1F) or 32  # 1-based bit position within the CLn, counting what we sent
        return bytes(buffer), position - 1, True


class AntennaBank:
    """One MFRC522 per antenna, chip-selected in turn; only the antenna being read has its field on,
    so neighbouring fields never fight (the first cause of cross-talk between zones)."""

    def __init__(self, spi, cs_pins, sleep_ms, reset=None, max_tags: int = 8, settle_ms: int = 3):
        self.chips = [Mfrc522(spi, cs, sleep_ms) for cs in cs_pins]
        self.count = len(self.chips)
        self.sleep_ms = sleep_ms
        self.settle_ms = settle_ms  # a card needs ~1-3 ms of field to power up before REQA
        self.max_tags = max_tags
        self.versions = []
        if reset is not None:
            reset.value(0)
            sleep_ms(1)
            reset.value(1)
            sleep_ms(50)
        for chip in self.chips:
            try:
                self.versions.append(chip.init())
            except OSError:
                self.versions.append(None)  # reported as READER_TIMEOUT on its first scan

    def inventory(self, antenna: int):
        chip = self.chips[antenna]
        if self.versions[antenna] is None:
            self.versions[antenna] = chip.init()  # raises ChipSilent again until it answers
        chip.field(True)
        try:
            self.sleep_ms(self.settle_ms)
            return Iso14443a(chip, self.max_tags).inventory()
        finally:
            chip.field(False)
