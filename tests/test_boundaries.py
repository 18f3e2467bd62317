"""The architecture's import rules (DESIGN.md, STYLE.md §1): pure logic in the middle, IO at the edges.

Walks every module's imports statically, so a forbidden import fails here even on a code path no
other test runs.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
IO_LIBS = {"serial", "paho", "gpiozero", "smartcard", "socket", "subprocess", "threading", "sqlite3"}

# module (or package prefix) -> top-level imports it must not make
RULES: dict[str, set[str]] = {
    "firmware_bridge": {"serial", "paho", "gpiozero", "smartcard", "hw", "table_agent", "hub", "simulators"},
    "table_agent/presence.py": IO_LIBS | {"time"},
    "table_agent/zones.py": IO_LIBS | {"time"},
    "table_agent/events.py": IO_LIBS | {"time"},
    "table_agent/dealing": IO_LIBS | {"time"},
    "hub/rules": IO_LIBS | {"time"},
    "hub/rulings": IO_LIBS | {"time"},
    "hub/tournament": IO_LIBS | {"time"},
    "hub/tables.py": IO_LIBS | {"time"},
    "hub": {"serial", "gpiozero", "smartcard"},  # the hub never talks to hardware
    "table_agent/panel_setup.py": {"serial", "paho", "smartcard", "sqlite3", "hub"},  # pins and I2C only
}
PRODUCTION = ("firmware_bridge", "table_agent", "hub", "hw")


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def modules() -> list[Path]:
    return sorted(p for pkg in PRODUCTION for p in (ROOT / pkg).rglob("*.py"))


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_module_respects_its_layer(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    used = imports_of(path)
    for prefix, forbidden in RULES.items():
        if rel in (prefix, prefix + ".py") or rel.startswith((prefix + "/", prefix + "_")):
            bad = used & forbidden
            assert not bad, f"{rel} imports {sorted(bad)}, which its layer must not"
    if "simulators" in used and rel != "hub/cli.py":
        pytest.fail(f"{rel}: production code must not import simulators")
