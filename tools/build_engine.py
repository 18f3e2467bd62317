"""Builds the compiled rules engine (issue 35): the hot modules of hub/rules compiled with mypyc into
`<venv>/tapis-compiled/` (or $TAPIS_ENGINE_BUILD), with the manifest `hub.rules.compiled` checks at import.

`./setup.sh --compiled` and `deploy/install.sh ... --compiled` run it after installing mypy (mypyc comes
with it). It compiles in a temporary folder: nothing is written in the package. Any failure (no C compiler,
no Python headers, mypyc missing or refusing) removes the build, so that the pure engine runs, prints one
line and exits 1; the compiler's output is kept in `tapis-compiled.log` beside the build's folder.
Run: .venv/bin/python tools/build_engine.py [--remove]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

os.environ["TAPIS_ENGINE"] = "pure"  # the build reads the sources: an older build must not load meanwhile
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hub.rules import compiled  # noqa: E402

LOG = compiled.BUILD.with_name("tapis-compiled.log")


def compile_in(work: Path) -> Path:
    """The child's work: copy the package's sources into `work`, compile them there; the built tree."""
    import json

    from mypy.version import __version__ as mypy_version
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    package = Path(compiled.__file__).parent
    before = compiled.manifest(package, f"mypy {mypy_version}")
    out = work / "out"
    os.chdir(work)  # mypy's and setuptools' leftovers land in the temporary folder, never in the package
    # the project's mypy settings (its pydantic plugin): mypy reads the rest of `hub` the engine reaches
    config = ["--config-file", str(ROOT / "pyproject.toml")] if (ROOT / "pyproject.toml").is_file() else []
    extensions = mypycify([*config, *(str(package / f"{m}.py") for m in compiled.COMPILED)],
                          group_name=compiled.GROUP, target_dir=str(work / "c"))
    setup(name="tapis-compiled-engine", ext_modules=extensions, script_args=[
        "-q", "build_ext", "--build-lib", str(out), "--build-temp", str(work / "tmp")])
    if compiled.manifest(package, f"mypy {mypy_version}") != before:  # the manifest says what was compiled
        raise SystemExit("les sources ont changé pendant la compilation / the sources changed during the build")
    (out / compiled.MANIFEST).write_text(json.dumps(before, indent=1))
    return out


def why_not() -> str | None:
    """What this machine lacks to build, said before trying."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return "mypyc absent / mypyc missing (pip install mypy)"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"pas de compilateur C ({cc}) / no C compiler ({cc})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "en-têtes de Python absents (python3-dev) / no Python headers (python3-dev)"
    return None


def build() -> int:
    build_dir = compiled.BUILD
    shutil.rmtree(build_dir, ignore_errors=True)  # whatever happens next, no older build stays
    missing = why_not()
    if missing is not None:
        print(f"build_engine: moteur compilé non construit, le moteur pur reste / compiled engine not built, "
              f"the pure engine stays: {missing}", file=sys.stderr)
        return 1
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tapis-compile-") as tmp:
        with LOG.open("w") as log:
            child = subprocess.run([sys.executable, __file__, "--child", tmp], stdout=log, stderr=subprocess.STDOUT,
                                   check=False)
        if child.returncode == 0:
            shutil.copytree(Path(tmp) / "out", build_dir)
            # the engine the installed tapis now chooses (from a neutral folder: not this tree by its path)
            engine = subprocess.run([sys.executable, "-c", "import hub.rules; print(hub.rules.ENGINE.line())"],
                                    capture_output=True, text=True, cwd=tmp, check=False,
                                    env={k: v for k, v in os.environ.items() if k != compiled.FORCE})
            said = (engine.stdout + engine.stderr).strip().splitlines()
            line = said[-1] if said else f"exit {engine.returncode}"
            if engine.returncode == 0 and line == compiled.Engine(True).line():
                print(f"build_engine: {line}, {time.monotonic() - t0:.0f} s ({build_dir})", file=sys.stderr)
                return 0
            reason = f"la version construite ne se charge pas / the build does not load: {line}"
        else:
            lines = [x for x in LOG.read_text(errors="replace").splitlines() if x.strip()]
            reason = f"échec de mypyc ou du compilateur / mypyc or the compiler failed ({LOG}): " + \
                (lines[-1][:160] if lines else f"exit {child.returncode}")
    shutil.rmtree(build_dir, ignore_errors=True)
    print(f"build_engine: moteur compilé non construit, le moteur pur reste / compiled engine not built, the pure "
          f"engine stays: {reason}", file=sys.stderr)
    return 1


def main() -> int:
    ap = argparse.ArgumentParser(description="build the compiled rules engine into the virtual environment")
    ap.add_argument("--remove", action="store_true", help="remove the compiled build: the pure engine runs")
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    ns = ap.parse_args()
    if ns.child is not None:
        compile_in(ns.child)
        return 0
    if ns.remove:
        shutil.rmtree(compiled.BUILD, ignore_errors=True)
        print(f"build_engine: {compiled.BUILD} removed, the pure engine runs", file=sys.stderr)
        return 0
    return build()


if __name__ == "__main__":
    raise SystemExit(main())
