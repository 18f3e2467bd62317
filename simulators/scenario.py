"""Scenario files (`spec/scenario.md`): what happens physically at one table, step by step.

Parsed from YAML (or JSON) into validated steps at the edge; `simulators.replay` plays them through
the real pipeline. A wrong file is refused with the step number and what was expected.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

CARD = re.compile(r"^(?:([2-9TJQKA][cdhs])(?:@([A-Z]))?|tag:([0-9A-Fa-f]{8,20}))$")
ZONE = re.compile(r"^(seat:[0-9]{1,2}|board|burn|muck|tray)$")


class ScenarioError(ValueError):
    """The scenario file cannot be played; the message names the file and the step."""


def check_card(text: str) -> str:
    if not CARD.match(text):
        raise ValueError(f"card {text!r}: expected rank then suit (As, Td), As@B, As@Z or tag:04A1B2C3")
    return text


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TableSpec(_Model):
    id: str = Field("t1", pattern=r"^[A-Za-z0-9_-]{1,32}$")
    seats: int = Field(9, ge=2, le=10)


class LevelSpec(_Model):
    sb: int = Field(ge=0)
    bb: int = Field(gt=0)
    ante: int = Field(0, ge=0)
    bb_ante: bool = False


class SeatRef(_Model):
    seat: int = Field(ge=1, le=10)


class HoleStep(_Model):
    seat: int = Field(ge=1, le=10)
    card: str

    _card = field_validator("card")(check_card)


class MuckStep(_Model):
    seat: int = Field(ge=1, le=10)


class TakeStep(_Model):
    zone: str = Field(pattern=ZONE.pattern)
    card: str

    _card = field_validator("card")(check_card)


class ActStep(_Model):
    seat: int = Field(ge=1, le=10)
    action: Literal["fold", "check", "call", "bet", "raise", "allin"]
    to: int | None = Field(None, ge=0)

    @model_validator(mode="after")
    def _amount(self) -> ActStep:
        if self.action in ("bet", "raise") and self.to is None:
            raise ValueError(f"{self.action} needs `to`, the street total declared")
        if self.action in ("check", "call", "fold") and self.to is not None:
            raise ValueError(f"{self.action} takes no amount")
        return self


class NoiseStep(_Model):
    frames: int = Field(1, ge=1, le=1000)


class Step(_Model):
    """One step: exactly one of these keys."""

    hole: HoleStep | None = None
    burn: str | None = None
    board: str | None = None
    tray: str | None = None
    muck: MuckStep | None = None
    take: TakeStep | None = None
    act: ActStep | None = None
    away: SeatRef | None = None
    back: SeatRef | None = None
    time: SeatRef | None = None
    wait: float | None = Field(None, ge=0, le=86_400)
    new_hand: dict[str, Any] | None = None
    noise: NoiseStep | None = None

    @field_validator("burn", "board", "tray")
    @classmethod
    def _cards(cls, value: str | None) -> str | None:
        return None if value is None else check_card(value)

    @property
    def kind(self) -> str:
        return next(k for k in type(self).model_fields if getattr(self, k) is not None)


class Scenario(_Model):
    ruleset: str = "cdc-2013"
    variant: Literal["nlhe"] = "nlhe"
    table: TableSpec = TableSpec()
    level: LevelSpec
    button: int = Field(ge=1, le=10)
    players: dict[int, int]
    steps: list[Step]

    @model_validator(mode="after")
    def _table(self) -> Scenario:
        seats = self.table.seats
        bad = [s for s in self.players if not 1 <= s <= seats]
        if bad:
            raise ValueError(f"players on seats {bad} beyond the table's {seats} seats")
        if len(self.players) < 2:
            raise ValueError("a scenario needs at least two players")
        return self


def load(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise ScenarioError(f"scenario {path}: {err}") from err
    if not isinstance(data, dict):
        raise ScenarioError(f"scenario {path}: expected a mapping at the top level")
    raw_steps = data.get("steps")
    if isinstance(raw_steps, list):
        for i, step in enumerate(raw_steps, 1):
            if not isinstance(step, dict) or len(step) != 1:
                raise ScenarioError(f"scenario {path}: step {i} must be a one-key mapping, got {step!r}")
            if "new_hand" in step and step["new_hand"] is None:
                step["new_hand"] = {}
    try:
        return Scenario.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        if where.startswith("steps."):
            index = int(where.split(".")[1])
            where = f"step {index + 1} ({where.split('.', 2)[2] if where.count('.') > 1 else ''})"
        raise ScenarioError(f"scenario {path}: {where}: {first['msg']}") from err
