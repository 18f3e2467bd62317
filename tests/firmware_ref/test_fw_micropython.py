"""The firmware on MicroPython itself: the same deterministic scenario (mpy_scenario.py) run by
CPython and by MicroPython's WebAssembly port must print the same bytes. The MicroPython half runs
when TAPIS_MICROPYTHON_WASM names the port's micropython.mjs (npm package
@micropython/micropython-webassembly-pyscript) and node is installed; it is skipped otherwise."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge import Decoder, Heartbeat, ReaderFault, TagGone, TagSeen

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "hw" / "firmware"
SCENARIO = HERE / "mpy_scenario.py"


def cpython_output() -> str:
    code = f"import sys; sys.path.insert(0, {str(FIRMWARE)!r}); exec(open({str(SCENARIO)!r}).read())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_scenario_is_valid_protocol_and_exercises_the_board() -> None:
    lines = cpython_output().splitlines()
    assert lines[0] == "0x29b1 " + "ff" + bytes(range(1, 255)).hex() + "ff" + bytes(range(1, 255)).hex()
    decoder = Decoder()
    frames = [f for line in lines[2:-1] for f in decoder.feed(bytes.fromhex(line))]
    assert decoder.stats.rejected_total == 0
    assert {TagSeen, TagGone, Heartbeat, ReaderFault} <= {type(f) for f in frames}
    assert lines[-1].startswith("decoder 0 scans ")


def test_micropython_prints_what_cpython_prints() -> None:
    wasm = os.environ.get("TAPIS_MICROPYTHON_WASM")
    if not wasm or not Path(wasm).is_file() or shutil.which("node") is None:
        pytest.skip("set TAPIS_MICROPYTHON_WASM to micropython.mjs (npm @micropython/micropython-webassembly-pyscript)"
                    " and install node to run the firmware on MicroPython")
    done = subprocess.run(["node", str(HERE / "run_micropython.mjs"), wasm, str(FIRMWARE), str(SCENARIO)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert done.stdout == cpython_output()
