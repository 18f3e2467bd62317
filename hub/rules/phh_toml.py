"""The PHH reader for any file: the TOML subset a history is written in, read key by key.

Used by `phh.loads` for the files its reader of the common shape hands over (comments after a value,
lists over several lines, tables, escapes) and for the broken ones; consumes a `.phh` text, emits the
wanted keys' values (numbers kept as their text until the file's scale is known) or a `PhhError` in
one line. Several times faster than tomllib, which takes what this does not read. Also the lists of
numbers as the reader of the common shape reads them (`_plain_list`, `_whole_lists`).
"""

from __future__ import annotations

import re
import tomllib
from decimal import Decimal
from json import JSONDecoder
from json.scanner import make_scanner

from hub.rules.records import PhhError

_MAX_ERROR = 200  # characters of the file's own text quoted in an error


def _quote(text: object) -> str:
    """`text` as repr, cut short: an error line never carries a whole bad file."""
    shown = repr(text)
    return shown if len(shown) <= _MAX_ERROR else shown[:_MAX_ERROR] + f"... ({len(shown)} characters)"


def _slow_toml(text: str, name: str) -> dict[str, object]:
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as err:
        raise PhhError(f"{name}: not a PHH (TOML) file: {err}") from err


def _numbers(doc: dict[str, object], key: str, name: str) -> list[str]:
    """A list of numbers, kept as their text until the file's scale is known."""
    raw = doc.get(key)
    if not isinstance(raw, list):
        raise PhhError(f"{name}: `{key}` must be a list of numbers")
    if isinstance(raw, _Numbers):
        return raw  # the fast reader matched them as numbers
    out = []
    for v in raw:
        if not isinstance(v, (int, Decimal)) or isinstance(v, bool) or not _PLAIN.fullmatch(str(v)):
            raise PhhError(f"{name}: `{key}` must be a list of plain numbers (100, 2.5), not {_quote(v)}")
        out.append(str(v))
    return out


# PHH files are plain `key = value` TOML. Only the keys the replay needs are read: line by line
# when each key holds one line (`_fast_toml`), else with regular expressions (`_regex_toml`), both
# several times faster than tomllib; anything unusual (tables, multi-line strings, escapes) goes to
# tomllib instead.
_KEY = re.compile(r"^[ \t]*([A-Za-z_][A-Za-z0-9_-]*)[ \t]*=", re.M)
_TABLE = re.compile(r"^[ \t]*\[", re.M)
_STRINGS = re.compile(r"""'([^'\n]*)'|"([^"\n]*)"|(#[^\n]*)""")
_NUMBER = re.compile(r"[-+]?[0-9][0-9_]*(?:\.[0-9_]+)?")
_COMMENT = re.compile(r"#[^\n]*")
_WANTED = frozenset({"variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks",
                     "actions", "finishing_stacks"})


_PLAIN = re.compile(r"[-+]?[0-9]+(?:\.[0-9]+)?")
_NUMBER_LIST = re.compile(r"\[[ \t\n0-9_.+-]*(?:,[ \t\n0-9_.+-]*)*\]")


class _Numbers(list[str]):
    """Numbers the fast reader matched, kept as their text (a string in the file is not one)."""


class _Strings(list[str]):
    """The actions as the fast reader found them: quoted strings, nothing else to check."""


class _Unusual(Exception):
    """The fast reader met TOML it does not handle; tomllib takes over."""


_QUOTED = re.compile(r"'([^'\n]*)'")


def _fast_toml(text: str) -> dict[str, object]:
    """The PHH subset one line at a time: `key = value` per line, as every file but a few
    hand-written ones is; anything else (a multi-line list, a comment after a value) goes to the
    regular-expression reader, which hands what it does not handle to tomllib."""
    if "\\" in text or "'''" in text or '"""' in text:
        raise _Unusual
    doc: dict[str, object] = {}
    for line in text.split("\n"):
        key, eq, value = line.partition("=")
        if not eq:
            if line.strip()[:1] not in ("", "#"):  # a table, a value over several lines
                return _regex_toml(text)
            continue
        key = key.strip()
        if key not in _WANTED:
            if key[:1] in ("[", "'", '"') or "." in key:  # a table or a quoted or dotted key
                return _regex_toml(text)
            continue
        value = value.strip()
        if key in doc or "#" in value or '"' in value:
            return _regex_toml(text)
        if key == "actions":
            if value[:1] != "[" or value[-1:] != "]":
                return _regex_toml(text)
            doc[key] = _Strings(_QUOTED.findall(value))
        elif key == "variant":
            strings = _QUOTED.findall(value)
            doc[key] = strings if value[:1] == "[" else strings[0] if strings else None
        elif value[:1] == "[":
            if not _NUMBER_LIST.fullmatch(value):
                return _regex_toml(text)
            numbers = _NUMBER.findall(value)
            doc[key] = _Numbers([n.replace("_", "") for n in numbers] if "_" in value else numbers)
        elif _PLAIN.fullmatch(value.replace("_", "")):
            doc[key] = value.replace("_", "")
        else:
            return _regex_toml(text)
    return doc


