"""The MFRC522 driver and the transmit queue on MicroPython itself: mpy_driver_scenario.py printed
by CPython and by MicroPython's WebAssembly port must match (skipped without them, as
test_fw_micropython.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "hw" / "firmware"
SCENARIO = HERE / "mpy_driver_scenario.py"


def cpython_output() -> str:
    code = f"import sys; sys.path.insert(0, {str(FIRMWARE)!r}); exec(open({str(SCENARIO)!r}).read())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_driver_scenario_says_what_the_driver_does() -> None:
    lines = cpython_output().splitlines()
    assert lines[0] == "[146, 146] ([], True) [50, 50, 5]"  # soft resets, then 5 ms of field
    assert lines[2] == "8804af1122 (4, 20) True"  # the bits sent kept; CollPos 5 read both ways
    assert lines[3].split()[3] == "12954488040f"  # one FIFO burst: SEL, NVB, the known bytes
    assert lines[4] == "silent MFRC522 version register reads 00"


def test_micropython_prints_what_cpython_prints() -> None:
    wasm = os.environ.get("TAPIS_MICROPYTHON_WASM")
    if not wasm or not Path(wasm).is_file() or shutil.which("node") is None:
        pytest.skip("set TAPIS_MICROPYTHON_WASM to micropython.mjs (npm @micropython/micropython-webassembly-pyscript)"
                    " and install node to run the firmware on MicroPython")
    done = subprocess.run(["node", str(HERE / "run_micropython.mjs"), wasm, str(FIRMWARE), str(SCENARIO)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert done.stdout == cpython_output()
