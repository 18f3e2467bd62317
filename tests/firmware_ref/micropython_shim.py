"""Runs hw/firmware/main.py under CPython with fake `machine`, `micropython`, `select` and `time`
modules: MFRC522 chips that answer their version and never hear a card, a host that sends a
handshake, a watchdog that ends the run. Prints the board's output as hex. Used by test_fw_main.py
in a subprocess (it replaces `time` and `select` in sys.modules, which no test process should do).

    python micropython_shim.py FIRMWARE_DIR HOST_BYTES_HEX LOOPS
"""

import runpy
import sys
import types

firmware, host_hex, loops = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, firmware)
now = [0]
incoming = bytearray(bytes.fromhex(host_hex))
written = bytearray()


class Pin:
    OUT, IN = 1, 0
    selected = []

    def __init__(self, number, mode=0, value=None):
        self.number, self._value = number, 1 if value is None else value

    def value(self, v=None):
        if v is None:
            return self._value
        self._value = v
        if v == 0:
            Pin.selected.append(self)
        elif self in Pin.selected:
            Pin.selected.remove(self)


class SPI:
    """Every chip answers VersionReg 0x92 and reports TimerIRq (no card answered) on ComIrqReg."""

    def __init__(self, *args, **kwargs):
        pass

    def write(self, data):
        pass

    def write_readinto(self, out, into):
        register = (out[0] >> 1) & 0x3F
        into[1] = {0x37: 0x92, 0x04: 0x01}.get(register, 0x00)


class WDT:
    feeds = 0

    def __init__(self, timeout):
        pass

    def feed(self):
        WDT.feeds += 1
        if WDT.feeds > loops:
            real_stdout.write(bytes(written).hex())
            raise SystemExit(0)


machine = types.ModuleType("machine")
machine.Pin, machine.SPI, machine.WDT = Pin, SPI, WDT
machine.WDT_RESET, machine.PWRON_RESET = 3, 1
machine.reset_cause = lambda: 1
micropython = types.ModuleType("micropython")
micropython.kbd_intr = lambda chr: None
fake_time = types.ModuleType("time")
fake_time.ticks_ms = lambda: now[0] & 0x3FFFFFFF
fake_time.ticks_diff = lambda a, b: ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000


def sleep_ms(ms):
    now[0] += ms


fake_time.sleep_ms = sleep_ms


class Poll:
    def register(self, stream, mask=1):
        pass

    def poll(self, timeout=-1):
        if incoming:
            return [(0, 1)]
        now[0] += max(timeout, 0)
        return []


fake_select = types.ModuleType("select")
fake_select.poll, fake_select.POLLIN = Poll, 1


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
            written.extend(data)


real_stdout = sys.stdout
sys.modules.update(machine=machine, micropython=micropython, time=fake_time, select=fake_select)
sys.stdin = Stdin
sys.stdout = Stdout
try:
    runpy.run_path(firmware + "/main.py", run_name="__main__")
finally:
    sys.stdout = real_stdout
