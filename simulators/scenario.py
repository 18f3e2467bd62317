"""Scenario files (`spec/scenario.md`): what happens physically at one table, step by step.

Parsed from YAML (or JSON) into validated steps at the edge; `simulators.replay` plays them through
the real pipeline. A wrong file is refused with the step number and what was expected.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from hub.rules.game_file import GAMES
from hub.rules.rulesets import RULESETS

MAX_SCENARIO_BYTES = 1_000_000  # a long session is a few tens of kB
MAX_SCENARIO_NODES = 200_000  # YAML nodes once aliases are expanded: an alias bomb stops here
MAX_DEPTH = 32  # nested mappings and lists: a scenario needs 4
MAX_AMOUNT = 99_999_999  # the seat panel's eight digits
_MAX_QUOTE = 200

CARD = re.compile(r"^(?:([2-9TJQKA][cdhs])(?:@([A-Z]))?|tag:([0-9A-Fa-f]{8,20}))$")
ZONE = re.compile(r"^(seat:[0-9]{1,2}|board|burn|muck|tray)$")


class ScenarioError(ValueError):
    """The scenario file cannot be played; the message names the file and the step."""


def _short(text: object) -> str:
    """One line, cut short: an error never carries a whole bad file."""
    shown = " ".join(str(text).split())
    return shown if len(shown) <= _MAX_QUOTE else shown[:_MAX_QUOTE] + f"... ({len(shown)} characters)"


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
    sb: int = Field(ge=0, le=MAX_AMOUNT)
    bb: int = Field(gt=0, le=MAX_AMOUNT)
    ante: int = Field(0, ge=0, le=MAX_AMOUNT)
    bb_ante: bool = False

    @model_validator(mode="after")
    def _blinds(self) -> LevelSpec:
        if self.sb > self.bb:
            raise ValueError(f"the small blind {self.sb} is above the big blind {self.bb}")
        return self


class SeatRef(_Model):
    seat: int = Field(ge=1, le=10)


class HoleStep(_Model):
    seat: int = Field(ge=1, le=10)
    card: str

    _card = field_validator("card")(check_card)


class MuckStep(_Model):
    seat: int = Field(ge=1, le=10)
    card: str | None = None  # one card of that hand only: a pineapple discard; None: the whole hand

    @field_validator("card")
    @classmethod
    def _card(cls, value: str | None) -> str | None:
        return None if value is None else check_card(value)


class TakeStep(_Model):
    zone: str = Field(pattern=ZONE.pattern)
    card: str

    _card = field_validator("card")(check_card)


class ActStep(_Model):
    seat: int = Field(ge=1, le=10)
    action: Literal["fold", "check", "call", "bet", "raise", "allin"]
    to: int | None = Field(None, ge=0, le=MAX_AMOUNT)  # what the seat panel can key

    @model_validator(mode="after")
    def _amount(self) -> ActStep:
        if self.action in ("bet", "raise") and self.to is None:
            raise ValueError(f"{self.action} needs `to`, the street total declared")
        if self.action in ("check", "call", "fold") and self.to is not None:
            raise ValueError(f"{self.action} takes no amount")
        return self


class NoiseStep(_Model):
    frames: int = Field(1, ge=1, le=1000)


class RebootStep(_Model):
    """The reader board resets on its own (watchdog, brown-out), its USB link staying open."""


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
    reboot: RebootStep | None = None

    @field_validator("burn", "board", "tray")
    @classmethod
    def _cards(cls, value: str | None) -> str | None:
        return None if value is None else check_card(value)

    @property
    def kind(self) -> str:
        return next(k for k in type(self).model_fields if getattr(self, k) is not None)


class Scenario(_Model):
    ruleset: str = "cdc-2013"  # an id, or a rulebook file (.toml, relative to the scenario): load() registers it
    variant: str = "nlhe"  # a game of hub/rules/games.toml (nlhe, plo, plo5, short_deck, pineapple...)
    table: TableSpec = TableSpec()
    level: LevelSpec
    button: int = Field(ge=1, le=10)
    players: dict[int, Annotated[int, Field(ge=0, le=MAX_AMOUNT)]]
    steps: list[Step]

    @model_validator(mode="after")
    def _table(self) -> Scenario:
        seats = self.table.seats
        bad = [s for s in self.players if not 1 <= s <= seats]
        if bad:
            raise ValueError(f"players on seats {bad} beyond the table's {seats} seats")
        if len(self.players) < 2:
            raise ValueError("a scenario needs at least two players")
        if self.button not in self.players:
            raise ValueError(f"the button is on seat {self.button}, where no one plays "
                             f"(players on {sorted(self.players)})")
        if self.variant not in GAMES:
            raise ValueError(f"unknown variant {self.variant!r} (known: {', '.join(GAMES)})")
        if self.ruleset not in RULESETS:
            raise ValueError(f"unknown ruleset {self.ruleset!r} (known: {', '.join(RULESETS)})")
        for i, step in enumerate(self.steps, 1):
            seat = _seat_of(step)
            if seat is not None and seat > seats:
                raise ValueError(f"step {i} ({step.kind}): seat {seat} beyond the table's {seats} seats")
        return self


def _seat_of(step: Step) -> int | None:
    """The seat a step names, if any (`take: {zone: seat:N}` included)."""
    for kind in ("hole", "muck", "act", "away", "back", "time"):
        ref = getattr(step, kind)
        if ref is not None:
            return int(ref.seat)
    if step.take is not None and step.take.zone.startswith("seat:"):
        return int(step.take.zone[5:])
    return None


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, counting nodes as if every alias were written out in full."""


