"""Which tables' retained states are due: each table's latest state once per short window.

A table's retained states (public and TD) are replaced by the next ones, so publishing one per
event sends states nobody can read any more. The hub marks a table when its view changes and
publishes that table's states once its window has passed (the view as it is then: the latest), or at
once on a hand's end, a reconnect and shutdown (`HubService`). Pure: the caller gives the time.
"""

from __future__ import annotations


class Coalescer:
    """Tables whose states are due, each at most once per `window` seconds after its first change."""

    def __init__(self, window: float) -> None:
        if window < 0:
            raise ValueError(f"state window {window}: must be 0 (publish at once) or more seconds")
        self.window = window
        # table -> when due; the window is the same for all and the times only grow, so insertion
        # order is due order: the front of the dict is the next one due (no heap, no scan)
        self._due: dict[str, float] = {}

    def mark(self, table: str, now: float) -> None:
        """The table's view changed; a later change in the same window keeps the first due time."""
        self._due.setdefault(table, now + self.window)

    def due(self, now: float) -> list[str]:
        """The tables whose window has passed, oldest first; they are no longer pending."""
        out: list[str] = []
        for table, at in self._due.items():
            if at > now:
                break
            out.append(table)
        for table in out:
            del self._due[table]
        return out

    def take(self, table: str) -> bool:
        """Publish this one now (a hand's end): True if it was pending."""
        return self._due.pop(table, None) is not None

    def take_all(self) -> list[str]:
        """Every pending table (shutdown, reconnect)."""
        out = list(self._due)
        self._due.clear()
        return out

    def next_due(self) -> float | None:
        return next(iter(self._due.values()), None)

    def __len__(self) -> int:
        return len(self._due)
