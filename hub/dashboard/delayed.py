"""The delayed stream's delay line: the TD's messages (hole cards included) in, released late out.

Consumes each dashboard message with the time it happened and the hand whose end it must wait for
(`waits_for`); emits them, in order per table, no earlier than `time + delay` and never before that
hand has ended at that table, so a card of a hand in play never leaves, whatever the delay. Bounded:
past `max_events` or `max_bytes` the oldest held messages are dropped and counted. Pure: no IO, no
clock, no threads (the caller passes `now` and locks).
"""

from __future__ import annotations

import math
from collections import OrderedDict, deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hub.dashboard.model import viewer_event
from hub.room.tables import face_down

MIN_DELAY_MINUTES = 5.0  # less and a player who walks away from the table could still use what he sees
MAX_DELAY_MINUTES = 24 * 60.0
MAX_EVENTS = 200_000  # held messages; a club's night at 30 min is a few tens of thousands
MAX_BYTES = 128 * 1024 * 1024
ROOM = ""  # the queue of messages of no table (the clock)


def parse_delay(text: str) -> float:
    """`--stream-delay MINUTES` -> seconds; a bad value is a `ValueError` in one line, both languages."""
    try:
        minutes = float(text.replace(",", "."))
    except ValueError:
        minutes = math.nan
    if not math.isfinite(minutes) or not MIN_DELAY_MINUTES <= minutes <= MAX_DELAY_MINUTES:
        raise ValueError(f"--stream-delay {text[:20]!r} : un nombre de minutes de {MIN_DELAY_MINUTES:g} à "
                         f"{MAX_DELAY_MINUTES:g} / a number of minutes from {MIN_DELAY_MINUTES:g} to "
                         f"{MAX_DELAY_MINUTES:g}")
    return minutes * 60.0


def delay_words(seconds: float) -> dict[str, str]:
    """"différé de 30 min" / "30-min delay", as the stream page says it."""
    minutes = round(seconds / 60.0)
    if minutes >= 60 and minutes % 60 == 0:
        return {"fr": f"différé de {minutes // 60} h", "en": f"{minutes // 60}-hour delay"}
    return {"fr": f"différé de {minutes} min", "en": f"{minutes}-min delay"}


def shows_a_hidden_card(event: Mapping[str, Any], snapshot: Mapping[str, Any] | None) -> bool:
    """Whether a viewer would be refused something here: a face-down card's face (`hub.room.tables.face_down`)
    in the event or in the table's snapshot, or cards a fault names (the viewer filter's own rules)."""
    if viewer_event(event) != dict(event):
        return True
    if snapshot is None:
        return False
    if any(seat.get("hole") for seat in snapshot.get("seats", [])):
        return True
    return any(face_down(str(zone)) and isinstance(cards, list) and any(c != "?" for c in cards)
               for zone, cards in dict(snapshot.get("zones", {})).items())


