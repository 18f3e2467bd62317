"""A scripted table for the dealing monitor: turns "card X reaches zone Y" into zone events.

Used by tests and benchmarks (and usable by simulators) to drive `DealingMonitor` with realistic
card sequences without readers. Emits `CardArrived`/`CardLeft` with increasing `order` and `at`
(simulated time, `step` seconds per card); collects every `FaultDetected` the monitor returns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from table_agent.dealing import DealingMonitor
from table_agent.dealing_faults import HandContext, Street
from table_agent.events import BOARD, BURN, MUCK, TRAY, CardArrived, CardLeft, CardTag, Zone
from tablewire.faults import FaultDetected

RANKS = "23456789TJQKA"
SUITS = "shdc"
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)


def card_tag(spec: str, *, table: str = "t1") -> CardTag:
    """`As` (deck A), `As@B` (the table's deck B), `As@Z` (deck of another table), `tag:04A1B2`
    (in no deck), `As#2` (a second physical As of deck A: a duplicate)."""
    if spec.startswith("tag:"):
        return CardTag(uid=spec[4:].upper(), card=None, deck=None)
    face, _, copy = spec.partition("#")
    face, _, deck = face.partition("@")
    deck = deck or "A"
    owner = table if deck in ("A", "B") else f"other-{deck}"
    uid = f"{deck}{RANKS.index(face[0]):02d}{SUITS.index(face[1])}{copy or ''}".upper()
    return CardTag(uid=uid, card=face, deck=deck, table=owner)


class TableScript:
    """Moves cards between zones of one table and feeds the monitor; `faults` keeps what it said."""

    def __init__(self, monitor: DealingMonitor, *, table: str = "t1", start: float = 0.0,
                 step: float = 0.4) -> None:
        self.monitor = monitor
        self.table = table
        self.now = start
        self.step = step
        self.order = 0
        self.where: dict[str, Zone] = {}  # card spec -> zone it lies on
        self.faults: list[FaultDetected] = []

    def _note(self, out: list[FaultDetected]) -> list[FaultDetected]:
        self.faults += out
        return out

    def _emit(self, event: CardArrived | CardLeft) -> list[FaultDetected]:
        return self._note(self.monitor.observe(event))

    def arrive(self, zone: Zone, card: str) -> list[FaultDetected]:
        self.now += self.step
        self.order += 1
        self.where[card] = zone
        return self._emit(CardArrived(zone, card_tag(card, table=self.table), self.now, self.order))

    def leave(self, card: str) -> list[FaultDetected]:
        zone = self.where.pop(card)
        self.order += 1
        return self._emit(CardLeft(zone, card_tag(card, table=self.table), self.now, self.order))

    def move(self, card: str, zone: Zone) -> list[FaultDetected]:
        return self.leave(card) + self.arrive(zone, card)

    def hole(self, seat: int, card: str) -> list[FaultDetected]:
        return self.arrive(Zone.seat_zone(seat), card)

    def burn(self, card: str) -> list[FaultDetected]:
        return self.arrive(BURN, card)

    def board(self, *cards: str) -> list[FaultDetected]:
        return [f for c in cards for f in self.arrive(BOARD, c)]

    def tray(self, card: str) -> list[FaultDetected]:
        return self.arrive(TRAY, card)

    def muck(self, seat: int) -> list[FaultDetected]:
        held = [c for c, z in self.where.items() if z == Zone.seat_zone(seat)]
        return [f for c in held for f in self.move(c, MUCK)]

    def cards_at(self, zone: Zone) -> list[str]:
        return [c for c, z in self.where.items() if z == zone]

    def deal(self, ctx: HandContext, cards: Iterable[str]) -> list[FaultDetected]:
        """Deal hole cards the regular way: one per seat per round, clockwise from `first_to_deal`."""
        it = iter(cards)
        out: list[FaultDetected] = []
        for _ in range(ctx.hole_cards):
            for seat in ctx.deal_order:
                out += self.hole(seat, next(it))
        return out

    def act(self, seat: int, to_act: int | None, action: str = "call") -> list[FaultDetected]:
        self.now += 1.0
        out = self._note(self.monitor.action_seen(seat, to_act, action=action, at=self.now))
        if action == "fold":
            out += self.muck(seat)
        return out

    def round(self, street: Street, actions: Sequence[tuple[int, str]]) -> list[FaultDetected]:
        """A whole betting round where everyone acts in turn."""
        out = self._note(self.monitor.betting_opened(street))
        for seat, action in actions:
            self.monitor.set_to_act(seat)
            out += self.act(seat, seat, action)
        return out + self._note(self.monitor.betting_closed(street))

    def clear(self) -> None:
        """Every card leaves the felt (between hands)."""
        for card in list(self.where):
            self.leave(card)


def hand_started(**context: object) -> tuple[TableScript, HandContext]:
    """A fresh monitor of table t1 with one hand started from these `HandContext` fields, and its script."""
    ctx = HandContext(**context)  # type: ignore[arg-type]
    script = TableScript(DealingMonitor(table="t1"))
    script.monitor.start_hand(ctx)
    return script, ctx
