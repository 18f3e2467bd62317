"""The compiled rules engine is used only where its manifest matches the sources exactly (issue 35).

Fast and compiler-free: fake builds (a manifest and empty `.so` files) in a temporary folder, against a
copy of the package's sources. The build itself, compiled and run on the 266 PokerKit-exact histories, is
tests/rules/test_compiled_build.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import hub.rules
from hub.rules import compiled

PACKAGE = Path(compiled.__file__).parent
ROOT = PACKAGE.parents[1]


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    """A copy of the package's sources, to change without touching the real ones."""
    copy = tmp_path / "src"
    copy.mkdir()
    for path in PACKAGE.glob("*.py"):
        shutil.copy2(path, copy / path.name)
    return copy


def fake_build(build: Path, sources: Path) -> Path:
    """A build of `sources` as `tools/build_engine.py` lays it out, its modules empty files."""
    folder = build / "hub" / "rules"
    folder.mkdir(parents=True)
    for name in (*compiled.COMPILED, compiled.LIBRARY):
        (folder / (name + EXTENSION_SUFFIXES[0])).write_bytes(b"")
    (build / compiled.MANIFEST).write_text(json.dumps(compiled.manifest(sources, "test")))
    return build


def test_a_build_of_these_very_sources_is_chosen(tmp_path: Path, sources: Path) -> None:
    build = fake_build(tmp_path / "build", sources)
    assert compiled.choose(sources, build, {}) == compiled.Engine(True)
    assert compiled.choose(sources, build, {}).line() == "moteur de règles compilé / compiled rules engine"


def test_a_changed_source_is_the_pure_engine_and_says_which(tmp_path: Path, sources: Path) -> None:
    build = fake_build(tmp_path / "build", sources)
    (sources / "records.py").write_text((sources / "records.py").read_text() + "\n# a TD's edit\n")
    engine = compiled.choose(sources, build, {})
    assert not engine.compiled
    assert "records.py changed since the build" in engine.why_en and "records.py" in engine.why_fr


def test_several_changed_sources_are_counted(tmp_path: Path, sources: Path) -> None:
    build = fake_build(tmp_path / "build", sources)
    for name in ("pots.py", "records.py"):
        (sources / name).write_text((sources / name).read_text() + "\n# a TD's edit\n")
    engine = compiled.choose(sources, build, {})
    assert engine.why_en == "pots.py and 1 more changed since the build: build it again with --compiled"
    assert engine.why_fr.startswith("pots.py et 1 autre(s) ont changé depuis la compilation")


def test_a_module_added_or_removed_is_the_pure_engine(tmp_path: Path, sources: Path) -> None:
    build = fake_build(tmp_path / "build", sources)
    (sources / "new_rule.py").write_text('"""A new module."""\n')
    assert "new_rule.py changed" in compiled.choose(sources, build, {}).why_en
    (sources / "new_rule.py").unlink()
    (sources / "pots.py").unlink()
    assert "pots.py changed" in compiled.choose(sources, build, {}).why_en


def test_no_build_is_the_pure_engine(tmp_path: Path, sources: Path) -> None:
    engine = compiled.choose(sources, tmp_path / "nothing", {})
    assert engine == compiled.pure("aucune version compilée installée", "no compiled build installed")
    assert engine.line() == ("moteur de règles pur (aucune version compilée installée) / pure rules engine "
                             "(no compiled build installed)")


def test_tapis_engine_pure_forces_the_pure_engine(tmp_path: Path, sources: Path) -> None:
    build = fake_build(tmp_path / "build", sources)
    assert compiled.choose(sources, build, {"TAPIS_ENGINE": "pure"}).why_en == "TAPIS_ENGINE=pure"
    assert compiled.choose(sources, build, {"TAPIS_ENGINE": "compiled"}).compiled
    assert compiled.choose(sources, build, {"TAPIS_ENGINE": " Pure\n"}).why_en == "TAPIS_ENGINE=pure"  # as typed


