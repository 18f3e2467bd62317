"""Runs hw/firmware/main.py under CPython with fake `machine`, `micropython`, `select` and `time`
modules: MFRC522 chips that answer their version and never hear a card, a host that sends a
handshake, a watchdog that ends the run (and notes any 2 s without a feed). A USB CDC port that the
host holds open without reading from STALL_FROM to STALL_UNTIL ms: POLLOUT is not given then, and a
write made anyway waits 500 ms and is lost, as MicroPython's does. Prints JSON: the board's output
as hex, the pins it made, the watchdog's late feeds. Used by test_fw_main.py in a subprocess (it
replaces `time` and `select` in sys.modules, which no test process should do).

    python micropython_shim.py FIRMWARE_DIR HOST_BYTES_HEX LOOPS [STALL_FROM STALL_UNTIL [CARDS]]

With CARDS = 1 the chips are register-level MFRC522 models (mfrc522_model.py) with one card each.
"""

import json
import runpy
import sys
import types

firmware, host_hex, loops = sys.argv[1], sys.argv[2], int(sys.argv[3])
stall = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else (0, 0)
cards = len(sys.argv) > 6 and sys.argv[6] == "1"
sys.path.insert(0, firmware)
now = [0]
incoming = bytearray(bytes.fromhex(host_hex))
written = bytearray()


def writable():
    return not stall[0] <= now[0] < stall[1]


class Pin:
    OUT, IN, PULL_DOWN, PULL_UP = 1, 0, 2, 1
    selected = []
    made = []

    def __init__(self, number, mode=None, value=None, pull=None):
        self.number, self._value = number, 1 if value is None else value
        Pin.made.append([number, mode, pull])

    def value(self, v=None):
        if v is None:
            return self._value
        self._value = v
        if v == 0:
            Pin.selected.append(self)
        elif self in Pin.selected:
            Pin.selected.remove(self)


class ShimClock:
    """The models' clock is the shim's: ms, advanced by every SPI call as on a Pico (~30 us)."""

    @property
    def now_us(self):
        return now[0] * 1000


class SPI:
    """Without CARDS: every chip answers VersionReg 0x92 and TimerIRq (no card answered) on ComIrqReg."""

    models = {}

    def __init__(self, *args, **kwargs):
        if cards:
            sys.path.insert(0, __file__.rsplit("/", 1)[0])
            from mfrc522_model import Mfrc522Model
            from picc_model import Card
            for n in range(5, 19):
                SPI.models[n] = Mfrc522Model(ShimClock())
                SPI.models[n].place(Card(bytes((4, n, 1, 2, 3, 4, 5))))

    def _chip(self):
        return SPI.models.get(Pin.selected[-1].number) if Pin.selected and cards else None

    def write(self, data):
        now[0] += 0.03
        if self._chip():
            self._chip().transfer(bytes(data))

    def write_readinto(self, out, into):
        now[0] += 0.03
        if self._chip():
            into[:] = self._chip().transfer(bytes(out))
            return
        register = (out[0] >> 1) & 0x3F
        into[1] = {0x37: 0x92, 0x04: 0x01}.get(register, 0x00)


class WDT:
    feeds = 0
    last = 0
    late = []  # (ms, ms since the last feed) past the 2 s timeout: a real board would have reset

    def __init__(self, timeout):
        WDT.last = now[0]

    def feed(self):
        WDT.feeds += 1
        if now[0] - WDT.last > 2000:
            WDT.late.append([now[0], now[0] - WDT.last])
        WDT.last = now[0]
        if WDT.feeds > loops:
            real_stdout.write(json.dumps({"out": bytes(written).hex(), "pins": Pin.made, "late": WDT.late}))
            raise SystemExit(0)


machine = types.ModuleType("machine")
machine.Pin, machine.SPI, machine.WDT = Pin, SPI, WDT
machine.WDT_RESET, machine.PWRON_RESET = 3, 1
machine.reset_cause = lambda: 1
micropython = types.ModuleType("micropython")
micropython.kbd_intr = lambda chr: None
fake_time = types.ModuleType("time")
fake_time.ticks_ms = lambda: int(now[0]) & 0x3FFFFFFF
fake_time.ticks_diff = lambda a, b: ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000


def sleep_ms(ms):
    now[0] += ms


fake_time.sleep_ms = sleep_ms


class Poll:
    def __init__(self):
        self.masks = {}

    def register(self, stream, mask=1):
        self.masks[stream] = mask

    def poll(self, timeout=-1):
        ready = []
        for stream, mask in self.masks.items():
            if mask & 1 and stream is Stdin and incoming or mask & 4 and stream is Stdout and writable():
                ready.append((stream, mask))
        if not ready:
            now[0] += max(timeout, 0)
        return ready


fake_select = types.ModuleType("select")
fake_select.poll, fake_select.POLLIN, fake_select.POLLOUT = Poll, 1, 4


class Stdin:
    class buffer:
        @staticmethod
        def read(n):
            data = bytes(incoming[:n])
            del incoming[:n]
            return data


class Stdout:
    class buffer:
        @staticmethod
        def write(data):
            if not writable():
                now[0] += 500  # MicroPython's USB CDC write gives up after 500 ms; the bytes are lost
                return 0
            written.extend(data)
            return len(data)


real_stdout = sys.stdout
sys.modules.update(machine=machine, micropython=micropython, time=fake_time, select=fake_select)
sys.stdin = Stdin
sys.stdout = Stdout
try:
    runpy.run_path(firmware + "/main.py", run_name="__main__")
finally:
    sys.stdout = real_stdout
