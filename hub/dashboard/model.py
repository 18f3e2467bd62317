"""The TD dashboard's room model: hub events and table snapshots in, what each browser may see out.

Consumes the hub's events (plain dicts) with a snapshot of the table taken on the hub's thread
(`capture`); keeps the latest snapshot per table and the open faults, their acknowledgements and the
TD's decisions. Emits JSON-ready messages for the TD and, filtered (`for_viewer`, `viewer_event`),
for viewers: a viewer never receives a hole card of a live hand. Pure: no IO, no clock, no threads.
"""

from __future__ import annotations

import copy
import re
from collections import OrderedDict, deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from hub.room.game import TableGame
from hub.room.table_rulings import refusal_in_french
from hub.room.table_time import TIME_REQUEST
from hub.room.tables import TableView, face_down, public

JSONDict = dict[str, Any]
TD_DECISION = "td_decision"  # hub.rulings.Decision.TD_DECISION: the rulebook leaves it to the TD
MAX_FAULTS = 300  # the faults kept for the page (open ones are never dropped first)
MAX_LOG = 300  # hub events kept per table for a table view opened mid-hand
_FACE = re.compile(r"\b(?:10|[2-9TJQKA])[cdhs]\b")  # a card as the rulings' texts name it ("As")


class Role(StrEnum):
    TD = "td"  # directeur de tournoi: sees hole cards, acts
    VIEWER = "viewer"  # spectator screens, players: no hole cards of a live hand
    STREAM = "stream"  # a broadcast (--stream-delay): hole cards, only once delayed and their hand over


class DashboardError(Exception):
    """Root of the dashboard's errors."""


class UnknownFault(DashboardError, KeyError):
    """No such fault (or it was dropped from the page's history)."""

    code = "unknown_fault"  # the page says it in the TD's language


class BadDecision(DashboardError, ValueError):
    """The decision is not one of the ruling's options, or the fault asks for none.

    `code` names the case for the page: not_decidable, already_decided, not_an_option."""

    def __init__(self, message: str, code: str = "not_decidable") -> None:
        super().__init__(message)
        self.code = code


def capture(view: TableView, game: TableGame | None,
            seated: Mapping[int, tuple[str, int]] | None = None, *, closed: bool = False) -> JSONDict:
    """The table as the TD sees it, read on the hub's thread (the only thread that owns it).

    `seated`: seat -> (player, chips) as the tournament floor has them, so a tournament table shows
    its players by name, before its first hand too. `closed`: the floor broke the table up."""
    seated = seated or {}
    state = view.state(hole_cards=True)
    snap: JSONDict = {"table": view.table, "online": view.online, "reader": view.reader,
                      "reader_detail": view.reader_detail, "hand": view.hand, "hand_open": view.hand_open,
                      "zones": state["zones"], "board": list(state["zones"].get("board", [])),
                      "gaps": view.gaps, "managed": view.managed, "seats": [], "street": None,
                      "to_act": None, "pot": 0, "button": None, "closed": False,
                      # what makes a table blocked besides its status (docs/dashboard.md, "Alarms")
                      "refused": view.refused, "hand_since": view.hand_since, "noted_at": view.noted_at,
                      "held": view.held_count}
    if closed:
        return closed_snapshot(snap)
    hand = game.hand if game is not None and game.in_hand else None
    stacks = dict(game.stacks) if game is not None else {}
    if hand is None and seated:
        stacks = {}  # between hands the floor seats a tournament table (moves, eliminations): as `reseated`
    seats: list[JSONDict] = []
    for seat in sorted(set(stacks) | set(seated) | (set(hand.seats) if hand else set())):
        hole = list(game.hole.get(seat, [])) if hand and game is not None else []
        name, chips = seated.get(seat, (None, 0))
        dealt = hand is not None and seat in hand.seats
        seats.append({
            "seat": seat, "player": name,
            # a player the floor seated here during the hand (a move) is not in it: his chips, not "0, folded"
            "stack": hand.stack.get(seat, 0) if hand and dealt else stacks.get(seat, chips),
            "bet": hand.bet.get(seat, 0) if hand else 0,
            "live": seat in hand.live if hand else False,
            "waiting": hand is not None and not dealt,
            "away": game is not None and seat in game.away,
            "hole": hole, "hole_count": len(hole)})
    snap["seats"] = seats
    if game is None:
        return snap
    snap["hand"], snap["hand_open"] = game.hand_no, game.in_hand
    if hand is not None:
        snap["board"] = list(game.board)
        snap["street"] = str(hand.street)
        snap["to_act"] = hand.to_act
        snap["pot"] = hand.pot
        snap["button"] = hand.positions.button
    # the decisions that stop play (a Time request does not: the player may act while the TD comes)
    snap["pending_td"] = len(game.pending_td) - sum(1 for e in game.pending_td if e.get("kind") == TIME_REQUEST)
    return snap


