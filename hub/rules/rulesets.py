"""The five French rulebooks as data: one `Ruleset` profile per tournament rulebook.

Consumed by every stage of the engine (`betting`, `hand`, `showdown`, `out_of_turn`, `timecall`);
the code stays one, the differences live here, each with the article it comes from
(`Ruleset.article("min_raise")` -> "cdc-2013 10.5").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from hub.rules.records import UnknownRuleset


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
    articles: Mapping[str, str] = field(default_factory=dict)

    def article(self, topic: str) -> str:
        return f"{self.id} {self.articles[topic]}"


def _arts(**kw: str) -> Mapping[str, str]:
    return MappingProxyType(dict(kw))


CDC_2013 = Ruleset(
    id="cdc-2013",
    name="Club des Clubs, règlement officiel des tournois associatifs v2013.06",
    min_raise=MinRaiseRule.INCREMENT,
    reopen=ReopenRule.FULL_RAISE_ONLY,
    skipped=SkippedRule.CALL_OR_FOLD,
    simultaneous=SimultaneousRule.IN_ORDER,
    showdown_order=ShowdownOrder.LAST_AGGRESSOR,
    think_seconds=60,
    countdown_seconds=10,
    time_callers=frozenset({TimeCaller.PLAYER, TimeCaller.OFFICIAL}),
    articles=_arts(
        min_raise="10.5", short_allin_below_bb="10.6", short_allin_raise="10.7",
        short_allin_postflop="10.8", insufficient_raise="10.9", short_bet="10.9",
        announced="10.3", single_chip="10.10", multiple_chips="10.11", reopen="10.7",
        out_of_turn="10.2", out_of_turn_fold="10.2", skipped="10.2", simultaneous="10.16",
        time="4.5", face_up="11.4", showdown_order="11.5", odd_chip="11.8", side_pots="11.7",
        dead_button="5.2", heads_up="5.3", antes="4.1",
    ),
)

BREST_2011 = Ruleset(
    id="brest-2011",
    name="Brest Hold'em, règlement des tournois 2011",
    min_raise=MinRaiseRule.INCREMENT,
    reopen=ReopenRule.FULL_RAISE_ONLY,
    skipped=SkippedRule.CALL_OR_FOLD,
    simultaneous=SimultaneousRule.IN_ORDER,  # silent: treated as played in turn, like VII.20
    released_raise_only_if_wagered=True,  # VII.20: call or fold unless he had opened or raised
    showdown_order=ShowdownOrder.LAST_AGGRESSOR,
    think_seconds=60,
    countdown_seconds=10,
    time_callers=frozenset({TimeCaller.PLAYER, TimeCaller.OFFICIAL, TimeCaller.DEALER}),
    articles=_arts(
        min_raise="VII.10", short_allin_below_bb="VII.12", short_allin_raise="VII.12",
        short_allin_postflop="VII.12", insufficient_raise="VII.15", short_bet="VII.15",
        announced="VII.15", single_chip="VII.27", multiple_chips="VII.27", reopen="VII.19",
        out_of_turn="VII.20", out_of_turn_fold="VII.20", skipped="VII.21", simultaneous="VII.20",
        time="IV.6", face_up="VIII.3", showdown_order="VIII.3", odd_chip="VIII.13",
        side_pots="VIII.13", dead_button="VI.3", heads_up="VI.13", antes="VI.16",
    ),
)

POUQUES_2020 = Ruleset(
    id="pouques-2020",
    name="Casino de Pouques-les-Eaux, règlement du tournoi 2020",
    min_raise=MinRaiseRule.DOUBLE,
    reopen=ReopenRule.DOUBLE_OWN,
    skipped=SkippedRule.TD_DECISION,
    simultaneous=SimultaneousRule.IN_ORDER,  # silent: croupiers take actions in turn (59)
    showdown_order=ShowdownOrder.FIRST_RAISER,
    think_seconds=35,  # 45 s in all, the last 10 counted aloud (63)
    countdown_seconds=10,
    time_callers=frozenset({TimeCaller.PLAYER}),
    multiple_chips_rule=False,  # 67: several chips over 50 % are a raise
    skipped_after=2,  # 70: « laisser enchérir plus d'un joueur après lui »
    no_ante_heads_up=True,
    articles=_arts(
        min_raise="52", short_allin_below_bb="52", short_allin_raise="52",
        short_allin_postflop="52", insufficient_raise="52", short_bet="52", announced="52",
        single_chip="67", multiple_chips="67", reopen="53", out_of_turn="59",
        out_of_turn_fold="60", skipped="70", simultaneous="59", time="63", face_up="74",
        showdown_order="55", odd_chip="55", side_pots="55", dead_button="80", heads_up="72",
        antes="72",
    ),
)

_ACTIONS = "Les actions et les relances"
_SHOWDOWN = "L’étalage (« showdown »)"
_BLINDS = "Les blinds et les changements de place"

PCPM = Ruleset(
    id="pcpm",
    name="Poker Club de Pont-St-Martin: règlement intérieur, tournoi sans croupier, règles du NLHE",
    min_raise=MinRaiseRule.DOUBLE,
    reopen=ReopenRule.CUMULATIVE,
    skipped=SkippedRule.DEAD_IF_OPENED,
    simultaneous=SimultaneousRule.SECOND_OUT_OF_TURN,
    released_raise_only_if_wagered=True,
    showdown_order=ShowdownOrder.LAST_AGGRESSOR,
    think_seconds=60,
    countdown_seconds=10,
    time_callers=frozenset({TimeCaller.PLAYER, TimeCaller.SELF, TimeCaller.DEALER}),
    # The club's text has no article numbers: sections are cited by their heading, as the
    # rulings tables do (hub/rulings/pcpm.py).
    articles=_arts(
        min_raise=_ACTIONS, short_allin_below_bb=_ACTIONS,
        short_allin_raise=_ACTIONS, short_allin_postflop=_ACTIONS,
        insufficient_raise=_ACTIONS, short_bet=_ACTIONS,
        announced=_ACTIONS, single_chip=_ACTIONS,
        multiple_chips=_ACTIONS, reopen=_ACTIONS,
        out_of_turn=_ACTIONS, out_of_turn_fold=_ACTIONS,
        skipped=_ACTIONS, simultaneous=_ACTIONS,
        time="Les cartes mortes", face_up=_SHOWDOWN, showdown_order=_SHOWDOWN,
        odd_chip=_SHOWDOWN, side_pots=_SHOWDOWN, dead_button=_BLINDS, heads_up=_BLINDS,
        antes=_BLINDS,
    ),
)

CPT87 = Ruleset(
    id="cpt87",
    name="Challenge Poker Team 87, règlement du championnat",
    min_raise=MinRaiseRule.INCREMENT,
    reopen=ReopenRule.FULL_RAISE_ONLY,
    skipped=SkippedRule.CALL_OR_FOLD,
    simultaneous=SimultaneousRule.IN_ORDER,  # silent: taken in turn, as the cdc it follows
    showdown_order=ShowdownOrder.LAST_AGGRESSOR,
    think_seconds=30,
    countdown_seconds=10,
    time_callers=frozenset({TimeCaller.PLAYER, TimeCaller.OFFICIAL}),
    time_needs_td=True,
    bb_ante=True,
    articles=_arts(
        min_raise="8.4", short_allin_below_bb="8.5", short_allin_raise="8.5",
        short_allin_postflop="8.5", insufficient_raise="8.4", short_bet="8.4", announced="8.3",
        single_chip="8.6", multiple_chips="8.6", reopen="8.5", out_of_turn="8.2",
        out_of_turn_fold="8.2", skipped="8.2", simultaneous="8.2", time="4.5", face_up="2.7",
        showdown_order="2.7", odd_chip="2.10", side_pots="2.10", dead_button="5.2",
        heads_up="5.3", antes="8.8",
    ),
)

RULESETS: Mapping[str, Ruleset] = MappingProxyType(
    {r.id: r for r in (CDC_2013, BREST_2011, POUQUES_2020, PCPM, CPT87)}
)
DEFAULT_RULESET = CDC_2013.id


def get_ruleset(ruleset_id: str = DEFAULT_RULESET) -> Ruleset:
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        known = ", ".join(RULESETS)
        raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (known: {known})") from None
