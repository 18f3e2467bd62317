"""A rulebook file (TOML) read at the edge with pydantic into the engine's frozen structures.

Consumes the text of a rulebook (the five seeds shipped here, or a club's file that `inherits` one
and writes only what differs); emits a frozen `Rulebook` holding the `Ruleset` the betting engine
reads and the `RulingsTable` the rulings engine reads. Every problem found is one line naming the key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from hub.rules.ruleset import (
    MinRaiseRule,
    OddChips,
    ReopenRule,
    Ruleset,
    ShowdownOrder,
    SimultaneousRule,
    SkippedRule,
    TimeCaller,
)
from hub.rulings.model import Clause, Decision, RulingsError, RulingsTable, Substantial, When
from hub.tournament.penalties import PenaltyKind, PenaltyStep
from hub.tournament.results import ChipRaceRounding, PayoutRule, PayoutTier
from hub.tournament.rulesets import (
    ArrivalWait,
    ButtonDraw,
    FloorPolicy,
    LeaveWithoutNotice,
    Mover,
    RulesetId,
    SeatChoice,
    StopReference,
)
from tablewire.faults import Deadline, FaultKind

TOPICS = (
    "min_raise", "short_allin_below_bb", "short_allin_raise", "short_allin_postflop", "insufficient_raise",
    "short_bet", "announced", "single_chip", "multiple_chips", "reopen", "out_of_turn", "out_of_turn_fold",
    "skipped", "simultaneous", "time", "face_up", "showdown_order", "odd_chip", "side_pots", "dead_button",
    "heads_up", "antes",
)

# the fault kinds whose details (or Situation) a condition reads: elsewhere it can never hold
CONDITION_KINDS: Mapping[When, frozenset[FaultKind]] = {
    When.TWO_BOXED_IN_DEAL: frozenset({FaultKind.BOXED_CARD}),
    When.TWO_BOXED_AFTER_DEAL_BETTING: frozenset({FaultKind.BOXED_CARD}),
    When.TWO_BOXED_AFTER_DEAL: frozenset({FaultKind.BOXED_CARD}),
    When.TWO_BOXED: frozenset({FaultKind.BOXED_CARD}),
    When.SECOND_EXPOSED: frozenset({FaultKind.EXPOSED_CARD}),
    When.BUTTON_FIRST_CARD: frozenset({FaultKind.EXPOSED_CARD}),
    When.NO_ACTION_YET: frozenset({FaultKind.PREMATURE_FLOP}),
    When.ONE_ACTION: frozenset({FaultKind.PREMATURE_FLOP}),
    When.SUBSTANTIAL: frozenset({FaultKind.OUT_OF_TURN}),
    When.LATE_WAKE_UP: frozenset({FaultKind.OUT_OF_TURN}),
    When.THREE_ACTED_POT_OPENED: frozenset({FaultKind.OUT_OF_TURN}),
    When.THREE_ACTED: frozenset({FaultKind.OUT_OF_TURN}),
    When.NOT_RECOVERABLE: frozenset({FaultKind.MIXED_DECKS}),
    When.HALF_MIN_RAISE: frozenset({FaultKind.INSUFFICIENT_BET}),
    When.HALF_OVER_BET: frozenset({FaultKind.INSUFFICIENT_BET}),
}


class RulebookError(RulingsError, ValueError):
    """A rulebook file that cannot run a table; `problems` holds one line per error."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = tuple(problems)
        super().__init__("\n".join(f"{source}: {p}" for p in problems))


@dataclass(frozen=True, slots=True)
class Rulebook:
    """One rulebook, resolved (its parent's rules merged in): what a table runs under."""

    id: str
    name: str
    ruleset: Ruleset
    rulings: RulingsTable
    inherits: str | None = None
    floor: FloorPolicy | None = None  # the tournament's floor (hub.tournament); a club keeps its parent's code paths
    # "club 12" -> the club's wording of its own article (French)
    texts: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    source: str = ""  # the file's text, kept with a tournament so a restart never changes rules
    parent: Rulebook | None = field(default=None, compare=False, repr=False)  # the one it inherits


