"""Hand watch: the dealing monitor kept in step with the hub's commands, on the agent's thread.

Consumes the hub's commands (`tablewire.wire` hand context, betting state, rulings, hand over), zone
events and panel presses; feeds `table_agent.dealing.DealingMonitor` (through `ReadOrder`, which
gives the benefit of the doubt when two cards are read closer than the reader can order them) and
returns what to publish, in order: faults and card events. Cards that land between "new hand" and
the hub's context go out at once and are judged once the context arrives, in their order. Also keeps
what the seat LEDs show: whose turn, the Time countdown, seats at fault.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from table_agent.dealing import (
    Deadline,
    DealingError,
    DealingMonitor,
    Decision,
    FaultDetected,
    HandContext,
    Street,
)
from table_agent.events import CardArrived, Zone, ZoneEvent
from table_agent.read_order import Item, ReadOrder
from tablewire import wire

log = logging.getLogger(__name__)

_REMEDIES = frozenset(r.value for r in Decision)
_STREETS = {s.value: s for s in Street}
HELD_MAX = 400  # zone events kept while waiting for a context (a hub away for a whole hand)


@dataclass
class SeatLights:
    """What the LEDs must show, derived from the hub's latest commands."""

    to_act: int | None = None
    to_call: int = 0
    opened: bool = False
    time_seat: int | None = None
    time_left: float | None = None  # seconds left when the hub sent it
    at_fault: set[int] = field(default_factory=set)
    td_wait: bool = False  # play stopped until the TD decides (nobody speaks, the dealer deals nothing)


