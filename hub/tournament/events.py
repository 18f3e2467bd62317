"""Event records of the tournament aggregate (hub, tournament floor -> event store).

Every TD command and table fact produces these frozen records; `Tournament.apply` rebuilds the
state from them alone. `to_dict()` / `event_from_dict()` make them JSON-ready for SQLite storage.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, TypeVar

from hub.tournament.errors import EventError
from hub.tournament.penalties import PenaltyKind

JSON = str | int | float | bool | None | list["JSON"] | dict[str, "JSON"]
Stacks = tuple[tuple[int, int], ...]  # (seat, chips) pairs, JSON-friendly unlike a dict

EVENT_SCHEMA = 1


class MoveReason(StrEnum):
    BALANCE = "balance"
    BREAK = "break"
    TD = "td"  # the TD's own move


class RemovalReason(StrEnum):
    LEFT_NOTIFIED = "left_notified"  # abandon announced: chips removed, ranked now (cdc 2.9)
    LEFT_WITHOUT_NOTICE = "left_without_notice"  # pcpm, cpt87 2.12: ranked last
    DISQUALIFIED = "disqualified"
    ABSENT = "absent"  # never arrived before the late-arrival deadline


class Event:
    """Base of every record; subclasses are frozen dataclasses named in the past tense."""

    registry: ClassVar[dict[str, type[Event]]] = {}

    def to_dict(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"type": type(self).__name__, "schema": EVENT_SCHEMA}
        for field in dataclasses.fields(self):  # type: ignore[arg-type]
            out[field.name] = _to_json(getattr(self, field.name))
        return out


E = TypeVar("E", bound=type[Event])


def event(cls: E) -> E:
    Event.registry[cls.__name__] = cls
    return cls


def _to_json(value: object) -> JSON:
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    raise EventError(f"not JSON-ready: {value!r}")


def _from_json(value: JSON) -> object:
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value


@functools.cache
def _hints(name: str) -> dict[str, object]:
    return typing.get_type_hints(Event.registry[name])


def event_from_dict(data: dict[str, JSON]) -> Event:
    name = data.get("type")
    cls = Event.registry.get(str(name))
    if cls is None:
        raise EventError(f"unknown event type {name!r}")
    hints = _hints(cls.__name__)
    kwargs: dict[str, object] = {}
    try:
        for field in dataclasses.fields(cls):  # type: ignore[arg-type]
            if field.name not in data and field.default is not dataclasses.MISSING:
                continue  # a record stored before the field was added: its default
            raw = _from_json(data[field.name])
            hint = hints[field.name]
            if isinstance(hint, type) and issubclass(hint, StrEnum):
                raw = hint(str(raw))
            elif hint is float and isinstance(raw, int):
                raw = float(raw)
            kwargs[field.name] = raw
        return cls(**kwargs)
    except (KeyError, TypeError, ValueError) as err:
        raise EventError(f"bad {name} record: {err}") from err


@event
@dataclass(frozen=True, slots=True)
class TournamentCreated(Event):
    name: str
    ruleset: str
    structure_toml: str
    seats_per_table: int
    buy_in_cents: int
    paid_places: int  # for rulesets without a payout table (0: unknown); ranks the bubble
    at: float
    # a club's rulebook: its file's text, then the texts of the files it inherits from (a seed by its id:
    # none), kept with the tournament so a file changed or deleted later never changes its rules
    rulebook: tuple[str, ...] = ()


@event
@dataclass(frozen=True, slots=True)
class PlayerRegistered(Event):
    player: str
    entry: int
    present: bool
    at: float


@event
@dataclass(frozen=True, slots=True)
class PlayerArrived(Event):
    player: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class PlayerReentered(Event):
    player: str
    entry: int
    article: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class WaitListJoined(Event):
    player: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class WaitListEntered(Event):
    player: str
    entry: int
    stack: int
    article: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class SeatDrawn(Event):
    """A player takes a seat with `chips` new chips entering play."""

    player: str
    table: int
    seat: int
    chips: int
    at: float


@event
@dataclass(frozen=True, slots=True)
class ButtonDrawn(Event):
    table: int  # 0: the same seat number for every table (pouques 23)
    seat: int
    article: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class ClockStarted(Event):
    at: float


@event
@dataclass(frozen=True, slots=True)
class LevelStarted(Event):
    index: int  # position in the structure's items (a level or a break)
    reason: str  # "elapsed", "jumped", "resumed"
    at: float


@event
@dataclass(frozen=True, slots=True)
class ClockPaused(Event):
    reason: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class ClockResumed(Event):
    at: float


@event
@dataclass(frozen=True, slots=True)
class TimeAdjusted(Event):
    seconds: float  # added to the current level (negative: removed)
    at: float


@event
@dataclass(frozen=True, slots=True)
class HeadsUpStarted(Event):
    article: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    table: int
    hand_no: int
    level: int
    ante: int
    button: int
    big_blind: int
    dead_seats: tuple[int, ...]
    at: float


@event
@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    table: int
    hand_no: int
    stacks: Stacks
    at: float
    # ended void and dealt again (a misdeal, a hand cancelled with every bet returned): neither the table's hand
    # of the round at hand for hand nor a penalised player's dead hand; its redeal is
    void: bool = False


@event
@dataclass(frozen=True, slots=True)
class MoveAsked(Event):
    """The TD moves a player while his table is in a hand he is dealt in: the move is ordered when that hand
    ends (`MoveOrdered`, reason TD), so the hand in progress is played as it was dealt."""

    player: str
    table: int
    to_table: int
    to_seat: int
    at: float


@event
@dataclass(frozen=True, slots=True)
class MoveLapsed(Event):
    """A move the TD asked during a hand could not be made when it ended (`why`, in words): he was out, or
    moved already, or the table named was broken or full."""

    player: str
    to_table: int
    to_seat: int
    why: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class EliminationAsked(Event):
    """The TD rules a player out while his table is in a hand: done when that hand ends (his chips then
    leave play), so the hand in progress is played as it was dealt."""

    player: str
    table: int
    at: float


@event
@dataclass(frozen=True, slots=True)
class StacksCorrected(Event):
    """The TD's count correction between hands: chips in play change."""

    table: int
    stacks: Stacks
    article: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class PlayerEliminated(Event):
    player: str
    table: int
    seat: int
    place: int  # provisional place when he went out (players left, himself included)
    start_stack: int  # chips at the start of the hand, ranks simultaneous eliminations
    group: int  # eliminations sharing a group went out together
    by_stack: bool
    article: str
    at: float
    # when his hand ended at his table (hub time), when the hub heard it late (a table cut off: its backlog);
    # None: heard live, `at`. Ranks him among the players out by when it happened, not when it was heard
    happened: float | None = None
    # who knocked him out (a bounty, la prime): the winners of the last pot his chips went into, sharing it
    # when they split that pot; none when the TD ruled him out (`tapis tournament eliminate`)
    by: tuple[str, ...] = ()


