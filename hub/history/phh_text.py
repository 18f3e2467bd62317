"""A hand's record written as a PHH file (TOML, one `key = value` a line), and as one JSON line (pure).

The PHH fields are those PokerKit reads (`variant`, `antes`, `blinds_or_straddles`, `min_bet`,
`starting_stacks`, `actions`, `finishing_stacks`, `seats`, `players`, `table`, `hand`, `event`, the
date); tapis's own facts follow as user-defined fields (the standard's leading underscore,
`_tapis_...`), which `tapis phh` and PokerKit read past.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_LITERAL = re.compile(r"[^'\n\r\\\x00-\x1f\x7f]*")


def _string(text: str) -> str:
    if _LITERAL.fullmatch(text):
        return f"'{text}'"
    return json.dumps(text, ensure_ascii=False)  # JSON's escapes are TOML's basic string's


def toml_value(value: object) -> str:
    """A TOML value on one line; None (TOML has no null) is written as an empty string."""
    if value is None:
        return "''"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, Mapping):
        items = (f"{k if _BARE.fullmatch(str(k)) else _string(str(k))} = {toml_value(v)}"
                 for k, v in value.items() if v is not None)
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML value for {type(value).__name__}")


_TAPIS = ("version", "ruleset", "game", "level", "button", "small_blind", "big_blind", "result", "void", "why",
          "pots", "board", "shown", "dead", "faults", "decisions", "rulings", "dealer", "started_at", "ended_at",
          "replayable", "problems", "truncated")


def phh(record: Mapping[str, Any]) -> str:
    """The PHH text of a record (the TD's or the public one: `hand_record.public_record`)."""
    ended = datetime.fromtimestamp(float(record["ended_at"]), UTC)
    lines = [
        f"variant = {toml_value(record['variant'])}",
        f"antes = {toml_value(record['antes'])}",
        f"blinds_or_straddles = {toml_value(record['blinds'])}",
        f"min_bet = {toml_value(record['min_bet'])}",
        f"starting_stacks = {toml_value(record['starting_stacks'])}",
        f"actions = {toml_value(record['actions'])}",
        f"finishing_stacks = {toml_value(record['finishing_stacks'])}",
        f"seats = {toml_value(record['seats'])}",
        f"players = {toml_value(record['players'])}",
        f"table = {toml_value(record['table'])}",
        f"hand = {toml_value(record['hand'])}",
    ]
    if record.get("tournament"):
        lines.append(f"event = {toml_value(record['tournament'])}")
    lines += [f"year = {ended.year}", f"month = {ended.month}", f"day = {ended.day}",
              f"time = {ended.strftime('%H:%M:%S')}", "time_zone = 'UTC'"]
    for key in _TAPIS:
        if record.get(key) is not None:
            lines.append(f"_tapis_{key} = {toml_value(record[key])}")
    cards = [[c["order"], c["at"], c["hub_at"], c["zone"], c["card"] or "?", c["arrived"]] for c in record["cards"]]
    lines.append(f"_tapis_cards = {toml_value(cards)}")  # order, table's time, hub's time, zone, card, arrived
    return "\n".join(lines) + "\n"


def json_line(record: Mapping[str, Any]) -> str:
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def file_name(record: Mapping[str, Any]) -> str:
    """`t1-000042.phh`: one file per table and hand, sorted as played."""
    table = re.sub(r"[^A-Za-z0-9_-]", "_", str(record["table"]))[:40]
    return f"{table}-{int(record['hand']):06d}.phh"
