"""Penalties (sanctions) per ruleset: the hierarchy as data, and what the table must enforce.

Consumes a TD's penalty command (kind, amount) and the table size; emits a resolved `Penalty`
(hands dealt dead, minutes away, disqualification) that the aggregate turns into dead seats at
each `hand_started` (cards dealt dead, blinds still taken: cdc 12.2, brest XIII, cpt87 10.1).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from hub.tournament.errors import PenaltyError


class PenaltyKind(StrEnum):
    WARNING = "warning"  # avertissement (cdc/brest: with one hand dealt dead)
    MISSED_HANDS = "missed_hands"  # n hands dealt dead (cpt87 10.1)
    MISSED_ROUNDS = "missed_rounds"  # tours de pénalité: n x players at the table (cdc 12.1)
    SUSPENSION = "suspension"  # minutes away from the table (brest XIII, pouques 49)
    DISQUALIFICATION = "disqualification"  # chips removed from play


# What a TD calls each kind, French then English (the desk's labels): a refusal names them so.
KIND_WORDS: dict[PenaltyKind, tuple[str, str]] = {
    PenaltyKind.WARNING: ("avertissement", "warning"),
    PenaltyKind.MISSED_HANDS: ("mains de pénalité", "penalty hands"),
    PenaltyKind.MISSED_ROUNDS: ("tours de pénalité", "penalty rounds"),
    PenaltyKind.SUSPENSION: ("exclusion temporaire (minutes)", "suspension (minutes)"),
    PenaltyKind.DISQUALIFICATION: ("disqualification", "disqualification"),
}


@dataclass(frozen=True, slots=True)
class PenaltyStep:
    """One rung of a ruleset's hierarchy; `low..high` bounds the amount (hands, rounds, minutes)."""

    kind: PenaltyKind
    article: str
    low: int = 0
    high: int = 0
    extra_hands: int = 0  # hands dealt dead that come with a warning


@dataclass(frozen=True, slots=True)
class Penalty:
    kind: PenaltyKind
    amount: int
    dead_hands: int
    minutes: int
    article: str


def resolve(ladder: tuple[PenaltyStep, ...], kind: PenaltyKind, amount: int,
            players_at_table: int) -> Penalty:
    """Check the command against the ruleset's ladder and compute what the table enforces."""
    step = next((s for s in ladder if s.kind is kind), None)
    if step is None:
        fr, en = (", ".join(KIND_WORDS[s.kind][i] for s in ladder) for i in (0, 1))
        raise PenaltyError(f"« {KIND_WORDS[kind][0]} » ne figure pas dans l'échelle des sanctions de ce règlement "
                           f"({fr}) / {KIND_WORDS[kind][1]} is not in this ruleset's hierarchy ({en})")
    if step.high and not step.low <= amount <= step.high:
        raise PenaltyError(f"{KIND_WORDS[kind][0]} : de {step.low} à {step.high}, pas {amount} ({step.article}) / "
                           f"{KIND_WORDS[kind][1]}: {step.low} to {step.high}, not {amount} ({step.article})")
    if kind is PenaltyKind.WARNING:
        return Penalty(kind, 0, step.extra_hands, 0, step.article)
    if kind is PenaltyKind.MISSED_HANDS:
        return Penalty(kind, amount, amount, 0, step.article)
    if kind is PenaltyKind.MISSED_ROUNDS:
        # cdc 12.1: one hand per player seated when the penalty is given, himself included, x rounds.
        return Penalty(kind, amount, amount * players_at_table, 0, step.article)
    if kind is PenaltyKind.SUSPENSION:
        return Penalty(kind, amount, 0, amount, step.article)
    return Penalty(kind, 0, 0, 0, step.article)


def next_step(ladder: tuple[PenaltyStep, ...], given: list[PenaltyKind]) -> PenaltyStep:
    """The rung that follows the highest one already given (repeat offences escalate)."""
    reached = -1
    for kind in given:
        for idx, step in enumerate(ladder):
            if step.kind is kind:
                reached = max(reached, idx)
    return ladder[min(reached + 1, len(ladder) - 1)]