def closed_snapshot(snapshot: Mapping[str, Any]) -> JSONDict:
    """A table the tournament floor closed (broken up, or gathered into the final table): its players
    play elsewhere, so no seats, no hand, no cards; only what says where it was and that it is closed."""
    return {**snapshot, "closed": True, "seats": [], "zones": {}, "board": [], "hand_open": False,
            "street": None, "to_act": None, "pot": 0, "button": None, "pending_td": 0, "refused": "",
            "hand_since": None, "held": 0}


def reseated(snapshot: Mapping[str, Any], seated: Mapping[int, tuple[str, int]]) -> JSONDict | None:
    """The snapshot of a table between hands with the floor's seats (players moved in or out, eliminated
    by the TD), or None when they are already those or a hand is in play (the table's own events rule)."""
    if snapshot.get("hand_open") or snapshot.get("closed"):
        return None
    shown = {s["seat"]: (s.get("player"), s.get("stack")) for s in snapshot.get("seats", [])}
    if shown == dict(seated):
        return None
    away = {s["seat"] for s in snapshot.get("seats", []) if s.get("away") and shown[s["seat"]][0] == seated.get(
        s["seat"], (None, 0))[0]}  # still the same player: still away
    seats = [{"seat": seat, "player": name, "stack": chips, "bet": 0, "live": False, "away": seat in away,
              "hole": [], "hole_count": 0} for seat, (name, chips) in sorted(seated.items())]
    return {**snapshot, "seats": seats}


def for_viewer(snapshot: Mapping[str, Any]) -> JSONDict:
    """The snapshot without a face-down card: seat, burn and muck zones carry counts only."""
    snap = dict(snapshot)
    snap["zones"] = {zone: (len(cards) if face_down(zone) and isinstance(cards, list) else cards)
                     for zone, cards in dict(snapshot.get("zones", {})).items()}
    snap["seats"] = [{k: v for k, v in seat.items() if k != "hole"} for seat in snapshot.get("seats", [])]
    return snap


def viewer_ruling(ruling: Mapping[str, Any]) -> JSONDict:
    """A ruling without the cards it names (in its fields and in its text)."""
    out = {**ruling, "cards": []}
    if isinstance(out.get("text"), str):
        out["text"] = _FACE.sub("??", out["text"])
    return out


def viewer_event(event: Mapping[str, Any]) -> JSONDict:
    """A hub event as a viewer may receive it: no seat card faces, no cards named by a fault."""
    out = dict(public(dict(event)))
    if out.get("type") in ("fault", "ruling"):
        out["cards"] = []
    ruling = out.get("ruling")
    if isinstance(ruling, dict):  # faults, and actions ruled out of turn
        out["ruling"] = viewer_ruling(ruling)
    return out