class HandWatch:
    def __init__(self, *, table: str, order_window: float = 0.0, by_scans: bool = False) -> None:
        """`order_window`: seconds within which two reads may be out of dealing order (`ReadOrder`);
        `by_scans`: the doubt ends once the board has read every antenna again (`swept`)."""
        self.judge = ReadOrder(table=table, window=order_window, by_scans=by_scans)
        self.hand: int | None = None
        self.context: wire.HandContextCmd | None = None
        self.betting: wire.BettingCmd | None = None  # the hub's last word on the betting
        self.result: str | None = None  # how the hand ended (hand over)
        self.rulings: list[wire.RulingCmd] = []  # this hand's rulings, in order (what the dealer carries out)
        self.lights = SeatLights()
        self._waiting = False  # "new hand" pressed, context not yet received
        self._held: deque[ZoneEvent] = deque(maxlen=HELD_MAX)
        self._opened: set[Street] = set()
        self._closed: set[Street] = set()
        self.unread: set[Zone] = set()  # zones whose reader is down: told to every hand's monitor

    @property
    def monitor(self) -> DealingMonitor:
        return self.judge.monitor

    @property
    def holding(self) -> bool:
        """Cards held while their read order is in doubt (`tick` releases them)."""
        return self.judge.holding

    def tick(self, now: float) -> list[Item]:
        return self.judge.tick(now)

    def swept(self, before: float | None) -> list[Item]:
        """The board has read every antenna again since any read before `before` (`ReadOrder.swept`)."""
        return self.judge.swept(before)

    def new_hand_pressed(self) -> list[Item]:
        out = self.judge.end_hand()
        self.hand, self.context, self.betting, self.result = None, None, None, None
        self.rulings = []
        self._waiting = True
        self._held.clear()
        self.lights = SeatLights()
        return out

    def zone_event(self, event: ZoneEvent) -> list[Item]:
        """The faults this card reveals, then the card itself (or nothing yet: held in doubt)."""
        if self._waiting:
            self._held.append(event)
            return [event]
        return self.judge.observe(event)

    def zone_unread(self, zone: Zone, unread: bool) -> list[Item]:
        """A zone's reader went down (its cards are unknown, not gone) or reads again."""
        if unread:
            self.unread.add(zone)
        else:
            self.unread.discard(zone)
        if self._waiting:
            return []  # told to the hand's monitor when its context comes (`_start`)
        return self.judge.call("zone_unread", zone, unread)

    def action(self, seat: int, action: str, at: float) -> list[Item]:
        # Out of turn is the engine's to rule (it knows pending actions): the monitor only learns
        # that the deal is over and who folded.
        return self.judge.call("action_seen", seat, None, action=action, at=at)

    def away(self, seat: int) -> list[Item]:
        return self.judge.call("seat_away", seat)

    def back(self, seat: int) -> list[Item]:
        return self.judge.call("seat_back", seat)

    def command(self, cmd: wire.AnyCommand) -> list[Item]:
        if isinstance(cmd, wire.HandContextCmd):
            return self._start(cmd)
        if cmd.hand != self.hand:
            return []  # about a hand this table is no longer dealing
        if isinstance(cmd, wire.BettingCmd):
            return self._betting(cmd)
        if isinstance(cmd, wire.RulingCmd):
            self.rulings = [*self.rulings, cmd]  # a new list: the croupier's thread reads it
            out: list[Item] = []
            if cmd.decision in _REMEDIES:
                try:
                    out = self.judge.call("expect_remedy", cmd.decision, cards=cmd.cards, seat=cmd.seat,
                                          dead_seats=cmd.dead_seats)
                except DealingError as err:
                    log.warning("hand %s: ruling %s not understood: %s", cmd.hand, cmd.decision, err)
            self.lights.at_fault |= {s for s in [cmd.seat, *cmd.dead_seats] if s is not None}
            return out
        out = self.judge.end_hand()
        self.lights = SeatLights()
        self.result = cmd.result
        return out

    def _start(self, cmd: wire.HandContextCmd) -> list[Item]:
        ctx = HandContext(
            hand=cmd.hand, seats=tuple(cmd.seats), button=cmd.button, first_to_deal=cmd.first_to_deal,
            hole_cards=cmd.hole_cards, discards=cmd.discards, excluded_ranks=frozenset(cmd.excluded_ranks),
            deck=cmd.deck, table_decks=frozenset(cmd.table_decks),
            away=frozenset(cmd.away), table_seats=cmd.table_seats, deadline=Deadline(cmd.deadline),
            small_blind=cmd.small_blind, dealer=cmd.dealer)
        self.hand, self.context, self.betting, self.result = cmd.hand, cmd, None, None
        self.rulings = []
        self._opened, self._closed = set(), set()
        self.lights = SeatLights()
        out = self.judge.start_hand(ctx)
        for zone in sorted(self.unread, key=str):
            out += self.judge.call("zone_unread", zone, True)
        self._waiting = False
        held, self._held = list(self._held), deque(maxlen=HELD_MAX)
        for event in held:
            out += self.judge.observe(event, published=True)
        return out

    def _betting(self, cmd: wire.BettingCmd) -> list[Item]:
        self.betting = cmd
        out: list[Item] = []
        for name in cmd.closed:
            street = _STREETS.get(name)
            if street is not None and street not in self._closed:
                self._closed.add(street)
                out += self.judge.call("betting_closed", street)
        street = _STREETS.get(cmd.street)
        if cmd.open and street is not None and street not in self._opened:
            self._opened.add(street)
            out += self.judge.call("betting_opened", street)
        out += self.judge.call("set_to_act", cmd.to_act)
        self.lights.to_act, self.lights.to_call, self.lights.opened = cmd.to_act, cmd.to_call, cmd.opened
        self.lights.time_seat, self.lights.time_left = cmd.time_seat, cmd.time_left
        self.lights.td_wait = cmd.td_wait
        return out


def wire_event(item: Item, head: dict[str, Any]) -> wire.FaultSeen | wire.CardEvent:
    """A fault or a card event as the table publishes it; `head` gives table, boot, seq and `at`."""
    if isinstance(item, FaultDetected):
        return wire.FaultSeen(**head, hand=item.hand, kind=item.kind, seat=item.seat, cards=list(item.cards),
                              details=fault_details(item.details))
    return wire.CardEvent(**head, type="card_arrived" if isinstance(item, CardArrived) else "card_left",
                          zone=str(item.zone), uid=item.tag.uid, card=item.tag.card, deck=item.tag.deck,
                          order=item.order)


def fault_details(details: Mapping[str, object]) -> dict[str, wire.Detail]:
    """The monitor's details as JSON values for the wire (enums as their value, tuples as lists)."""
    out: dict[str, wire.Detail] = {}
    for key, value in details.items():
        if isinstance(value, bool | int | float | str) or value is None:
            out[key] = value
        elif isinstance(value, tuple | list | set | frozenset):
            items = list(value)
            if all(isinstance(i, int) and not isinstance(i, bool) for i in items):
                out[key] = [int(i) for i in items]
            else:
                out[key] = [str(i) for i in items]
        else:
            out[key] = str(value)
    return out
