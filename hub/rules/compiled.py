"""Which rules engine runs: these pure modules, or their mypyc build when one is installed and matches them.

Issue 35: `./setup.sh --compiled` (or `deploy/install.sh ... --compiled`) compiles the hot modules into
`<venv>/tapis-compiled/`, outside the package, beside a manifest of the sha256 of every source of this
package as compiled (the compiled modules and the pure ones they were type-checked against). At import the
build is used only if that manifest matches the sources exactly, by putting its folder first on the
package's `__path__`; anything else is the pure engine, with the reason. The one module of the engine that
reads files, once, at import: never during a hand.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

# phh, records and phh_toml stay pure: mypyc refuses their list/exception subclasses and blank-twin trick
COMPILED = ("hand", "betting", "showdown", "evaluator", "pots", "positions", "out_of_turn", "variant_eval")
GROUP = "hub.rules.engine"  # mypyc's shared library: `hub.rules.engine__mypyc`, beside the modules' shims
LIBRARY = "engine__mypyc"
# in the virtual environment, so that a checkout's tree holds sources only; TAPIS_ENGINE_BUILD names another
# folder (the test that builds one in a temporary folder): the manifest is checked the same
BUILD = Path(os.environ.get("TAPIS_ENGINE_BUILD") or Path(sys.prefix) / "tapis-compiled")
MANIFEST = "manifest.json"
FORMAT = 1
FORCE = "TAPIS_ENGINE"  # TAPIS_ENGINE=pure: the pure engine even where a matching build is installed


@dataclass(frozen=True)
class Engine:
    """The engine chosen at import; `why_fr`/`why_en` say why it is the pure one."""

    compiled: bool
    why_fr: str = ""
    why_en: str = ""

    def line(self) -> str:
        if self.compiled:
            return "moteur de règles compilé / compiled rules engine"
        return f"moteur de règles pur ({self.why_fr}) / pure rules engine ({self.why_en})"


def pure(why_fr: str, why_en: str) -> Engine:
    return Engine(False, why_fr, why_en)


def source_hashes(package: Path) -> dict[str, str]:
    """sha256 of every module of the package folder `package`, by file name."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(package.glob("*.py"))}


def manifest(package: Path, built_with: str) -> dict[str, object]:
    """What a build of `package`'s sources records beside its compiled modules."""
    return {"format": FORMAT, "extension": EXTENSION_SUFFIXES[0], "compiled": list(COMPILED),
            "built_with": built_with, "sources": source_hashes(package)}


def _changed(recorded: Mapping[str, object], current: Mapping[str, str]) -> list[str]:
    return sorted(n for n in set(recorded) | set(current) if recorded.get(n) != current.get(n))


def choose(package: Path, build: Path, env: Mapping[str, str]) -> Engine:
    """The engine for the sources in `package` and the build in `build`; imports nothing."""
    if env.get(FORCE, "").strip().lower() == "pure":
        return pure(f"{FORCE}=pure", f"{FORCE}=pure")
    if not (build / MANIFEST).is_file():
        return pure("aucune version compilée installée", "no compiled build installed")
    try:
        recorded = json.loads((build / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return pure("manifeste de la version compilée illisible", "the compiled build's manifest is unreadable")
    if not isinstance(recorded, dict) or recorded.get("format") != FORMAT or \
            not isinstance(recorded.get("sources"), dict) or recorded.get("compiled") != list(COMPILED):
        return pure("version compilée d'une autre version de tapis", "the compiled build is another tapis's")
    if recorded.get("extension") != EXTENSION_SUFFIXES[0]:
        return pure("version compilée pour un autre Python", "the compiled build is for another Python")
    changed = _changed(recorded["sources"], source_hashes(package))
    if changed:
        if len(changed) == 1:
            return pure(f"{changed[0]} a changé depuis la compilation : la refaire avec --compiled",
                        f"{changed[0]} changed since the build: build it again with --compiled")
        return pure(f"{changed[0]} et {len(changed) - 1} autre(s) ont changé depuis la compilation : la refaire "
                    f"avec --compiled", f"{changed[0]} and {len(changed) - 1} more changed since the build: "
                    "build it again with --compiled")
    folder = build / "hub" / "rules"
    missing = [m for m in (*COMPILED, LIBRARY) if not (folder / (m + EXTENSION_SUFFIXES[0])).is_file()]
    if missing:
        return pure(f"version compilée incomplète ({missing[0]})", f"the compiled build is incomplete ({missing[0]})")
    return Engine(True)


def select(path: list[str], env: Mapping[str, str] = os.environ, build: Path = BUILD) -> Engine:
    """Called by the package's `__init__` before it imports any module: the build's folder first on the
    package's `path` when chosen, and its modules loaded now, so that a build that does not load is the
    pure engine rather than an import error in the middle of the hub."""
    engine = choose(Path(__file__).parent, build, env)
    if not engine.compiled:
        return engine
    folder = str(build / "hub" / "rules")
    path.insert(0, folder)
    try:
        for name in COMPILED:
            importlib.import_module(f"{__package__}.{name}")
    except Exception as err:  # noqa: BLE001 - any failure of the build leaves the pure modules
        path.remove(folder)
        package = sys.modules[__package__ or ""]
        for name in (*COMPILED, LIBRARY):
            sys.modules.pop(f"{__package__}.{name}", None)
            package.__dict__.pop(name, None)
        first = str(err).splitlines()[0][:120] if str(err) else type(err).__name__
        return pure(f"la version compilée ne se charge pas : {first}", f"the compiled build does not load: {first}")
    return engine