def _regex_toml(text: str) -> dict[str, object]:
    if _TABLE.search(text):
        raise _Unusual
    keys = [(m.group(1), m.start(), m.end()) for m in _KEY.finditer(text)]
    doc: dict[str, object] = {}
    for i, (key, _, vstart) in enumerate(keys):
        if key not in _WANTED:
            continue
        seg = text[vstart : keys[i + 1][1] if i + 1 < len(keys) else len(text)].strip()
        if key in ("actions", "variant"):
            strings = [a or b for a, b, comment in _STRINGS.findall(seg) if not comment]
            doc[key] = strings if seg.startswith("[") else strings[0] if strings else None
            continue
        if "#" in seg:
            seg = _COMMENT.sub("", seg).strip()
        numbers = _Numbers(n.replace("_", "") for n in _NUMBER.findall(seg))
        if seg.startswith("["):
            if not _NUMBER_LIST.fullmatch(seg):
                raise _Unusual  # strings, exponents, anything else: tomllib reads it, `_numbers` judges
            doc[key] = numbers
        elif len(numbers) == 1 and _PLAIN.fullmatch(seg.replace("_", "")):
            doc[key] = numbers[0]
        else:
            raise _Unusual
    return doc


# Lists of numbers as the reader of the common shape (`phh._common_loads`) reads them.
_PLAIN_LIST = re.compile(r"\[(?:-?[0-9]+(?:\.[0-9]+)?(?:, -?[0-9]+(?:\.[0-9]+)?)*)?\]")

_JSON_AT = make_scanner(JSONDecoder())  # type: ignore[arg-type]  # a JSON value at an index: (value, end), in C

def _plain_list(value: str | None) -> list[str] | tuple[int, ...] | None:
    """`[100, 2.5]` as ["100", "2.5"], whole numbers `[100, 200]` as (100, 200); None for anything else."""
    if value is None or value[:1] != "[" or value[-1:] != "]":
        return None
    inner = value[1:-1]
    if not inner:
        return []
    digits = inner.replace(", ", "")
    if digits.isdigit() and digits.isascii():  # whole numbers, most lists: no pattern to run
        try:  # JSON's scanner makes the ints in C, no text per number (the list ends at its only `]`)
            return tuple(_JSON_AT(value, 0)[0])
        except (StopIteration, ValueError):
            pass  # a leading zero or an empty item is not JSON: read as before
        items = inner.split(", ")
        return None if "" in items else items
    return inner.split(", ") if _PLAIN_LIST.fullmatch(value) else None


# The lists of zeros (no antes, most hands) to their ints: a fixed table, no ints to make (#35)
_ZEROS = {f"[{', '.join(['0'] * n)}]": (0,) * n for n in range(1, 24)}


def _whole_lists(values: tuple[str, ...]) -> list[tuple[int, ...]] | None:
    """Lists of whole numbers, `[100, 200]` each, as `_plain_list` reads each of them, in one pass of
    JSON's scanner (a hand's three or four lists); None when any is something else (each read alone).
    The second (a hand's antes) when all zeros is looked up whole."""
    if len(values) > 1 and (zeros := _ZEROS.get(values[1])) is not None:
        rest = _whole_lists((values[0], *values[2:]))
        if rest is not None:
            rest.insert(1, zeros)
        return rest
    joined = "\n".join(values)  # a value is one line: each newline is a joint, `]` before it, `[` after
    k = len(values)
    if joined[:1] != "[" or joined[-1:] != "]" or joined.count("]\n[") != k - 1 or "[]" in joined:
        return None
    digits = joined.replace(", ", "").replace("]\n[", "")  # "[" and the numbers' digits, "]"
    if not digits.isascii() or not digits[1:-1].encode().isdigit():
        return None
    try:  # a leading zero is not JSON: each list is read alone then, as before
        return list(map(tuple, _JSON_AT(f"[{joined.replace(chr(10), ', ')}]", 0)[0]))
    except (StopIteration, ValueError):
        return None
