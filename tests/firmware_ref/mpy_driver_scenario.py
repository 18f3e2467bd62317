"""The MFRC522 driver and the transmit queue on a register file that answers fixed values, printed:
run by CPython and by MicroPython (test_fw_micropython_driver.py), the outputs compared, so the
driver's SPI bursts and bookkeeping are checked on the language they ship in. MicroPython-safe only."""

import tapis_mfrc522 as rc
import tapis_proto as proto
from tapis_tx import TxQueue


class Pin:
    def __init__(self):
        self.v = 1

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v


class Regs:
    """SPI to a register file: reads answer `regs` (FIFO reads pop `fifo`), writes are logged."""

    def __init__(self, regs, fifo):
        self.regs = regs
        self.fifo = list(fifo)
        self.log = []

    def write(self, data):
        self.log.append(bytes(data).hex())

    def write_readinto(self, out, into):
        out = bytes(out)  # the driver reads into the buffer it sends from
        self.log.append(out.hex())
        into[0] = 0
        for i in range(len(out) - 1):
            reg = (out[i] >> 1) & 0x3F
            if reg == rc.FIFO_DATA:
                into[i + 1] = self.fifo.pop(0) if self.fifo else 0
            else:
                into[i + 1] = self.regs.get(reg, 0)


def main():
    slept = []
    empty = Regs({rc.VERSION: 0x92, rc.COM_IRQ: rc.TIMER_IRQ}, b"")
    bank = rc.AntennaBank(empty, [Pin(), Pin()], slept.append)
    print(bank.versions, bank.inventory(1), slept)
    print(" ".join(empty.log[-12:]))
    # a collided ANTICOLLISION answer: CollErr + ParityErr, CollPos 5, 3 bytes after 2 known + 4 bits
    collided = Regs({rc.VERSION: 0x92, rc.COM_IRQ: rc.RX_IRQ, rc.ERROR: 0x0A, rc.COLL: 0x05, rc.FIFO_LEVEL: 3},
                    b"\xa0\x11\x22")
    chip = rc.Mfrc522(collided, Pin(), slept.append)
    answer = chip.anticollision(0x95, b"\x88\x04\x0f\x00\x00", 20)
    print(answer[0].hex(), answer[1], answer[2])
    print(" ".join(collided.log))
    dead = rc.Mfrc522(Regs({}, b""), Pin(), slept.append)
    try:
        dead.init()
    except OSError as err:
        print("silent", err)
    queue = TxQueue(40)
    for i in range(4):
        queue.push(proto.tag_seen(i, bytes((4, i, 1, 2, 3, 4, 5))))
    written = []
    queue.drain(lambda: True, written.append, lambda: None)
    print([w.hex() for w in written])


main()
