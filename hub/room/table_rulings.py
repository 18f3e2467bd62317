"""A fault ruled at one table (hub, one table's game: engine state + fault -> ruling, TD decisions).

Consumes the engine's `Hand` and the faults the table saw; gives `hub.rulings` the situation it
rules on, describes a ruling for the hub's events (in the table's language), and finds and turns
into a ruling the decision a TD settles among those left to him. Pure: `hub.room.game` applies them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from hub import rulings
from hub.rules import ActionRecord, ActionStatus, Hand, Street
from tablewire import wire
from tablewire.faults import FaultDetected, FaultKind

Event = dict[str, Any]

# faults whose remedy reshapes the board: the game feeds the engine the board at the next action
BOARD_FAULTS = frozenset({
    FaultKind.FLOP_WITHOUT_BURN, FaultKind.FLOP_TWO_BURNS, FaultKind.FLOP_FOUR_CARDS, FaultKind.PREMATURE_FLOP,
    FaultKind.TURN_WITHOUT_BURN, FaultKind.RIVER_WITHOUT_BURN, FaultKind.PREMATURE_TURN,
    FaultKind.PREMATURE_RIVER, FaultKind.BOARD_REMOVED,
})
# the decisions that end the hand void, and the result its `hand_end` says
VOID = {
    rulings.Decision.MISDEAL: "misdeal",
    rulings.Decision.HAND_CANCELLED_BETS_RETURNED: "cancelled",
    rulings.Decision.HAND_CANCELLED_POT_SPLIT: "cancelled",
}


# the hub's reasons for refusing a TD's decision (`TableGame.decide`, `FloorTables.decide`), in French for him
_REFUSED_FR = (
    (re.compile(r"^no decision pending for the TD in this hand"), "aucune décision en attente dans cette donne"),
    (re.compile(r"^the ruling offered"), "la décision proposait"),
    (re.compile(r"^the rulebook lets no official call Time"),
     "le règlement ne permet à aucun officiel de demander le Time"),
    (re.compile(r"^play is stopped for another decision of the TD: that one first"),
     "le jeu est arrêté pour une autre décision du DT : celle-ci d'abord"),
    (re.compile(r"^hand (\d+) is over"), r"la donne \1 est terminée"),
    (re.compile(r"^no hand in progress"), "aucune donne en cours"),
)


def refusal_in_french(reason: str) -> str:
    """A `decision_refused` reason in French (the options it names stay as they are)."""
    for english, french in _REFUSED_FR:
        if english.match(reason):
            return english.sub(french, reason, count=1)
    return reason


def refused_words(reason: str) -> dict[str, str]:
    """A `decision_refused` event's `message`, as every refusal carries one: French then English."""
    return {"fr": refusal_in_french(reason), "en": reason}


def decision_refused(table: str, kind: str, option: str, reason: str, *, hand: int | None = None) -> Event:
    """The hub's `decision_refused` event, the one place it is built: the game's (`TableGame.decide`, its
    hand named) and the floor's before the game is asked (no hand in progress, the TD's hand is over)."""
    named = {} if hand is None else {"hand": hand}
    return wire.hub_event(table, "decision_refused", **named, kind=kind, option=option, reason=reason,
                          message=refused_words(reason))


def decision_in_words(ruling: Event) -> tuple[str, str]:
    """The TD's decision as its `ruling` event says it (`TableGame.decide`'s), French then English, in the
    words of any ruling (`Ruling.text`) and who decided, for what answers him (`tapis tournament decide`)."""
    said = rulings.Ruling(decision=rulings.Decision(str(ruling["decision"])), article=str(ruling["article"]),
                          ruleset="", kind=FaultKind(str(ruling["kind"])), hand=int(ruling["hand"]),
                          seat=ruling.get("seat"), cards=tuple(ruling.get("cards", ())))
    by = ruling.get("by") or "TD"
    return f"{said.text('fr')} ({by})", f"{said.text('en')} ({by})"


def situation(hand: Hand, ruleset: str, actions: Sequence[str], fault: FaultDetected) -> rulings.Situation:
    """What the engine knows when the fault arrives, as `hub.rulings` rules on it."""
    return rulings.Situation(
        substantial_action=rulings.is_substantial(ruleset, list(actions)),
        betting_possible=hand.round_open or not hand.cards_face_up,
        rounds_open=(str(hand.street),) if hand.round_open else (),
        live_seats=tuple(sorted(hand.live)),
        committed=dict(hand.contributed),
        pot_opened=hand.max_bet > 0 and hand.street is not Street.PREFLOP,
        recoverable=not (fault.kind is FaultKind.MIXED_DECKS and has_acted(hand, fault.seat)),
    )


def has_acted(hand: Hand, seat: int | None) -> bool:
    """The seat played with the cards it holds: a card of the other deck read only now (an
    antenna missed it when dealt) was in an action, so the hand is no longer recoverable (cdc 6.4)."""
    return seat is not None and any(
        isinstance(e, ActionRecord) and e.seat == seat and e.status is not ActionStatus.REJECTED
        for e in hand.log)


def ruling_dict(ruling: rulings.Ruling, lang: str) -> dict[str, Any]:
    """The ruling as a hub event carries it, its text in the table's language."""
    d: dict[str, Any] = {"decision": str(ruling.decision), "article": ruling.article, "seat": ruling.seat,
                         "cards": list(ruling.cards)}
    if ruling.dead_seats:
        d["dead_seats"] = list(ruling.dead_seats)
    if ruling.options:
        d["options"] = [str(o) for o in ruling.options]
    if ruling.refunds:
        d["refunds"] = {str(s): v for s, v in ruling.refunds.items()}
    d["text"] = ruling.text(lang)
    return d


def pending_decision(pending_td: Sequence[Event], hand_no: int, kind: str,
                     option: str | None = None) -> Event | None:
    """The TD's undecided decision on `kind` in hand `hand_no`, if any; `kind` empty: the oldest one that
    offers `option` (the TD named only what he decided)."""
    if not kind:
        return next((e for e in pending_td if e.get("hand") == hand_no
                     and option in e["ruling"].get("options", [])), None)
    return next((e for e in reversed(pending_td) if e.get("kind") == kind and e.get("hand") == hand_no), None)


def td_ruling(pending: Event, option: str, ruleset: str, hand_no: int) -> rulings.Ruling:
    """The ruling the TD's choice of `option` makes of the fault left to him (its article marked TD)."""
    return rulings.Ruling(
        decision=rulings.Decision(option), article=f"{pending['ruling']['article']} (TD)", ruleset=ruleset,
        kind=FaultKind(str(pending["kind"])), hand=hand_no, seat=pending.get("seat"),
        cards=tuple(pending.get("cards", ())),
        dead_seats=(pending["seat"],) if option == "hand_dead" and pending.get("seat") else ())


def felt_cleared_ruling(ruleset: str, hand_no: int) -> rulings.Ruling:
    """The felt cleared before the hand ended: no board and no hand is discernible any more, so the
    hand is cancelled and every bet returned, under the ruleset's article for a board removed."""
    article = next(a for _, a in rulings.clauses_for(FaultKind.BOARD_REMOVED, ruleset))
    return rulings.Ruling(decision=rulings.Decision.HAND_CANCELLED_BETS_RETURNED, article=article, ruleset=ruleset,
                          kind=FaultKind.BOARD_REMOVED, hand=hand_no, seat=None, cards=())
