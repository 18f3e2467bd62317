"""Bad scenario files (#15 points 8 and 10): refused at load in one short line naming the file, fast.

YAML alias bombs, oversized and deeply nested files, unknown rulesets, a button on an empty seat,
sb > bb, seats past the table, amounts the seat panel cannot show: `load` raises `ScenarioError`
(one line, the file's path in it) and `tapis replay` exits 2 with that line, never a traceback.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from simulators.scenario import MAX_SCENARIO_BYTES, ScenarioError, load
from tapis.cli import main

HEAD = """ruleset: cdc-2013
table: {id: t1, seats: 9}
level: {sb: 50, bb: 100}
button: 9
players: {1: 10000, 2: 10000, 9: 10000}
steps:
- hole: {seat: 1, card: As}
"""

BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]\n" for i in range(8))

BAD: dict[str, str] = {
    "alias-bomb": BOMB + HEAD.replace("steps:\n", "steps:\n- hole: *i\n"),
    "alias-bomb-step": BOMB + HEAD + "- *i\n",
    "huge": HEAD + "# " + "x" * MAX_SCENARIO_BYTES + "\n",
    "deep": HEAD + "- " + "[" * 50_000 + "]" * 50_000 + "\n",
    "long-step": HEAD + "- {hole: {seat: 1, card: As}, board: " + "K" * 200_000 + "}\n",
    "unknown-ruleset": HEAD.replace("cdc-2013", "no-such-rules"),
    "button-on-empty-seat": HEAD.replace("button: 9", "button: 5"),
    "button-past-the-table": HEAD.replace("button: 9", "button: 10"),
    "sb-above-bb": HEAD.replace("sb: 50", "sb: 500"),
    "take-seat-99": HEAD + "- take: {zone: 'seat:99', card: As}\n",
    "hole-seat-10-of-9": HEAD + "- hole: {seat: 10, card: Ks}\n",
    "act-seat-10-of-9": HEAD + "- act: {seat: 10, action: fold}\n",
    "raise-1e23": HEAD + "- act: {seat: 1, action: raise, to: 100000000000000000000000}\n",
    "raise-float": HEAD + "- act: {seat: 1, action: raise, to: 1.0e23}\n",
    "not-utf8": HEAD.replace("cdc-2013", "cdc-\udcff2013").encode("utf-8", "surrogateescape").decode("latin-1"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_refused_at_load_in_one_short_line(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"{case}.yaml"
    if case == "not-utf8":
        path.write_bytes(BAD[case].encode("latin-1"))
    else:
        path.write_text(BAD[case])
    began = time.monotonic()
    with pytest.raises(ScenarioError) as err:
        load(path)
    assert time.monotonic() - began < 5, "refused at once"
    text = str(err.value)
    assert str(path) in text and "\n" not in text and len(text) < 600, text[:700]
    assert main(["replay", str(path)]) == 2
    printed = capsys.readouterr().err.strip()
    assert printed.startswith("tapis replay:") and "Traceback" not in printed and len(printed) < 700


def test_the_repository_scenarios_still_load() -> None:
    """Anchors and aliases of a few steps (yaml.dump writes them) stay accepted: only bombs are refused."""
    files = sorted(Path(__file__).parent.parent.joinpath("scenarios").glob("*.yaml"))
    assert files
    for f in files:
        load(f)
