"""Blind structures: levels (SB, BB, ante, duration) and breaks, as data (hub, tournament clock).

Consumed by `clock.py` and the aggregate; loaded from and saved to TOML for the TD to edit.
The Pouques-les-Eaux 2020 structure (seed 002, §G, articles 17, 18, 34) is built in.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from enum import StrEnum

from hub.rules.game_file import GAMES
from hub.tournament.errors import StructureError


class AnteKind(StrEnum):
    NONE = "none"
    PER_PLAYER = "per_player"  # every dealt-in player posts the ante (cdc, brest, pouques)
    BIG_BLIND = "big_blind"  # the big blind posts ante x players at the table (cpt87 8.8)


@dataclass(frozen=True, slots=True)
class Level:
    """One blind level (palier)."""

    number: int
    small_blind: int
    big_blind: int
    minutes: int
    ante: int = 0
    ante_kind: AnteKind = AnteKind.NONE
    game: str = "nlhe"  # hub/rules/games.toml; a mixed-game tournament changes game with the level

    def without_ante(self) -> Level:
        return Level(self.number, self.small_blind, self.big_blind, self.minutes, 0, AnteKind.NONE, self.game)


@dataclass(frozen=True, slots=True)
class Break:
    """A pause in the schedule; `day_end` stops the clock until the TD resumes (end of day 1)."""

    name: str
    minutes: int
    day_end: bool = False


Item = Level | Break


@dataclass(frozen=True, slots=True)
class Structure:
    name: str
    starting_stack: int
    items: tuple[Item, ...]
    # Heads-up changes (pouques §G last paragraph: 20-minute levels, antes removed).
    heads_up_minutes: int | None = None
    heads_up_antes: bool = True

    def __post_init__(self) -> None:
        if self.starting_stack <= 0:
            raise StructureError(f"starting stack must be positive, not {self.starting_stack}")
        if not any(isinstance(i, Level) for i in self.items):
            raise StructureError("a structure needs at least one level")
        numbers = [i.number for i in self.items if isinstance(i, Level)]
        if numbers != sorted(set(numbers)):
            raise StructureError(f"level numbers must increase: {numbers}")
        for item in self.items:
            if item.minutes < 0 or (isinstance(item, Level) and item.minutes == 0):
                raise StructureError(f"bad duration in {item}")
            if isinstance(item, Level) and not 0 < item.small_blind <= item.big_blind:
                raise StructureError(f"bad blinds in level {item.number}")
            if isinstance(item, Level) and (item.ante > 0) != (item.ante_kind is not AnteKind.NONE):
                raise StructureError(f"ante and ante kind disagree in level {item.number}")
            if isinstance(item, Level) and item.game not in GAMES:
                raise StructureError(f"unknown game {item.game!r} in level {item.number} (known: {', '.join(GAMES)})")

    @property
    def levels(self) -> tuple[Level, ...]:
        return tuple(i for i in self.items if isinstance(i, Level))

    def level(self, number: int) -> Level:
        for lv in self.levels:
            if lv.number == number:
                return lv
        raise StructureError(f"no level {number} in {self.name!r}")

    def index_of_level(self, number: int) -> int:
        for idx, item in enumerate(self.items):
            if isinstance(item, Level) and item.number == number:
                return idx
        raise StructureError(f"no level {number} in {self.name!r}")


def _level_table() -> list[tuple[int, int, int]]:
    """Pouques 34: (small blind, big blind, ante) for levels 1 to 26."""
    return [
        (50, 100, 0), (100, 200, 0), (150, 300, 25), (200, 400, 50), (300, 600, 75),
        (400, 800, 100), (500, 1000, 100), (600, 1200, 100), (800, 1600, 200),
        (1000, 2000, 200), (1500, 3000, 300), (2000, 4000, 400), (2500, 5000, 500),
        (3000, 6000, 500), (4000, 8000, 500), (5000, 10000, 1000), (6000, 12000, 1000),
        (8000, 16000, 2000), (10000, 20000, 2000), (12000, 24000, 3000),
        (15000, 30000, 4000), (20000, 40000, 5000), (30000, 60000, 5000),
        (40000, 80000, 10000), (50000, 100000, 10000), (60000, 120000, 15000),
    ]


# Pouques 18: dinner after 6, 10 min after 9 (day 1); day 2 resumes at level 15 with 10 min every
# 3 levels (after 17, 20, 23) and dinner after 21. Day 1 ends after level 14 (§G).
_POUQUES_BREAKS: dict[int, Break] = {
    6: Break("dîner", 60),
    9: Break("pause", 10),
    14: Break("fin du jour 1", 0, day_end=True),
    17: Break("pause", 10),
    20: Break("pause", 10),
    21: Break("dîner", 60),
    23: Break("pause", 10),
}


def pouques_2020() -> Structure:
    """The built-in Pouques-les-Eaux 2020 structure (seed 002, articles 17, 18, 31, 34)."""
    items: list[Item] = []
    for number, (sb, bb, ante) in enumerate(_level_table(), start=1):
        kind = AnteKind.PER_PLAYER if ante else AnteKind.NONE
        items.append(Level(number, sb, bb, 40, ante, kind))
        if number in _POUQUES_BREAKS:
            items.append(_POUQUES_BREAKS[number])
    return Structure("Pouques-les-Eaux 2020", 50_000, tuple(items), heads_up_minutes=20,
                     heads_up_antes=False)


def club_evening() -> Structure:
    """A club night's structure: 20,000 chips, 20-minute levels from 50/100, antes from level 4, a
    break after levels 4 and 8; the template a TD starts from when his rulebook has none."""
    blinds = [(50, 100, 0), (75, 150, 0), (100, 200, 0), (150, 300, 25), (200, 400, 50), (300, 600, 75),
              (400, 800, 100), (500, 1000, 100), (600, 1200, 200), (800, 1600, 200), (1000, 2000, 300),
              (1500, 3000, 400), (2000, 4000, 500), (3000, 6000, 1000), (4000, 8000, 1000), (5000, 10000, 1000)]
    items: list[Item] = []
    for number, (sb, bb, ante) in enumerate(blinds, start=1):
        items.append(Level(number, sb, bb, 20, ante, AnteKind.PER_PLAYER if ante else AnteKind.NONE))
        if number in (4, 8, 12):
            items.append(Break("pause", 10))
    return Structure("Soirée club", 20_000, tuple(items))


def templates() -> dict[str, Structure]:
    """The structures a TD picks from on the desk (then edits): a club night, and the rulebooks' own."""
    return {"club": club_evening(), "pouques-2020": pouques_2020()}


