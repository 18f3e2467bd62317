"""The architecture's import rules (DESIGN.md, STYLE.md §1): pure logic in the middle, IO at the edges,
and a one-way house: the table and the hub meet only in the contract (`tablewire`).

Walks every module's imports statically, so a forbidden import fails here even on a code path no
other test runs.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
IO_LIBS = {"serial", "paho", "gpiozero", "smartcard", "socket", "subprocess", "threading", "sqlite3"}
PRODUCT = {"tablewire", "firmware_bridge", "hw", "table_agent", "hub", "simulators", "tapis"}

# module (or package prefix) -> top-level imports it must not make
RULES: dict[str, set[str]] = {
    "tablewire": PRODUCT - {"tablewire"},  # the contract at the bottom imports nothing of the product
    "firmware_bridge": {"serial", "paho", "gpiozero", "smartcard", "hw", "table_agent", "hub", "simulators"},
    "table_agent": {"hub"},  # the table knows the hub only through the contract
    "hw": {"hub", "table_agent"},  # the adapters under the table: the contract's names, never the hub's
    "table_agent/presence.py": IO_LIBS | {"time"},
    "table_agent/zones.py": IO_LIBS | {"time"},
    "table_agent/events.py": IO_LIBS | {"time"},
    "table_agent/dealing": IO_LIBS | {"time"},
    "hub": {"serial", "gpiozero", "smartcard", "table_agent"},  # no hardware; tables only through the contract
    "hub/rules": IO_LIBS | {"time"},
    "hub/rulings": IO_LIBS | {"time"},
    "hub/tournament": IO_LIBS | {"time"},
    "hub/room/tables.py": IO_LIBS | {"time"},
    "hub/room/table_time.py": IO_LIBS | {"time"},  # Time at a table counts on the clock it is given
    "hub/history/hand_record.py": IO_LIBS | {"time"},  # a hand's record: events in, a dict out
    "hub/history/phh_text.py": IO_LIBS | {"time"},
    "hub/season/points.py": IO_LIBS | {"time"},  # a place's points: numbers in, hundredths out
    "hub/season/standings.py": IO_LIBS | {"time"},
    "hub/edge/mqtt5.py": IO_LIBS | {"time", "asyncio", "ssl", "hub", "tablewire"},  # packets: bytes in, bytes out
    "hub/edge/link.py": {"paho"},  # the hub's own MQTT client: paho stays the tables' and the tools'
    "hub/edge/routes.py": IO_LIBS | {"time", "asyncio", "ssl"},  # the link's routing: topics in, handlers out
    # the service's clock: the countdowns judged on the clocks it is given (tests set them), never on `time`
    "hub/edge/service_clock.py": (IO_LIBS - {"threading"}) | {"time", "asyncio", "ssl"},
    "table_agent/panel_setup.py": {"serial", "paho", "smartcard", "sqlite3", "hub"},  # pins and I2C only
}
PRODUCTION = ("tablewire", "firmware_bridge", "table_agent", "hub", "hw")
# what each side may reach through the modules it imports, not only directly
NEVER_REACHES = {"hub": "table_agent", "table_agent": "hub", "tablewire": "table_agent", "hw": "table_agent"}
# every package whose modules must not import each other in a circle
CIRCLE_FREE = PRODUCTION + ("simulators", "tapis")


def imports_of(path: Path, *, full: bool = False) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name if full else alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module if full else node.module.split(".")[0])
            if full:  # `from pkg import module` names a module too
                found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def modules() -> list[Path]:
    return sorted(p for pkg in PRODUCTION for p in (ROOT / pkg).rglob("*.py"))


def _file_of(module: str) -> Path | None:
    base = ROOT / module.replace(".", "/")
    return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)


def reached(path: Path) -> set[str]:
    """Every product module `path` imports, directly or through the modules it imports."""
    seen: set[str] = set()
    todo = [path]
    while todo:
        for name in imports_of(todo.pop(), full=True):
            if name.split(".")[0] in PRODUCT and name not in seen and (found := _file_of(name)) is not None:
                seen.add(name)
                todo.append(found)
    return seen


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_module_respects_its_layer(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    used = imports_of(path)
    for prefix, forbidden in RULES.items():
        if rel in (prefix, prefix + ".py") or rel.startswith((prefix + "/", prefix + "_")):
            bad = used & forbidden
            assert not bad, f"{rel} imports {sorted(bad)}, which its layer must not"
    if "simulators" in used:
        pytest.fail(f"{rel}: production code must not import simulators")
    if "tapis" in used:
        pytest.fail(f"{rel}: `tapis` is the command on top; nothing below imports it")
    side = rel.split("/")[0]
    if side in NEVER_REACHES:
        far = sorted(m for m in reached(path) if m.split(".")[0] == NEVER_REACHES[side])
        assert not far, f"{rel} reaches {far} through its imports"


def test_a_simulated_table_never_reaches_the_hub() -> None:
    """`tapis sim table` is a table's process: nothing it imports, directly or through others, is the hub's."""
    path = ROOT / "simulators" / "sim_table.py"
    reach = reached(path)
    assert "table_agent.cli" in reach  # the agent's own start path
    assert not sorted(m for m in reach if m.split(".")[0] == "hub")


def test_the_command_on_top_imports_a_package_only_through_its_verb() -> None:
    tree = ast.parse((ROOT / "tapis" / "cli.py").read_text(encoding="utf-8"))
    top_level = {n.module.split(".")[0] for n in tree.body if isinstance(n, ast.ImportFrom) and n.module}
    top_level |= {a.name.split(".")[0] for n in tree.body if isinstance(n, ast.Import) for a in n.names}
    assert not top_level & PRODUCT


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_modules(path: Path) -> set[str]:
    """The modules `path` imports: `from pkg import module` imports the module, not pkg's names."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if _file_of(sub) is not None else node.module)
    return found


