"""The MQTT contract between table agents and the hub: every topic and payload, in one module.

Agents publish facts on `tapis/v1/table/<id>/...`; the hub publishes its view and hand events on
`tapis/v1/hub/...`. Payloads are JSON with a schema version `v`; a payload that does not validate is
a `PayloadError` (a ValueError) the receiver logs and counts, never a crash. Hole cards of a live hand
travel only on TD topics (`.../td/...`), which the broker's ACL keeps from viewers.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from tablewire.faults import FaultKind

SCHEMA: Final = 1
ROOT = "tapis/v1"
TABLE_ID = r"^[A-Za-z0-9_-]{1,32}$"


class PayloadError(ValueError):
    """A message whose payload is not what its topic carries."""


def table_deck_ids(table: str) -> tuple[str, str]:
    """The one naming of a table's two decks, in the deck registry, the profile and the hub's hand
    context alike: `<table>/A` and `<table>/B` (deploy/etc-tapis/decks.toml)."""
    return f"{table}/A", f"{table}/B"


# Topics ---------------------------------------------------------------------------------------

def table_status(table: str) -> str:
    """Retained `online` / `offline` (the MQTT will)."""
    return f"{ROOT}/table/{table}/status"


def table_events(table: str) -> str:
    """QoS 1 stream of `TableEvent`s, numbered per table."""
    return f"{ROOT}/table/{table}/event"


def table_commands(table: str) -> str:
    """Hub -> table commands (hand context, rulings to show)."""
    return f"{ROOT}/table/{table}/cmd"


def hub_table_state(table: str) -> str:
    """Retained public view of a table: no hole cards."""
    return f"{ROOT}/hub/table/{table}/state"


def hub_table_events(table: str) -> str:
    """Hand events as the hub rules them (public: hole cards only once shown down)."""
    return f"{ROOT}/hub/table/{table}/event"


def hub_td_state(table: str) -> str:
    """Retained full view for the TD, hole cards included."""
    return f"{ROOT}/hub/td/table/{table}/state"


def hub_ack(table: str) -> str:
    """Retained `Ack`: what the hub has stored of that table's events; the agent's outbox forgets it."""
    return f"{ROOT}/hub/ack/{table}"


HUB_STATUS = f"{ROOT}/hub/status"


def hub_worker_status(worker: str) -> str:
    """Retained `online` / `offline` of one hub worker of a sharded room (`hub.edge.shard`)."""
    return f"{HUB_STATUS}/{worker}"


ALL_TABLE_EVENTS = f"{ROOT}/table/+/event"
ALL_TABLE_STATUS = f"{ROOT}/table/+/status"
ONLINE, OFFLINE = b"online", b"offline"


def table_of(topic: str) -> str:
    """The table id in a `tapis/v1/table/<id>/...` topic."""
    parts = topic.split("/")
    if len(parts) < 4 or parts[0] + "/" + parts[1] != ROOT or parts[2] != "table":
        raise PayloadError(f"not a table topic: {topic!r}")
    return parts[3]


# Table -> hub -------------------------------------------------------------------------------

# Strict: a payload says exactly what it means (no "1" for 1, no true for a hand number); numbers are
# bounded (SQLite keeps 64 bits) and times finite.
_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True)
Count = Annotated[int, Field(ge=0, lt=2**63)]
Seat = Annotated[int, Field(ge=1, le=10)]
Chips = Annotated[int, Field(ge=0, lt=2**53)]
Time = Annotated[float, Field(allow_inf_nan=False, ge=-1e12, le=1e12)]


class _Event(BaseModel):
    model_config = _STRICT

    v: Literal[1] = SCHEMA
    table: str = Field(pattern=TABLE_ID)
    boot: str = Field(min_length=1, max_length=64)  # this agent run; seq restarts only with it
    seq: int = Field(ge=1, lt=2**63)
    at: Time  # agent's monotonic clock, seconds


class CardEvent(_Event):
    type: Literal["card_arrived", "card_left"]
    zone: str = Field(pattern=r"^(seat:[0-9]{1,2}|board|burn|muck|tray)$")
    uid: str = Field(pattern=r"^[0-9A-F]{2,40}$")
    card: str | None = Field(None, pattern=r"^[2-9TJQKA][cdhs]$")
    deck: str | None = None
    order: int = Field(ge=1, lt=2**63)


class ReaderStatus(_Event):
    type: Literal["reader_status"] = "reader_status"
    state: Literal["connected", "lost", "fault"]
    detail: str = ""
    firmware: str | None = Field(None, max_length=64)
    antennas: int | None = Field(None, ge=1, le=255)


class DealerPressed(_Event):
    """The dealer panel: new hand (nouvelle donne), a seat away / back, Time called on a seat."""

    type: Literal["dealer"] = "dealer"
    button: Literal["new_hand", "away", "back", "time"]
    seat: int | None = Field(None, ge=1, le=10)


class SeatActed(_Event):
    """A player's action from the seat panel; `to` is the street total for bet and raise."""

    type: Literal["action"] = "action"
    seat: Seat
    action: Literal["fold", "check", "call", "bet", "raise", "allin"]
    to: Chips | None = None


Detail = str | int | float | bool | None | list[str] | list[int]


