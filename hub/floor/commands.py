"""TD commands for the tournament floor as they cross a process boundary (MQTT, the TD command line).

Consumes JSON from `tapis/v1/hub/tournament/cmd` (or built by `hub.floor.td`); emits validated pydantic
models the `FloorService` executes, and the result payload it answers on `.../cmd/result`.
Its topics live here, not in `tablewire`: they run between the TD's tools and the hub, never a table.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from hub.floor.command_words import plain_error
from hub.floor.store import JSON
from tablewire.wire import ROOT, TABLE_ID

TOURNAMENT_CLOCK = f"{ROOT}/hub/tournament/clock"  # retained clock, every second and on change
TOURNAMENT_TABLES = f"{ROOT}/hub/tournament/table/+"  # retained, one table's seats each (`clock_topics`)
TOURNAMENT_CMD = f"{ROOT}/hub/tournament/cmd"  # TD -> hub, JSON `Command`
TOURNAMENT_RESULT = f"{ROOT}/hub/tournament/cmd/result"  # hub -> TD, JSON `CommandResult`


def tournament_table_topic(number: int | str) -> str:
    return f"{ROOT}/hub/tournament/table/{number}"


class CommandError(ValueError):
    """A TD command that is not well formed (the floor never saw it)."""


MAX_RULEBOOK_CHARS = 30_000  # a club's file (the seeds are under 12 000): well inside the broker's packet


class _Cmd(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    v: Literal[1] = 1  # SCHEMA
    id: str = Field("", max_length=64)  # echoed in the result so the TD matches answers


class NewTournament(_Cmd):
    cmd: Literal["new"] = "new"
    name: str = Field(min_length=1, max_length=80)
    ruleset: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{1,39}$")  # a seed's id, or a club's with `rulebook`
    # a club's file (`hub.rulebooks.stored`): its text, then the files it inherits from; stored with the
    # tournament, so the file changed or deleted later never changes the rules of a running tournament
    rulebook: tuple[Annotated[str, Field(max_length=MAX_RULEBOOK_CHARS)], ...] = Field((), max_length=6)
    structure_toml: str = Field(min_length=1)
    seats_per_table: int = Field(10, ge=2, le=10)
    tables: int | None = Field(None, ge=1, le=100)  # tables for the draw (None: as few as fit)
    buy_in_cents: int = Field(0, ge=0)
    paid_places: int = Field(0, ge=0)
    # Payouts for rulesets without a table: "ruleset" (its own table, if any), "pouques" (the
    # pouques-2020 81 table), or percents of the pool per place, 1st first: "50,30,20".
    payouts: str = Field("ruleset", pattern=r"^(ruleset|pouques|[0-9]+(\.[0-9]+)?(,[0-9]+(\.[0-9]+)?)*)$")
    pool_percent: int = Field(100, ge=1, le=100)  # share of the buy-ins paid out (percents payouts)
    guarantee_cents: int = Field(0, ge=0, le=100_000_000)  # a guaranteed prize pool (0: none)
    seed: int = 0
    date: datetime.date | None = None  # the night's date, for the results (None: the day it is created)


PlayerName = Annotated[str, Field(min_length=1, max_length=60)]


class Register(_Cmd):
    cmd: Literal["register"] = "register"
    players: list[PlayerName] = Field(min_length=1, max_length=1000)
    present: bool = True

    @field_validator("players")
    @classmethod
    def _names(cls, names: list[str]) -> list[str]:
        # a name is printed on one line of the TD's screens and results: no blanks, no control characters
        for name in names:
            if not name.strip() or name != name.strip() or any(ord(c) < 32 or ord(c) == 127 for c in name):
                raise ValueError(f"player name {name[:60]!r}: printable text, not blank, "
                                 "no leading or trailing spaces, no line breaks")
        return names


class Seat(_Cmd):
    """Draw the seats (tirage des places)."""

    cmd: Literal["seat"] = "seat"


class Start(_Cmd):
    cmd: Literal["start"] = "start"


class ClockCmd(_Cmd):
    """Pause, resume, add or remove time, jump to a level, or set the time left in the level."""

    cmd: Literal["clock"] = "clock"
    action: Literal["pause", "resume", "add", "remove", "level", "set"]
    seconds: float | None = Field(None, ge=0, le=6 * 3600)
    level: int | None = Field(None, ge=1, le=1000)
    reason: str = Field("TD", max_length=80)


class Eliminate(_Cmd):
    cmd: Literal["eliminate"] = "eliminate"
    player: str = Field(min_length=1)


class Move(_Cmd):
    cmd: Literal["move"] = "move"
    player: str = Field(min_length=1)
    table: str = Field(pattern=TABLE_ID)
    seat: int = Field(ge=1, le=10)


class CancelHand(_Cmd):
    """Annuler la donne: the hand in progress at a table ends, its chips as the ruleset says
    (`hub.room.hand_cancel`); for a table blocked mid-hand. Needs the running hub (the hand lives there)."""

    cmd: Literal["cancel_hand"] = "cancel_hand"
    table: str = Field(pattern=TABLE_ID)
    by: str = Field("TD", min_length=1, max_length=64)


class Decide(_Cmd):
    """The TD decides a fault the ruleset left to him (the table waits), or a Time request (cpt87 4.5, play
    goes on): `option` is one the ruling offered (`set_aside`, `hand_cancelled_pot_split`, `misdeal`...,
    `grant_time`, `refuse_time`); `kind` the fault's, or empty for the table's only decision pending. Needs
    the running hub (the hand lives there)."""

    cmd: Literal["decide"] = "decide"
    table: str = Field(pattern=TABLE_ID)
    option: str = Field(min_length=1, max_length=40, pattern=r"^[a-z_]+$")
    kind: str = Field("", max_length=40, pattern=r"^[a-z_]*$")
    by: str = Field("TD", min_length=1, max_length=64)


class Deal(_Cmd):
    """A deal at the final table (accord): each player left's prize in cents, adding up to what the places
    still to play pay; `method` says which computation the TD confirmed (`icm`, `chip_chop`, `td`)."""

    cmd: Literal["deal"] = "deal"
    prizes: dict[PlayerName, int] = Field(min_length=2, max_length=10)
    method: Literal["icm", "chip_chop", "td"] = "td"


class Reenter(_Cmd):
    """Re-entry of an eliminated player (pouques 7, 22), refused under a freezeout ruleset."""

    cmd: Literal["reenter"] = "reenter"
    player: PlayerName


class Arrive(_Cmd):
    """A registered player who was not there at the draw arrives (late arrival)."""

    cmd: Literal["arrive"] = "arrive"
    player: PlayerName


class WaitList(_Cmd):
    """Join the wait-list (brest II.2), or seat its first player after an elimination (`seat`)."""

    cmd: Literal["wait_list"] = "wait_list"
    action: Literal["join", "seat"] = "join"
    player: str = Field("", max_length=60)


class Penalty(_Cmd):
    cmd: Literal["penalty"] = "penalty"
    player: PlayerName
    kind: Literal["warning", "missed_hands", "missed_rounds", "suspension", "disqualification"]
    amount: int = Field(0, ge=0, le=1000)


class Redraw(_Cmd):
    """The final-table draw, when the players left fit one table and every table is between hands."""

    cmd: Literal["redraw"] = "redraw"


class HandForHand(_Cmd):
    cmd: Literal["hand_for_hand"] = "hand_for_hand"
    on: bool


class ChipRace(_Cmd):
    """Colour-up at one table: the small chip's value, the chip it goes up to, each player's small chips."""

    cmd: Literal["chip_race"] = "chip_race"
    table: str = Field(pattern=TABLE_ID)
    small_value: int = Field(ge=1)
    big_value: int = Field(ge=2)
    leftovers: dict[PlayerName, Annotated[int, Field(ge=0)]] = Field(default_factory=dict)


class Undo(_Cmd):
    """Undo a TD action by its first record (`data.undo` of its result): a compensating record, never an erasure."""

    cmd: Literal["undo"] = "undo"
    action: int = Field(ge=1)
    by: str = Field("TD", min_length=1, max_length=64)


class EndDay(_Cmd):
    """Fin de journée: between hands, the clock stops, the chips are bagged and the next day's seats drawn."""

    cmd: Literal["end_day"] = "end_day"


