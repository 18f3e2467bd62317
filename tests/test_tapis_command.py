"""`tapis`: one command on top; every verb listed, each package loaded only when its verb is used."""

import subprocess
import sys

import pytest

from tapis.cli import VERBS, main

PACKAGES = ("hub", "table_agent", "simulators")


def loaded_after(code: str) -> set[str]:
    """The product packages a fresh interpreter has imported after running `code`."""
    probe = (f"import sys\ntry:\n    {code}\nexcept SystemExit:\n    pass\n"
             f"print('loaded:', *sorted({{m.split('.')[0] for m in sys.modules}} & {set(PACKAGES)!r}))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    line = next(line for line in out.stdout.splitlines() if line.startswith("loaded:"))
    return set(line.split()[1:])


def test_help_lists_every_verb_of_every_package(capsys: pytest.CaptureFixture[str]) -> None:
    import hub.cli
    import simulators.cli
    import table_agent.cli

    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    listed = capsys.readouterr().out
    for cli in (hub.cli, simulators.cli, table_agent.cli):
        subparsers = next(a for a in cli.parser()._actions if a.dest == "command")
        for verb in subparsers.choices:
            assert verb in VERBS and VERBS[verb][0] == cli.__name__
            assert f"    {verb} " in listed
    assert "doctor" in listed


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith("tapis ")


def test_no_verb_or_an_unknown_one_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in ([], ["-v"], ["deal"]):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 2
        assert "usage: tapis" in capsys.readouterr().err


def test_help_imports_no_package_and_each_verb_only_its_own() -> None:
    assert loaded_after("from tapis.cli import main; main(['--help'])") == set()
    # a bad broker URL: refused after the verb's package is loaded, before anything starts
    agent = "from tapis.cli import main; main(['-v', 'agent', '--profile', 'x', '--decks', 'y', '--broker', 'z'])"
    assert loaded_after(agent) == {"table_agent"}
    assert loaded_after("from tapis.cli import main; main(['phh', '/nonexistent.phh'])") == {"hub"}
    replay = "from tapis.cli import main; main(['replay', '/nonexistent.yaml'])"
    assert "table_agent" not in loaded_after("from tapis.cli import main; main(['hub', '--shard', '1/2'])")
    assert "simulators" in loaded_after(replay)


def test_a_verb_after_verbose_flags_reaches_its_own_parser(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-v", "phh", "/nonexistent.phh"]) == 1
    assert "ERROR" in capsys.readouterr().out
    assert main(["-vv", "hub", "--shard", "1/2"]) == 2
    assert "give --broker" in capsys.readouterr().err