class FaultSeen(_Event):
    """A dealing fault the table's monitor raised at the card that revealed it (a fact, not a ruling)."""

    type: Literal["fault"] = "fault"
    hand: int = Field(ge=1, lt=2**63)
    kind: FaultKind = Field(strict=False)  # spec/faults.md: an unknown kind is a malformed payload
    seat: int | None = Field(None, ge=1, le=10)
    cards: list[str] = Field(default_factory=list, max_length=16)
    details: dict[str, Detail] = Field(default_factory=dict)


AnyTableEvent = CardEvent | ReaderStatus | DealerPressed | SeatActed | FaultSeen
TableEvent = Annotated[AnyTableEvent, Field(discriminator="type")]
_table_event: TypeAdapter[AnyTableEvent] = TypeAdapter(TableEvent)


# Hub -> table ---------------------------------------------------------------------------------

class _Command(BaseModel):
    model_config = _STRICT

    v: Literal[1] = SCHEMA
    hand: int = Field(ge=1, lt=2**63)


class HandContextCmd(_Command):
    """Everything the dealing monitor needs at a hand's start (`table_agent.dealing.HandContext`)."""

    type: Literal["hand_context"] = "hand_context"
    seats: list[Seat] = Field(max_length=10)
    button: Seat
    first_to_deal: Seat
    small_blind: Seat | None = None
    hole_cards: int = Field(2, ge=1, le=7)
    discards: int = Field(0, ge=0, le=2)  # cards each hand throws to the muck and plays on (pineapple)
    excluded_ranks: list[Literal["2", "3", "4", "5"]] = Field(default_factory=list, max_length=4)  # short deck
    deck: str = Field(max_length=64)
    table_decks: list[str] = Field(max_length=4)
    away: list[Seat] = Field(default_factory=list, max_length=10)
    table_seats: int = Field(10, ge=2, le=10)
    deadline: str = Field("first_card", max_length=32)
    dealer: Seat | None = None  # the seat of the player dealing; None: a croupier deals


class BettingCmd(_Command):
    """Where the betting stands: the monitor judges premature streets with it, the LEDs show `to_act`."""

    type: Literal["betting"] = "betting"
    street: str = Field(max_length=16)
    open: bool
    to_act: Seat | None = None
    closed: list[str] = Field(default_factory=list, max_length=8)
    to_call: Chips = 0  # what `to_act` must add to call (0: he may check)
    opened: bool = False  # a bet stands on this street (the bet/raise button raises)
    max_to: Chips | None = None  # pot-limit: the most `to_act` may bet or raise to (the pot); None: no-limit
    time_seat: Seat | None = None
    time_left: Time | None = None  # seconds of Time left when sent (clocks differ between machines)
    td_wait: bool = False  # play stops until the TD decides a fault the ruleset leaves to him


class RulingCmd(_Command):
    """A ruling for the table: the monitor expects its remedy, the LEDs light the seats concerned."""

    type: Literal["ruling"] = "ruling"
    kind: str = Field(max_length=40)
    decision: str = Field(max_length=40)
    seat: Seat | None = None
    cards: list[str] = Field(default_factory=list, max_length=16)
    dead_seats: list[Seat] = Field(default_factory=list, max_length=10)


class HandOverCmd(_Command):
    type: Literal["hand_over"] = "hand_over"
    result: str = Field(max_length=32)


class Ack(BaseModel):
    """Every event of `boot` up to `seq` is stored, in order (hub -> table, retained)."""

    model_config = _STRICT

    v: Literal[1] = SCHEMA
    boot: str = Field(min_length=1, max_length=64)
    seq: int = Field(ge=0, lt=2**63)


_ack: TypeAdapter[Ack] = TypeAdapter(Ack)


def decode_ack(topic: str, payload: bytes) -> Ack:
    ack: Ack = _validate(_ack, topic, payload)
    return ack


AnyCommand = HandContextCmd | BettingCmd | RulingCmd | HandOverCmd
_command: TypeAdapter[AnyCommand] = TypeAdapter(Annotated[AnyCommand, Field(discriminator="type")])


def encode(model: BaseModel) -> bytes:
    return model.model_dump_json(exclude_none=True).encode()


def _validate(adapter: TypeAdapter[Any], topic: str, payload: bytes) -> Any:
    try:
        return adapter.validate_json(payload)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "payload"
        raise PayloadError(f"{topic}: {where}: {first['msg']} ({len(payload)} bytes)") from err


def decode_table_event(topic: str, payload: bytes) -> AnyTableEvent:
    """Validate a table's event; its `table` must be the one in the topic (no speaking for others)."""
    event: AnyTableEvent = _validate(_table_event, topic, payload)
    if event.table != table_of(topic):
        raise PayloadError(f"{topic}: event claims table {event.table!r}")
    return event


def decode_command(topic: str, payload: bytes) -> AnyCommand:
    command: AnyCommand = _validate(_command, topic, payload)
    return command


def hub_event(table: str, event_type: str, /, **fields: Any) -> dict[str, Any]:
    """A hub event as published and as printed by `tapis demo --json` / `tapis replay`."""
    return {"type": event_type, "table": table, **fields}
