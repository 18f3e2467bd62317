"""A table as the hub's game takes it and what the game gives back (hub, one table's game).

`TableSetup` is what the floor tells the hub about a table (ruleset, level, button, players, decks,
language, game); `Output` is what the game emits for one fact: hub events and commands for the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hub import rulebooks, rulings
from hub.rules import Level
from hub.rules.game_file import get_game
from hub.rules.rulesets import get_ruleset
from tablewire import wire

Event = dict[str, Any]
Command = wire.AnyCommand


@dataclass(frozen=True)
class TableSetup:
    """What the floor tells the hub about a table: the ruleset, the level, the button, the players."""

    players: Mapping[int, int]  # seat -> stack
    button: int
    level: Level = Level(50, 100)
    ruleset: str = rulings.DEFAULT_RULESET
    seats: int = 10
    decks: tuple[str, str] | None = None  # the table's two deck ids; None: `wire.table_deck_ids`
    lang: str = "fr"
    croupier: bool | None = None  # None: as the ruleset's rooms do (pouques: croupiers; others: players)
    game: str | None = None  # hub/rules/games.toml (nlhe, plo, plo5, short_deck...); None: the level's

    def __post_init__(self) -> None:
        get_ruleset(self.ruleset)  # UnknownRuleset (a KeyError) names the known ids
        get_game(self.game or self.level.game)  # UnknownGame (a ValueError) names the known ids
        if len([s for s, v in self.players.items() if v > 0]) < 2:
            raise ValueError("a table needs at least two players with chips")
        if any(not 1 <= s <= self.seats for s in self.players):
            raise ValueError(f"players' seats must be within 1..{self.seats}")

    def dealer(self, button: int) -> int | None:
        """Who deals: a croupier (None), or in dealerless rooms the player on the button (cdc, brest, pcpm,
        cpt87)."""
        croupier = self.croupier
        if croupier is None:  # a club's file follows the rooms of the text it inherits
            croupier = rulebooks.seed_of(self.ruleset) == "pouques-2020"
        return None if croupier else button


@dataclass
class Output:
    events: list[Event] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)

    def extend(self, other: Output) -> Output:
        self.events += other.events
        self.commands += other.commands
        return self
