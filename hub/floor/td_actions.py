"""The TD's actions as the desk lists them, and which can still be undone (hub, floor: the undo log).

Every TD action that opens an undoable change is stored as its first and last record's positions under
`UNDO_KEY`; `td_actions` reads them back, newest first, each with the floor's words when it cannot be
undone any more. Reads the event store, writes nothing.
"""

from __future__ import annotations

from hub.floor.command_words import in_french
from hub.floor.store import JSON, EventStore
from hub.tournament.errors import TournamentError
from hub.tournament.events import Event, MoveAsked, MoveLapsed, MoveOrdered
from hub.tournament.tournament import Tournament
from hub.tournament.undo import undone, verify_undo

UNDO_KEY = "floor/undo/"  # + position of a TD action's first record -> its last one's


def td_actions(t: Tournament, store: EventStore, limit: int = 40) -> list[dict[str, JSON]]:
    """The TD's latest actions, newest first: each one's first record, when, and whether it can still be
    undone (`undo` gives its position; `why_not` the floor's words when it cannot)."""
    events = t.events
    gone = undone(events)
    out: list[dict[str, JSON]] = []
    firsts = sorted((int(k[len(UNDO_KEY):]) for k in store.config_keys(UNDO_KEY)), reverse=True)
    for first in firsts[:limit]:
        last = store.get_config(f"{UNDO_KEY}{first}")
        if not isinstance(last, int) or not 0 < first < len(events):
            continue
        why_not: str | None = None
        if first in gone:
            why_not = "déjà annulée / already undone"
        else:
            try:
                verify_undo(events, first, last)
            except TournamentError as err:
                why_not = str(err)
        entry: dict[str, JSON] = {"position": first, "event": events[first].to_dict(), "undoable": why_not is None,
                                  "why_not": why_not}
        if isinstance(events[first], MoveAsked):  # made at its hand's end, or lapsed: why
            entry["lapsed"] = lapsed(events, first)
        out.append(entry)
    return out


def lapsed(events: list[Event], position: int) -> str | None:
    """Why the move the TD asked at `position` (during a hand) was not made at its end; None: made, or not
    yet (its hand goes on)."""
    asked = events[position]
    assert isinstance(asked, MoveAsked)
    for e in events[position + 1:]:
        if isinstance(e, MoveLapsed) and e.player == asked.player:
            return f"{in_french(e.why)} / {e.why}"
        if isinstance(e, MoveOrdered) and e.player == asked.player:
            return None
    return None
