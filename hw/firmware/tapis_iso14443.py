"""ISO/IEC 14443-3 type A on one antenna: wake the cards, resolve collisions, read every UID.

Between the reader chip driver (`transceive`, `anticollision`) and the board logic: `inventory()` reads
each card, halts it (HLTA) and asks again, so stacked cards are read one by one. Pure: host-tested.
"""

REQA = 0x26  # 7-bit short frame: cards in IDLE answer; halted cards stay quiet
WUPA = 0x52  # the same, and halted cards answer too: a card halted by a neighbouring antenna
SEL = (0x93, 0x95, 0x97)  # cascade levels 1..3: 4-, 7-, 10-byte UIDs
CASCADE_TAG = 0x88  # first byte of a UID CLn that continues at the next level
HLTA = b"\x50\x00"  # then CRC_A; a card halted stays silent until WUPA or it loses power
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
    """The protocol over a transceiver: `transceive(data, last_bits=0)` -> response bytes (even
    garbled), or None on timeout; `anticollision(sel, known, known_bits)` -> (5-byte buffer, valid,
    collided) or None, where `valid` for a collision is a bit index or a tuple of possible ones
    (smallest first); optionally `halt(frame)` to send HLTA without awaiting an answer."""

    def __init__(self, transceiver, max_tags: int = 8):
        self.t = transceiver
        self.max_tags = max_tags

    def request(self, wake: bool = False) -> bool:
        """REQA (WUPA with `wake`): did anything answer? Any bits count, a garbled or collided ATQA
        too (an NTAG's 0044 and a MIFARE Classic's 0004 collide): only silence means nobody is awake."""
        return self.t.transceive(bytes((WUPA if wake else REQA,)), 7) is not None

    def halt(self) -> None:
        frame = HLTA + crc_a(HLTA)
        if hasattr(self.t, "halt"):
            self.t.halt(frame)
        else:
            self.t.transceive(frame)

    def inventory(self):
        """(UIDs read, complete): complete is False when `max_tags` were read and more may be there,
        or when a card answered but could not be resolved (a stack too deep for this antenna)."""
        uids = []
        retries = 1  # a read that fails (a card lifted mid-read) is tried once more
        # WUPA first: a card lying between two antennas, halted by the neighbour just read, may keep
        # its HALT state through the few hundred microseconds between the two fields and would not
        # answer a REQA. Then REQA only, so the cards this inventory halts stay quiet.
        awake = self.request(wake=True)
        while len(uids) < self.max_tags:
            if not awake:
                return uids, True  # nobody left awake in the field
            uid = self.read_uid()
            if uid is None:
                if not retries:
                    return uids, False
                retries -= 1
                # cards left READY by the failed read drop to IDLE on a REQA, silently (ISO 14443-3
                # 6.3); cards already IDLE answer it: either way the next REQA finds everyone
                awake = self.request() or self.request()
                continue
            uids.append(uid)
            self.halt()
            awake = self.request()
        return uids, not awake

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
        known bit. When the collision's position is ambiguous (two readings of CollReg), the
        smallest position is tried first and the next one if no card answers that branch.
        Returns UID CLn + BCC, BCC checked."""
        known = bytes(5)
        bits = 0
        others = []  # the other readings of the last collision, tried if this branch is silent
        for _ in range(64):
            answer = self.t.anticollision(sel, known, bits)
            if answer is None:
                if not others:
                    return None
                known, bits = others.pop(0)
                continue
            buffer, valid, collided = answer
            if not collided:
                if valid < 40 or buffer[0] ^ buffer[1] ^ buffer[2] ^ buffer[3] != buffer[4]:
                    if others:
                        known, bits = others.pop(0)
                        continue
                    return None
                return bytes(buffer)
            branches = [_branch(buffer, p) for p in (valid if isinstance(valid, tuple) else (valid,))
                        if bits <= p < 32]  # below `bits`: no progress; in the BCC: not a card
            if not branches:
                if not others:
                    return None
                known, bits = others.pop(0)
                continue
            (known, bits), others = branches[0], branches[1:]
        return None


def _branch(buffer: bytes, position: int):
    """The known prefix that takes the 1 branch at `position`: (5 bytes, position + 1 bits)."""
    chosen = bytearray(buffer)
    chosen[position >> 3] |= 1 << (position & 7)
    for index in range(position + 1, 40):
        chosen[index >> 3] &= ~(1 << (index & 7)) & 0xFF
    return bytes(chosen), position + 1
