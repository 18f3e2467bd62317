"""The season file as a club writes it: read once, refused in one line naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from hub.season.season_file import MAX_FILE, SeasonError, load_season, parse_season

GOOD = """name = "Championnat 2026-2027"
members = ["Agnès", "Bruno"]
best_of = 8
[points]
formula = "100 * sqrt(entries) / sqrt(place)"
[[tournament]]
db = "oct.db"
label = "4 octobre"
not_checked_out = ["Bruno"]
[[tournament]]
db = "../autre/nov.db"
"""


def test_a_season_file_names_its_tournaments_beside_it(tmp_path: Path) -> None:
    s = parse_season(GOOD, "season.toml", tmp_path / "club")
    assert s.name == "Championnat 2026-2027" and s.members == ("Agnès", "Bruno") and s.best_of == 8
    assert [t.db for t in s.tournaments] == [(tmp_path / "club" / "oct.db").resolve(), (tmp_path / "autre" / "nov.db")]
    assert s.tournaments[0].label == "4 octobre" and s.tournaments[0].not_checked_out == {"Bruno"}
    assert s.tournaments[1].label is None
    assert s.rule.hundredths(1, entries=4, players=4) == 20000


@pytest.mark.parametrize("text, words", [
    ("name = ", "not a TOML file"),
    (GOOD.replace("best_of = 8", "best_of = 0"), "best_of: Input should be greater than or equal to 1"),
    (GOOD.replace('label = "4 octobre"', 'lable = "4 octobre"'), "tournament.0.lable: Extra inputs are not permitted"),
    (GOOD.replace('formula = "100 * sqrt(entries) / sqrt(place)"', 'formula = "open(place)"'),
     "points: formula 'open(place)': only sqrt"),
    (GOOD.replace('formula = "100 * sqrt(entries) / sqrt(place)"', "by_place = [10]\nformula = \"place\""),
     "either formula or by_place"),
    (GOOD.replace('"../autre/nov.db"', '"./oct.db"'), "is listed twice"),
    (GOOD.replace('members = ["Agnès", "Bruno"]', 'members = ["Agnès", " "]'), "members: ' ' is not a player's name"),
    ('name = "x"\n[points]\nformula = "1"\n', "tournament: Field required"),
])
def test_a_bad_season_file_is_refused_in_one_line_naming_the_key(text: str, words: str, tmp_path: Path) -> None:
    with pytest.raises(SeasonError) as err:
        parse_season(text, "season.toml", tmp_path)
    assert str(err.value).startswith("season.toml: ") and words in str(err.value) and "\n" not in str(err.value)


def test_a_file_that_cannot_be_a_season_file_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (MAX_FILE + 1))
    with pytest.raises(SeasonError, match="larger than 1024 KiB"):
        load_season(big)
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(SeasonError, match="cannot read the season file"):
        load_season(binary)
    with pytest.raises(SeasonError, match="cannot read the season file"):
        load_season(tmp_path / "none.toml")
