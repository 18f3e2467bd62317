"""One hand's record: what the hub ruled and what the antennas saw, made into a hand history (pure).

Consumes the hand's start as the floor stored it (stacks before the blinds, button, blinds, level), the
hub events of the hand in order (actions, faults, rulings, the TD's decisions, the end) and the hand's
stored card facts; emits a JSON-ready record: the PHH fields (players from the seat after the button,
the button last; heads-up the big blind first, as PHH and PokerKit have it), the actions in PHH
notation, and tapis's own facts (ruleset, faults with ruling and article, TD decisions, each card's
arrival in antenna order, table, dealer). The actions are checked on the way by our own engine in the
PHH's numbering (`hub.rules.phh.build_hand`): a seat whose hand a ruling killed folds at its turn, the
board is dealt when a street's betting starts; a record it could not follow says why (`problems`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hub.rules.game_file import get_game
from hub.rules.hand import Hand
from hub.rules.phh import PhhHand, build_hand
from hub.rules.positions import clockwise
from hub.rules.records import ActionKind, ActionStatus, RulesError, Street
from hub.rules.rulesets import OddChips, get_ruleset

RECORD_VERSION = 1
# Bounds: a hand's record stays a few kB; a table that misbehaves (a card shuffled on an antenna for
# minutes) cannot grow it past these, the record then says `truncated`.
MAX_CARDS = 300
MAX_FAULTS = 60
MAX_ACTIONS = 300
MAX_TEXT = 300
_STREET_CARDS = {Street.FLOP: (0, 3), Street.TURN: (3, 4), Street.RIVER: (4, 5)}
_NEXT = {Street.PREFLOP: Street.FLOP, Street.FLOP: Street.TURN, Street.TURN: Street.RIVER}
_VOID = ("misdeal", "cancelled")


@dataclass(frozen=True, slots=True)
class HandStart:
    """The hand as the floor dealt it (`hub.floor.tables._context`)."""

    table: str
    hand: int
    stacks: Mapping[int, int]  # seat -> chips before antes and blinds
    button: int
    small_blind: int | None
    big_blind: int
    sb: int
    bb: int
    ante: int
    bb_ante: bool
    game: str
    ruleset: str
    dead: Mapping[int, str] = field(default_factory=dict)

    @classmethod
    def from_context(cls, table: str, ctx: Mapping[str, Any], ruleset: str) -> HandStart:
        b, sb, bb = ctx["positions"]
        lv = list(ctx["level"])
        return cls(table=table, hand=int(ctx["hand_no"]),
                   stacks={int(s): int(v) for s, v in dict(ctx["players"]).items() if int(v) > 0},
                   button=int(b), small_blind=None if sb is None else int(sb), big_blind=int(bb),
                   sb=int(lv[0]), bb=int(lv[1]), ante=int(lv[2]), bb_ante=bool(lv[3]),
                   game=str(lv[4]) if len(lv) > 4 else "nlhe", ruleset=ruleset,
                   dead={int(s): str(a) for s, a in dict(ctx.get("dead") or {}).items()})


@dataclass(frozen=True, slots=True)
class CardFact:
    """A card the antennas saw arrive in (or leave) a zone: the table's order, its time, the hub's."""

    order: int
    at: float  # the table's clock
    hub_at: float  # when the hub stored it
    zone: str
    card: str | None
    arrived: bool

    def to_dict(self) -> dict[str, Any]:
        return {"order": self.order, "at": round(self.at, 3), "hub_at": round(self.hub_at, 3), "zone": self.zone,
                "card": self.card, "arrived": self.arrived}


def _cut(text: object) -> str:
    s = str(text)
    return s if len(s) <= MAX_TEXT else s[:MAX_TEXT] + "..."


class _Shadow:
    """Our engine in the PHH's numbering, fed the hub's actions: says when a killed hand folds and when
    the board is dealt, and whether the PHH holds together."""

    def __init__(self, start: HandStart, order: list[int], antes: list[int], blinds: list[int],
                 board: Sequence[str]) -> None:
        self.p = {seat: i + 1 for i, seat in enumerate(order)}
        game = get_game(start.game)
        phh = PhhHand(name=f"{start.table}#{start.hand}", scale=1,
                      starting_stacks=tuple(start.stacks[s] for s in order),
                      antes=tuple(antes), blinds=tuple(blinds), min_bet=start.bb, actions=(), recorded=None,
                      game=game)
        self.hand: Hand = build_hand(phh, start.ruleset)
        self.board = list(board)
        self.killed: set[int] = set()
        self.actions: list[str] = []
        self.problems: list[str] = []
        self.all_in = False

    def _deal(self) -> bool:
        hand = self.hand
        span = _STREET_CARDS.get(_NEXT.get(hand.street, Street.SHOWDOWN))
        if hand.round_open or hand.result is not None or span is None or len(hand.board) != span[0]:
            return False
        if len(self.board) < span[1]:
            return False
        cards = self.board[span[0]:span[1]]
        hand.deal_board(*cards)
        self.actions.append("d db " + "".join(cards))
        return True

    def advance(self) -> None:
        """Deal what is due and fold the killed hands whose turn it is, as long as either applies."""
        hand = self.hand
        while hand.result is None:
            if hand.round_open and hand.to_act in self.killed:
                self._act(hand.to_act, ActionKind.FOLD, None, "f")
                continue
            if not self._deal():
                return

    def _act(self, p: int, kind: ActionKind, to: int | None, text: str) -> None:
        try:
            rec = self.hand.act(p, kind, to)
        except RulesError as err:
            self.problems.append(_cut(f"p{p} {text}: {err}"))
            return
        if rec.status is ActionStatus.REJECTED or rec.pending:
            self.problems.append(_cut(f"p{p} {text}: {rec.reason or 'out of turn'}"))
            return
        self.actions.append(f"p{p} {text}")

    def action(self, seat: int, applied: str, amount: int | None) -> None:
        p = self.p.get(seat)
        if p is None:
            self.problems.append(f"seat {seat} acted but was not dealt in")
            return
        self.advance()
        hand = self.hand
        if hand.result is not None or hand.to_act != p:
            self.problems.append(f"seat {seat} ({applied}) acted where the engine expects "
                                 f"{'nobody' if hand.result is not None else f'p{hand.to_act}'}")
            return
        if applied == "fold":
            self._act(p, ActionKind.FOLD, None, "f")
        elif applied in ("check", "call") or (applied == "allin" and (amount or 0) <= hand.max_bet):
            self._act(p, ActionKind.CALL, None, "cc")
        else:
            self._act(p, ActionKind.RAISE, amount, f"cbr {amount}")

    def kill(self, seat: int | None) -> None:
        if seat in self.p:
            self.killed.add(self.p[seat])
            self.advance()

    def finish(self, hole: Mapping[int, Sequence[str]]) -> None:
        self.advance()
        hand = self.hand
        if hand.result is None and hand.street is Street.SHOWDOWN and not hand.round_open:
            self.all_in = any(hand.stack[p] == 0 for p in hand.live)  # the hands were turned face up
            for p in hand.showdown_order():  # PHH: each hand shown (cards named) or mucked (none)
                self.actions.append(f"p{p} sm {''.join(hole[p])}" if p in hole else f"p{p} sm")
            try:
                result = hand.showdown({p: tuple(hole[p]) if p in hole else None for p in hand.live})
            except RulesError as err:
                self.problems.append(_cut(f"showdown: {err}"))
                return
            if hand.rules.odd_chips is OddChips.ONE_EACH and any(p.amount % len(p.winners) >= 2 for p in result.pots):
                # PHH's readers give a split pot's remainder to its first winner: the rulebook's one each
                # is the hub's stacks, which this record keeps, but no PHH replay gives them
                self.problems.append(f"odd chips one each ({hand.rules.article('odd_chip')}): "
                                     "a PHH replay gives them all to the first winner")

    @property
    def stacks(self) -> list[int] | None:
        result = self.hand.result
        return None if result is None else [result.stacks[i + 1] for i in range(len(self.p))]


def player_order(start: HandStart) -> list[int]:
    """Seats in PHH order: from the seat after the button, the button last; heads-up the big blind first."""
    return clockwise(start.stacks, start.button)


def forced_bets(start: HandStart, order: list[int]) -> tuple[list[int], list[int], list[str]]:
    """(antes, blinds) per PHH player, and what PHH cannot say about this deal (empty when all fits)."""
    n = len(order)
    problems: list[str] = []
    rules = get_ruleset(start.ruleset)
    antes_by_seat: dict[int, int] = {}
    if start.ante and not (n == 2 and rules.no_ante_heads_up):
        if start.bb_ante or rules.bb_ante:
            antes_by_seat[start.big_blind] = start.ante * n
        else:
            antes_by_seat = dict.fromkeys(order, start.ante)
    # PHH lists antes and blinds by position, small blind first; heads-up the button (player 2) posts it.
    by_position = [order[1], order[0]] if n == 2 else order
    antes = [antes_by_seat.get(s, 0) for s in by_position]
    blinds = [0] * n
    if n > 2 and start.small_blind is None and start.big_blind == order[0]:
        blinds[0] = start.bb  # no small blind and the big blind first after the button: PHH's [bb, 0, ...]
        return antes, blinds, problems
    if start.big_blind != by_position[1]:
        problems.append(f"the big blind (seat {start.big_blind}) is not the second seat after the button: "
                        "PHH cannot place it")
    blinds[1] = start.bb
    if start.small_blind is not None:
        if start.small_blind != by_position[0]:
            problems.append(f"the small blind (seat {start.small_blind}) is not the first seat after the button")
        blinds[0] = start.sb
    return antes, blinds, problems


def _hole(cards: Iterable[CardFact], seats: Iterable[int], per_player: int) -> tuple[dict[int, list[str]],
                                                                                     dict[int, list[str]]]:
    """Per seat: the first cards that reached it (dealt), and those on it at the end (held)."""
    dealt: dict[int, list[str]] = {s: [] for s in seats}
    held: dict[int, list[str]] = {s: [] for s in seats}
    for c in cards:
        if not c.zone.startswith("seat:") or c.card is None:
            continue
        seat = int(c.zone[5:])
        if seat not in dealt:
            continue
        if c.arrived:
            if c.card not in dealt[seat] and len(dealt[seat]) < per_player:
                dealt[seat].append(c.card)
            held[seat].append(c.card)
        elif c.card in held[seat]:
            held[seat].remove(c.card)
    return dealt, held


def build_record(start: HandStart, events: Sequence[Mapping[str, Any]], cards: Sequence[CardFact], *,
                 names: Mapping[int, str], tournament: str | None, started_at: float, ended_at: float,
                 dealer: Mapping[str, Any], complete: bool = True) -> dict[str, Any]:
    """The TD's record of one hand (every card). `complete`: every hub event of the hand was seen (False:
    the hub restarted during it, the actions before are missing)."""
    order = player_order(start)
    antes, blinds, problems = forced_bets(start, order)
    if not complete:
        problems.append("the hub restarted during this hand: its first actions are not in this record")
    end: Mapping[str, Any] = next((e for e in reversed(events) if e.get("type") == "hand_end"), {})
    board = [str(c) for c in end.get("board") or [] if c]
    game = get_game(start.game)
    dealt, held = _hole(cards, order, game.hole_cards)
    shadow = _Shadow(start, order, antes, blinds, board)
    p = shadow.p
    faults: list[dict[str, Any]] = []
    decisions: list[dict[str, Any]] = []
    rulings: list[dict[str, Any]] = []
    timeline: list[dict[str, Any]] = []  # what happened after how many of the hand's cards: the TD's replay
    seen = 0
    for e in events:
        kind = e.get("type")
        if kind == "card":
            seen += 1
            continue
        if kind == "action" and e.get("applied") and e.get("status") != "rejected":
            shadow.action(int(e["seat"]), str(e["applied"]), e.get("amount"))
            timeline.append({"after": seen, "what": "action", "seat": e.get("seat"), "action": e.get("applied"),
                             "amount": e.get("amount"), "street": e.get("street")})
        elif kind in ("fault", "ruling"):
            ruling = dict(e.get("ruling") or {}) if kind == "fault" else dict(e)
            timeline.append({"after": seen, "what": kind, "kind": e.get("kind"), "seat": e.get("seat"),
                             "decision": ruling.get("decision"), "article": ruling.get("article"),
                             "by": _cut(e["by"]) if e.get("by") else None, "cards": list(e.get("cards") or [])})
        if kind == "fault":
            ruling = dict(e.get("ruling") or {})
            faults.append({"kind": e.get("kind"), "seat": e.get("seat"), "cards": list(e.get("cards") or []),
                           "decision": ruling.get("decision"), "article": ruling.get("article"),
                           "text": _cut(ruling.get("text", "")), "joins": bool(ruling.get("joins"))})
            if ruling.get("decision") == "hand_dead" and e.get("kind") == "time_expired":
                shadow.kill(e.get("seat"))
        elif kind == "ruling":
            entry = {"kind": e.get("kind"), "seat": e.get("seat"), "decision": e.get("decision"),
                     "article": e.get("article")}
            if e.get("by"):
                decisions.append({**entry, "by": _cut(e["by"])})
            else:
                rulings.append(entry)
            if e.get("decision") == "hand_dead":
                shadow.kill(e.get("seat"))
    void = end.get("result") in _VOID
    hole_p = {p[s]: held[s] if len(held[s]) == game.hole_cards else dealt[s] for s in order
              if len(dealt[s]) == game.hole_cards}
    if not void:
        shadow.finish(hole_p)
    actions = [f"d dh p{p[s]} {''.join(dealt[s]) if len(dealt[s]) == game.hole_cards else '??' * game.hole_cards}"
               for s in order] + shadow.actions
    final = {int(s): int(v) for s, v in dict(end.get("stacks") or {}).items()}
    finishing = [final.get(s, 0) for s in order]
    if not void:
        problems += shadow.problems
        if shadow.stacks is not None and shadow.stacks != finishing:
            problems.append(f"our replay of these actions ends with {shadow.stacks}, the hub's stacks are {finishing}")
        elif shadow.stacks is None and not shadow.problems:
            problems.append("the actions end before the hand does")
    showdown = end.get("result") == "showdown"
    # Shown at the table: every hand after an all-in (turned face up), else those that won a pot (a loser
    # may muck face down; the antennas read his cards all the same, the public never gets them)
    winners = {int(w) for pot in end.get("pots") or [] for w in pot.get("winners") or []}
    shown = sorted(s for s in order if showdown and p[s] in shadow.hand.live and p[s] in hole_p
                   and (shadow.all_in or s in winners))
    truncated = len(cards) > MAX_CARDS or len(faults) > MAX_FAULTS or len(actions) > MAX_ACTIONS \
        or len(timeline) > MAX_ACTIONS
    return {
        "v": RECORD_VERSION, "version": "td", "table": start.table, "hand": start.hand, "tournament": tournament,
        "started_at": round(started_at, 3), "ended_at": round(ended_at, 3), "ruleset": start.ruleset,
        "game": game.id, "variant": game.phh_variant or "NT",
        "level": {"sb": start.sb, "bb": start.bb, "ante": start.ante, "bb_ante": start.bb_ante},
        "button": start.button, "small_blind": start.small_blind, "big_blind": start.big_blind,
        "seats": order, "players": [_cut(names.get(s, f"seat {s}")) for s in order],
        "starting_stacks": [start.stacks[s] for s in order], "antes": antes, "blinds": blinds, "min_bet": start.bb,
        "actions": actions[:MAX_ACTIONS], "finishing_stacks": finishing,
        "result": end.get("result"), "void": void, "why": _cut(end.get("why", "")) if end.get("why") else None,
        "pots": list(end.get("pots") or []), "board": board, "shown": shown,
        "dead": {str(s): a for s, a in sorted(start.dead.items())},
        "faults": faults[:MAX_FAULTS], "decisions": decisions[:MAX_FAULTS], "rulings": rulings[:MAX_FAULTS],
        "cards": [c.to_dict() for c in cards[:MAX_CARDS]], "dealer": dict(dealer),
        "timeline": timeline[:MAX_ACTIONS],
        "replayable": not problems and not void, "problems": problems[:10], "truncated": truncated,
    }


def public_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """What was shown at the table: hole cards only of the hands shown down, the board; faults without
    their cards or texts (a text may name a face-down card), the other cards' arrivals without faces."""
    out = dict(record)
    shown_p = {i + 1 for i, s in enumerate(record["seats"]) if s in set(record.get("shown") or [])}
    shown_zones = {f"seat:{s}" for s in record.get("shown") or []}
    actions = []
    for a in record["actions"]:
        words = a.split()
        if words[:2] == ["d", "dh"] and int(words[2][1:]) not in shown_p:
            a = f"d dh {words[2]} {'?' * len(words[3])}"
        elif words[1:2] == ["sm"] and int(words[0][1:]) not in shown_p:
            a = f"{words[0]} sm"  # mucked face down
        actions.append(a)
    held = {c["card"] for c in record["cards"] if c["zone"] in shown_zones}
    board = set(record.get("board") or [])
    out["actions"] = actions
    out["version"] = "public"
    out["faults"] = [{k: v for k, v in f.items() if k not in ("cards", "text")} for f in record["faults"]]
    out["timeline"] = [{k: v for k, v in t.items() if k != "cards"} for t in record.get("timeline") or []]
    out["cards"] = [c if c["zone"] == "board" and c["card"] in board or c["zone"] in shown_zones and c["card"] in held
                    else {**c, "card": None} for c in record["cards"]]
    return out