class Bags(_Cmd):
    """The bag sheet: the chip counts now (a break's), or a day's end with its bags and the next day's draw."""

    cmd: Literal["bags"] = "bags"
    day: int | None = Field(None, ge=1, le=30)  # that day's end (None: the day just ended, else now)


class Status(_Cmd):
    cmd: Literal["status"] = "status"


class Results(_Cmd):
    cmd: Literal["results"] = "results"


AnyCommand = (NewTournament | Register | Seat | Start | ClockCmd | Eliminate | Move | CancelHand | Decide | Deal
              | Reenter | Arrive | WaitList | Penalty | Redraw | HandForHand | ChipRace | Undo | EndDay | Bags | Status
              | Results)
COMMAND_TYPES = (NewTournament, Register, Seat, Start, ClockCmd, Eliminate, Move, CancelHand, Decide, Deal, Reenter,
                 Arrive, WaitList, Penalty, Redraw, HandForHand, ChipRace, Undo, EndDay, Bags, Status, Results)
_command: TypeAdapter[AnyCommand] = TypeAdapter(Annotated[AnyCommand, Field(discriminator="cmd")])


def decode_command(payload: bytes | str | dict[str, JSON]) -> AnyCommand:
    """Validate a TD command; a `CommandError` says in plain words (French / English) what is wrong."""
    try:
        if isinstance(payload, dict):
            command: AnyCommand = _command.validate_python(payload)
        else:
            command = _command.validate_json(payload)
    except ValidationError as err:
        raise CommandError(plain_error(err, payload)) from err
    if isinstance(command, ClockCmd):
        if command.action in ("add", "remove", "set") and command.seconds is None:
            raise CommandError("indiquer une durée en minutes / give a time in minutes")
        if command.action in ("add", "remove") and not command.seconds:
            raise CommandError("une durée de plus de zéro minute / a time of more than zero minutes")
        if command.action == "level" and command.level is None:
            raise CommandError("indiquer le numéro du niveau / give the level number")
    if isinstance(command, WaitList) and command.action == "join" and not command.player.strip():
        raise CommandError("indiquer le nom du joueur / give the player's name")
    return command


class CommandResult(BaseModel):
    """The answer on `.../cmd/result`: ok, or the reason the floor refused the command."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    v: Literal[1] = 1  # SCHEMA
    id: str = ""
    cmd: str
    ok: bool
    error: str | None = None
    error_fr: str | None = None  # the refusal in French and in English alone, for the TD's page
    error_en: str | None = None
    events: list[str] = Field(default_factory=list)  # names of the records the command produced
    data: dict[str, Any] = Field(default_factory=dict)  # status snapshot or results (JSON)
