"""The engine core stays pure: no IO, clock, threads or randomness, and never PokerKit."""

from __future__ import annotations

import ast
from pathlib import Path

import hub.rules

PACKAGE = Path(hub.rules.__file__).parent
EDGE = {"phh.py", "phh_toml.py", "cli.py", "game_file.py"}  # read files / argv: the only modules allowed IO
ALLOWED = {"__future__", "collections", "dataclasses", "enum", "itertools", "types", "typing", "hub"}
EDGE_ALLOWED = ALLOWED | {"argparse", "json", "sys", "tomllib", "decimal", "pathlib", "re", "pydantic"}
# compiled.py chooses the engine once, at the package's import: it hashes the sources, reads the build's
# manifest and loads its modules; nothing of it runs during a hand
LOADER = {"compiled.py": ALLOWED | {"hashlib", "importlib", "json", "os", "sys", "pathlib"}}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_core_imports_nothing_impure() -> None:
    for path in sorted(PACKAGE.glob("*.py")):
        allowed = LOADER.get(path.name, EDGE_ALLOWED if path.name in EDGE else ALLOWED)
        assert imported_roots(path) <= allowed, path.name


def test_every_module_has_a_docstring_and_fits_one_sitting() -> None:
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text())
        assert ast.get_docstring(tree), path.name
        assert len(path.read_text().splitlines()) <= 600, path.name
