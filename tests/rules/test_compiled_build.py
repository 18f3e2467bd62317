"""The compiled rules engine as `./setup.sh --compiled` builds it, replaying the PHH hands (issue 35).

Builds with `tools/build_engine.py` into a temporary folder (TAPIS_ENGINE_BUILD: the virtual environment's
own build is left alone), then runs tests/rules/test_phh.py, the 266 hands PokerKit reproduces exactly
among them, in a process that must have chosen the compiled engine; then the room as a club installs it
(tests/e2e/test_room_as_installed.py: `tapis hub --db` and three `tapis sim table` in real processes, a
tournament played, a boxed card ruled, a table broken up) with the hub on that build, as `--compiled` leaves
it. About 35 s of compiling and 20 s of room on a 2-core machine; skipped where mypyc, a C compiler or
Python's headers are missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PHH_TESTS = "tests/rules/test_phh.py"
ROOM_TEST = "tests/e2e/test_room_as_installed.py::test_a_room_as_installed_plays_a_tournament"


def test_the_compiled_engine_replays_the_histories_exactly(tmp_path: Path) -> None:
    pytest.importorskip("mypyc")
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None or not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        pytest.skip("no C compiler or no Python headers: the compiled engine cannot be built here")
    env = {**os.environ, "TAPIS_ENGINE": "compiled", "TAPIS_ENGINE_BUILD": str(tmp_path / "build")}
    built = subprocess.run([sys.executable, "tools/build_engine.py"], cwd=ROOT, env=env, capture_output=True,
                           text=True, check=False)
    assert built.returncode == 0, built.stderr
    assert "moteur de règles compilé / compiled rules engine" in built.stderr
    assert not list((ROOT / "hub").rglob("*.so")), "the build wrote into the package"
    run = ("import sys, pytest, hub.rules\n"
           "assert hub.rules.ENGINE.compiled, hub.rules.ENGINE.line()\n"
           "assert hub.rules.hand.__file__.startswith(sys.argv[1]), hub.rules.hand.__file__\n"
           f"sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', '{PHH_TESTS}']))")
    replayed = subprocess.run([sys.executable, "-c", run, str(tmp_path / "build")], cwd=ROOT, env=env,
                              capture_output=True, text=True, check=False)
    assert replayed.returncode == 0, replayed.stdout[-3000:] + replayed.stderr[-3000:]
    assert " passed" in replayed.stdout and "skipped" not in replayed.stdout, replayed.stdout[-500:]
    # the hub in its own process finds the build as an installed one does (the test reads its engine line)
    room = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                           ROOM_TEST], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert room.returncode == 0, room.stdout[-3000:] + room.stderr[-3000:]
    assert "1 passed" in room.stdout, room.stdout[-500:]


def test_a_build_that_cannot_be_made_removes_the_one_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """No C compiler any more (`why_not`): the build an earlier `--compiled` left is removed, so that the pure
    engine runs, as the line says, never that older build."""
    import importlib.util

    from hub.rules import compiled

    monkeypatch.setattr(sys, "path", list(sys.path))  # the tool puts the tree first on it
    monkeypatch.setenv("TAPIS_ENGINE", os.environ.get("TAPIS_ENGINE", "pure"))  # and sets this at import
    spec = importlib.util.spec_from_file_location("build_engine", ROOT / "tools" / "build_engine.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    older = tmp_path / "tapis-compiled"
    (older / "hub" / "rules").mkdir(parents=True)
    (older / compiled.MANIFEST).write_text("{}")
    monkeypatch.setattr(compiled, "BUILD", older)
    monkeypatch.setattr(tool, "why_not", lambda: "pas de compilateur C (cc) / no C compiler (cc)")
    assert tool.build() == 1
    assert not older.exists()
    assert "the pure engine stays: pas de compilateur C (cc)" in capsys.readouterr().err
