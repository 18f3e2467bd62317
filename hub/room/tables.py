"""The hub's view of one table, rebuilt from that table's event stream.

Consumes validated `tablewire.wire` table events in sequence order; emits hub events (plain dicts, the
shape `tapis demo --json` prints and the dashboard reads) and keeps where every card lies. Pure: the
service feeds it and publishes what it returns. Duplicates (same boot, seq already seen) are ignored;
an event after a gap waits until the agent's outbox resends what is missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tablewire import wire

HubEvent = dict[str, Any]


@dataclass
class TableView:
    table: str
    online: bool = False
    reader: str = "unknown"
    reader_detail: str = ""
    boot: str | None = None
    last_seq: int = 0
    hand: int = 0
    hand_open: bool = False
    hand_had_cards: bool = False
    zones: dict[str, dict[str, str]] = field(default_factory=dict)  # zone -> uid -> card ("?" unknown)
    duplicates: int = 0
    gaps: int = 0  # events that arrived after a gap and waited for it to fill
    resyncs: int = 0  # agent restarts: the card view started again from what it reports
    last_by_boot: dict[str, int] = field(default_factory=dict)  # boot -> last seq applied in order
    held: dict[str, dict[int, tuple[wire.AnyTableEvent, bytes]]] = field(default_factory=dict)
    hands_ended: int = 0
    updated_at: float = 0.0
    managed: bool = False  # a hub game runs this table's hands (players configured)

    def set_online(self, online: bool) -> list[HubEvent]:
        if online == self.online:
            return []
        self.online = online
        return [wire.hub_event(self.table, "table_status", online=online)]

    def admit(self, event: wire.AnyTableEvent, payload: bytes = b"") -> list[tuple[wire.AnyTableEvent, bytes]]:
        """The events now ready, in sequence order: a duplicate gives none, an event after a gap is
        held until the agent's outbox sends the missing ones (the hub never applies out of order)."""
        last = self.last_by_boot.get(event.boot, 0)
        held = self.held.setdefault(event.boot, {})
        if event.seq <= last or event.seq in held:
            self.duplicates += 1
            return []
        if event.seq > last + 1:
            held[event.seq] = (event, payload)
            self.gaps += 1
            return []
        if event.seq == 1 and event.boot not in self.last_by_boot and self.last_by_boot:
            # The agent restarted: it reports afresh every card it sees; what it does not is gone.
            self.zones.clear()
            self.resyncs += 1
        ready = [(event, payload)] + self._release(event.boot, event.seq)
        self.boot, self.last_seq = event.boot, self.last_by_boot[event.boot]
        self.updated_at = ready[-1][0].at
        return ready

    def resume_after(self, boot: str, seq: int) -> list[tuple[wire.AnyTableEvent, bytes]]:
        """The hub's retained acknowledgement, read back by a hub that starts afresh: the table's outbox
        forgot everything of `boot` up to `seq`, so waiting for it would stall the table for good.
        Start after it; returns the events that waited behind that gap, now ready."""
        if self.last_by_boot.get(boot, 0) >= seq:
            return []
        held = self.held.get(boot, {})
        for stale in [s for s in held if s <= seq]:
            del held[stale]
        ready = self._release(boot, seq)
        if self.boot in (None, boot):
            self.boot, self.last_seq = boot, self.last_by_boot[boot]
        return ready

    def _release(self, boot: str, last: int) -> list[tuple[wire.AnyTableEvent, bytes]]:
        """`boot` is applied up to `last`: what was held right behind it follows, in order."""
        held = self.held.setdefault(boot, {})
        ready = []
        while last + 1 in held:
            last += 1
            ready.append(held.pop(last))
        self.last_by_boot[boot] = last
        return ready

    def apply(self, event: wire.AnyTableEvent) -> list[HubEvent]:
        """The card view and reader state; hands too when no game runs the table."""
        if isinstance(event, wire.CardEvent):
            return self._card(event)
        if isinstance(event, wire.ReaderStatus):
            self.reader, self.reader_detail = event.state, event.detail
            return [wire.hub_event(self.table, "reader", state=event.state, detail=event.detail)]
        if self.managed:
            return []
        if isinstance(event, wire.DealerPressed) and event.button == "new_hand":
            return self._hand_started(self.hand + 1)
        return []

    def _hand_started(self, hand: int) -> list[HubEvent]:
        out = self._end_hand("new_hand") if self.hand_open else []
        self.hand, self.hand_open, self.hand_had_cards = hand, True, False
        return out + [wire.hub_event(self.table, "hand_start", hand=hand)]

    def _card(self, event: wire.CardEvent) -> list[HubEvent]:
        face = event.card or "?"
        if event.type == "card_arrived":
            self.zones.setdefault(event.zone, {})[event.uid] = face
            self.hand_had_cards = True
        else:
            cards = self.zones.get(event.zone, {})
            cards.pop(event.uid, None)
            if not cards:
                self.zones.pop(event.zone, None)
        out = [wire.hub_event(self.table, "card", hand=self.hand, zone=event.zone, card=event.card,
                              deck=event.deck, action="arrived" if event.type == "card_arrived" else "left",
                              order=event.order)]
        if not self.managed and self.hand_open and self.hand_had_cards and not self.zones:
            out += self._end_hand("felt_cleared")
        return out

    def _end_hand(self, why: str) -> list[HubEvent]:
        self.hand_open = False
        self.hands_ended += 1
        return [wire.hub_event(self.table, "hand_end", hand=self.hand, why=why)]

    def state(self, *, hole_cards: bool) -> dict[str, Any]:
        """Retained state; without `hole_cards` (public topics) face-down zones (seats, muck, burn)
        are shown as counts only."""
        zones: dict[str, Any] = {}
        for zone, cards in self.zones.items():
            if not hole_cards and face_down(zone):
                zones[zone] = len(cards)
            else:
                zones[zone] = list(cards.values())
        return {"v": wire.SCHEMA, "table": self.table, "online": self.online, "reader": self.reader,
                "hand": self.hand, "hand_open": self.hand_open, "zones": zones, "seq": self.last_seq,
                "gaps": self.gaps, "duplicates": self.duplicates}


def face_down(zone: str) -> bool:
    """Zones whose cards nobody at the table sees: hole cards, folded hands, burns."""
    return zone.startswith("seat:") or zone in ("muck", "burn")


# Faults whose cards lie face up for everyone (the tray, the board): the others name hole cards,
# burns or mucked cards, which a viewer must not learn from a fault either.
_FACE_UP_FAULTS = frozenset({
    "boxed_card", "exposed_card", "flop_without_burn", "flop_four_cards", "premature_flop",
    "premature_turn", "premature_river", "turn_without_burn", "river_without_burn", "board_removed",
})


def public(event: HubEvent) -> HubEvent:
    """The event as viewers may see it: no face of a face-down card while the hand is live."""
    kind = event.get("type")
    if kind == "card" and face_down(str(event.get("zone", ""))):
        return {**event, "card": None}
    if kind == "fault" and event.get("kind") not in _FACE_UP_FAULTS and event.get("cards"):
        hidden = [str(c) for c in event["cards"]]
        ruling = dict(event.get("ruling") or {})
        if "cards" in ruling:
            ruling["cards"] = ["??"] * len(ruling["cards"])
        if isinstance(ruling.get("text"), str):
            for card in hidden:
                ruling["text"] = ruling["text"].replace(card, "??")
        return {**event, "cards": ["??"] * len(hidden), "ruling": ruling}
    return event
