"""The games' definitions read from `games.toml` and checked at the edge (pydantic), once.

Consumed by whoever resolves a game id (`start_hand`, the hub's tables, scenarios, `tapis phh`);
emits frozen `Game`s. A custom file (`load_games(path)`) is held to the same checks: a bad one is
refused with one line naming the game and the field.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from hub.rules.games import NLHE, Betting, DiscardWhen, Evaluation, Game
from hub.rules.records import UnknownGame

GAMES_FILE = Path(__file__).with_name("games.toml")


class _GameSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=80)
    name_en: str = Field(min_length=1, max_length=80)
    deck: Literal[52, 36]
    hole_cards: int = Field(ge=2, le=5)
    discards: int = Field(0, ge=0, le=1)
    discard_when: DiscardWhen = DiscardWhen.NEVER
    betting: Betting
    evaluation: Evaluation
    phh_variant: str | None = None

    @model_validator(mode="after")
    def _coherent(self) -> _GameSpec:
        if (self.discards > 0) != (self.discard_when is not DiscardWhen.NEVER):
            raise ValueError("discards and discard_when go together (a discard needs its moment)")
        if self.evaluation is Evaluation.OMAHA and self.hole_cards - self.discards < 2:
            raise ValueError("Omaha plays exactly two cards from the hand: deal at least two")
        if (self.evaluation is Evaluation.SHORT_DECK) != (self.deck == 36):
            raise ValueError("the short-deck evaluation and the 36-card deck go together")
        return self


class _GamesFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    games: dict[str, _GameSpec]


def parse_games(text: str, source: str = "games.toml") -> Mapping[str, Game]:
    """Games from TOML text; `UnknownGame` (a ValueError) with one line when it is not valid."""
    try:
        doc = _GamesFile.model_validate(tomllib.loads(text))
    except tomllib.TOMLDecodeError as err:
        raise UnknownGame(f"{source}: not a TOML file: {err}") from err
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UnknownGame(f"{source}: {where}: {first['msg']}") from err
    return MappingProxyType({
        gid: Game(id=gid, name=s.name, name_en=s.name_en, deck=s.deck, hole_cards=s.hole_cards,
                  betting=s.betting, evaluation=s.evaluation, discards=s.discards,
                  discard_when=s.discard_when, phh_variant=s.phh_variant)
        for gid, s in doc.games.items()
    })


def load_games(path: str | Path = GAMES_FILE) -> Mapping[str, Game]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise UnknownGame(f"{p}: cannot read the games file: {err}") from err
    return parse_games(text, str(p))


GAMES: Mapping[str, Game] = load_games()
DEFAULT_GAME = NLHE.id


def get_game(game_id: str = DEFAULT_GAME) -> Game:
    try:
        return GAMES[game_id]
    except KeyError:
        raise UnknownGame(f"unknown game {game_id!r} (known: {', '.join(GAMES)})") from None


# PHH code -> game, the first one listed that writes it: one lookup per hand read.
_BY_PHH: dict[str, Game] = {}
for _game in GAMES.values():
    if _game.phh_variant is not None:
        _BY_PHH.setdefault(_game.phh_variant, _game)


def game_for_phh(variant: object) -> Game:
    """The game a PHH `variant` code names ('NT', 'PO', 'NS')."""
    if type(variant) is str and variant in _BY_PHH:
        return _BY_PHH[variant]
    for game in GAMES.values():
        if game.phh_variant is not None and game.phh_variant == variant:
            return game
    known = ", ".join(repr(g.phh_variant) for g in GAMES.values() if g.phh_variant)
    raise UnknownGame(f"PHH variant {variant!r} is not a game tapis deals (known: {known})")