def test_a_build_for_another_python_or_incomplete_or_unreadable_is_the_pure_engine(
        tmp_path: Path, sources: Path) -> None:
    build = fake_build(tmp_path / "build", sources)
    manifest = json.loads((build / compiled.MANIFEST).read_text())
    (build / compiled.MANIFEST).write_text(json.dumps(manifest | {"extension": ".cpython-399-x.so"}))
    assert "another Python" in compiled.choose(sources, build, {}).why_en
    (build / compiled.MANIFEST).write_text(json.dumps(manifest | {"compiled": ["hand"]}))
    assert "another tapis" in compiled.choose(sources, build, {}).why_en
    (build / compiled.MANIFEST).write_text("{not json")
    assert "unreadable" in compiled.choose(sources, build, {}).why_en
    (build / compiled.MANIFEST).write_text(json.dumps(manifest))
    (build / "hub" / "rules" / (compiled.LIBRARY + EXTENSION_SUFFIXES[0])).unlink()
    assert compiled.choose(sources, build, {}).why_en == f"the compiled build is incomplete ({compiled.LIBRARY})"


def test_the_suite_runs_the_pure_engine() -> None:
    """tests/conftest.py forces it before `hub` is imported (some tests subclass and monkeypatch `Hand`,
    which a compiled one refuses), unless TAPIS_ENGINE was set to run the suite compiled."""
    if os.environ["TAPIS_ENGINE"] != "pure":
        pytest.skip(f"TAPIS_ENGINE={os.environ['TAPIS_ENGINE']}: the suite runs the engine it finds")
    assert hub.rules.ENGINE.why_en == "TAPIS_ENGINE=pure"


def test_a_build_that_does_not_load_leaves_the_pure_engine(tmp_path: Path) -> None:
    """A matching manifest over modules that do not load (here empty files): the hub still imports its
    engine, the pure one, and says why; the package's path is as it was."""
    build = fake_build(tmp_path / "build", PACKAGE)
    probe = ("import hub.rules, hub.rules.hand as h; print(hub.rules.ENGINE.line()); print(h.__file__); "
             "print(len(hub.rules.__path__))")
    env = {**os.environ, "TAPIS_ENGINE": "compiled", "TAPIS_ENGINE_BUILD": str(build)}
    said = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, env=env,
                          check=True).stdout.splitlines()
    assert said[0].startswith("moteur de règles pur (la version compilée ne se charge pas") and \
        "/ pure rules engine (the compiled build does not load:" in said[0]
    assert said[1:] == [str(PACKAGE / "hand.py"), "1"]


def test_no_compiled_module_sits_in_the_package() -> None:
    """A module compiled in place (the session-16 experiment's `--keep`) would be imported before its source
    whatever the manifest says: builds go to their own folder only."""
    assert [p.name for p in PACKAGE.iterdir() if p.name.endswith(tuple(EXTENSION_SUFFIXES))] == []


def test_a_build_that_loads_only_in_part_leaves_none_of_its_modules(tmp_path: Path) -> None:
    """The build's first module loads, a later one does not: the pure engine runs whole, none of the build's
    modules left imported (a hub half compiled, half pure would mix two engines' classes)."""
    folder = tmp_path / "build" / "hub" / "rules"
    folder.mkdir(parents=True)
    (folder / f"{compiled.COMPILED[0]}.py").write_text("BUILT = True\n")  # loads, as a compiled module would
    (folder / f"{compiled.COMPILED[1]}.py").write_text("raise ImportError('a broken build')\n")
    probe = ("import sys, pathlib, hub.rules as r, hub.rules.compiled as c\n"
             "for n in c.COMPILED:\n    sys.modules.pop('hub.rules.' + n, None); r.__dict__.pop(n, None)\n"
             "c.choose = lambda *a: c.Engine(True)  # as if its manifest matched\n"
             "print(c.select(r.__path__, {}, pathlib.Path(sys.argv[1])).why_en)\n"
             f"import hub.rules.{compiled.COMPILED[0]} as m\n"
             "print(m.__file__, hasattr(m, 'BUILT'), len(r.__path__))\n")
    said = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "build")], capture_output=True, text=True,
                          cwd=ROOT, check=True).stdout.splitlines()
    assert said == ["the compiled build does not load: a broken build",
                    f"{PACKAGE / (compiled.COMPILED[0] + '.py')} False 1"], said
