"""The floor policy a tournament plays under, looked up by its rulebook (hub, tournament floor).

Consumes a rulebook's id and the texts a tournament stored (`TournamentCreated.rulebook`); gives the frozen
`FloorPolicy` (`hub.tournament.rulesets`) that `hub.rulebooks` read from the files. The look-up sits above
the rulebooks, the types below them: the imports run one way (`tests/test_boundaries.py`).
"""

from __future__ import annotations

from hub import rulebooks
from hub.tournament.errors import TournamentError
from hub.tournament.rulesets import FloorPolicy, RulesetId


def floor_policy(ruleset: str, stored: tuple[str, ...] = ()) -> FloorPolicy:
    """A seed's floor by its id; a club's from the texts its tournament stored (`rulebooks.stored`),
    read again and made known to the tables' engines. A `TournamentError` in one line otherwise."""
    if not stored and ruleset not in tuple(RulesetId):
        raise TournamentError(f"unknown ruleset {ruleset!r}")
    try:
        book = rulebooks.from_stored(stored) if stored else rulebooks.get(ruleset)
    except ValueError as err:  # a RulebookError: the stored text no longer reads (a newer tapis)
        raise TournamentError(rulebooks.one_line(err)) from err
    if book.id != ruleset:
        raise TournamentError(f"le règlement conservé est « {book.id} », pas « {ruleset} » / "
                              f"the stored rulebook is {book.id!r}, not {ruleset!r}")
    if book.floor is None:  # every seed has its [tournament] section, every club inherits one
        raise TournamentError(f"{ruleset} : pas de section [tournament] / {ruleset}: no [tournament] section")
    return book.floor