def to_toml(structure: Structure) -> str:
    """Serialise as TOML (the TD edits this file); `from_toml(to_toml(s)) == s`."""
    out = [f"name = {json.dumps(structure.name, ensure_ascii=False)}",
           f"starting_stack = {structure.starting_stack}"]
    if structure.heads_up_minutes is not None:
        out.append(f"heads_up_minutes = {structure.heads_up_minutes}")
    out.append(f"heads_up_antes = {'true' if structure.heads_up_antes else 'false'}")
    for item in structure.items:
        out.append("")
        out.append("[[item]]")
        if isinstance(item, Level):
            out += [f"level = {item.number}", f"small_blind = {item.small_blind}",
                    f"big_blind = {item.big_blind}", f"ante = {item.ante}",
                    f'ante_kind = "{item.ante_kind.value}"', f"minutes = {item.minutes}"]
            if item.game != "nlhe":
                out.append(f"game = {json.dumps(item.game)}")
        else:
            out += [f"break = {json.dumps(item.name, ensure_ascii=False)}",
                    f"minutes = {item.minutes}", f"day_end = {'true' if item.day_end else 'false'}"]
    return "\n".join(out) + "\n"


def from_toml(text: str) -> Structure:
    """Parse a structure written by `to_toml` or by hand; raise `StructureError` if malformed."""
    try:
        doc = tomllib.loads(text)
        items: list[Item] = []
        for raw in doc.get("item", []):
            if "level" in raw:
                ante = int(raw.get("ante", 0))
                default_kind = AnteKind.PER_PLAYER if ante else AnteKind.NONE
                items.append(Level(int(raw["level"]), int(raw["small_blind"]), int(raw["big_blind"]),
                                   int(raw["minutes"]), ante,
                                   AnteKind(raw.get("ante_kind", default_kind.value)), str(raw.get("game", "nlhe"))))
            elif "break" in raw:
                items.append(Break(str(raw["break"]), int(raw["minutes"]), bool(raw.get("day_end", False))))
            else:
                raise StructureError(f"item is neither a level nor a break: {raw}")
        hu = doc.get("heads_up_minutes")
        return Structure(str(doc["name"]), int(doc["starting_stack"]), tuple(items),
                         None if hu is None else int(hu), bool(doc.get("heads_up_antes", True)))
    except StructureError:
        raise
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError, ArithmeticError) as err:
        # ArithmeticError: `minutes = inf` (int() of an infinite float)
        raise StructureError(f"bad structure TOML: {err}") from err
