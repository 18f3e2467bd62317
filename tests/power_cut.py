"""A power cut for a process writing SQLite, in a test: what no fsync wrote is lost.

A kill -9 loses nothing that reached the page cache, so it cannot tell `synchronous=FULL` from
NORMAL or OFF. `cut_power` runs a writer script in a subprocess under an LD_PRELOAD shim
(`power_cut.c`) that logs each file's size at every fsync / fdatasync, kills it once it reports its
last write done, then truncates each file to its size at its last sync: the bytes written and never
synced are gone, as after a power cut. The model is append-only (SQLite's WAL grows by appended
frames until a checkpoint, which a few dozen small writes do not reach); a write that overwrote
synced bytes is not undone. Needs a C compiler (the test is skipped without one).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def build_shim(directory: Path) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build the power-cut shim")
    out = directory / "power_cut.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", str(out), str(HERE / "power_cut.c"), "-ldl"],
                   check=True, capture_output=True)
    return out


def cut_power(shim: Path, db: Path, script: str, *args: str, last: int) -> int:
    """Run `script` (python -c, argv: db, *args), which prints "stored N" after each durable write,
    until it reports `last`; kill -9; drop what no sync wrote. The last N it reported."""
    log = db.parent / f"{db.name}.synced"
    env = {**os.environ, "LD_PRELOAD": str(shim), "TAPIS_POWER_CUT_LOG": str(log), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", script, str(db), *args], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    reported = 0
    for line in proc.stdout:  # the writer's own word, no sleep
        reported = int(line.split()[1])
        if reported == last:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    synced: dict[str, int] = {}
    if log.exists():
        for entry in log.read_text().splitlines():
            path, size = entry.rsplit(" ", 1)
            synced[path] = int(size)
    for name in (db, Path(f"{db}-wal")):
        if name.exists():
            with open(name, "r+b") as f:
                f.truncate(synced.get(str(name), 0))
    Path(f"{db}-shm").unlink(missing_ok=True)  # shared memory: gone with the power
    return reported
