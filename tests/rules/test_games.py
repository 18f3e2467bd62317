"""The games file: what it defines, and that a bad definition is refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from hub.rules.game_file import GAMES, get_game, load_games, parse_games
from hub.rules.games import NLHE, Betting, DiscardWhen, Evaluation
from hub.rules.records import UnknownGame


def test_the_engines_default_is_the_files_nlhe() -> None:
    assert GAMES["nlhe"] == NLHE


def test_the_games_cpt87_names_that_tapis_deals() -> None:
    plo, plo5, sd = get_game("plo"), get_game("plo5"), get_game("short_deck")
    assert (plo.hole_cards, plo.betting, plo.evaluation, plo.deck) == (4, Betting.POT_LIMIT, Evaluation.OMAHA, 52)
    assert (plo5.hole_cards, plo5.betting) == (5, Betting.POT_LIMIT)
    assert (sd.deck, sd.hole_cards, sd.evaluation, sd.excluded_ranks) == (
        36, 2, Evaluation.SHORT_DECK, frozenset("2345"))
    pine, crazy = get_game("pineapple"), get_game("crazy_pineapple")
    assert (pine.hole_cards, pine.discards, pine.discard_when, pine.kept_cards) == (3, 1, DiscardWhen.BEFORE_FLOP, 2)
    assert crazy.discard_when is DiscardWhen.AFTER_FLOP
    assert get_game("nlhe").excluded_ranks == frozenset()


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownGame, match="unknown game 'ocean'.*plo"):
        get_game("ocean")


GOOD = """[games.x]
name = "X"
name_en = "X"
deck = 52
hole_cards = 4
betting = "pot_limit"
evaluation = "omaha"
"""


@pytest.mark.parametrize("change,where", [
    (("deck = 52", "deck = 40"), "games.x.deck"),
    (("hole_cards = 4", "hole_cards = 9"), "games.x.hole_cards"),
    (("betting = \"pot_limit\"", "betting = \"fixed_limit\""), "games.x.betting"),
    (("deck = 52", "deck = 36"), "games.x"),  # 36 cards with the Omaha evaluation
    (("name = \"X\"", "name = \"X\"\ndiscards = 1"), "games.x"),  # a discard with no moment
    (("name = \"X\"", "name = \"X\"\nwild = \"2\""), "games.x.wild"),  # unknown field
    (("[games.x]", "[games.x"), "not a TOML file"),
])
def test_a_bad_games_file_is_refused_in_one_line(change: tuple[str, str], where: str) -> None:
    assert parse_games(GOOD)["x"].hole_cards == 4
    with pytest.raises(UnknownGame) as err:
        parse_games(GOOD.replace(*change), "custom.toml")
    message = str(err.value)
    assert message.startswith("custom.toml: ") and where in message and "\n" not in message


def test_a_missing_games_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(UnknownGame, match="cannot read the games file"):
        load_games(tmp_path / "none.toml")


def test_a_structure_names_the_game_per_level_and_keeps_it_through_toml() -> None:
    """A mixed-game tournament: hold'em, then PLO; the engine's level carries the game to the table."""
    from hub.floor.service import hand_level
    from hub.tournament.structure import Level, Structure, from_toml, to_toml

    s = Structure("Mixte", 10_000, (Level(1, 50, 100, 20), Level(2, 100, 200, 20, game="plo")))
    back = from_toml(to_toml(s))
    assert back == s and [lv.game for lv in back.levels] == ["nlhe", "plo"]
    assert 'game = "plo"' in to_toml(s) and to_toml(s).count("game =") == 1  # hold'em files unchanged
    assert hand_level(back.level(2)).game == "plo"
    assert back.level(2).without_ante().game == "plo"


def test_a_level_of_an_unknown_game_is_refused() -> None:
    from hub.tournament.errors import StructureError
    from hub.tournament.structure import Level, Structure

    with pytest.raises(StructureError, match="unknown game 'ocean' in level 2"):
        Structure("Mixte", 10_000, (Level(1, 50, 100, 20), Level(2, 100, 200, 20, game="ocean")))


def test_the_table_deals_the_levels_game_unless_told_otherwise() -> None:
    from hub.room.game import TableGame, TableSetup
    from hub.rules import Level
    from tablewire import wire

    players = {1: 5_000, 2: 5_000, 3: 5_000}
    for setup, hole in ((TableSetup(players=players, button=3, level=Level(50, 100, game="plo5")), 5),
                        (TableSetup(players=players, button=3, level=Level(50, 100, game="plo5"), game="nlhe"), 2)):
        out = TableGame("t1", setup).new_hand(0.0)
        assert next(c for c in out.commands if isinstance(c, wire.HandContextCmd)).hole_cards == hole


def test_the_floors_stored_hand_context_keeps_the_game() -> None:
    from hub.floor.hand_context import from_context, hand_context
    from hub.rules import Level, Positions

    ctx = hand_context(3, {1: 100, 2: 100}, Positions(1, 1, 2), Level(50, 100, game="short_deck"), 0,
                       {2: "cdc-2013 5.1"})
    assert from_context(ctx)[3].game == "short_deck"
    assert from_context(ctx)[4] == {2: "cdc-2013 5.1"}  # the seats dealt dead, as the hand started
    old: dict[str, object] = dict(ctx, level=[50, 100, 0, False])  # a store written before games had levels
    assert from_context(old)[3].game == "nlhe"  # type: ignore[arg-type]


def test_a_game_that_does_not_fit_the_deck_is_refused_before_the_deal() -> None:
    """Five-card Omaha for nine: 45 hole cards, five board cards and three burns are 53 cards."""
    from hub.room.game import TableGame, TableSetup
    from hub.rules import HandSetupError, Level, start_hand

    nine = dict.fromkeys(range(1, 10), 5_000)
    with pytest.raises(HandSetupError, match="53 cards, more than its 52-card deck"):
        start_hand("cdc-2013", Level(50, 100), 9, nine, game=get_game("plo5"))
    assert start_hand("cdc-2013", Level(50, 100), 8, dict.fromkeys(range(1, 9), 5_000), game=get_game("plo5"))
    out = TableGame("t1", TableSetup(players=nine, button=9, game="plo5")).new_hand(0.0)
    assert [e["type"] for e in out.events] == ["table_idle"] and "53" not in out.events[0]["reason"]
    assert out.commands == []
