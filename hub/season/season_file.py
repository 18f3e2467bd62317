"""A club's season file (TOML), read and checked at the edge (pydantic), once.

    name = "Championnat 2026-2027"
    members = ["Agnès", "Bruno"]      # adhérents (brest-2011 IX.1, cpt87 1.3); absent: every player scores
    best_of = 8                        # optional: each player's 8 best results count
    [points]
    formula = "100 * sqrt(entries) / sqrt(place)"   # or: by_place = [100, 80, 65], others = 5
    per_knockout = 10                  # optional: points for each player knocked out (a bounty, la prime)
    [[tournament]]
    db = "2026-10-04.db"               # the tournament's store (`tapis hub --db`), beside this file
    label = "4 octobre"                # optional: its name and date otherwise
    not_checked_out = ["Denis"]        # optional: non pointés (brest-2011 IX.4)

A bad file is refused with one line naming the key (`SeasonError`); the stores are read by `hub.season.cli`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from hub.season.points import PointsError, PointsRule

MAX_FILE = 1 << 20  # a season file is a page of text: a larger one is not one
Name = Field(min_length=1, max_length=80)


class SeasonError(ValueError):
    """A season file that cannot be used, in one line."""


class _Points(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    formula: str | None = Field(None, min_length=1, max_length=200)
    by_place: list[float] = Field(default_factory=list, max_length=1000)
    others: float = 0.0
    per_knockout: float = 0.0


class _Tournament(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    db: str = Field(min_length=1, max_length=4096)
    label: str | None = Field(None, min_length=1, max_length=80)
    not_checked_out: list[str] = Field(default_factory=list, max_length=10_000)


class _SeasonFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=120)
    members: list[str] | None = Field(None, max_length=100_000)
    best_of: int | None = Field(None, ge=1, le=1000)
    points: _Points
    tournament: list[_Tournament] = Field(min_length=1, max_length=1000)


@dataclass(frozen=True, slots=True)
class SeasonTournament:
    db: Path
    label: str | None
    not_checked_out: frozenset[str]


@dataclass(frozen=True, slots=True)
class SeasonFile:
    name: str
    rule: PointsRule
    members: tuple[str, ...] | None
    best_of: int | None
    tournaments: tuple[SeasonTournament, ...]


def parse_season(text: str, source: str, folder: Path) -> SeasonFile:
    """A season from TOML text; the stores' paths are taken from `folder` (the file's own)."""
    try:
        doc = _SeasonFile.model_validate(tomllib.loads(text))
    except tomllib.TOMLDecodeError as err:
        raise SeasonError(f"{source}: not a TOML file: {err}") from None
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise SeasonError(f"{source}: {where}: {first['msg']}") from None
    try:
        rule = PointsRule(doc.points.formula, tuple(doc.points.by_place), doc.points.others,
                          doc.points.per_knockout)
    except PointsError as err:
        raise SeasonError(f"{source}: {err}") from None
    for field, names in (("members", doc.members or []),
                         *((f"tournament.{i}.not_checked_out", t.not_checked_out) for i, t in
                           enumerate(doc.tournament))):
        bad = next((n for n in names if not n.strip() or len(n) > 80), None)
        if bad is not None:
            raise SeasonError(f"{source}: {field}: {bad[:40]!r} is not a player's name (1 to 80 characters)")
    dbs = [(folder / t.db).resolve() for t in doc.tournament]
    twice = next((db for i, db in enumerate(dbs) if db in dbs[:i]), None)
    if twice is not None:
        raise SeasonError(f"{source}: tournament: {twice} is listed twice (its points would count twice)")
    return SeasonFile(doc.name, rule, None if doc.members is None else tuple(doc.members), doc.best_of,
                      tuple(SeasonTournament(db, t.label, frozenset(t.not_checked_out))
                            for db, t in zip(dbs, doc.tournament)))


def load_season(path: str | Path) -> SeasonFile:
    p = Path(path)
    try:
        with p.open("rb") as f:
            raw = f.read(MAX_FILE + 1)
        if len(raw) > MAX_FILE:
            raise SeasonError(f"{p}: larger than {MAX_FILE // 1024} KiB: not a season file")
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise SeasonError(f"{p}: cannot read the season file: {err}") from None
    return parse_season(text, str(p), p.parent)
