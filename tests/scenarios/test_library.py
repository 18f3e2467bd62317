"""Every scenario of the library through the real pipeline (pty reader, agent, Mosquitto, hub):
the faults and rulings it must print, in order, and how its hand ends."""

import io
import json

import pytest
import yaml

from simulators.replay import replay
from simulators.scenario import load
from tests.scenarios.library import ACTIONS, HERE, LIBRARY


@pytest.mark.parametrize("name", sorted(LIBRARY))
def test_scenario(name: str) -> None:
    _body, faults, result = LIBRARY[name]
    out = io.StringIO()
    events = replay(load(HERE / f"{name}.yaml"), out=out)
    assert [json.loads(line) for line in out.getvalue().splitlines()] == events  # JSON lines on stdout
    seen = [(e["kind"], e["ruling"]["decision"], e["ruling"]["article"]) for e in events if e["type"] == "fault"]
    assert seen == faults
    for e in events:
        assert e["table"] == "t1" and isinstance(e["hand"], int)
        if e["type"] == "fault":
            assert e["ruling"]["article"].split()[0] in ("cdc-2013", e_ruleset(name))
    if name in ACTIONS:
        acts = [(e["seat"], e["action"], e["status"], e.get("applied")) for e in events if e["type"] == "action"]
        assert acts == ACTIONS[name]
    ends = [e for e in events if e["type"] == "hand_end"]
    if result is not None:
        assert result in [e["result"] for e in ends]
    for end in ends:  # chips are never created or lost, whatever the ruling
        assert sum(end["stacks"].values()) == sum(LIBRARY[name][0]["players"].values())


def e_ruleset(name: str) -> str:
    return str(LIBRARY[name][0]["ruleset"])


def test_library_files_are_current() -> None:
    """The committed YAML files are what `python -m tests.scenarios.library` writes."""
    for name, (body, _faults, _result) in LIBRARY.items():
        assert yaml.safe_load((HERE / f"{name}.yaml").read_text()) == body, f"regenerate {name}.yaml"