HAND_OVER = {"fr": "donne terminée : plus rien à décider", "en": "the hand is over: nothing left to decide"}
LAPSED = {"fr": "demande de Time caduque : le joueur a agi", "en": "Time request lapsed: the player acted"}


def refusal(reason: str) -> dict[str, str]:
    """A `decision_refused` reason in French and English, as the page shows it."""
    return {"fr": f"refusée par le hub : {refusal_in_french(reason)}", "en": f"refused by the hub: {reason}"}


@dataclass
class Fault:
    """A fault or ruling shown on the room view until the TD acknowledges it (or decides it)."""

    id: str
    table: str
    hand: int
    kind: str
    seat: int | None
    cards: list[str]
    ruling: JSONDict
    at: float  # the dashboard's clock when it arrived
    acked_by: str | None = None
    acked_at: float | None = None
    decision: str | None = None  # the option the TD chose for a td_decision
    refused: dict[str, str] | None = None  # why it can no longer be decided ({"fr": ..., "en": ...})

    @property
    def needs_decision(self) -> bool:
        # a fault that joins one already left to the TD (the same fault again in the hand) is covered by it
        return (self.ruling.get("decision") == TD_DECISION and not self.ruling.get("joins") and self.decision is None
                and self.refused is None)

    @property
    def open(self) -> bool:
        return self.acked_by is None or self.needs_decision

    def to_dict(self, role: Role) -> JSONDict:
        ruling = dict(self.ruling)
        cards = list(self.cards)
        if role is Role.VIEWER:
            ruling, cards = viewer_ruling(ruling), []
        return {"id": self.id, "table": self.table, "hand": self.hand, "kind": self.kind, "seat": self.seat,
                "cards": cards, "ruling": ruling, "at": self.at, "acked_by": self.acked_by,
                "acked_at": self.acked_at, "decision": self.decision if self.refused is None else None,
                "refused": self.refused, "open": self.open,
                "needs_decision": self.needs_decision, "options": list(ruling.get("options", []))}


@dataclass(frozen=True, slots=True)
class FaultAcknowledged:
    fault: str
    table: str
    by: str
    at: float


@dataclass(frozen=True, slots=True)
class DecisionTaken:
    """The TD chose one of a td_decision's options; the hub applies it (hook `on_decision`)."""

    fault: str
    table: str
    hand: int
    kind: str
    option: str
    by: str
    at: float

    def to_dict(self) -> JSONDict:
        return {"type": "td_decided", "fault": self.fault, "table": self.table, "hand": self.hand,
                "kind": self.kind, "option": self.option, "by": self.by, "at": self.at}


