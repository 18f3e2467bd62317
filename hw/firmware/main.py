"""Reader board firmware entry point on a Raspberry Pi Pico (RP2040), MicroPython >= 1.20.

Wires the hardware (pin map in hw/README.md) to `tapis_board.Board`: host bytes over USB CDC in,
frames out, a watchdog fed every turn. Install: `mpremote cp hw/firmware/*.py :`, then reset.
"""

import select
import sys
import time

import machine
import micropython
from tapis_board import Board
from tapis_mfrc522 import AntennaBank
from tapis_tx import TxQueue

FIRMWARE = "tapis-rp2040 1"
SPI_SCK, SPI_MOSI, SPI_MISO = 2, 3, 4
CS_PINS = (5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18)  # antenna 0 .. 13, in the profile's order
RESET_PIN = 20
LED_PIN = "LED"  # the board's own LED, on a Pico and a Pico W (GP25 is the Pico W's wireless chip select)
# 2 MHz asked, 1.95 MHz given (125 MHz / 64): the buffered star of hw/README.md "The bus" reads back
# MISO from a 1.2 m branch in about half of a half period; the MFRC522 would take 10 MHz, the bare cable
# not even 1 MHz. Twice the clock would save ~10 ms a dealt scan and leave no margin.
SPI_HZ = 2_000_000


def main() -> None:
    micropython.kbd_intr(-1)  # 0x03 is data in our frames, not Ctrl-C
    rebooted = machine.reset_cause() == machine.WDT_RESET
    spi = machine.SPI(0, baudrate=SPI_HZ, polarity=0, phase=0, sck=machine.Pin(SPI_SCK),
                      mosi=machine.Pin(SPI_MOSI), miso=machine.Pin(SPI_MISO))
    # MISO pulled down (mode left to SPI): a missing module reads 0x00, its VersionReg fails the
    # check and the antenna is reported READER_TIMEOUT instead of looking empty
    machine.Pin(SPI_MISO, pull=machine.Pin.PULL_DOWN)
    cs = [machine.Pin(n, machine.Pin.OUT, value=1) for n in CS_PINS]
    bank = AntennaBank(spi, cs, time.sleep_ms, reset=machine.Pin(RESET_PIN, machine.Pin.OUT, value=1))
    led = machine.Pin(LED_PIN, machine.Pin.OUT, value=0)
    wdt = machine.WDT(timeout=2000)  # a hung SPI read reboots the board; the host sees REBOOTED
    out = sys.stdout.buffer
    source = sys.stdin.buffer
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    room = select.poll()
    room.register(sys.stdout, select.POLLOUT)  # USB CDC has room: a write of one frame will not wait
    tx = TxQueue()

    def writable() -> bool:
        return bool(room.poll(0))

    def send(frames: list) -> None:
        """One antenna's frames, out as soon as it is read (not after the whole scan)."""
        for data in frames:
            tx.push(data)
        tx.drain(writable, out.write, wdt.feed)

    board = Board(bank, FIRMWARE, emit=send)
    start = time.ticks_ms()
    elapsed = 0  # ms since boot, not wrapping (ticks_ms wraps after ~12 days)

    def now_ms() -> int:
        nonlocal start, elapsed
        tick = time.ticks_ms()
        elapsed += time.ticks_diff(tick, start)
        start = tick
        return elapsed

    for data in board.boot(now_ms(), rebooted):
        tx.push(data)
    while True:
        wdt.feed()
        incoming = bytearray()
        while poll.poll(0) and len(incoming) < 64:
            incoming += source.read(1)
        for data in board.step(now_ms(), bytes(incoming)):
            tx.push(data)
        tx.drain(writable, out.write, wdt.feed)
        led.value(1 if board.scanning else 0)
        wait = board.next_due_ms() - now_ms()
        if wait > 0:
            poll.poll(min(wait, 20))  # wakes early when the host sends something


main()
