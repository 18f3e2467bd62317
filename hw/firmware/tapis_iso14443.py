"""ISO/IEC 14443-3 type A on one antenna: wake the cards, resolve collisions, read every UID.

Between the reader chip driver (`transceive`, `anticollision`) and the board logic: `inventory()` reads
each card, halts it (HLTA) and asks again, so stacked cards are read one by one. Pure: host-tested.
"""

REQA = 0x26  # 7-bit short frame: cards in IDLE answer; halted cards stay quiet (WUPA 0x52 would wake them)
SEL = (0x93, 0x95, 0x97)  # cascade levels 1..3: 4-, 7-, 10-byte UIDs
CASCADE_TAG = 0x88  # first byte of a UID CLn that continues at the next level
SAK_INCOMPLETE = 0x04


def crc_a(data: bytes) -> bytes:
    """ISO 14443-3 CRC_A (poly 0x8408 reflected, init 0x6363), low byte first; 00 00 -> A0 1E."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def _bit(data: bytes, index: int) -> int:
    return (data[index >> 3] >> (index & 7)) & 1  # bits go on air least significant first


class Iso14443a:
    """The protocol over a transceiver: `transceive(data, last_bits=0)` -> response bytes, or None on
    timeout; `anticollision(sel, known, known_bits)` -> (5-byte buffer, valid bits, collided) or None."""

    def __init__(self, transceiver, max_tags: int = 8):
        self.t = transceiver
        self.max_tags = max_tags

    def inventory(self):
        """(UIDs read, complete): complete is False when `max_tags` were read and more may be there,
        or when a card answered but could not be resolved (a stack too deep for this antenna)."""
        uids = []
        for _ in range(self.max_tags):
            atqa = self.t.transceive(bytes((REQA,)), 7)
            if atqa is None:
                return uids, True  # nobody left awake in the field
            uid = self.read_uid()
            if uid is None:
                return uids, False
            uids.append(uid)
            self.t.transceive(bytes((0x50, 0x00)) + crc_a(b"\x50\x00"))  # HLTA: no answer expected
        return uids, self.t.transceive(bytes((REQA,)), 7) is None

    def read_uid(self):
        """After a REQA: the cascade levels, SELECT at each, the whole UID (4, 7 or 10 bytes)."""
        uid = b""
        for sel in SEL:
            cln = self._resolve(sel)
            if cln is None:
                return None
            sak = self.t.transceive(bytes((sel, 0x70)) + cln + crc_a(bytes((sel, 0x70)) + cln))
            if sak is None or len(sak) != 3 or crc_a(sak[:1]) != sak[1:]:
                return None
            if sak[0] & SAK_INCOMPLETE:
                if cln[0] != CASCADE_TAG:
                    return None
                uid += cln[1:4]
                continue
            return uid + cln[:4]
        return None

    def _resolve(self, sel: int):
        """Anticollision at one level: on a collision take the 1 branch and ask again with one more
        known bit; 32 bits resolve at most 32 collisions. Returns UID CLn + BCC, BCC checked."""
        known = bytes(5)
        bits = 0
        for _ in range(33):
            answer = self.t.anticollision(sel, known, bits)
            if answer is None:
                return None
            buffer, valid, collided = answer
            if not collided:
                if valid < 40 or buffer[0] ^ buffer[1] ^ buffer[2] ^ buffer[3] != buffer[4]:
                    return None
                return bytes(buffer)
            if valid < bits or valid >= 32:
                return None  # no progress, or a collision in the BCC: not a well-behaved card
            chosen = bytearray(buffer)
            chosen[valid >> 3] |= 1 << (valid & 7)
            for index in range(valid + 1, 40):
                chosen[index >> 3] &= ~(1 << (index & 7)) & 0xFF
            known, bits = bytes(chosen), valid + 1
        return None
