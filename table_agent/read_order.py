"""Read order: the dealing monitor judged in the order cards were read, with the benefit of the doubt.

A reader sees the felt one scan at a time (~0.3 s on a dealt 14-antenna board: the agent takes the
period from the board's heartbeats, `table_agent/scan_pace.py`), antenna after antenna, and misses a
card now and then for one scan: a card put down on an antenna the scan has just passed is read a scan
later, after a card dealt after it on an antenna further on, and a card whose first read was missed is
read a scan after the card dealt after it. Below that resolution the read
order is not the dealing order, and a croupier who pitches fast would be told "seat skipped" or
"flop without burn" (joueur oublié, flop sans brûlée) for a card the reader only saw late.

So when a card (or a press: the first action ends the deal, and the last hole card may be read just
after it) reveals a fault that depends on order, the table holds it, its faults and what follows for
`window` seconds (1.5 scan periods in the agent, following the board's pace). If a card read within the window,
judged before the doubtful one, gives fewer faults, the hand is judged again in that order and the
fault is dropped; otherwise everything held goes out as first judged once the window has passed.
Nothing is published out of its judged order meanwhile, so the hub still learns of a board fault
before the card that revealed it. Only order faults wait; every other fault goes out at once.

A serial board says where its scan is (its antennas' reads come in order, `Presence.swept_before`), so
with `by_scans` the doubt ends as soon as every antenna has been read once more since the doubtful
card's read (or the first read after the press): a card dealt before it has been read by then (put
down on an antenna the scan had just passed, or missed once before it), and waiting on adds nothing
but time. The window then only bounds a doubt on a board that stops reading (`FALLBACK`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from table_agent.dealing import DealingError, DealingMonitor, FaultDetected, FaultKind, HandContext
from table_agent.events import ZoneEvent

ORDER_FAULTS = frozenset({FaultKind.WRONG_DEAL_ORDER, FaultKind.SEAT_SKIPPED, FaultKind.FLOP_WITHOUT_BURN,
                          FaultKind.TURN_WITHOUT_BURN, FaultKind.RIVER_WITHOUT_BURN,
                          FaultKind.MISSING_HOLE_CARD})  # the last card may be read after the first press
LOG_MAX = 2000  # monitor inputs kept per hand to judge again; past it, no more benefit of the doubt
FALLBACK = 3.0  # by_scans: a doubt outlives this many windows (at least a second) only on a silent board

Item = FaultDetected | ZoneEvent  # what to publish, in order: a fault, or a card event


@dataclass(slots=True)
class _Entry:
    """One input given to the monitor and what it answered."""

    call: str  # the monitor's method
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    faults: list[FaultDetected]
    event: ZoneEvent | None = None  # the card event, for `observe`
    published: bool = False  # the card event already went out (read before the hand context came)

    def items(self) -> list[Item]:
        if self.event is None or self.published:
            return list(self.faults)
        return [*self.faults, self.event]

    @property
    def at(self) -> float | None:
        """When it happened, for a card or a press: what can be out of order with a card read."""
        return self.event.at if self.event is not None else self.kwargs.get("at")

    @property
    def doubtful(self) -> bool:
        return self.at is not None and any(f.kind in ORDER_FAULTS for f in self.faults)


class ReadOrder:
    """`DealingMonitor` behind a log of its inputs; every method returns the items to publish now."""

    def __init__(self, *, table: str, window: float = 0.0, by_scans: bool = False) -> None:
        """`window`: seconds within which two reads may be out of dealing order (0: judge as read).
        `by_scans`: the doubt ends when `swept` says the board has read every antenna again."""
        self.monitor = DealingMonitor(table=table)
        self.window = window
        self.by_scans = by_scans
        self._swept = float("-inf")  # every antenna read again since any read before this time
        self.reconsidered = 0  # order faults dropped after judging again (agent stats)
        self._ctx: HandContext | None = None
        self._log: list[_Entry] = []
        self._held_from: int | None = None  # first held entry
        self._deadline = 0.0

    @property
    def holding(self) -> bool:
        return self._held_from is not None

    def start_hand(self, ctx: HandContext) -> list[Item]:
        out = self.flush()
        self._ctx, self._log = ctx, []
        self.monitor.start_hand(ctx)
        return out

    def end_hand(self) -> list[Item]:
        out = self.flush()
        self.monitor.end_hand()
        self._ctx, self._log = None, []
        return out

    def call(self, name: str, *args: Any, **kwargs: Any) -> list[Item]:
        """Any other input (betting, actions, remedies, seats away): passed on and logged."""
        try:
            faults = getattr(self.monitor, name)(*args, **kwargs)
        except DealingError:
            if self._logging:
                self._log.append(_Entry(name, args, kwargs, []))  # refused before any change: replayed so
            raise
        return self._record(_Entry(name, args, kwargs, list(faults or [])))

    def observe(self, event: ZoneEvent, *, published: bool = False) -> list[Item]:
        out = self.tick(event.at)
        holding = self._held_from is not None
        out += self._record(_Entry("observe", (event,), {}, self.monitor.observe(event), event, published))
        if holding and self._held_from is not None:  # still in doubt: this card may explain it
            self._judge_before_doubt()
            out += self._settle()
        return out

    def tick(self, now: float) -> list[Item]:
        """Release what is held once the window has passed."""
        if self._held_from is not None and now > self._deadline:
            return self.flush()
        return []

    def swept(self, before: float | None) -> list[Item]:
        """The board has read every antenna again since any read before `before` (by_scans): a doubt
        about a card read, or a press made, before it is over, judged as it stands."""
        if before is None or not self.by_scans or before <= self._swept:
            return []
        self._swept = before
        out: list[Item] = []
        while self._held_from is not None and _at(self._log[self._held_from]) < before:
            out += self._release_held()
        return out

    def _release_held(self) -> list[Item]:
        """The held doubt is over: it and what followed it go out, up to the next doubtful entry."""
        assert self._held_from is not None
        start = self._held_from
        nxt = next((i for i in range(start + 1, len(self._log)) if self._log[i].doubtful), None)
        if nxt is None:
            return self.flush()
        self._held_from, self._deadline = nxt, self._until(self._log[nxt])
        return [item for entry in self._log[start:nxt] for item in entry.items()]

    def _until(self, entry: _Entry) -> float:
        """When a doubt ends on the clock: the window, or by_scans only for a board that stopped."""
        if self.by_scans:
            return _at(entry) + max(FALLBACK * self.window, 1.0)
        return _at(entry) + self.window

    def flush(self) -> list[Item]:
        if self._held_from is None:
            return []
        held, self._held_from = self._log[self._held_from:], None
        return [item for entry in held for item in entry.items()]

    # --- the doubt ---------------------------------------------------------------------------

    @property
    def _logging(self) -> bool:
        """In a hand, with a doubt to give, and not too long a hand to judge again."""
        return self._ctx is not None and self.window > 0 and len(self._log) < LOG_MAX

    def _record(self, entry: _Entry) -> list[Item]:
        if not self._logging:
            return self.flush() + entry.items()
        self._log.append(entry)
        if self._held_from is not None:
            return []
        if entry.doubtful:
            self._held_from, self._deadline = len(self._log) - 1, self._until(entry)
            return []
        return entry.items()

    def _judge_before_doubt(self) -> None:
        """The card just read, judged before the doubtful card or press: kept if it gives fewer faults."""
        assert self._held_from is not None and self._ctx is not None
        first, last = self._held_from, self._log[-1]
        if last.event is None or last.event.at > self._deadline:
            return
        order = self._log[:first] + [last] + self._log[first:-1]
        monitor = DealingMonitor(table=self.monitor.table)
        monitor.start_hand(self._ctx)
        judged = [_Entry(e.call, e.args, e.kwargs, _replay(monitor, e), e.event, e.published) for e in order]
        if _faults(judged[first:]) < _faults(self._log[first:]):
            self.reconsidered += _order_faults(self._log[first:]) - _order_faults(judged[first:])
            self.monitor, self._log = monitor, judged

    def _settle(self) -> list[Item]:
        """Release what no longer waits on a doubt; the next doubtful card, if any, holds the rest."""
        assert self._held_from is not None
        start = self._held_from
        nxt = next((i for i in range(start, len(self._log)) if self._log[i].doubtful), None)
        if nxt is None:
            return self.flush()
        if nxt == start:
            return []
        self._held_from, self._deadline = nxt, self._until(self._log[nxt])
        return [item for entry in self._log[start:nxt] for item in entry.items()]


def _at(entry: _Entry) -> float:
    at = entry.at
    assert at is not None
    return at


def _replay(monitor: DealingMonitor, entry: _Entry) -> list[FaultDetected]:
    try:
        return list(getattr(monitor, entry.call)(*entry.args, **entry.kwargs) or [])
    except DealingError:
        return []


def _faults(entries: list[_Entry]) -> int:
    return sum(len(e.faults) for e in entries)


def _order_faults(entries: list[_Entry]) -> int:
    return sum(f.kind in ORDER_FAULTS for e in entries for f in e.faults)
