"""Fuzz of the TD command model (issue 18): whatever a page or a script sends, a command is either
valid or refused with one plain sentence in French then English, never pydantic's developer text."""

from __future__ import annotations

from typing import Any

from fuzz_budget import budget, tally
from hypothesis import given
from hypothesis import strategies as st

from hub.floor.commands import CommandError, decode_command

RAW = ("Input tag", "validation error", "pydantic", "Input should", "Field required", "type=", "errors.pydantic")
CMDS = ["new", "register", "seat", "start", "clock", "eliminate", "move", "cancel_hand", "reenter", "arrive",
        "wait_list", "penalty", "redraw", "hand_for_hand", "chip_race", "undo", "status", "results", "fly"]
FIELDS = ["player", "players", "table", "seat", "seconds", "level", "action", "kind", "amount", "on", "by",
          "small_value", "big_value", "leftovers", "present", "id", "v", "reason", "name", "extra"]
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=True),
                   st.text(max_size=80), st.lists(st.text(max_size=10), max_size=3),
                   st.dictionaries(st.text(max_size=8), st.integers(-5, 5), max_size=3))


@budget(300)
@given(cmd=st.one_of(st.sampled_from(CMDS), VALUES), fields=st.dictionaries(st.sampled_from(FIELDS), VALUES,
                                                                            max_size=5))
def test_every_td_command_is_valid_or_refused_in_plain_words(cmd: Any, fields: dict[str, Any]) -> None:
    tally("td_commands")
    try:
        decode_command({"cmd": cmd, **fields})
    except CommandError as err:
        text = str(err)
        assert " / " in text and "\n" not in text and not any(raw in text for raw in RAW), text


@budget(100)
@given(raw=st.binary(max_size=200))
def test_bytes_are_refused_in_plain_words(raw: bytes) -> None:
    tally("td_command_bytes")
    try:
        decode_command(raw)
    except CommandError as err:
        assert " / " in str(err) and not any(r in str(err) for r in RAW), str(err)