def _hand(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class HandGate:
    """Which hand each message of a table waits for (None: only the delay). Remembers, per table, a card
    put face down between two hands: until the next hand starts, what shows it waits for that hand.

    A message waits for the hand it names (its `hand`) and for the hand in play in its snapshot (the
    snapshot may be taken after the hub's whole batch: a hand just started over the old one). Between
    hands, a face-down card that arrives is the next hand's (dealt before the hand was started), and so
    is anything that shows it; the cards of the hand just over, still on the felt, are that hand's."""

    def __init__(self) -> None:
        self._early: set[str] = set()

    def waits_for(self, event: Mapping[str, Any], snapshot: Mapping[str, Any] | None) -> int | None:
        table = str(event.get("table", ""))
        named = _hand(event.get("hand"))
        shown = _hand(snapshot.get("hand")) if snapshot is not None else None
        in_play = shown if snapshot is not None and snapshot.get("hand_open") else None
        waits = [h for h in (named, in_play) if h is not None]
        if in_play is not None:
            self._early.discard(table)  # the early cards are the hand's now, and wait for it as such
        elif shows_a_hidden_card(event, snapshot):
            arrival = (event.get("type") == "card" and event.get("action") == "arrived"
                       and face_down(str(event.get("zone", ""))))
            if arrival or table in self._early:
                self._early.add(table)
                waits.append((shown if shown is not None else named or 0) + 1)
        return max(waits) if waits else None


def ends(event: Mapping[str, Any], snapshot: Mapping[str, Any] | None) -> int | None:
    """The last hand this message says is over at its table (None: it says nothing of it)."""
    if snapshot is not None and snapshot.get("closed") and isinstance(snapshot.get("hand"), int):
        return int(snapshot["hand"]) + 1  # broken up: its last hand is over, and no next one comes
    done = None
    if event.get("type") == "hand_end" and isinstance(event.get("hand"), int):
        done = int(event["hand"])
    if snapshot is not None and isinstance(snapshot.get("hand"), int):
        hand = int(snapshot["hand"])
        over = hand - 1 if snapshot.get("hand_open") else hand
        done = over if done is None else max(done, over)
    return done


def restarted(event: Mapping[str, Any]) -> bool:
    """A hand ended by starting the next one over it: the cards already on the felt may be the new hand's."""
    return event.get("type") == "hand_end" and str(event.get("why", "")).replace("_", " ").startswith("new hand")


@dataclass(slots=True)
class Held:
    at: float
    hand: int | None
    secret: bool
    message: bytes


class DelayLine:
    """`offer(now, table, message, hand=..., ended=...)`, then `due(now)` gives what may be shown.

    One queue per table (a long hand at one table holds back only that table); each releases from its
    head, so a table's messages keep their order. `dropped` counts what the bounds threw away."""

    def __init__(self, delay: float, *, max_events: int = MAX_EVENTS, max_bytes: int = MAX_BYTES) -> None:
        if delay < 0:
            raise ValueError(f"delay {delay}: not negative")
        self.delay, self.max_events, self.max_bytes = delay, max_events, max_bytes
        self._queues: OrderedDict[str, deque[Held]] = OrderedDict()
        self._ended: dict[str, int] = {}  # table -> the last hand known over
        self.held = 0
        self.held_bytes = 0
        self.dropped = 0
        self.dropped_bytes = 0
        self._order = 0
        self._arrival: deque[tuple[str, int]] = deque()  # (table, order) of each held message: oldest first
        self._orders: dict[str, deque[int]] = {}

    def offer(self, now: float, table: str, message: bytes, *, hand: int | None = None, ended: int | None = None,
              secret: bool = False, restart: bool = False) -> None:
        """A message that happened at `now`; `hand`: the hand it waits for; `ended`: the last hand it says
        is over; `restart`: that end started a new hand over the old (its held secrets wait one more)."""
        if restart and ended is not None:
            for held in self._queues.get(table, ()):
                if held.secret and held.hand == ended:
                    held.hand = ended + 1
        if ended is not None:
            before = self._ended.get(table)
            if before is not None and ended < before:
                # the table's hands are counted afresh (a new tournament on this hub): what it holds belongs
                # to hands nobody plays any more, and would otherwise wait for ever at the head of its queue
                for held in self._queues.get(table, ()):
                    held.hand = None
            self._ended[table] = ended  # the table's latest word: numbers that start again are gated again
        self._queues.setdefault(table, deque()).append(Held(now, hand, secret, message))
        self._order += 1
        self._orders.setdefault(table, deque()).append(self._order)
        self._arrival.append((table, self._order))
        self.held += 1
        self.held_bytes += len(message)
        while self.held > self.max_events or self.held_bytes > self.max_bytes:
            self._drop_oldest()

    def _drop_oldest(self) -> None:
        while self._arrival:
            table, order = self._arrival.popleft()
            orders = self._orders.get(table)
            if orders and orders[0] == order:  # still held (not released meanwhile)
                orders.popleft()
                held = self._queues[table].popleft()
                self.held -= 1
                self.held_bytes -= len(held.message)
                self.dropped += 1
                self.dropped_bytes += len(held.message)
                return

    def due(self, now: float) -> list[tuple[str, bytes]]:
        """What may be shown now: (table, message), each table's in order, oldest table first."""
        out: list[tuple[str, bytes]] = []
        for table, queue in self._queues.items():
            ended = self._ended.get(table, -1)
            orders = self._orders[table]
            while queue and queue[0].at + self.delay <= now and (queue[0].hand is None or queue[0].hand <= ended):
                held = queue.popleft()
                orders.popleft()
                self.held -= 1
                self.held_bytes -= len(held.message)
                out.append((table, held.message))
        while self._arrival and not self._still_held(*self._arrival[0]):
            self._arrival.popleft()  # released: forget its place in the age order
        if len(self._arrival) > 2 * self.held + 1024:  # a table held long while the others flowed
            self._arrival = deque(sorted(((t, o) for t, orders in self._orders.items() for o in orders),
                                         key=lambda item: item[1]))
        return out

    def _still_held(self, table: str, order: int) -> bool:
        orders = self._orders.get(table)
        return orders is not None and len(orders) > 0 and orders[0] <= order
