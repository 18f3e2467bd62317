"""A deterministic run of the firmware's code, printed as hex: run by CPython and by MicroPython
(test_fw_micropython.py) and the two outputs compared, so the firmware is checked on the language it
ships in. Only MicroPython-safe Python here: no f-strings, no typing, no dataclasses."""

import tapis_board
import tapis_iso14443 as iso
import tapis_proto as proto

seed = [12345]


def rand(n):
    seed[0] = (seed[0] * 1103515245 + 12345) & 0x7FFFFFFF  # an LCG: same numbers on both Pythons
    return seed[0] % n


class Field:
    """Cards on one antenna answering REQA, WUPA, ANTICOLLISION, SELECT and HLTA (ISO 14443-3A)."""

    def __init__(self):
        self.cards = []

    def _levels(self, uid):
        if len(uid) == 4:
            parts = [uid]
        else:
            parts = [bytes([0x88]) + uid[:3], uid[3:]]
        return [p + bytes([p[0] ^ p[1] ^ p[2] ^ p[3]]) for p in parts]

    def place(self, uid):
        self.cards.append({"uid": uid, "levels": self._levels(uid), "state": 0, "level": 0})

    def power_off(self):
        for card in self.cards:
            card["state"] = 0

    def transceive(self, data, last_bits=0):
        if data in (b"\x26", b"\x52"):  # REQA wakes idle cards, WUPA halted ones too
            awake = [c for c in self.cards if c["state"] == 0 or data == b"\x52" and c["state"] == 3]
            for c in awake:
                c["state"], c["level"] = 1, 0
            return b"\x44\x00" if awake else None
        if data[0] == 0x50:
            for c in self.cards:
                if c["state"] == 2:
                    c["state"] = 3
            return None
        level = iso.SEL.index(data[0])
        chosen = [c for c in self.cards if c["state"] == 1 and c["level"] == level and c["levels"][level] == data[2:7]]
        for c in self.cards:
            if c["state"] == 1 and c not in chosen:
                c["state"] = 0
        if not chosen:
            return None
        done = level == len(chosen[0]["levels"]) - 1
        for c in chosen:
            if done:
                c["state"] = 2
            else:
                c["level"] += 1
        sak = bytes([0x08 if done else 0x04])
        return sak + iso.crc_a(sak)

    def anticollision(self, sel, known, known_bits):
        level = iso.SEL.index(sel)

        def bit(data, i):
            return (data[i >> 3] >> (i & 7)) & 1

        answering = [c for c in self.cards if c["state"] == 1 and c["level"] == level
                     and all(bit(c["levels"][level], i) == bit(known, i) for i in range(known_bits))]
        if not answering:
            return None
        buffer = bytearray(known)
        for i in range(known_bits, 40):
            values = set(bit(c["levels"][level], i) for c in answering)
            if len(values) > 1:
                return bytes(buffer), i, True
            if values.pop():
                buffer[i >> 3] |= 1 << (i & 7)
            else:
                buffer[i >> 3] &= ~(1 << (i & 7)) & 0xFF
        return bytes(buffer), 40, False


class Bank:
    def __init__(self, count):
        self.count = count
        self.fields = [Field() for _ in range(count)]

    def inventory(self, antenna):
        field = self.fields[antenna]
        field.power_off()  # the field went off since the last scan: every card is idle again
        return iso.Iso14443a(field, 4).inventory()


def main():
    print(hex(proto.crc16(b"123456789")), proto.cobs_encode(bytes(range(1, 255)) * 2).hex())
    print(proto.hello(6, "tapis-rp2040 1 é" * 3).hex())
    bank = Bank(4)
    board = tapis_board.Board(bank)
    out = board.boot(0, True)
    host = proto.frame(proto.HOST_HELLO, b"\x01") + proto.frame(proto.SET_SCAN_PERIOD, b"\x00\x14") \
        + proto.frame(proto.START_SCAN, b"")
    now = 0
    for step in range(300):
        now += 5 + rand(30)
        if rand(10) == 0:
            antenna = rand(4)
            size = 4 if rand(2) else 7
            bank.fields[antenna].place(bytes([4] + [rand(256) for _ in range(size - 1)]))
        if rand(15) == 0:
            antenna = rand(4)
            if bank.fields[antenna].cards:
                bank.fields[antenna].cards.pop(rand(len(bank.fields[antenna].cards)))
        if step == 150:
            host = proto.frame(proto.SET_SCAN_PERIOD, b"\x00\x05")  # refused: BAD_COMMAND
            host += proto.frame(proto.TAG_SEEN, b"\x00\x04\x01\x02\x03\x04")  # not a host frame
        out += board.step(now, host)
        host = b""
    for data in out:
        print(data.hex())
    print("decoder", board.decoder.rejected, "scans", board.scans)


main()