class _Clause(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    decision: Decision
    article: str = Field(min_length=1, max_length=80)
    when: When = When.ALWAYS
    options: tuple[Decision, ...] = ()
    seat_from: str | None = None


class _Rules(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_raise: MinRaiseRule | None = None
    reopen: ReopenRule | None = None
    skipped: SkippedRule | None = None
    simultaneous: SimultaneousRule | None = None
    showdown_order: ShowdownOrder | None = None
    think_seconds: int | None = Field(None, ge=5, le=600)
    countdown_seconds: int | None = Field(None, ge=0, le=60)
    time_callers: frozenset[TimeCaller] | None = None
    time_needs_td: bool | None = None
    completion_percent: int | None = Field(None, ge=1, le=100)
    announced_raise_completed: bool | None = None
    single_chip_is_call: bool | None = None
    multiple_chips_rule: bool | None = None
    skipped_after: int | None = Field(None, ge=1, le=9)
    bb_ante: bool | None = None
    no_ante_heads_up: bool | None = None
    released_raise_only_if_wagered: bool | None = None
    odd_chips: OddChips | None = None


class _Rulings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    deadline: Deadline | None = None
    substantial_article: str | None = None
    substantial: Substantial | None = None
    silent: frozenset[FaultKind] | None = None
    partial: frozenset[FaultKind] | None = None
    faults: dict[FaultKind, tuple[_Clause, ...]] = {}


class _Step(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: PenaltyKind
    article: str = Field(min_length=1, max_length=80)
    low: int = Field(0, ge=0, le=1000)
    high: int = Field(0, ge=0, le=1000)
    extra_hands: int = Field(0, ge=0, le=10)


class _Tier(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_entries: int = Field(ge=0)
    basis_points: tuple[int, ...] = Field(min_length=1)


class _Payouts(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pool_percent: int = Field(ge=1, le=100)
    article: str = Field(min_length=1, max_length=80)
    tiers: tuple[_Tier, ...] = Field(min_length=1)


class _Tournament(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    balance_gap: int | None = Field(None, ge=1, le=9)
    balance_article: str | None = None
    stop_gap: int | None = Field(None, ge=1, le=9)
    stop_reference: StopReference | None = None
    mover: Mover | None = None
    seat_choice: SeatChoice | None = None
    move_article: str | None = None
    break_article: str | None = None
    final_table_sizes: dict[int, int] | None = None
    final_article: str | None = None
    late_arrival_levels: int | None = Field(None, ge=0, le=50)
    late_arrival_until_break: bool | None = None
    late_arrival_full_stack: bool | None = None
    late_arrival_article: str | None = None
    late_registration_levels: int | None = Field(None, ge=0, le=50)
    reentries: int | None = Field(None, ge=0, le=20)
    reentry_levels: int | None = Field(None, ge=0, le=50)
    reentry_article: str | None = None
    wait_list: bool | None = None
    leave_without_notice: LeaveWithoutNotice | None = None
    leave_article: str | None = None
    chip_race: ChipRaceRounding | None = None
    chip_race_article: str | None = None
    penalties: tuple[_Step, ...] | None = Field(None, min_length=1)
    hand_for_hand_before_prize_jump: bool | None = None
    bubble_ranked_by_stack: bool | None = None
    elimination_article: str | None = None
    payouts: _Payouts | None = None
    heads_up_article: str | None = None
    hand_for_hand_article: str | None = None
    button_draw: ButtonDraw | None = None
    button_article: str | None = None
    arrival_wait: ArrivalWait | None = None


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{1,39}$")
    name: str = Field(min_length=1, max_length=160)
    inherits: str | None = None
    ruleset: _Rules = _Rules()
    articles: dict[str, str] = {}
    rulings: _Rulings = _Rulings()
    tournament: _Tournament | None = None
    texts: dict[str, str] = {}


# inherits -> (parent Rulebook, the parent's own description for cycle reporting)
Resolver = Callable[[str, tuple[str, ...]], "Rulebook"]


def _allowed(parent: tuple[int | str, ...]) -> list[str]:
    """The keys allowed where an unknown one was written."""
    model: type[BaseModel] = _File
    if parent[:1] == ("ruleset",):
        model = _Rules
    elif parent[:2] == ("rulings", "faults"):
        model = _Clause
    elif parent[:1] == ("rulings",):
        model = _Rulings
    elif parent[:2] == ("tournament", "payouts"):
        model = _Payouts if len(parent) == 2 else _Tier
    elif parent[:2] == ("tournament", "penalties"):
        model = _Step
    elif parent[:1] == ("tournament",):
        model = _Tournament
    return list(model.model_fields)


def _where(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(p) for p in loc)


def parse_rulebook(text: str, source: str, resolve: Resolver | None = None,
                   chain: tuple[str, ...] = ()) -> Rulebook:
    """A rulebook from TOML text; `RulebookError` listing every problem, one line each.

    `resolve(name, chain)` returns the parent named by `inherits` (an id or a path); `chain` is
    the files already being read, to refuse a cycle of inheritance.
    """
    try:
        raw: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RulebookError(source, [f"pas un fichier TOML / not a TOML file: {err}"]) from err
    try:
        doc = _File.model_validate(raw)
    except ValidationError as err:
        problems = []
        for e in err.errors():
            msg = e["msg"]
            if e["type"] == "extra_forbidden":
                msg = f"clé inconnue / unknown key; allowed: {', '.join(_allowed(e['loc'][:-1]))}"
            problems.append(f"{_where(e['loc'])}: {msg}")
        raise RulebookError(source, problems) from err
    problems = [f"articles.{t}: unknown topic; allowed: {', '.join(TOPICS)}" for t in doc.articles if t not in TOPICS]
    parent: Rulebook | None = None
    if doc.id in chain:
        problems.append(f"inherits: cycle of inheritance: {' -> '.join((*chain, doc.id))}")
    elif doc.inherits is not None:
        if resolve is None:
            problems.append(f"inherits: cannot resolve {doc.inherits!r} here")
        else:
            try:
                parent = resolve(doc.inherits, (*chain, doc.id))
            except RulebookError as err:
                problems += [f"inherits: {p}" for p in err.problems]
    if problems:
        raise RulebookError(source, problems)
    book = _build(doc, parent, text, problems)
    if problems or book is None:
        raise RulebookError(source, problems)
    return book


def _build(doc: _File, parent: Rulebook | None, text: str, problems: list[str]) -> Rulebook | None:
    cite = f"{doc.id} "
    own_articles: set[str] = set()

    def article(number: str) -> str:
        own_articles.add(number)
        return cite + number

    # the Ruleset: the parent's fields, the file's written over them
    given = {k: v for k, v in doc.ruleset.model_dump().items() if v is not None}
    if parent is None:
        absent = [t for t in TOPICS if t not in doc.articles]
        if absent:
            problems.append(f"articles: missing {', '.join(absent)} (a rulebook without `inherits` cites every topic)")
        required = ("min_raise", "reopen", "skipped", "simultaneous", "showdown_order", "think_seconds",
                    "countdown_seconds", "time_callers")
        lacking = [k for k in required if k not in given]
        if lacking:
            problems.append(f"ruleset: missing {', '.join(lacking)} (required without `inherits`)")
        if absent or lacking:
            return None
        articles = dict(doc.articles)
        ruleset = Ruleset(id=doc.id, name=doc.name, articles=MappingProxyType(articles), **given)
    else:
        topics = dict(parent.ruleset.articles)
        cited = dict(parent.ruleset.cite)
        for topic in TOPICS:
            cited.setdefault(topic, parent.ruleset.cite.get(topic, parent.id))
        for topic, number in doc.articles.items():
            topics[topic] = number
            cited.pop(topic, None)
            own_articles.add(number)
        ruleset = replace(parent.ruleset, id=doc.id, name=doc.name, articles=MappingProxyType(topics),
                          cite=MappingProxyType({t: b for t, b in cited.items() if b != doc.id}), **given)
    for topic in doc.articles:
        own_articles.add(doc.articles[topic])

    r = doc.rulings
    table: dict[FaultKind, tuple[Clause, ...]] = dict(parent.rulings.table) if parent else {}
    for kind, clauses in r.faults.items():
        built = tuple(Clause(c.decision, article(c.article), c.when, c.options, c.seat_from) for c in clauses)
        table[kind] = built
        for i, c in enumerate(clauses):
            key = f"rulings.faults.{kind.value}[{i}]"
            kinds = CONDITION_KINDS.get(c.when)
            if kinds is not None and kind not in kinds:
                problems.append(f"{key}.when: {c.when.value!r} cannot happen for {kind.value}; "
                                f"allowed for it: always" + "".join(
                                    f", {w.value}" for w, ks in CONDITION_KINDS.items() if kind in ks))
            if i and clauses[i - 1].when is When.ALWAYS:
                problems.append(f"{key}: never reached, the clause before it always applies")
            if (c.decision is Decision.TD_DECISION) != bool(c.options):
                problems.append(f"{key}.options: the TD's choices go with decision = \"td_decision\", and only there")
    silent = r.silent if r.silent is not None else (parent.rulings.silent if parent else frozenset())
    partial = r.partial if r.partial is not None else (parent.rulings.partial if parent else frozenset())
    for kind, clauses in r.faults.items():
        if kind not in partial and clauses and clauses[-1].when is not When.ALWAYS:
            problems.append(f"rulings.faults.{kind.value}: the last clause needs no `when` (every case ruled)")
    if r.substantial_article is not None:
        substantial_article = article(r.substantial_article)
    elif parent is not None:
        substantial_article = parent.rulings.substantial_article
    else:
        problems.append("rulings.substantial_article: missing (required without `inherits`)")
        return None
    deadline = r.deadline or (parent.rulings.deadline if parent else None)
    substantial = r.substantial or (parent.rulings.substantial if parent else None)
    if deadline is None or substantial is None:
        problems.append("rulings: deadline and substantial are required without `inherits`; "
                        f"deadline: {', '.join(d.value for d in Deadline)}; "
                        f"substantial: {', '.join(s.value for s in Substantial)}")
        return None
    rulings = RulingsTable(ruleset=doc.id, deadline=deadline, substantial_article=substantial_article,
                           table=MappingProxyType(table), silent=silent, partial=partial, substantial=substantial)
    texts = dict(parent.texts) if parent else {}
    texts.update({cite + k: v for k, v in doc.texts.items()})
    if parent is not None:  # a club's own articles must say what they say
        for number in sorted(own_articles):
            if number not in doc.texts:
                problems.append(f"texts.\"{number}\": article {doc.id} {number} is cited without its text")
    for number in doc.texts:
        if number not in own_articles:
            problems.append(f"texts.\"{number}\": no rule cites this article")
    return Rulebook(id=doc.id, name=doc.name, ruleset=ruleset, rulings=rulings, inherits=doc.inherits,
                    floor=_floor(doc, parent, problems), texts=MappingProxyType(texts), source=text,
                    parent=parent)


def _floor(doc: _File, parent: Rulebook | None, problems: list[str]) -> FloorPolicy | None:
    """The tournament's floor: a seed's own (all of it), or the parent's with what the club wrote."""
    base = parent.floor if parent is not None else None
    if doc.tournament is None:
        return None if base is None else replace(base, ruleset=doc.id)
    t = doc.tournament
    given = {k: getattr(t, k) for k in type(t).model_fields if getattr(t, k) is not None}
    if "penalties" in given:
        given["penalties"] = tuple(PenaltyStep(s.kind, s.article, s.low, s.high, s.extra_hands)
                                   for s in t.penalties or ())
    if t.payouts is not None:
        given["payouts"] = PayoutRule(t.payouts.pool_percent,
                                      tuple(PayoutTier(x.min_entries, x.basis_points) for x in t.payouts.tiers),
                                      t.payouts.article)
    if base is not None:  # the club's floor is its parent's, under the club's own id
        return replace(base, **given, ruleset=doc.id)
    given.setdefault("stop_gap", None)
    given.setdefault("payouts", None)
    given.setdefault("late_arrival_levels", None)
    if doc.id not in tuple(RulesetId):
        problems.append(f"tournament: only a rulebook with `inherits` (or one of {', '.join(RulesetId)}) has a floor")
        return None
    lacking = [k for k in _Tournament.model_fields if k not in given]
    if lacking:
        problems.append(f"tournament: missing {', '.join(lacking)} (required without `inherits`)")
        return None
    return FloorPolicy(ruleset=doc.id, **given)
