"""What each of the desk's floor commands does to the tournament (hub, floor: a TD's command -> the
aggregate's call: a re-entry, an arrival, the wait-list, a penalty, the final table's draw, hand for
hand, a chip race, a deal, an undo).

Pure: returns the call, which `FloorService` runs store-first (`_run`) and answers with the moves it made.
"""

from __future__ import annotations

from collections.abc import Callable

from hub.floor.commands import (
    AnyCommand,
    Arrive,
    ChipRace,
    CommandError,
    Deal,
    HandForHand,
    Penalty,
    Redraw,
    Reenter,
    Undo,
    WaitList,
)
from hub.floor.moves import table_number
from hub.tournament.errors import FloorError
from hub.tournament.events import Event
from hub.tournament.penalties import PenaltyKind
from hub.tournament.tournament import Tournament

Action = Callable[[Tournament], list[Event]]


def desk_action(cmd: AnyCommand, now: float, *, still_to_pay: Callable[[], int],
                undone_through: Callable[[int], object]) -> Action:
    """The tournament's call for `cmd`; `still_to_pay`: the cents the places still to play pay (a deal shares
    exactly them); `undone_through`: the last record of the TD's action numbered N (an int), as stored."""
    if isinstance(cmd, Reenter):
        return lambda t: t.reenter(cmd.player, now)
    if isinstance(cmd, Arrive):
        return lambda t: t.player_arrived(cmd.player, now)
    if isinstance(cmd, WaitList):
        if cmd.action == "join":
            return lambda t: t.join_wait_list(cmd.player, now)
        return lambda t: t.seat_from_wait_list(now)
    if isinstance(cmd, Penalty):
        return lambda t: t.give_penalty(cmd.player, PenaltyKind(cmd.kind), cmd.amount, now)
    if isinstance(cmd, Redraw):
        return lambda t: t.redraw_final_table(now)
    if isinstance(cmd, HandForHand):
        return (lambda t: t.start_hand_for_hand(now)) if cmd.on else (lambda t: t.stop_hand_for_hand(now))
    if isinstance(cmd, ChipRace):
        number = table_number(cmd.table)
        return lambda t: t.chip_race(number, cmd.small_value, cmd.big_value, cmd.leftovers, now)
    if isinstance(cmd, Deal):
        still = still_to_pay()
        if sum(cmd.prizes.values()) != still:
            raise FloorError(f"a deal shares the {still} cents still to be paid, not {sum(cmd.prizes.values())}")
        return lambda t: t.make_deal(cmd.prizes, cmd.method, now)
    if isinstance(cmd, Undo):
        last = undone_through(cmd.action)
        if not isinstance(last, int):
            raise FloorError("rien à annuler à cet endroit / nothing to undo there")
        return lambda t: t.undo(cmd.action, last, now, by=cmd.by)
    raise CommandError(f"commande inconnue « {cmd.cmd} » / unknown command '{cmd.cmd}'")
