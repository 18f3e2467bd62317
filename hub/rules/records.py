"""Vocabulary of the rules engine: enums, frozen records and errors.

Shared by every module of `hub.rules`; what `Hand.act`, `Hand.tick` and `Hand.showdown` emit.
The string values of `ActionStatus`, `Decision` and `FaultKind` are a public contract
(`spec/faults.md`, `spec/scenario.md`): never rename them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum


class Street(StrEnum):
    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    SHOWDOWN = "showdown"  # no more betting: waiting for board cards and/or the showdown
    COMPLETE = "complete"  # pots awarded


class ActionKind(StrEnum):
    FOLD = "fold"  # passe / jeter
    CHECK = "check"  # parole
    CALL = "call"  # suivre
    BET = "bet"  # ouvrir / miser
    RAISE = "raise"  # relancer
    ALLIN = "allin"  # tapis


class ActionStatus(StrEnum):
    ACCEPTED = "accepted"
    CORRECTED = "corrected"
    REJECTED = "rejected"


class FaultKind(StrEnum):
    INSUFFICIENT_BET = "insufficient_bet"
    OUT_OF_TURN = "out_of_turn"
    TIME_EXPIRED = "time_expired"
    ABSENT_PLAYER = "absent_player"  # a player left the table with a live hand (cdc 5.1)


class Decision(StrEnum):
    ACTION_BINDING = "action_binding"
    ACTION_RELEASED = "action_released"
    CALL_OR_FOLD_ONLY = "call_or_fold_only"
    COMPLETED_TO_MIN_RAISE = "completed_to_min_raise"
    TREATED_AS_CALL = "treated_as_call"
    HAND_DEAD = "hand_dead"
    TD_DECISION = "td_decision"


class HandEndKind(StrEnum):
    SHOWDOWN = "showdown"
    UNCONTESTED = "uncontested"


@dataclass(frozen=True, slots=True)
class Ruling:
    """What the ruleset in force makes of a fault; `article` reads like "cdc-2013 10.7"."""

    decision: Decision
    article: str
    seat: int | None = None
    kind: FaultKind | None = None
    options: tuple[str, ...] = ()  # for td_decision: the decisions offered to the TD

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"decision": str(self.decision), "article": self.article}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.kind is not None:
            out["kind"] = str(self.kind)
        if self.options:
            out["options"] = list(self.options)
        return out


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """The outcome of one action request, appended to `Hand.log`.

    `applied` is what the engine actually did (None when rejected or held pending);
    `to` is the street total that stands for the seat after it; `added` the chips moved.
    `pending` is true for an out-of-turn action held until the seat's turn comes.
    """

    seat: int
    action: ActionKind
    requested_to: int | None
    status: ActionStatus
    applied: ActionKind | None
    to: int
    added: int
    reason: str | None = None
    ruling: Ruling | None = None
    pending: bool = False
    street: Street = Street.PREFLOP

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "type": "action",
            "seat": self.seat,
            "action": str(self.action),
            "to": self.requested_to,
            "status": str(self.status),
            "reason": self.reason,
            "applied": None if self.applied is None else str(self.applied),
            "amount": self.to,
            "added": self.added,
            "street": str(self.street),
            "pending": self.pending,
        }
        if self.ruling is not None:
            out["ruling"] = self.ruling.to_dict()
        return out


# A frozen dataclass's __init__ sets each field through object.__setattr__: 2 µs for an
# ActionRecord's eleven, a tenth of a replayed hand's time. The engine builds its records as this
# blank twin (the same slots in the same order, no __init__: each slot assigned plainly) and then
# makes each one an ActionRecord, which no one can change afterwards: equal, hashed and printed the same.
def blank_twin(cls: type) -> type:
    """A class with the slots of the frozen, slotted dataclass `cls` and no `__init__`: an instance
    made blank and its slots assigned one by one becomes a `cls` by setting its `__class__`, without
    the call of an `__init__` (eleven arguments passed cost more than the assignments)."""
    return type(f"_{cls.__name__}Blank", (), {"__slots__": tuple(f.name for f in fields(cls))})


_ActionBlank = blank_twin(ActionRecord)


def action_record(seat: int, action: ActionKind, requested_to: int | None, status: ActionStatus,
                  applied: ActionKind | None, to: int, added: int, reason: str | None,
                  ruling: Ruling | None, pending: bool, street: Street) -> ActionRecord:
    """`ActionRecord(...)` with every field given, at a fifth of the cost (the hot path's)."""
    rec = _ActionBlank()
    rec.seat = seat
    rec.action = action
    rec.requested_to = requested_to
    rec.status = status
    rec.applied = applied
    rec.to = to
    rec.added = added
    rec.reason = reason
    rec.ruling = ruling
    rec.pending = pending
    rec.street = street
    rec.__class__ = ActionRecord
    return rec


# An accepted action as `Hand.play_in_turn` keeps it until its log is read: (seat, action, requested_to,
# applied, to, added, street); its other fields are those of every accepted action in turn.
Unwritten = tuple[int, ActionKind, int | None, ActionKind, int, int, Street]


def write_records(log: list[ActionRecord | RulingGiven], unwritten: list[Unwritten]) -> None:
    """Each of `unwritten` made an `ActionRecord` at the end of `log`, in order; `unwritten` emptied."""
    accepted = ActionStatus.ACCEPTED
    for seat, action, requested_to, applied, to, added, street in unwritten:
        rec = _ActionBlank()  # `action_record`, in line: its eleven arguments cost more than the assignments
        rec.seat = seat
        rec.action = action
        rec.requested_to = requested_to
        rec.status = accepted
        rec.applied = applied
        rec.to = to
        rec.added = added
        rec.reason = None
        rec.ruling = None
        rec.pending = False
        rec.street = street
        rec.__class__ = ActionRecord
        log.append(rec)
    unwritten.clear()


@dataclass(frozen=True, slots=True)
class RulingGiven:
    """A ruling given or changed after the fact (released out-of-turn action, time expired)."""

    ruling: Ruling
    street: Street

    def to_dict(self) -> dict[str, object]:
        return {"type": "ruling", **self.ruling.to_dict()}


@dataclass(frozen=True, slots=True)
class Legal:
    """What the seat to act may do now. Amounts are street totals ("raise to")."""

    seat: int
    can_check: bool
    call_to: int  # the street total a call reaches (capped at the seat's all-in)
    call_amount: int  # chips a call adds
    can_raise: bool
    min_raise_to: int  # a bet when nothing was bet on this street
    max_raise_to: int  # the seat's all-in total; in pot-limit the pot when that is less
    call_or_fold_only: bool = False


@dataclass(frozen=True, slots=True)
class PotResult:
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]  # (seat, chips) including odd chips

    def to_dict(self) -> dict[str, object]:
        return {"amount": self.amount, "winners": list(self.winners), "eligible": list(self.eligible)}


