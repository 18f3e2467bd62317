"""`tapis season` as a club runs it: tournaments made and played out with `tapis tournament` (the TD's
commands on their stores), then the season's standings, a player's line, the check, JSON and CSV, each
a real process; bad files and stores refused in one line, exit 2, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

STRUCTURE = """name = "Mardi"
starting_stack = 2000

[[item]]
level = 1
small_blind = 100
big_blind = 200
ante = 0
minutes = 60
"""


def tapis(*args: str, cwd: Path, code: int = 0) -> str:
    done = subprocess.run([sys.executable, "-m", "tapis", *args], cwd=cwd, capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout if code == 0 else done.stderr


def tournament(folder: Path, db: str, players: list[str], *actions: list[str]) -> None:
    (folder / "structure.toml").write_text(STRUCTURE, encoding="utf-8")
    tapis("tournament", "new", "--db", db, "--ruleset", "brest-2011", "--structure", "structure.toml",
          "--tables", "1", "--seats", "9", "--buy-in", "20", "--payouts", "60,40", "--seed", "3", cwd=folder)
    tapis("tournament", "register", "--db", db, *players, cwd=folder)
    tapis("tournament", "seat", "--db", db, cwd=folder)
    tapis("tournament", "start", "--db", db, cwd=folder)
    said = ""
    for action in actions:
        if action == ["undo"]:  # the TD takes back his last action, by the number it printed
            action = ["undo", said.rsplit("tapis tournament undo ", 1)[1].split()[0]]
        said = tapis("tournament", *action, "--db", db, cwd=folder)


SEASON = """name = "Championnat 2026-2027"
members = ["Agnès", "Bruno", "Céline", "Denis", "Élodie"]
[points]
by_place = [100, 80, 65, 50, 40]
others = 10
[[tournament]]
db = "oct.db"
label = "octobre"
not_checked_out = ["Denis"]
[[tournament]]
db = "nov.db"
label = "novembre"
[[tournament]]
db = "dec.db"
label = "décembre"
"""


def test_a_season_of_tournaments_played_out_with_the_tds_commands(tmp_path: Path) -> None:
    # octobre: Victor (a visitor) 2nd, Céline disqualified 3rd, Denis 4th did not check out
    tournament(tmp_path, "oct.db", ["Agnès", "Bruno", "Céline", "Denis", "Victor"],
               ["eliminate", "Bruno"], ["eliminate", "Denis"], ["penalty", "Céline", "disqualification"],
               ["eliminate", "Victor"])
    # novembre: Bruno wins; Élodie's disqualification was undone, she scores her 3rd place; décembre is still
    # being played
    tournament(tmp_path, "nov.db", ["Agnès", "Bruno", "Élodie"], ["penalty", "Élodie", "disqualification"],
               ["undo"], ["eliminate", "Élodie"], ["eliminate", "Agnès"])
    tournament(tmp_path, "dec.db", ["Agnès", "Bruno", "Élodie"], ["eliminate", "Élodie"])
    (tmp_path / "season.toml").write_text(SEASON, encoding="utf-8")

    standings = tapis("season", "standings", "season.toml", cwd=tmp_path)
    assert standings.splitlines()[:2] == [
        "Championnat 2026-2027 : 2 tournois comptés / 2 tournaments counted",
        "  en cours, pas encore comptés / in progress, not counted yet: décembre"]
    rows = [line.split()[:3] for line in standings.splitlines()[2:]]
    # Agnès 100 + 80, Bruno 40 (5th in octobre) + 100, Élodie 65 (3rd of 3), Céline and Denis 0
    assert rows == [["1", "Agnès", "180,00"], ["2", "Bruno", "140,00"], ["3", "Élodie", "65,00"],
                    ["4=", "Céline", "0,00"], ["4=", "Denis", "0,00"]]

    data = json.loads(tapis("season", "standings", "season.toml", "--json", cwd=tmp_path))
    assert data["counted"] == ["octobre", "novembre"] and data["in_progress"] == ["décembre"]
    assert [(x["player"], x["hundredths"]) for x in data["standings"]][:2] == [("Agnès", 18000), ("Bruno", 14000)]
    assert tapis("season", "standings", "season.toml", "--csv", cwd=tmp_path).splitlines()[1] == "1;Agnès;180,00;2;1;0"

    celine = tapis("season", "player", "season.toml", "céline", cwd=tmp_path)
    assert "octobre  3e place / place 3  0,00  (disqualifié, aucun point / disqualified, no points)" in celine
    check = tapis("season", "check", "season.toml", cwd=tmp_path)
    assert "octobre : 5 entrées / entries, 5 classés / ranked; sans points / no points: Victor (visiteur" in check
    assert "Denis (non pointé, aucun point / did not check out, no points)" in check
    # a visitor is in no standings
    assert "not in the standings" in tapis("season", "player", "season.toml", "Victor", cwd=tmp_path, code=2)


def test_what_cannot_be_a_season_is_said_in_one_line(tmp_path: Path) -> None:
    tournament(tmp_path, "oct.db", ["Agnès", "Bruno"])
    (tmp_path / "not-tapis.db").write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    cases = {
        "missing.db": "missing.db: no such tournament file",
        "not-tapis.db": "not-tapis.db",
    }
    for db, words in cases.items():
        (tmp_path / "season.toml").write_text(SEASON.split("[[tournament]]")[0] + f'[[tournament]]\ndb = "{db}"\n',
                                              encoding="utf-8")
        said = tapis("season", "standings", "season.toml", cwd=tmp_path, code=2)
        assert said.startswith("tapis season standings: ") and words in said and said.count("\n") == 1, said
    head = SEASON.replace("by_place = [100, 80, 65, 50, 40]", 'formula = "1 / (place - 1)"').split("[[tournament]]")[0]
    (tmp_path / "season.toml").write_text(head + '[[tournament]]\ndb = "oct.db"\n', encoding="utf-8")
    tapis("tournament", "eliminate", "Bruno", "--db", "oct.db", cwd=tmp_path)
    said = tapis("season", "standings", "season.toml", cwd=tmp_path, code=2)
    assert "has no value for place=1" in said and said.count("\n") == 1
    said = tapis("season", "standings", cwd=tmp_path, code=2)
    assert said == "tapis season standings : il manque FILE / missing: FILE (tapis season --help)\n"
    assert (tmp_path / "missing.db").exists() is False  # a store is never created by reading a season


def test_bounties_from_hands_played_through_the_hub_code(tmp_path: Path) -> None:
    """A tournament dealt hand by hand through the hub's code (`tapis demo --tournament`: table facts ->
    FloorTables -> the rules engine -> the floor -> the store) to one winner: every player a hand left at
    zero was knocked out by players of his table who finished above him, and the season pays the bounties."""
    import io

    from simulators.tournament_demo import run_tournament_demo

    out = io.StringIO()
    assert run_tournament_demo(18, 2, "cdc-2013", 5, out, as_json=True, db=str(tmp_path / "demo.db")) == 0
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    results = events[-1]
    place = {row["player"]: row["place"] for row in results["ranking"]}
    outs = [e["event"] for e in events[:-1] if e["event"]["type"] == "PlayerEliminated"]
    assert len(outs) == 17
    for e in outs:
        assert e["by"], e  # a hand put him out: someone won his last chips
        assert all(place[k] < place[e["player"]] and k != e["player"] for k in e["by"]), e
    by_rows = {row["player"]: row["knocked_out_by"] for row in results["ranking"]}
    assert by_rows == {e["player"]: e["by"] for e in outs} | {results["ranking"][0]["player"]: []}
    (tmp_path / "season.toml").write_text('name = "KO"\n[points]\nby_place = [0]\nper_knockout = 10\n'
                                          '[[tournament]]\ndb = "demo.db"\n', encoding="utf-8")
    data = json.loads(tapis("season", "standings", "season.toml", "--json", cwd=tmp_path))
    shares: dict[str, int] = {}  # hundredths; one split by three: 34, 33, 33 (the parts make one)
    for e in outs:
        for i, k in enumerate(e["by"]):
            shares[k] = shares.get(k, 0) + 100 // len(e["by"]) + (i < 100 % len(e["by"]))
    got = {x["player"]: x["knockouts_hundredths"] for x in data["standings"] if x["knockouts_hundredths"]}
    assert got == shares
    assert sum(got.values()) == 1700  # 17 players out, each counted once, shared or not
    assert all(x["hundredths"] == 10 * x["knockouts_hundredths"] for x in data["standings"])
