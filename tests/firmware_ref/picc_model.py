"""ISO/IEC 14443-3 type A cards (PICCs) in one reader's field, as the air carries their answers.

Each card runs the standard's state machine (POWER-OFF, IDLE, READY at a cascade level, ACTIVE,
HALT): REQA/WUPA with its ATQA, ANTICOLLISION with a bit-level known prefix, SELECT with CRC_A at
cascade levels 1-3 (cascade tag 0x88, BCC), HLTA. `Air.answer` superposes the cards that answer a
frame bit by bit: where they differ the bit collides (Manchester coding shows both halves
modulated), and the parity bit of a byte whose data differ collides with it. Times in µs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FC_HZ = 13_560_000
BIT_US = 128 / FC_HZ * 1e6  # one bit at 106 kbit/s: 9.44 µs
FDT_US = (9 * 128 + 84) / FC_HZ * 1e6  # PCD end to PICC start for REQA/ANTICOLL/SELECT (n = 9): 91 µs
POWER_UP_US = 5000  # ISO 14443-3 6.2: a PICC may need 5 ms of field before it answers REQA
REQA, WUPA, HLTA_HEAD, CASCADE_TAG = 0x26, 0x52, 0x50, 0x88
SEL = (0x93, 0x95, 0x97)
OFF, IDLE, READY, ACTIVE, HALT = "off", "idle", "ready", "active", "halt"


def crc_a(data: bytes) -> bytes:
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def levels(uid: bytes) -> list[bytes]:
    """The UID CLn at each cascade level with its BCC (ISO 14443-3 6.5.4)."""
    if len(uid) == 4:
        parts = [uid]
    elif len(uid) == 7:
        parts = [bytes([CASCADE_TAG]) + uid[:3], uid[3:]]
    elif len(uid) == 10:
        parts = [bytes([CASCADE_TAG]) + uid[:3], bytes([CASCADE_TAG]) + uid[3:6], uid[6:]]
    else:
        raise ValueError(f"a UID has 4, 7 or 10 bytes, not {len(uid)}")
    return [p + bytes([p[0] ^ p[1] ^ p[2] ^ p[3]]) for p in parts]


def bits_of(data: bytes, count: int, start: int = 0) -> list[int]:
    return [(data[i >> 3] >> (i & 7)) & 1 for i in range(start, count)]


@dataclass
class Card:
    """One tag. ATQA bits 7-6 give the UID size (00 single, 01 double, 10 triple); `sak` is the
    final level's SAK (NTAG 0x00, MIFARE Classic 1K 0x08)."""

    uid: bytes
    atqa: bytes = b""
    sak: int = -1
    state: str = OFF
    level: int = 0
    powered_at_us: float = 0.0
    levels: list[bytes] = field(default_factory=list)
    # A halted card that loses its field for less than this keeps HALT when a field comes back (its
    # chip's supply holds up a little): a card between two antennas, halted by the first, is still
    # halted when the next one's field comes up. 0: any loss of field is a power-on reset.
    halt_kept_us: float = 0.0
    unpowered_at_us: float | None = None
    halted_when_unpowered: bool = False

    def __post_init__(self) -> None:
        self.levels = levels(self.uid)
        if not self.atqa:
            self.atqa = {4: b"\x04\x00", 7: b"\x44\x00", 10: b"\x84\x00"}[len(self.uid)]
        if self.sak < 0:
            self.sak = 0x08 if len(self.uid) == 4 else 0x00

    def power(self, on: bool, now_us: float) -> None:
        """A field comes up or goes away around this card."""
        if not on:
            if self.state != OFF:
                self.halted_when_unpowered = self.state == HALT
                self.state, self.unpowered_at_us = OFF, now_us
            return
        kept = (self.halted_when_unpowered and self.unpowered_at_us is not None
                and now_us - self.unpowered_at_us < self.halt_kept_us)
        self.state, self.powered_at_us = (HALT if kept else IDLE), now_us

    def hear(self, data: bytes, tx_bits: int, now_us: float) -> list[int] | None:
        """This card's answer to a PCD frame as bits (parity not included), or None for silence."""
        if self.state == OFF or now_us - self.powered_at_us < POWER_UP_US:
            return None
        if tx_bits == 7 and len(data) == 1:  # a short frame: REQA or WUPA
            wakes = data[0] == WUPA and self.state in (IDLE, HALT) or data[0] == REQA and self.state == IDLE
            if data[0] in (REQA, WUPA) and self.state in (READY, ACTIVE):
                self.state = IDLE  # any unexpected frame in READY/ACTIVE: back to IDLE (6.3, fig. 6)
                return None
            if not wakes:
                return None
            self.state, self.level = READY, 0
            return bits_of(self.atqa, 16)
        if self.state == HALT or self.state == IDLE:
            return None
        if data[0] == HLTA_HEAD and len(data) == 4 and tx_bits == 32:
            if data[1] == 0 and data[2:] == crc_a(data[:2]) and self.state == ACTIVE:
                self.state = HALT
            else:
                self.state = IDLE
            return None
        if self.state != READY or data[0] not in SEL or len(data) < 2:
            self.state = IDLE
            return None
        level = SEL.index(data[0])
        nvb = data[1]
        if level != self.level:
            self.state = IDLE
            return None
        cln = self.levels[level]
        if nvb == 0x70 and tx_bits == 9 * 8 and len(data) == 9:  # SELECT
            if data[7:] != crc_a(data[:7]) or data[2:7] != cln:
                self.state = IDLE
                return None
            complete = level == len(self.levels) - 1
            if complete:
                self.state = ACTIVE
                sak = bytes([self.sak])
            else:
                self.level += 1
                sak = b"\x04"
            return bits_of(sak + crc_a(sak), 24)
        known = ((nvb >> 4) - 2) * 8 + (nvb & 7)  # ANTICOLLISION: bits of the UID CLn already known
        if not 0 <= known < 40 or tx_bits != 16 + known:
            self.state = IDLE
            return None
        if bits_of(data[2:], known) != bits_of(cln, known):
            return None  # not our prefix: silent, still READY
        return bits_of(cln, 40, known)


@dataclass
class Reception:
    """What the air brought back: the superposed bits, the first collided bit (index in `bits`),
    whether a parity bit collided, and the time the answer took on air."""

    bits: list[int]
    collision: int | None
    parity_collided: bool
    air_us: float


def answer(cards: list[Card], data: bytes, tx_bits: int, now_us: float) -> Reception | None:
    """Every powered card hears the frame; their answers superposed (None: nobody answered)."""
    answers = [a for a in (c.hear(data, tx_bits, now_us) for c in cards) if a is not None]
    if not answers:
        return None
    length = max(len(a) for a in answers)
    bits: list[int] = []
    collision = None
    for index in range(length):
        values = {a[index] for a in answers if index < len(a)}
        if len(values) > 1 or len({len(a) for a in answers}) > 1 and index >= min(len(a) for a in answers):
            collision = index if collision is None else collision
        bits.append(max(values))
    parity_collided = collision is not None
    air = FDT_US + (length + length // 8 + 2) * BIT_US  # start, data with a parity bit per byte, end
    return Reception(bits, collision, parity_collided, air)


def frame_air_us(tx_bits: int) -> float:
    """A PCD frame on air: start bit, data with a parity bit after each whole byte, end of frame."""
    return (tx_bits + tx_bits // 8 + 2) * BIT_US
