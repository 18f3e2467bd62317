"""docs/faults.md states the felt-to-ruling budget as `benchmarks/bench_felt_to_ruling.py --markdown`
prints it: the same columns, every fault kind the benchmark makes, at least ten rulings of each kind in
each mode, and the budget by group worked out from the kinds' rows (issue #33: the docs' figures
equal the benchmark's)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
MODES = ["before", "now"]


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_felt_to_ruling", ROOT / "benchmarks/bench_felt_to_ruling.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules.get(spec.name)
    if module is None:
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclasses look their module up there
        spec.loader.exec_module(module)
    return module


def tables() -> list[list[list[str]]]:
    """The markdown tables of the budget section, each a list of rows of cells (header first)."""
    text = (ROOT / "docs/faults.md").read_text(encoding="utf-8")
    section = text.split("## From the felt to the ruling", 1)[1].split("\n## ", 1)[0]
    found: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in section.splitlines() + [""]:
        if line.startswith("|"):
            if not re.fullmatch(r"\|(-+\|)+", line):
                current.append([c.strip() for c in line.strip("|").split("|")])
        elif current:
            found.append(current)
            current = []
    return found


def table_with(header: str) -> list[list[str]]:
    cells = [c.strip() for c in header.strip("|").split("|")]
    matching = [t for t in tables() if t[0] == cells]
    assert matching, f"docs/faults.md has no table headed {header}"
    return matching[0][1:]


def test_the_docs_table_is_the_benchmarks_with_every_kind_and_ten_rulings_each() -> None:
    b = bench()
    rows = table_with(b.markdown({m: [] for m in MODES}, MODES)[0])
    kinds = {re.sub(r"`(\w+)`.*", r"\1", row[0]) for row in rows}
    assert kinds == {str(k) for k in b.KINDS}
    for row in rows:
        counts = [int(n) for n in row[2].split("/")]
        assert len(counts) == len(MODES) and min(counts) >= 10, row


def test_the_docs_budget_by_group_follows_from_the_kinds_rows() -> None:
    b = bench()
    rows = table_with(b.markdown({m: [] for m in MODES}, MODES)[0])
    groups = table_with(b.markdown_groups({m: [] for m in MODES}, MODES)[0])
    assert [g[0] for g in groups] == list(b.GROUPS)
    for g in groups:
        for i, mode in enumerate(MODES):
            n, mean, worst = int(g[1 + 4 * i]), float(g[2 + 4 * i]), float(g[3 + 4 * i])
            mine = [r for r in rows if b.group_of(b.Sample(r[0].split("`")[1], "seat" if r[1] == "a seat"
                                                           else "other", 0, 0, 0, 0, False)) == g[0]]
            counts = [int(r[2].split("/")[i]) for r in mine]
            assert n == sum(counts), (g[0], mode)
            assert worst == max(float(r[4 + 3 * i]) for r in mine), (g[0], mode)
            weighted = sum(c * float(r[3 + 3 * i]) for c, r in zip(counts, mine, strict=True)) / n
            assert abs(mean - weighted) <= 1, (g[0], mode)