@dataclass
class RoomModel:
    """Every table's latest snapshot and the faults; one thread (the dashboard's consumer) owns it."""

    tables: dict[str, JSONDict] = field(default_factory=dict)
    faults: OrderedDict[str, Fault] = field(default_factory=OrderedDict)
    logs: dict[str, deque[JSONDict]] = field(default_factory=dict)
    _counter: int = 0

    def apply(self, event: Mapping[str, Any], snapshot: Mapping[str, Any] | None, now: float) -> Fault | None:
        """One hub event; returns the fault it opened, if any."""
        table = str(event.get("table", ""))
        if snapshot is not None:
            self.tables[table] = dict(snapshot)
        self.logs.setdefault(table, deque(maxlen=MAX_LOG)).append(dict(event))
        if event.get("type") != "fault":
            return None
        ruling = event.get("ruling")
        self._counter += 1
        fault = Fault(id=f"f{self._counter}", table=table, hand=int(event.get("hand") or 0),
                      kind=str(event.get("kind", "")), seat=event.get("seat"),
                      cards=[str(c) for c in event.get("cards") or []],
                      ruling=copy.deepcopy(ruling) if isinstance(ruling, dict) else {}, at=now)
        self.faults[fault.id] = fault
        self._trim()
        return fault

    def retire(self, event: Mapping[str, Any]) -> list[Fault]:
        """The td_decisions this hub event makes moot: its hand is over (or a later one started), the
        player a Time request was on acted (`time_request_lapsed`), or the hub refused the TD's choice
        (`decision_refused`). Returns the faults it changed."""
        kind, table = event.get("type"), str(event.get("table", ""))
        hand = event.get("hand") if isinstance(event.get("hand"), int) else None
        changed: list[Fault] = []
        if kind == "decision_refused":
            refused = next((f for f in reversed(self.faults.values())
                            if f.table == table and f.kind == event.get("kind") and f.refused is None
                            and f.ruling.get("decision") == TD_DECISION
                            and f.decision in (None, event.get("option"))), None)
            if refused is not None:
                refused.refused = refusal(str(event.get("reason", "")))
                changed.append(refused)
        elif kind == "time_request_lapsed":  # the player acted: the TD has no Time request left to decide
            for fault in self.faults.values():
                if fault.table == table and fault.hand == hand and fault.kind == TIME_REQUEST and fault.needs_decision:
                    fault.refused = dict(LAPSED)
                    changed.append(fault)
        elif kind in ("hand_end", "hand_start") and hand is not None:
            over = hand + 1 if kind == "hand_end" else hand  # hands before this one are over
            for fault in self.faults.values():
                if fault.table == table and fault.hand < over and fault.needs_decision:
                    fault.refused = dict(HAND_OVER)
                    changed.append(fault)
        return changed

    def _trim(self) -> None:
        while len(self.faults) > MAX_FAULTS:
            closed = next((k for k, f in self.faults.items() if not f.open), None)
            self.faults.pop(closed if closed is not None else next(iter(self.faults)))

    def fault(self, fault_id: str) -> Fault:
        try:
            return self.faults[fault_id]
        except KeyError:
            raise UnknownFault(f"no fault {fault_id!r} on the dashboard") from None

    def acknowledge(self, fault_id: str, by: str, now: float) -> FaultAcknowledged:
        """The TD has seen it (idempotent: the first acknowledgement is kept)."""
        fault = self.fault(fault_id)
        if fault.acked_by is None:
            fault.acked_by, fault.acked_at = by, now
        return FaultAcknowledged(fault.id, fault.table, fault.acked_by, fault.acked_at or now)

    def decide(self, fault_id: str, option: str, by: str, now: float) -> DecisionTaken:
        fault = self.fault(fault_id)
        if fault.refused is not None:
            raise BadDecision(f"fault {fault_id} can no longer be decided: {fault.refused['en']}")
        if fault.ruling.get("decision") != TD_DECISION:
            raise BadDecision(f"fault {fault_id} was ruled {fault.ruling.get('decision')!r}: nothing to decide")
        if fault.decision is not None:
            raise BadDecision(f"fault {fault_id} was already decided: {fault.decision}", "already_decided")
        options = [str(o) for o in fault.ruling.get("options", [])]
        if options and option not in options:
            raise BadDecision(f"{option!r} is not an option of fault {fault_id} ({', '.join(options)})",
                              "not_an_option")
        fault.decision = option
        if fault.acked_by is None:
            fault.acked_by, fault.acked_at = by, now
        return DecisionTaken(fault.id, fault.table, fault.hand, fault.kind, option, by, now)

    def log(self, table: str, role: Role) -> list[JSONDict]:
        """The table's recent hub events, oldest first, as this role may see them."""
        events = list(self.logs.get(table, ()))
        return events if role is Role.TD else [viewer_event(e) for e in events]

    def faults_for(self, role: Role) -> list[JSONDict]:
        return [f.to_dict(role) for f in self.faults.values()]

    def room(self, role: Role) -> JSONDict:
        """The whole room for a browser that just connected."""
        tables = {t: (dict(s) if role is Role.TD else for_viewer(s)) for t, s in sorted(self.tables.items())}
        return {"tables": tables, "faults": self.faults_for(role)}