def package_graphs() -> dict[str, dict[str, set[str]]]:
    """package -> module -> the modules of the same package it imports (type-only imports too:
    a circle hidden behind TYPE_CHECKING or a function-level import is still a circle)."""
    graphs: dict[str, dict[str, set[str]]] = {}
    for path in sorted(p for pkg in CIRCLE_FREE for p in (ROOT / pkg).rglob("*.py")):
        name = _module_name(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = graphs.setdefault(package, {}).setdefault(name, set())
        for imported in _imported_modules(path):
            found = _file_of(imported)
            if found is not None and found != path:
                target = _module_name(found)
                if target == package or target.rpartition(".")[0] == package:
                    edges.add(target)
    return graphs


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of two or more modules (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, todo = work[-1]
            step = next((n for n in todo if n in graph), None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


@pytest.mark.parametrize("package", sorted(package_graphs()))
def test_no_import_circle_inside_a_package(package: str) -> None:
    """Inside one package the imports run one way too: the state below, the operations on it above."""
    found = circles(package_graphs()[package])
    assert not found, f"{package}: modules that import each other in a circle: {found}"


def side_graph(side: str) -> dict[str, set[str]]:
    """module -> the modules of the same side (`hub`, `table_agent`...) it imports, whatever their package."""
    graph: dict[str, set[str]] = {}
    for path in sorted((ROOT / side).rglob("*.py")):
        edges = graph.setdefault(_module_name(path), set())
        for imported in _imported_modules(path):
            found = _file_of(imported)
            if found is not None and found != path and _module_name(found).split(".")[0] == side:
                edges.add(_module_name(found))
    return graph


@pytest.mark.parametrize("side", CIRCLE_FREE)
def test_no_import_circle_across_the_packages_of_a_side(side: str) -> None:
    """Across packages too: the types below, the files read into them, the look-ups by id above
    (`hub.rules.ruleset`, `hub.tournament.rulesets` <- `hub.rulebooks` <- `hub.rules.rulesets`,
    `hub.tournament.policy`): a look-up by id inside a package the books import would close a circle."""
    found = circles(side_graph(side))
    assert not found, f"{side}: modules of different packages that import each other in a circle: {found}"
