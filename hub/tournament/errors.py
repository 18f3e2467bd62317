"""Errors of the tournament floor (hub side, pure core).

TD commands (pause, add time, eliminate, move, register) are refused by raising one of these;
every error derives from `TournamentError` and from the matching built-in, as gpiozero does. A refusal
names a table as the dashboard shows it (`table_label`: "Table 1", in French and English alike).
"""

from __future__ import annotations

import re

_HUB_ID = re.compile(r"t\d+")  # the hub's id of a tournament table (`hub.floor.moves.table_id`)


def table_label(table: int | str) -> str:
    """A table as the TD reads it, on the dashboard and in a refusal: "Table 1" for table 1 or hub id "t1"."""
    text = str(table)
    number = text[1:] if _HUB_ID.fullmatch(text) else text
    return f"Table {number}"


class TournamentError(Exception):
    """Root of every error raised by `hub.tournament`."""


class StructureError(TournamentError, ValueError):
    """A blind structure is malformed (TOML, levels, breaks)."""


class ClockError(TournamentError, ValueError):
    """A clock command does not fit the clock's state (pause twice, remove too much time...)."""


class RegistrationError(TournamentError, ValueError):
    """Registration, re-entry, wait-list or late arrival refused by the ruleset."""


class FloorError(TournamentError, ValueError):
    """A seating, move, hand or elimination command does not fit the floor's state."""


class PenaltyError(TournamentError, ValueError):
    """A penalty outside the ruleset's hierarchy."""


class EventError(TournamentError, ValueError):
    """A stored event record cannot be decoded."""
