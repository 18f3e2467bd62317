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

# Events held behind a sequence gap, per table: past either bound the newest is dropped (counted in
# `held_dropped`); it is never acknowledged, so the table's outbox sends it again once the gap fills.
HELD_MAX_EVENTS = 1000
HELD_MAX_BYTES = 1_000_000
# A reader status's free text, as republished to every viewer: cut to this many characters (its French
# and its English, with the place and what to do: table_agent/reader_words.py).
DETAIL_MAX_CHARS = 400


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
    held_count: int = 0
    held_bytes: int = 0
    held_dropped: int = 0  # events past HELD_MAX_*: dropped, the outbox resends them
    hands_ended: int = 0
    updated_at: float = 0.0
    managed: bool = False  # a hub game runs this table's hands (players configured)
    refused: str = ""  # why the hub refused the last "new hand" while a hand was in progress ("": none since)
    # the hub's wall clock when the hand in progress started (restarted without a store: when resumed)
    hand_since: float | None = None
    noted_at: float = 0.0  # the hub's wall clock at the last events noted: `hand_since` is measured from it

    def note(self, events: list[HubEvent], now: float) -> None:
        """What the dashboard's alarm needs of the hub's events: a "new hand" refused while the hand in
        progress stands (the table cannot go on by itself), and since when the hand runs."""
        self.noted_at = now
        for event in events:
            kind = event.get("type")
            if kind == "hand_start":
                self.refused, self.hand_since = "", now
            elif kind == "hand_end":
                self.refused, self.hand_since = "", None
            elif kind == "hand_refused" and self.hand_open:
                self.refused = str(event.get("reason", ""))

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
            if self.held_count >= HELD_MAX_EVENTS or self.held_bytes + len(payload) > HELD_MAX_BYTES:
                self.held_dropped += 1
                return []
            self._hold(event, payload)
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
            self._unhold(boot, stale)
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
            ready.append(self._unhold(boot, last))
        self.last_by_boot[boot] = last
        return ready

    def _hold(self, event: wire.AnyTableEvent, payload: bytes) -> None:
        self.held.setdefault(event.boot, {})[event.seq] = (event, payload)
        self.held_count += 1
        self.held_bytes += len(payload)

    def _unhold(self, boot: str, seq: int) -> tuple[wire.AnyTableEvent, bytes]:
        item = self.held[boot].pop(seq)
        self.held_count -= 1
        self.held_bytes -= len(item[1])
        return item

    def hold_back(self, events: list[tuple[wire.AnyTableEvent, bytes]]) -> None:
        """`events` (one boot, in order) were admitted but not stored: the store failed on the first.
        They wait in `held` again, the table stands just before them (so nothing past it is
        acknowledged), and `stalled` gives them back to try again."""
        if not events:
            return
        first = events[0][0]
        for event, payload in events:
            self._hold(event, payload)  # over the bounds by a few at most: they were admitted
        if first.seq > 1:
            self.last_by_boot[first.boot] = first.seq - 1
        else:
            self.last_by_boot.pop(first.boot, None)  # its seq 1 comes again as a restart
        if self.boot == first.boot:
            self.last_seq = first.seq - 1

    def stalled(self) -> list[tuple[wire.AnyTableEvent, bytes]]:
        """The events of one boot put back by `hold_back`, admitted again (empty when none wait)."""
        for boot, held in list(self.held.items()):
            following = self.last_by_boot.get(boot, 0) + 1
            if following in held:
                return self.admit(*self._unhold(boot, following))
        return []

    def apply(self, event: wire.AnyTableEvent) -> list[HubEvent]:
        """The card view and reader state; hands too when no game runs the table."""
        if isinstance(event, wire.CardEvent):
            return self._card(event)
        if isinstance(event, wire.ReaderStatus):
            detail = event.detail[:DETAIL_MAX_CHARS]  # a reader's free text reaches every viewer
            self.reader, self.reader_detail = event.state, detail
            return [wire.hub_event(self.table, "reader", state=event.state, detail=detail)]
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
