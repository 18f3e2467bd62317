"""The dealing monitor and the rulings are pure: no IO, no threads, no clock (STYLE.md point 1)."""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PURE = sorted([*ROOT.glob("table_agent/dealing*.py"), *ROOT.glob("hub/rulings/*.py")])
FORBIDDEN = {"serial", "paho", "gpiozero", "socket", "time", "datetime", "threading", "asyncio", "os",
             "subprocess", "random", "sqlite3", "logging"}


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(ROOT)))
def test_module_imports_nothing_impure_and_opens_with_a_docstring(path: pathlib.Path) -> None:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    assert not names & FORBIDDEN
    if "table_agent" in path.parts:
        assert "hub" not in names  # the table never depends on the hub
    doc = ast.get_docstring(tree)
    assert doc and 2 <= len(doc.strip().splitlines()) <= 5


def test_pure_modules_found() -> None:
    # the rulings tables moved to files (hub/rulebooks/*.toml): their engine, model and texts stay here
    names = {str(p.relative_to(ROOT)) for p in PURE}
    assert {"table_agent/dealing.py", "hub/rulings/engine.py", "hub/rulings/model.py", "hub/rulings/texts.py"} <= names
    assert len(PURE) >= 9
