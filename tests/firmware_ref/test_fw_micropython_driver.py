"""The MFRC522 driver and the transmit queue on MicroPython itself: mpy_driver_scenario.py printed
by CPython and by MicroPython's WebAssembly port must match (skipped without them, as
test_fw_micropython.py)."""

from __future__ import annotations

from pathlib import Path

from mpy_runner import cpython_output, micropython_output

SCENARIO = Path(__file__).resolve().parent / "mpy_driver_scenario.py"


def test_the_driver_scenario_says_what_the_driver_does() -> None:
    lines = cpython_output(SCENARIO).splitlines()
    assert lines[0] == "[146, 146] ([], True) [50, 50, 5]"  # soft resets, then 5 ms of field
    assert lines[2] == "8804af1122 (4, 20, 24) True"  # the bits sent kept; CollPos 5 read three ways
    assert lines[3].split()[3] == "12954488040f"  # one FIFO burst: SEL, NVB, the known bytes
    assert lines[4] == "silent MFRC522 version register reads 00"


def test_micropython_prints_what_cpython_prints() -> None:
    assert micropython_output(SCENARIO) == cpython_output(SCENARIO)
