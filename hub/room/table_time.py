"""Time at one table (hub, one table's game): a player's Time call, its countdown on the hub's clock, and
the TD's wait that holds both.

The dealer's "time" press calls Time on the player to act: the engine counts the countdown
(`hub.rules.timecall`, cdc 10.13) and the hub's clock asks the game (`tick`) until it runs out (his hand
dead, carried out at the table too) or he acts. While a fault of the hand waits for the TD (`waiting_td`),
play at the table stops: no action, no Time, and a countdown under way does not run out; the TD's ruling
ends it. A part of `hub.room.game.TableGame`, which owns the state named below. Pure: the hub's clock is
given to `tick` and to the call.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from hub.room.table_setup import Event, Output
from hub.rules import Hand, RulesError, refusals
from hub.rules import Ruling as EngineRuling
from hub.rules.rulesets import TimeCaller
from hub.rules.timecall import TimeCall
from tablewire import wire


class TableTime(ABC):
    """A player's Time call, its countdown, and the TD's wait, at one table."""

    # the game's state Time reads and changes (set by `TableGame.__init__`)
    table: str
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
        action, no Time) until he does, from the dashboard or `tapis tournament`."""
        return self.in_hand and any(e.get("hand") == self.hand_no for e in self.pending_td)

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
            if self._on_countdown is not None:
                self._on_countdown(self.table)
            out.events.append(self._event("time", seat=seat, countdown_at=called.countdown_at,
                                          expires_at=called.expires_at, article=called.article))
        else:
            out.events.append(self._event("ruling", seat=seat, decision=str(called.decision),
                                          article=called.article, options=list(called.options)))
        return out.extend(self._after_engine())

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
