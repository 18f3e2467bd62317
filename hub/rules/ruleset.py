"""What a rulebook sets for the betting engine: one frozen `Ruleset` per rulebook, read from its file.

Consumed by every stage of the engine (`betting`, `hand`, `showdown`, `out_of_turn`, `timecall`) and built
by `hub.rulebooks` from the files (`hub/rulebooks/*.toml`, a club's own); the code stays one, the
differences live in the files, each with the article it comes from (`Ruleset.article("min_raise")` ->
"cdc-2013 10.5"). Pure types: the known rulesets by id are `hub.rules.rulesets`'.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class MinRaiseRule(StrEnum):
    INCREMENT = "increment"  # raise by at least the last full increment, never less than the BB
    DOUBLE = "double"  # raise to at least the current bet plus the last full bet (« le double »)


class ReopenRule(StrEnum):
    FULL_RAISE_ONLY = "full_raise_only"  # a short all-in never reopens for those who acted
    CUMULATIVE = "cumulative"  # reopens once short all-ins add up to a full raise (pcpm)
    DOUBLE_OWN = "double_own"  # reopens if the highest bet is at least double his own (pouques 53)


class SkippedRule(StrEnum):
    CALL_OR_FOLD = "call_or_fold"  # the skipped player may only call or fold
    TD_DECISION = "td_decision"  # late wake-up: the floor may kill the hand (pouques 70)
    DEAD_IF_OPENED = "dead_if_opened"  # hand dead if the pot was opened, else no bet (pcpm)


class SimultaneousRule(StrEnum):
    IN_ORDER = "in_order"  # taken as if played in turn (cdc 10.16)
    SECOND_OUT_OF_TURN = "second_out_of_turn"  # the second is out of turn (pcpm)


class ShowdownOrder(StrEnum):
    LAST_AGGRESSOR = "last_aggressor"
    FIRST_RAISER = "first_raiser"  # « premier joueur à avoir relancé » (pouques 55)


class OddChips(StrEnum):
    """Who gets the chips a split pot cannot divide (« jetons indivisibles »)."""

    NEAREST = "nearest"  # every one to the winner nearest the button's left (cdc 11.8, cpt87 2.10; PokerKit)
    ONE_EACH = "one_each"  # one each to the first winners on the button's left (brest VIII.13, pcpm)


class TimeCaller(StrEnum):
    PLAYER = "player"  # a seated player (opponent)
    SELF = "self"  # the player himself
    DEALER = "dealer"  # donneur / croupier
    OFFICIAL = "official"  # TD or floor


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One rulebook. Articles are keyed by topic; every ruling cites `article(topic)`."""

    id: str
    name: str
    min_raise: MinRaiseRule
    reopen: ReopenRule
    skipped: SkippedRule
    simultaneous: SimultaneousRule
    showdown_order: ShowdownOrder
    think_seconds: int
    countdown_seconds: int
    time_callers: frozenset[TimeCaller]
    time_needs_td: bool = False  # cpt87 4.5: the TD decides whether to grant the Time
    completion_percent: int = 50  # the 50 % rule
    announced_raise_completed: bool = True
    single_chip_is_call: bool = True
    multiple_chips_rule: bool = True  # cdc 10.11: n identical chips, one too many = call
    skipped_after: int = 3  # players who acted after the skipped one
    bb_ante: bool = False  # cpt87 8.8: the big blind pays ante x players
    no_ante_heads_up: bool = False  # pouques: no ante heads-up
    released_raise_only_if_wagered: bool = False  # pcpm: a released player may raise only if
    # his own out-of-turn action was a bet or raise
    odd_chips: OddChips = OddChips.NEAREST
    articles: Mapping[str, str] = field(default_factory=dict)
    cite: Mapping[str, str] = field(default_factory=dict)  # topic -> the rulebook whose article it is,
    # where a club's file inherits it unchanged ("cdc-2013 10.5"); absent: this rulebook's own

    def article(self, topic: str) -> str:
        return f"{self.cite.get(topic, self.id)} {self.articles[topic]}"