def _expanded_size(root: yaml.Node) -> int:
    """Nodes of the document with aliases expanded, counted without expanding them (memoised)."""
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        if isinstance(node, yaml.ScalarNode):
            sizes[id(node)] = 1
            continue
        kids = [k for pair in node.value for k in pair] if isinstance(node, yaml.MappingNode) else list(node.value)
        if children_done:
            sizes[id(node)] = 1 + sum(sizes.get(id(k), 1) for k in kids)
            if sizes[id(node)] > MAX_SCENARIO_NODES:
                return sizes[id(node)]
            continue
        stack.append((node, True))
        stack.extend((k, False) for k in kids if id(k) not in sizes)
    return sizes[id(root)]


def parse_yaml(text: str, where: str) -> Any:
    """YAML (or JSON) text to Python data, with aliases bounded (`MAX_SCENARIO_NODES`)."""
    depth = 0
    try:  # events come one by one: a deep file is refused after MAX_DEPTH of them, not parsed whole
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise ScenarioError(f"scenario {where}: nested more than {MAX_DEPTH} deep")
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
    except yaml.YAMLError as err:
        raise ScenarioError(f"scenario {where}: not valid YAML: {_short(err)}") from err
    loader = _BoundedLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if _expanded_size(node) > MAX_SCENARIO_NODES:
            raise ScenarioError(f"scenario {where}: more than {MAX_SCENARIO_NODES:,} values once its "
                                "YAML aliases (*name) are expanded: refused (an alias bomb?)")
        return loader.construct_document(node)
    except yaml.YAMLError as err:
        raise ScenarioError(f"scenario {where}: not valid YAML: {_short(err)}") from err
    except RecursionError as err:
        raise ScenarioError(f"scenario {where}: nested too deeply") from err
    finally:
        loader.dispose()


def _register_rulebook(file: Path, scenario: Path) -> str:
    """A rulebook named by file: checked, made known to the hub's engines; its id is the ruleset."""
    import hub.rulebooks as rulebooks

    try:
        return rulebooks.register_file(file).id
    except rulebooks.RulebookError as err:
        raise ScenarioError(f"scenario {scenario}: ruleset: {'; '.join(err.problems)}") from err


def load(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_SCENARIO_BYTES + 1)
    except OSError as err:
        raise ScenarioError(f"scenario {path}: {err.strerror or err}") from err
    if len(raw) > MAX_SCENARIO_BYTES:
        raise ScenarioError(f"scenario {path}: more than {MAX_SCENARIO_BYTES:,} bytes: refused")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ScenarioError(f"scenario {path}: not a UTF-8 text file (byte {err.start})") from err
    data = parse_yaml(text, str(path))
    if not isinstance(data, dict):
        raise ScenarioError(f"scenario {path}: expected a mapping at the top level")
    rulebook = data.get("ruleset")
    if isinstance(rulebook, str) and rulebook.endswith(".toml"):  # a club's file, beside the scenario
        data["ruleset"] = _register_rulebook(path.parent / rulebook, path)
    raw_steps = data.get("steps")
    if isinstance(raw_steps, list):
        for i, step in enumerate(raw_steps, 1):
            if not isinstance(step, dict) or len(step) != 1:
                raise ScenarioError(f"scenario {path}: step {i} must be a one-key mapping, got {_short(repr(step))}")
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
        raise ScenarioError(f"scenario {path}: {where}: {_short(first['msg'])}") from err
