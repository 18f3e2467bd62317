"""Rulings vocabulary: decisions, what the engine knows (`Situation`), the `Ruling` and table clauses.

Sits in the hub between a `FaultDetected` coming from a table and the ruling sent back to the
table's LEDs and the TD dashboard. Pure data: no IO, no clock. `Decision` lives in
the contract (`tablewire.faults`): the table learns the same decisions to let a correction pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from hub.rulings.texts import DECISIONS, FAULTS, WORDS
from tablewire.faults import Deadline, Decision, FaultKind


class RulingsError(Exception):
    """Root of every error raised by `hub.rulings`."""


class UnknownRuleset(RulingsError, ValueError):
    """The ruleset id is not one of RULES.md."""


class When(StrEnum):
    """Named conditions a table clause can carry; `hub.rulings.engine` evaluates them."""

    ALWAYS = "always"
    TWO_BOXED_IN_DEAL = "two_boxed_in_deal"  # 2+ boxed cards during the initial deal
    TWO_BOXED_AFTER_DEAL_BETTING = "two_boxed_after_deal_betting"  # 2 new ones, bets still possible
    TWO_BOXED_AFTER_DEAL = "two_boxed_after_deal"
    TWO_BOXED = "two_boxed"  # 2+ in the hand, whenever
    SECOND_EXPOSED = "second_exposed"
    FIRST_TWO_CARDS = "first_two_cards"  # the 1st or 2nd card of the deal
    DEALER_CARD = "dealer_card"  # the dealing player's own card
    BUTTON_FIRST_CARD = "button_first_card"
    SMALL_BLIND_ONE_EXTRA = "small_blind_one_extra"
    LAST_SERVED = "last_served"
    NO_ACTION_YET = "no_action_yet"
    ONE_ACTION = "one_action"
    SUBSTANTIAL = "substantial"  # skipped player: substantial action or 3+ players acted after him
    LATE_WAKE_UP = "late_wake_up"  # more than one player acted after the skipped one (pouques 70)
    THREE_ACTED_POT_OPENED = "three_acted_pot_opened"
    THREE_ACTED = "three_acted"
    NOT_RECOVERABLE = "not_recoverable"
    HALF_MIN_RAISE = "half_min_raise"  # short raise reached 50 % of the minimum (or was announced)
    HALF_OVER_BET = "half_over_bet"  # pouques 52: at least 50 % over the previous bet


class Substantial(StrEnum):
    """When voluntary actions since the deal (blinds excluded) void a misdeal (`engine.is_substantial`)."""

    TWO_IN_A_ROW_ONE_WITH_CHIPS_OR_THREE = "two_in_a_row_one_with_chips_or_three"  # cdc 7.7
    TWO_IN_A_ROW_WITH_CHIPS_OR_THREE = "two_in_a_row_with_chips_or_three"  # cpt87 6.6
    TWO_ACTIONS = "two_actions"  # pouques 48: two actions of any kind
    TWO_WITH_CHIPS = "two_with_chips"  # brest III.12, pcpm: two players put chips in


@dataclass(frozen=True, slots=True)
class Clause:
    """One line of a ruleset table: when `when` holds, rule `decision` citing `article`."""

    decision: Decision
    article: str  # "cdc-2013 7.3", "pcpm La donne"
    when: When = When.ALWAYS
    options: tuple[Decision, ...] = ()  # for td_decision
    seat_from: str | None = None  # fault detail naming the seat concerned instead of fault.seat


@dataclass(frozen=True, slots=True)
class RulingsTable:
    """One rulebook as data: its clauses per fault kind, and where it is silent."""

    ruleset: str
    deadline: Deadline  # the card a player must be seated for
    substantial_article: str  # cited when substantial action turns a misdeal into `continue`
    table: Mapping[FaultKind, tuple[Clause, ...]]
    silent: frozenset[FaultKind] = frozenset()  # these fall back to cdc-2013 entirely
    partial: frozenset[FaultKind] = frozenset()  # own clauses first, then cdc-2013's
    substantial: Substantial = Substantial.TWO_WITH_CHIPS


@dataclass(frozen=True, slots=True)
class Situation:
    """What the hub's engine knows when a fault arrives (filled by `hub.room.table_rulings.situation`).

    `pot_opened` only matters to pcpm's out-of-turn clause: the live game rules out of turn, Time
    and short bets in `hub.rules` (same articles, tests/rulings/test_engine_and_tables_agree.py),
    so those clauses document rather than decide; `rounds_open` and `live_seats` are context for
    the dashboard, no condition reads them.
    """

    substantial_action: bool = False  # misdeal no longer possible (cdc 7.7, brest III.12, ...)
    betting_possible: bool = True  # more betting can take place in this hand
    rounds_open: tuple[str, ...] = ()  # betting rounds under way, e.g. ("flop",)
    live_seats: tuple[int, ...] = ()
    committed: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))  # chips this hand
    pot_opened: bool = False  # a bet was made in the current round (pcpm out of turn)
    recoverable: bool = True  # mixed decks: no action made with cards of both decks yet
    # No `board_identifiable`: cdc 8.6 cancels only a board "plus clairement discernable"; the table
    # identifies every board card by its tag wherever it goes, so that branch cannot arise here.


@dataclass(frozen=True, slots=True)
class Ruling:
    """The ruleset's answer to one fault. `text()` is what people read."""

    decision: Decision
    article: str
    ruleset: str
    kind: FaultKind
    hand: int
    seat: int | None
    cards: tuple[str, ...]
    dead_seats: tuple[int, ...] = ()
    options: tuple[Decision, ...] = ()
    refunds: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    at: float = 0.0

    def as_payload(self, lang: str = "fr") -> dict[str, object]:
        """JSON-ready, the `ruling` object of spec/scenario.md plus what the dashboard shows."""
        return {"decision": self.decision.value, "article": self.article, "ruleset": self.ruleset,
                "kind": self.kind.value, "hand": self.hand, "seat": self.seat, "cards": list(self.cards),
                "dead_seats": list(self.dead_seats), "options": [o.value for o in self.options],
                "refunds": {str(k): v for k, v in self.refunds.items()}, "text": self.text(lang)}

    def text(self, lang: str = "fr") -> str:
        """`Carte retournée pendant la donne — siège 3, 7h — cdc-2013 7.3 : la carte est morte ; ...`"""
        lang = lang if lang in FAULTS else "fr"
        words = WORDS[lang]
        head = [FAULTS[lang][self.kind], f"{words['hand']} {self.hand}"]
        if self.seat is not None:
            head.append(f"{words['seat']} {self.seat}")
        if self.cards:
            head.append(" ".join(self.cards))
        colon = " : " if lang == "fr" else ": "
        body = DECISIONS[lang][self.decision]
        if self.options:
            body += f" ({words['options']}{colon}" + " / ".join(DECISIONS[lang][o] for o in self.options) + ")"
        if self.dead_seats and self.decision is not Decision.HAND_DEAD:
            # « siège 3 », as the room names them: a bare « 3 » read as three dead hands
            body += f" ({words['dead']}{colon}" + ", ".join(f"{words['seat']} {s}" for s in self.dead_seats) + ")"
        return f"{' — '.join(head)} — {self.article}{colon}{body}"
