"""A club's file at simulated tables (`tapis demo --cash --ruleset club.toml`, and `--tournament`): the hub
deals under it and its rulings cite the club's articles; a broken file is refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from simulators.cli import main

CLUB = Path(__file__).parent / "club-bords-de-loire.toml"
CLUB_ARTICLES = {"exposed_card": "pcbl-2026 9", "flop_without_burn": "pcbl-2026 12"}


def test_cash_tables_run_under_the_club_file() -> None:
    """As a TD runs it: `tapis demo` in its own process (its broker, ptys and signal handler)."""
    done = subprocess.run([sys.executable, "-m", "tapis", "demo", "--cash", "--tables", "1", "--hands", "2",
                           "--fault-rate", "0.9", "--seed", "3", "--json", "--ruleset", str(CLUB)],
                          capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    starts = [e for e in events if e["type"] == "hand_start"]
    assert starts and {e["ruleset"] for e in starts} == {"pcbl-2026"}
    for e in events:
        if e["type"] == "fault":
            article = e["ruling"]["article"]
            if e["ruling"]["decision"] == "continue":  # substantial action voids a misdeal: cdc 7.7, inherited
                assert article == "cdc-2013 7.7"
            else:
                assert article == CLUB_ARTICLES.get(e["kind"], article)
            assert article.split()[0] in ("pcbl-2026", "cdc-2013")


def test_a_demo_tournament_under_the_club_file() -> None:
    """The tournament keeps the file's text (as `tapis tournament new --ruleset FILE`) and plays to its end."""
    done = subprocess.run([sys.executable, "-m", "tapis", "demo", "--tournament", "--ruleset", str(CLUB), "--players",
                           "6", "--tables", "1", "--json", "--seed", "2"], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    results = lines[-1]
    assert results["type"] == "results" and results["ruleset"] == "pcbl-2026" and results["finished"]


@pytest.mark.parametrize(("args", "says"), [
    (["--cash", "--ruleset", "BAD"], "burns: clé inconnue"),
    (["--tournament", "--ruleset", "BAD"], "burns: clé inconnue"),
    (["--tournament", "--ruleset", "pcbl"], "unknown (known: cdc-2013, brest-2011"),
])
def test_a_file_the_demo_cannot_use_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                args: list[str], says: str) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('id = "club-x"\nname = "x"\ninherits = "cdc-2013"\nburns = 2\n', encoding="utf-8")
    assert main(["demo", *[str(bad) if a == "BAD" else a for a in args]]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and says in err and "Traceback" not in err
