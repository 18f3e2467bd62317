"""Runs a firmware scenario script under CPython and under MicroPython's WebAssembly port (the
latter skipped unless TAPIS_MICROPYTHON_WASM names the port's micropython.mjs, npm package
@micropython/micropython-webassembly-pyscript, and node is installed)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "hw" / "firmware"


def cpython_output(scenario: Path) -> str:
    code = f"import sys; sys.path.insert(0, {str(FIRMWARE)!r}); exec(open({str(scenario)!r}).read())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def micropython_output(scenario: Path) -> str:
    wasm = os.environ.get("TAPIS_MICROPYTHON_WASM")
    if not wasm or not Path(wasm).is_file() or shutil.which("node") is None:
        pytest.skip("set TAPIS_MICROPYTHON_WASM to micropython.mjs (npm @micropython/micropython-webassembly-pyscript)"
                    " and install node to run the firmware on MicroPython")
    done = subprocess.run(["node", str(HERE / "run_micropython.mjs"), wasm, str(FIRMWARE), str(scenario)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout
