"""NXP MFRC522 reader chips on one SPI bus, one chip per antenna, one RF field on at a time.

`Mfrc522` gives `tapis_iso14443` its `transceive` and `anticollision` through the chip's registers;
`AntennaBank` is what `tapis_board.Board` scans. Not yet run on hardware here: bench it first.
"""

from tapis_iso14443 import Iso14443a

COMMAND, COM_IEN, COM_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = (
    0x01, 0x02, 0x04, 0x06, 0x09, 0x0A, 0x0C, 0x0D, 0x0E)
MODE, TX_CONTROL, TX_ASK, RF_CFG, T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, VERSION = (
    0x11, 0x14, 0x15, 0x26, 0x2A, 0x2B, 0x2C, 0x2D, 0x37)
IDLE, TRANSMIT, TRANSCEIVE, SOFT_RESET = 0x00, 0x04, 0x0C, 0x0F
TX_IRQ, RX_IRQ, IDLE_IRQ, TIMER_IRQ = 0x40, 0x20, 0x10, 0x01
COLL_ERR, GARBLED = 0x08, 0x13  # ErrorReg: CollErr; BufferOvfl, ParityErr, ProtocolErr
# FM17522 clones (0x88, 0x89, 0xB2), MFRC522 v0.0/1.0/2.0, and a common counterfeit (0x12)
KNOWN_VERSIONS = (0x88, 0x89, 0xB2, 0x90, 0x91, 0x92, 0x12)
STATUS_READ = bytes((ERROR << 1 | 0x80, COLL << 1 | 0x80, FIFO_LEVEL << 1 | 0x80, 0))
MAX_POLLS = 200  # ComIrqReg reads per exchange: ~5 ms, longer than any frame and its timeout


class ChipSilent(OSError):
    """The chip's registers read back nothing sensible: not powered, not wired, or its CS stuck."""


