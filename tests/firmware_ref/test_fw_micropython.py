"""The firmware on MicroPython itself: the same deterministic scenario (mpy_scenario.py) run by
CPython and by MicroPython's WebAssembly port must print the same bytes. The MicroPython half runs
when TAPIS_MICROPYTHON_WASM names the port's micropython.mjs (npm package
@micropython/micropython-webassembly-pyscript) and node is installed; it is skipped otherwise."""

from __future__ import annotations

from pathlib import Path

from mpy_runner import cpython_output, micropython_output

from firmware_bridge import Decoder, Heartbeat, ReaderFault, TagGone, TagSeen

SCENARIO = Path(__file__).resolve().parent / "mpy_scenario.py"


def test_the_scenario_is_valid_protocol_and_exercises_the_board() -> None:
    lines = cpython_output(SCENARIO).splitlines()
    assert lines[0] == "0x29b1 " + "ff" + bytes(range(1, 255)).hex() + "ff" + bytes(range(1, 255)).hex()
    decoder = Decoder()
    frames = [f for line in lines[2:-1] for f in decoder.feed(bytes.fromhex(line))]
    assert decoder.stats.rejected_total == 0
    assert {TagSeen, TagGone, Heartbeat, ReaderFault} <= {type(f) for f in frames}
    assert lines[-1].startswith("decoder 0 scans ")


def test_micropython_prints_what_cpython_prints() -> None:
    assert micropython_output(SCENARIO) == cpython_output(SCENARIO)
