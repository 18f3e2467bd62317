"""The known rulesets by id, the betting engine's look-up (`get_ruleset`, `RULESETS`): the seeds' and clubs'
rulebooks (`hub.rulebooks`), each giving its frozen `Ruleset` (`hub.rules.ruleset`, re-exported here).

The types sit below the rulebooks, this look-up above them: `hub.rulebooks` builds `Ruleset`s from the
files and imports `hub.rules.ruleset` only, so the imports run one way (`tests/test_boundaries.py`). The
books (pydantic, the rulings' and the floor's types they hold) are imported at the first look-up, not
with the engine.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import ModuleType
from typing import Protocol

from hub.rules.records import UnknownRuleset
from hub.rules.ruleset import (
    MinRaiseRule,
    OddChips,
    ReopenRule,
    Ruleset,
    ShowdownOrder,
    SimultaneousRule,
    SkippedRule,
    TimeCaller,
)

__all__ = ["DEFAULT_RULESET", "RULESETS", "MinRaiseRule", "OddChips", "ReopenRule", "Ruleset", "ShowdownOrder",
           "SimultaneousRule", "SkippedRule", "TimeCaller", "get_ruleset"]


class _HasRuleset(Protocol):
    """A rulebook, as this module reads it (`hub.rulebooks.Rulebook`, imported at the first look-up)."""

    @property
    def ruleset(self) -> Ruleset: ...


class _Rulesets(Mapping[str, Ruleset]):
    """The known rulebooks' `Ruleset`s, read from their files (hub/rulebooks), clubs' ones included."""

    def __getitem__(self, key: str) -> Ruleset:
        from hub import rulebooks

        return rulebooks.BookView()[key].ruleset

    def __iter__(self) -> Iterator[str]:
        from hub import rulebooks

        return iter(rulebooks.BookView())

    def __len__(self) -> int:
        from hub import rulebooks

        return len(rulebooks.BookView())


RULESETS: Mapping[str, Ruleset] = _Rulesets()
_rulebooks: list[ModuleType] = []  # `hub.rulebooks`, imported at the first look-up (it sits above the engine)
DEFAULT_RULESET = "cdc-2013"


def get_ruleset(ruleset_id: str = DEFAULT_RULESET) -> Ruleset:
    if not _rulebooks:  # `hub.rulebooks` imported here, once
        from hub import rulebooks

        _rulebooks.append(rulebooks)
    # Every hand's ruleset: a known book is looked up in the rulebooks' table itself, no chain of calls (#35);
    # `known_books()` (which reads the seeds in first) only when it is not there yet.
    books = _rulebooks[0]
    book: _HasRuleset | None = books._BOOKS.get(ruleset_id)
    if book is None:
        book = books.known_books().get(ruleset_id)
    if book is None:
        known = ", ".join(RULESETS)
        raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (known: {known})")
    return book.ruleset