class Mfrc522:
    def __init__(self, spi, cs, sleep_ms, gain: int = 0x70):
        self.spi = spi
        self.cs = cs
        self.sleep_ms = sleep_ms
        self.gain = gain  # RFCfgReg RxGain: 0x70 = 48 dB, the maximum; lower it if neighbours cross-talk
        self._buf = bytearray(2)
        self._status = bytearray(len(STATUS_READ))

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

    def _write_fifo(self, data: bytes) -> None:
        """One SPI transfer: the FIFO address, then every byte (datasheet 8.1.2.2: n bytes to one address)."""
        self.cs.value(0)
        self.spi.write(bytes((FIFO_DATA << 1,)) + data)
        self.cs.value(1)

    def _read_fifo(self, count: int) -> bytes:
        """One SPI transfer: the FIFO's address `count` times, then 0x00 (datasheet 8.1.2.1)."""
        buf = bytearray(count + 1)
        for i in range(count):
            buf[i] = FIFO_DATA << 1 | 0x80
        self.cs.value(0)
        self.spi.write_readinto(buf, buf)
        self.cs.value(1)
        return bytes(buf[1:])

    def _read_status(self):
        """ErrorReg, CollReg, FIFOLevelReg in one transfer (a read names each register)."""
        self.cs.value(0)
        self.spi.write_readinto(STATUS_READ, self._status)
        self.cs.value(1)
        return self._status[1], self._status[2], self._status[3] & 0x7F

    def check(self) -> int:
        """VersionReg against the known chips; raises ChipSilent (MISO pulled down reads 0x00)."""
        version = self._read(VERSION)
        if version not in KNOWN_VERSIONS:
            raise ChipSilent("MFRC522 version register reads %02X" % version)
        return version

    def init(self) -> int:
        """Soft reset and the usual 14443-A settings; returns the version byte, raises ChipSilent."""
        self._write(COMMAND, SOFT_RESET)
        self.sleep_ms(50)
        version = self.check()
        self._write(T_MODE, 0x80)  # timer starts after each transmission: it is the answer timeout
        self._write(T_PRESCALER, 0xA9)  # 13.56 MHz / (2 * 0xA9 + 1) ~ 40 kHz: 25 us per tick
        self._write(T_RELOAD_H, 0x00)
        # 20 ticks ~ 0.5 ms: a card's answer starts 91 us after our frame (ISO 14443-3 FDT, n = 9) and
        # the timer stops on its first bits, so 5x that is ample; every empty REQA waits it out
        self._write(T_RELOAD_L, 0x14)
        self._write(TX_ASK, 0x40)  # 100 % ASK, as 14443-A requires
        self._write(MODE, 0x3D)  # CRC preset 6363 (CRC_A)
        self._write(COLL, 0x00)  # ValuesAfterColl = 0: bits after a collision read 0 (NXP, Arduino)
        self._write(RF_CFG, self.gain)
        self.field(False)
        return version

    def field(self, on: bool) -> None:
        """The antenna's 13.56 MHz field; off, cards lose power and return to IDLE."""
        self._write(TX_CONTROL, 0x83 if on else 0x80)  # TX1/TX2 drivers; 0x80 is the reset value

    def _start(self, data: bytes, framing: int, command: int) -> None:
        self._write(COMMAND, IDLE)
        self._write(COM_IRQ, 0x7F)  # clear every interrupt request bit
        self._write(FIFO_LEVEL, 0x80)  # flush the FIFO
        self._write_fifo(data)
        self._write(BIT_FRAMING, framing)
        self._write(COMMAND, command)
        if command == TRANSCEIVE:
            self._write(BIT_FRAMING, framing | 0x80)  # StartSend

    def _wait(self, done: int):
        """ComIrqReg until one of `done` or the timer: the IRQ bits, or None on the timer."""
        for _ in range(MAX_POLLS):
            irq = self._read(COM_IRQ)
            if irq & done:
                return irq
            if irq & TIMER_IRQ:
                return None
        raise ChipSilent("MFRC522 never finished a frame")

    def _exchange(self, data: bytes, last_bits: int, rx_align: int):
        """(FIFO bytes, error register, collision register) or None when no card answered.
        Only the timer means silence: bits received with errors are still an answer."""
        self._start(data, (rx_align << 4) | last_bits, TRANSCEIVE)
        if self._wait(RX_IRQ | IDLE_IRQ) is None:
            return None
        error, coll, count = self._read_status()
        return self._read_fifo(count) if count else b"", error, coll

    def transceive(self, data: bytes, last_bits: int = 0):
        """The answer's bytes, possibly garbled (a REQA answered by cards with different ATQAs
        collides), or None when nothing answered before the timer."""
        answer = self._exchange(data, last_bits, 0)
        return None if answer is None else answer[0]

    def halt(self, data: bytes) -> None:
        """HLTA: sent with Transmit, no answer awaited (a halted card stays silent)."""
        self._start(data, 0, TRANSMIT)
        self._wait(TX_IRQ | IDLE_IRQ)

    def anticollision(self, sel: int, known: bytes, known_bits: int):
        """ANTICOLLISION with `known_bits` of the UID CLn already fixed: (5-byte buffer, valid,
        collided), `valid` the bits read when none collided, else the collision's possible bit
        indexes. The chip puts the first received bit at bit `rx_align` of the first byte."""
        whole, rest = known_bits >> 3, known_bits & 7
        nvb = ((2 + whole) << 4) | rest
        head = bytes((sel, nvb)) + known[:whole + (1 if rest else 0)]
        answer = self._exchange(head, rest, rest)
        if answer is None:
            return None
        received, error, coll = answer
        if error & GARBLED and not error & COLL_ERR:
            return None  # garbled without a collision: noise (a collided byte's parity collides too)
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
        if not error & COLL_ERR:
            return bytes(buffer), 40, False
        if coll & 0x20:  # CollPosNotValid: beyond the frame, treat as garbled
            return None
        position = (coll & 0x1F) or 32
        # CollPos is read three ways: from the start of the received frame, RxAlign included (NXP's
        # HAL), from the start of the UID CLn (the Arduino library), or from the first bit received
        # (the datasheet read literally). All are offered, the smallest first: a wrong one there only
        # costs a round with no answer (hw/README.md).
        in_uid = position - 1
        in_frame = whole * 8 + position - 1
        in_received = known_bits + position - 1
        return bytes(buffer), tuple(sorted({in_uid, in_frame, in_received})), True


class AntennaBank:
    """One MFRC522 per antenna, chip-selected in turn; only the antenna being read has its field on,
    so neighbouring fields never fight (the first cause of cross-talk between zones)."""

    def __init__(self, spi, cs_pins, sleep_ms, reset=None, max_tags: int = 8, settle_ms: int = 5):
        self.chips = [Mfrc522(spi, cs, sleep_ms) for cs in cs_pins]
        self.count = len(self.chips)
        self.sleep_ms = sleep_ms
        self.settle_ms = settle_ms  # ISO 14443-3 6.2: a card may need 5 ms of field before REQA
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
        else:
            try:
                chip.check()  # one SPI read a scan: a module unplugged since is not an empty antenna
            except OSError:
                self.versions[antenna] = None
                raise
        chip.field(True)
        try:
            self.sleep_ms(self.settle_ms)
            return Iso14443a(chip, self.max_tags).inventory()
        finally:
            chip.field(False)
