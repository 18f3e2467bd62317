"""Time at one table (hub, one table's game): a player's Time call, its countdown on the hub's clock, the
Time request a rulebook leaves to the TD, and the TD's wait that holds play.

The dealer's "time" press calls Time on the player to act: the engine counts the countdown
(`hub.rules.timecall`, cdc 10.13) and the hub's clock asks the game (`tick`) until it runs out (his hand
dead, carried out at the table too) or he acts. Under a rulebook where the TD grants Time (cpt87 4.5,
`time_needs_td`) the press is a Time request left to him (`TIME_REQUEST`, among `pending_td`) that does
not stop play: the player may still act, and if he does (or the hand ends) the request lapses. The TD
grants it (`decide`: the countdown starts then, as a Time called by an official) or refuses it (said,
nothing else). While a fault of the hand waits for the TD (`waiting_td`), play at the table stops: no
action, no Time, and a countdown under way does not run out; the TD's ruling ends it. A part of
`hub.room.game.TableGame`, which owns the state named below. Pure: the hub's clock is given to `tick`,
to the call and to the TD's grant.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from hub.room.table_setup import Event, Output, TableSetup
from hub.rules import Hand, RulesError, refusals
from hub.rules import Ruling as EngineRuling
from hub.rules.rulesets import TimeCaller
from hub.rules.timecall import TimeCall
from tablewire import wire

TIME_REQUEST = "time_request"  # the kind of a Time request left to the TD (cpt87 4.5), as its `fault` event says
GRANT, REFUSE = "grant_time", "refuse_time"  # his two options (`hub.rules.timecall`)
# what the TD and the dealer read of a Time request ({seat}: the player's seat), French then English
WORDS = {
    "asked": ("Time demandé sur le siège {seat} : le directeur de tournoi est appelé et décide ; le joueur "
              "peut encore agir.",
              "Time requested on seat {seat}: the tournament director is called and decides; the player may "
              "still act."),
    GRANT: ("Time accordé par le directeur de tournoi sur le siège {seat} : {think} secondes pour décider, "
            "puis un décompte de {countdown} secondes.",
            "Time granted by the tournament director on seat {seat}: {think} seconds to decide, then a "
            "{countdown}-second countdown."),
    REFUSE: ("Time refusé par le directeur de tournoi : le siège {seat} joue sans décompte.",
             "Time refused by the tournament director: seat {seat} plays on without a countdown."),
    "lapsed": ("Demande de Time caduque : le siège {seat} a agi (ou le tour d'enchères est fini).",
               "Time request lapsed: seat {seat} acted (or the betting round is over)."),
}


def words(what: str, **fields: object) -> dict[str, str]:
    fr, en = WORDS[what]
    return {"fr": fr.format(**fields), "en": en.format(**fields)}


class TableTime(ABC):
    """A player's Time call, its countdown, and the TD's wait, at one table."""

    # the game's state Time reads and changes (set by `TableGame.__init__`)
    table: str
    setup: TableSetup
    hand: Hand | None
    hand_no: int
    pending_td: list[Event]  # the faults of the hand left to the TD, not yet decided
    _now: float  # the hub's clock at the last tick or Time call
    _on_countdown: Callable[[str], object] | None  # told the table's name when a countdown starts here

    @property
    @abstractmethod
    def in_hand(self) -> bool: ...
    @abstractmethod
    def _event(self, event_type: str, /, **fields: Any) -> Event: ...
    @abstractmethod
    def _feed_board(self) -> Output: ...
    @abstractmethod
    def _after_engine(self, via: str = "panel") -> Output: ...

    @property
    def timing(self) -> bool:
        """A Time countdown runs (`hub.rules.timecall`): the one thing in a hand the clock changes, so the
        only games `tick` need be asked about (each started one is told to `on_countdown`)."""
        hand = self.hand
        return hand is not None and hand.time_call is not None and hand.result is None

    @property
    def waiting_td(self) -> bool:
        """A fault of this hand is left to the TD and not yet decided: play at the table stops (no
        action, no Time) until he does, from the dashboard or `tapis tournament`. A Time request does
        not stop it (cpt87 4.5: the player may act while the TD comes)."""
        return self.in_hand and any(e.get("hand") == self.hand_no and e.get("kind") != TIME_REQUEST
                                    for e in self.pending_td)

    def _time_request(self) -> Event | None:
        """The hand's Time request waiting for the TD, if any (one at a time)."""
        return next((e for e in self.pending_td if e.get("hand") == self.hand_no and e.get("kind") == TIME_REQUEST),
                    None)

    def tick(self, now: float) -> Output:
        """The hub's clock: a Time countdown that ran out. Nothing happens to a game that is not `timing`, nor
        while the table waits for the TD (`waiting_td`: the player may not act, his time does not run out)."""
        self._now = now
        if not self.in_hand or self.waiting_td:
            return Output()
        assert self.hand is not None
        if not self.hand.tick(now):
            return Output()  # nothing happened: the table is not told the same state again
        return self._after_engine()

    def _call_time(self, seat: int, now: float) -> Output:
        """The dealer's "time" press on `seat`: the countdown starts (its owner's clock told), or the ruleset's
        ruling instead, or the call is refused in words (no hand, the TD's wait, not his turn)."""
        hand = self.hand
        if hand is None or hand.result is not None:
            return Output([self._event("time_refused", seat=seat, reason="no hand in progress",
                                       message=refusals.message("no_hand"))])
        self._now = now
        if self.waiting_td:
            return Output([self._event("time_refused", seat=seat, reason="waiting for the TD's decision",
                                       message=refusals.message("td_wait"))])
        out = self._feed_board()
        try:
            called = hand.call_time(seat, now, TimeCaller.PLAYER)
        except RulesError as err:
            why = "time_not_to_act" if not hand.round_open or seat != hand.to_act else "time_not_allowed"
            out.events.append(self._event("time_refused", seat=seat, reason=str(err), message=refusals.message(why)))
            return out
        if isinstance(called, TimeCall):
            out.events.append(self._countdown(called))
            return out.extend(self._after_engine())
        return out.extend(self._request_time(seat, called))

    def _countdown(self, called: TimeCall, **fields: Any) -> Event:
        """A countdown started: its owner's clock told (it asks this game from now on), and said."""
        if self._on_countdown is not None:
            self._on_countdown(self.table)
        return self._event("time", seat=called.seat, countdown_at=called.countdown_at, expires_at=called.expires_at,
                           article=called.article, **fields)

    def _request_time(self, seat: int, ruling: EngineRuling) -> Output:
        """The rulebook leaves Time to the TD (cpt87 4.5): a request he decides, play going on meanwhile. A
        second press while one waits (or while the Time he granted runs) is refused in words."""
        hand = self.hand
        assert hand is not None
        if self._time_request() is not None or (hand.time_call is not None and hand.time_call.seat == seat):
            why, reason = (("time_requested", "Time already requested, the TD is called")
                           if self._time_request() is not None else ("time_running", "the Time granted runs"))
            return Output([self._event("time_refused", seat=seat, reason=reason, message=refusals.message(why))])
        asked = words("asked", seat=seat)
        described = {"decision": str(ruling.decision), "article": ruling.article, "seat": seat, "cards": [],
                     "options": list(ruling.options), "text": asked.get(self.setup.lang, asked["fr"])}
        event = self._event("fault", kind=TIME_REQUEST, seat=seat, cards=[], ruling=described, message=asked)
        self.pending_td.append(event)
        return Output([event]).extend(self._after_engine())

    def _decide_time(self, pending: Event, option: str, by: str, now: float) -> Output:
        """The TD's answer to a Time request (`TableGame.decide`): granted, the countdown starts now as a Time
        called by an official (cpt87: 30 s, then 10 counted down); refused, it is said and play goes on."""
        self.pending_td.remove(pending)
        seat, article = int(pending["seat"]), f"{pending['ruling']['article']} (TD)"
        hand = self.hand
        assert hand is not None
        rules = hand.rules
        said = words(option, seat=seat, think=f"{rules.think_seconds:g}", countdown=f"{rules.countdown_seconds:g}")
        out = Output([self._event("ruling", seat=seat, kind=TIME_REQUEST, decision=option, article=article, by=by,
                                  message=said)])
        if option == GRANT:
            self._now = max(self._now, now)
            called = hand.call_time(seat, now, TimeCaller.OFFICIAL)  # `can_decide` checked he may
            assert isinstance(called, TimeCall)
            out.events.append(self._countdown(called, by=by))
        return out.extend(self._after_engine())

    def _cannot_grant(self, pending: Event) -> str | None:
        """Why the TD may not grant this Time request now (None: he may): play is stopped for another of his
        decisions (a Time granted then would end with that ruling), or the rulebook lets no official call
        Time (a club's file could leave that out: refused in words rather than granted in vain). The seat
        is still to act: a request lapses as he acts."""
        hand = self.hand
        if hand is None or not hand.round_open or hand.to_act != pending.get("seat"):
            return "no decision pending for the TD in this hand"
        if self.waiting_td:
            return "play is stopped for another decision of the TD: that one first"
        if TimeCaller.OFFICIAL not in hand.rules.time_callers:
            return "the rulebook lets no official call Time"
        return None

    def _time_request_lapsed(self) -> Output:
        """The player a Time request was on acted (or the round closed, his hand dead): the request lapses,
        leaving the TD's list (the dashboard retires it on this event)."""
        pending, hand = self._time_request(), self.hand
        if pending is None or hand is None or (hand.round_open and hand.to_act == pending.get("seat")):
            return Output()
        self.pending_td.remove(pending)
        seat = pending.get("seat")
        return Output([self._event("time_request_lapsed", seat=seat, kind=TIME_REQUEST,
                                   message=words("lapsed", seat=seat))])

    def _time_ends_with_td(self) -> None:
        """The TD decided the hand's last pending fault: a Time called before the table stopped for him ends
        with his ruling (the player could not act while it waited, `tick` ruled nothing), and may be called
        again as play resumes."""
        if self.hand is not None and self.hand.time_call is not None and not self.waiting_td:
            self.hand.time_call = None

    def _time_expired(self, ruling: EngineRuling) -> Output:
        """The engine ruled a countdown run out (his hand dead): said, and carried out at the table too (the
        seat's light at fault, the dealer mucks that hand)."""
        out = Output([self._event("fault", kind="time_expired", seat=ruling.seat, cards=[], ruling=ruling.to_dict())])
        out.commands.append(wire.RulingCmd(hand=self.hand_no, kind="time_expired", decision=str(ruling.decision),
                                           seat=ruling.seat))
        return out
