"""Table profiles and deck registries: a wrong file is refused with where and what was expected."""

from pathlib import Path

import pytest

from hw.decks import DeckRegistry
from hw.errors import ConfigError
from hw.profile import TableProfile
from table_agent.events import BOARD, Zone

GOOD = """
table = "t7"
seats = 2
decks = ["t7/A", "t7/B"]
[reader]
url = "/dev/serial/by-id/usb-tapis-board"
scan_period_ms = 40
[antennas]
0 = "seat:1"
1 = "seat:2"
2 = "board"
3 = "board"
4 = "burn"
5 = "muck"
6 = "tray"
"""


def write(tmp_path: Path, text: str, name: str = "t.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_profile_loads(tmp_path: Path) -> None:
    profile = TableProfile.load(write(tmp_path, GOOD))
    assert profile.table == "t7" and profile.reader.scan_period_ms == 40
    assert profile.zone_of(3) == BOARD and profile.zone_of(0) == Zone.seat_zone(1)
    assert profile.antenna_count == 7 and profile.deck_ids == ("t7/A", "t7/B")


@pytest.mark.parametrize("old, new, message", [
    ('2 = "board"\n3 = "board"\n', "", "no antenna for board"),
    ('6 = "tray"\n', "", "no antenna for tray"),
    ('1 = "seat:2"\n', "", "no antenna for seat:2"),
    ('0 = "seat:1"', '0 = "chair:1"', "unknown zone 'chair:1'"),
    ('0 = "seat:1"', '-1 = "seat:1"', "numbers start at 0"),
])
def test_profile_wrong_antennas(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in GOOD
    with pytest.raises(ConfigError, match=message):
        TableProfile.load(write(tmp_path, GOOD.replace(old, new)))


def test_profile_errors_are_plain(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="seat:5 is beyond the table's 2 seats"):
        TableProfile.load(write(tmp_path, GOOD.replace('1 = "seat:2"', '1 = "seat:2"\n7 = "seat:5"')))
    with pytest.raises(ConfigError, match="reader"):
        TableProfile.load(write(tmp_path, GOOD.replace("[reader]\n", "[radar]\n")))
    with pytest.raises(ConfigError, match="t.toml"):
        TableProfile.load(write(tmp_path, "table = "))
    with pytest.raises(ConfigError, match="No such file"):
        TableProfile.load(tmp_path / "absent.toml")
    assert isinstance(ConfigError("x"), ValueError)


def test_registry_round_trip_and_lookups(tmp_path: Path) -> None:
    reg = DeckRegistry.generate(["t1", "t2"])
    assert len(reg) == 4 * 52
    again = DeckRegistry.load(write(tmp_path, reg.dump(), "decks.toml"))
    uid = reg.uid_of("t1/B", "Td")
    assert again.lookup(uid) == reg.lookup(uid)
    assert again.lookup(bytes.fromhex(uid)).card == "Td"
    assert again.lookup("00112233").deck is None
    assert [d.id for d in again.decks_of("t2")] == ["t2/A", "t2/B"]


def test_registry_refuses_bad_decks(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="same card on two tags: As"):
        DeckRegistry.load(write(tmp_path, '[deck.X.cards]\n"0401" = "As"\n"0402" = "As"\n'))
    with pytest.raises(ConfigError, match="not rank then suit"):
        DeckRegistry.load(write(tmp_path, '[deck.X.cards]\n"0401" = "1s"\n'))
    with pytest.raises(ConfigError, match="not hexadecimal"):
        DeckRegistry.load(write(tmp_path, '[deck.X.cards]\n"04ZZ" = "As"\n'))
    with pytest.raises(ConfigError, match="in deck 'X' and deck 'Y'"):
        DeckRegistry.load(write(tmp_path, '[deck.X.cards]\n"0401" = "As"\n[deck.Y.cards]\n"04:01" = "Ks"\n'))