@dataclass(frozen=True, slots=True)
class HandResult:
    """How the hand ended; `stacks` are the finishing stacks of every seat dealt in."""

    kind: HandEndKind
    pots: tuple[PotResult, ...]
    stacks: dict[int, int] = field(hash=False)
    returned: dict[int, int] = field(hash=False)  # uncalled bets given back
    shown_order: tuple[int, ...] = ()
    article: str = ""  # odd-chip / showdown article applied

    def to_dict(self) -> dict[str, object]:
        return {
            "type": "hand_end",
            "result": str(self.kind),
            "stacks": {str(s): v for s, v in sorted(self.stacks.items())},
            "pots": [p.to_dict() for p in self.pots],
        }


_PotBlank = blank_twin(PotResult)
_ResultBlank = blank_twin(HandResult)


def pot_result(amount: int, eligible: tuple[int, ...], winners: tuple[int, ...],
               shares: tuple[tuple[int, int], ...]) -> PotResult:
    """`PotResult(...)` built as `action_record` builds its records, for the end of every hand."""
    pot = _PotBlank()
    pot.amount = amount
    pot.eligible = eligible
    pot.winners = winners
    pot.shares = shares
    pot.__class__ = PotResult
    return pot


def hand_result(kind: HandEndKind, pots: tuple[PotResult, ...], stacks: dict[int, int],
                returned: dict[int, int], shown_order: tuple[int, ...], article: str) -> HandResult:
    """`HandResult(...)` with every field given, built the same way."""
    result = _ResultBlank()
    result.kind = kind
    result.pots = pots
    result.stacks = stacks
    result.returned = returned
    result.shown_order = shown_order
    result.article = article
    result.__class__ = HandResult
    return result


class RulesError(Exception):
    """Root of every error raised by `hub.rules`."""


class UnknownRuleset(RulesError, KeyError):
    """No ruleset profile has that id."""


class UnknownGame(RulesError, ValueError):
    """No game has that id, or a games file is not valid (the message says where)."""


class InvalidCard(RulesError, ValueError):
    """A card string is not rank then suit (`As`, `Td`, `7c`)."""


class HandSetupError(RulesError, ValueError):
    """A hand cannot start as asked (fewer than two players, button or blind seat not at the table)."""


class BettingRoundOpen(RulesError, RuntimeError):
    """Board cards or a showdown were asked for while the betting round is still open."""


class HandOver(RulesError, RuntimeError):
    """The hand is already complete."""


class NoBettingRound(RulesError, RuntimeError):
    """A betting question was asked while no betting round is open (between streets)."""


class PhhError(RulesError, ValueError):
    """A PHH file cannot be read or replayed strictly; the message names the file and the action."""