@event
@dataclass(frozen=True, slots=True)
class PlacesCorrected(Event):
    """Provisional places corrected by an elimination heard late: these players went out after it, with one
    player fewer left than the floor knew then (`PlayerEliminated.happened`); their records are kept as they
    were stored."""

    places: tuple[tuple[str, int], ...]  # (player, his provisional place now)
    article: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class PlayerRemoved(Event):
    player: str
    reason: RemovalReason
    chips: int  # chips taken out of play
    article: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class PlayerWentAway(Event):
    """Left without notice under a chips-stay rule: dealt dead, blinded (cdc 2.9)."""

    player: str
    article: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class MoveOrdered(Event):
    player: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: MoveReason
    waits_one_hand: bool
    article: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class MoveConfirmed(Event):
    player: str
    table: int
    at: float


@event
@dataclass(frozen=True, slots=True)
class TableBroken(Event):
    table: int
    article: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class HandForHandStarted(Event):
    article: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class HandForHandEnded(Event):
    at: float


@event
@dataclass(frozen=True, slots=True)
class FinalTableDrawn(Event):
    table: int
    seats: tuple[tuple[str, int], ...]
    article: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class PenaltyGiven(Event):
    player: str
    kind: PenaltyKind
    amount: int
    dead_hands: int
    until: float  # end of a timed suspension (0 if none)
    article: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class ChipsColouredUp(Event):
    table: int
    small_value: int
    big_value: int
    winners: tuple[str, ...]
    stacks: tuple[tuple[str, int], ...]
    article: str
    at: float


@event
@dataclass(frozen=True, slots=True)
class DealAgreed(Event):
    """The players left agreed a deal (accord): each one's prize, the places still to play paid so."""

    prizes: tuple[tuple[str, int], ...]  # (player, cents)
    method: str  # "icm", "chip_chop" or "td": what the TD confirmed
    at: float


@event
@dataclass(frozen=True, slots=True)
class DayEnded(Event):
    """A day of play is over (the TD's word, or the structure's day-end break once every hand has ended):
    every player still in bags his chips, and the next day's seats are drawn now. Both are in the record,
    so the bag sheet reprints the same, after a hub restart too."""

    day: int  # the day that ended (1, 2, ...)
    reason: str  # "td": the TD's "fin de journée"; "structure": the structure's day-end break
    bags: tuple[tuple[str, int, int, int, int], ...]  # (player, table, seat, chips, bag number), by table and seat
    draw: tuple[tuple[str, int, int], ...]  # (player, table, seat) for the next day, by table and seat
    buttons: tuple[tuple[int, int], ...]  # (table, seat): the next day's first button at each table
    at: float


@event
@dataclass(frozen=True, slots=True)
class ActionReverted(Event):
    """The TD undid the records `first`..`last` (positions in the log): they stay stored and no longer count."""

    first: int
    last: int
    by: str
    at: float
