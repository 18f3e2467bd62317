"""Carrying out a board ruling exactly as given raises nothing, for every remedy of every ruleset.

Each case: a clean 6-handed hand, a board fault dealt on the felt, the ruling of the ruleset in
force (`hub.rulings.rule`, as the hub gives it), the dealer's correction as the ruling says, then
the hand to its end; exactly one fault in the whole hand. The ruling reaches the monitor either at
the card that revealed the fault (the live timing: the hub answers in milliseconds, the dealer may
still be dealing) or only once the faulty street is out. A ruling no script knows how to carry out
fails the test: every remedy a ruleset can give is exercised here.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hub import rulings
from table_agent.dealing import DealingMonitor, FaultDetected, HandContext, Street
from table_agent.dealing_script import TableScript
from table_agent.events import BOARD, BURN, TRAY

HOLE = ("As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c")


class RuledTable(TableScript):
    """A table whose faults are ruled by `ruleset` and told to the monitor at `timing`."""

    def __init__(self, ruleset: str, timing: str, option: int) -> None:
        super().__init__(DealingMonitor(table="t1"))
        self.ruleset, self.timing, self.option = ruleset, timing, option
        self.decisions: list[str] = []
        self.actions: list[str] = []
        self._waiting: list[FaultDetected] = []

    def _note(self, out: list[FaultDetected]) -> list[FaultDetected]:
        self._waiting += out
        if self.timing == "at_fault":
            self.ruled()
        return super()._note(out)

    def ruled(self) -> None:
        """The rulings of the faults seen so far reach the table (a TD picks option `option`)."""
        for fault in self._waiting:
            situation = rulings.Situation(substantial_action=rulings.is_substantial(self.ruleset, self.actions))
            ruling = rulings.rule(fault, self.ruleset, situation)
            decision = str(ruling.decision)
            self.monitor.expect_remedy(decision, cards=ruling.cards, seat=ruling.seat,
                                       dead_seats=ruling.dead_seats)
            if ruling.options:  # the TD's choice comes as another remedy
                decision = str(ruling.options[self.option % len(ruling.options)])
                self.monitor.expect_remedy(decision, cards=ruling.cards, seat=ruling.seat)
            self.decisions.append(decision)
        self._waiting = []

    def act(self, seat: int, to_act: int | None, action: str = "call") -> list[FaultDetected]:
        self.actions.append(action)
        return super().act(seat, to_act, action)

    @property
    def decision(self) -> str:
        self.ruled()
        return self.decisions[-1]


def start(t: RuledTable) -> None:
    ctx = HandContext(hand=3, seats=(1, 2, 3, 4, 5, 6), button=6, first_to_deal=1, dealer=6)
    t.monitor.start_hand(ctx)
    t.deal(ctx, HOLE)


def preflop(t: TableScript) -> None:
    t.round(Street.PREFLOP, [(3, "fold"), (4, "call"), (5, "fold"), (6, "fold"), (1, "call"), (2, "check")])


def checks(t: TableScript, street: Street) -> None:
    t.round(street, [(1, "check"), (2, "check"), (4, "check")])


def turn_and_river(t: TableScript) -> None:
    t.burn("3s")
    t.board("3h")
    checks(t, Street.TURN)
    t.burn("4s")
    t.board("4d")
    checks(t, Street.RIVER)


def open_round(t: TableScript, street: Street, *acts: tuple[int, str]) -> None:
    t.monitor.betting_opened(street)
    for seat, action in acts:
        t.monitor.set_to_act(seat)
        t.act(seat, seat, action)


class Unscripted(AssertionError):
    pass


def unscripted(t: RuledTable) -> Unscripted:
    return Unscripted(f"{t.ruleset} ruled {t.decision}: no script carries that remedy out")


def flop_without_burn(t: RuledTable) -> None:
    preflop(t)
    t.board("2s", "2h", "2d")
    if t.decision != "designate_burn":
        raise unscripted(t)
    t.move("2s", BURN)
    t.board("2c")
    checks(t, Street.FLOP)
    turn_and_river(t)


def flop_two_burns_flop_out(t: RuledTable) -> None:
    """cdc 8.3: the second burn becomes the first flop card, the last flop card the turn's burn."""
    preflop(t)
    t.burn("2s")
    t.burn("2h")
    t.board("2d", "2c", "5s")
    if t.decision != "burn_to_flop":
        raise unscripted(t)
    t.move("2h", BOARD)
    t.move("5s", BURN)
    checks(t, Street.FLOP)
    t.board("3h")  # its burn is 5s
    checks(t, Street.TURN)
    t.burn("4s")
    t.board("4d")
    checks(t, Street.RIVER)


def flop_two_burns_caught(t: RuledTable) -> None:
    """The table saw the second burn before any flop card: the dealer turns it up at once."""
    preflop(t)
    t.burn("2s")
    t.burn("2h")
    if t.decision != "burn_to_flop":
        raise unscripted(t)
    t.move("2h", BOARD)
    t.board("2d", "2c")
    checks(t, Street.FLOP)
    turn_and_river(t)


def flop_four_cards(t: RuledTable) -> None:
    preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c", "3s")
    if t.decision != "extra_card_burn":
        raise unscripted(t)
    t.move("3s", BURN)
    checks(t, Street.FLOP)
    t.board("3h")
    checks(t, Street.TURN)
    t.burn("4s")
    t.board("4d")
    checks(t, Street.RIVER)


def premature_flop(actions_before: int) -> Callable[[RuledTable], None]:
    def play(t: RuledTable) -> None:
        acts = [(3, "fold"), (4, "call"), (5, "fold"), (6, "fold"), (1, "call"), (2, "check")]
        open_round(t, Street.PREFLOP, *acts[:actions_before])
        t.burn("2s")
        t.board("2h", "2d", "2c")
        if t.decision == "misdeal":
            return
        if t.decision != "reshuffle_board":
            raise unscripted(t)
        for card in ("2h", "2d", "2c"):
            t.leave(card)
        for seat, action in acts[actions_before:]:
            t.monitor.set_to_act(seat)
            t.act(seat, seat, action)
        t.monitor.betting_closed(Street.PREFLOP)
        t.board("2d", "5c", "2h")  # a new flop without burn
        checks(t, Street.FLOP)
        turn_and_river(t)
    play.__name__ = f"premature_flop_after_{actions_before}"
    return play


def street_without_burn(street: Street) -> Callable[[RuledTable], None]:
    def play(t: RuledTable) -> None:
        preflop(t)
        t.burn("2s")
        t.board("2h", "2d", "2c")
        checks(t, Street.FLOP)
        if street is Street.RIVER:
            t.burn("3s")
            t.board("3h")
            checks(t, Street.TURN)
        t.board("5h")
        if t.decision != "burn_and_next":
            raise unscripted(t)
        t.move("5h", BURN)
        t.board("5c")
        checks(t, street)
        if street is Street.TURN:
            t.burn("4s")
            t.board("4d")
            checks(t, Street.RIVER)
    play.__name__ = f"{street}_without_burn"
    return play


def premature_turn(t: RuledTable) -> None:
    preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    open_round(t, Street.FLOP, (1, "check"))
    t.burn("3s")
    t.board("3h")
    decision = t.decision
    if decision == "river_as_turn":
        t.move("3h", TRAY)  # set aside until the river is reshuffled
    elif decision == "bottom_card":
        t.leave("3s")  # the burn back on top of the stub
        t.move("3h", BURN)  # the exposed card is burned
        t.board("5c")  # the third card from the bottom is the turn, at once
    elif decision == "reshuffle_board":
        t.leave("3h")  # back into the stub
    else:
        raise unscripted(t)
    for seat in (2, 4):
        t.monitor.set_to_act(seat)
        t.act(seat, seat, "check")
    t.monitor.betting_closed(Street.FLOP)
    if decision == "river_as_turn":
        t.burn("4s")
        t.board("4d")  # what would have been the river
        checks(t, Street.TURN)
        t.move("3h", BOARD)  # reshuffled with the stub, drawn as the river without burn
    elif decision == "bottom_card":
        checks(t, Street.TURN)
        t.burn("3s")
        t.board("4d")
    else:
        t.board("5c")  # new turn without burn: 3s stands as its burn
        checks(t, Street.TURN)
        t.burn("4s")
        t.board("4d")
    checks(t, Street.RIVER)


def premature_river(t: RuledTable) -> None:
    preflop(t)
    t.burn("2s")
    t.board("2h", "2d", "2c")
    checks(t, Street.FLOP)
    t.burn("3s")
    t.board("3h")
    open_round(t, Street.TURN, (1, "check"))
    t.burn("4s")
    t.board("4d")
    decision = t.decision
    if decision == "reshuffle_board":
        t.leave("4d")
    elif decision == "burn_premature":
        t.leave("4s")  # the burn back on top
        t.move("4d", BURN)  # the exposed river is burned
    else:
        raise unscripted(t)
    for seat in (2, 4):
        t.monitor.set_to_act(seat)
        t.act(seat, seat, "check")
    t.monitor.betting_closed(Street.TURN)
    if decision == "burn_premature":
        t.burn("4s")
    t.board("4c")
    checks(t, Street.RIVER)


SCRIPTS: dict[str, Callable[[RuledTable], None]] = {
    f.__name__: f for f in (
        flop_without_burn, flop_two_burns_flop_out, flop_two_burns_caught, flop_four_cards,
        premature_flop(0), premature_flop(1), premature_flop(2), street_without_burn(Street.TURN),
        street_without_burn(Street.RIVER), premature_turn, premature_river)
}


@pytest.mark.parametrize("timing", ["at_fault", "street_out"])
@pytest.mark.parametrize("script", sorted(SCRIPTS))
@pytest.mark.parametrize("ruleset", rulings.RULESETS)
def test_remedy_carried_out_raises_nothing(ruleset: str, script: str, timing: str) -> None:
    for option in (0, 1):  # each choice a TD may make, where the ruling leaves it to him
        t = RuledTable(ruleset, timing, option)
        start(t)
        SCRIPTS[script](t)
        t.ruled()
        kinds = [str(f.kind) for f in t.faults]
        assert len(kinds) == 1, f"{ruleset} {script} ({t.decisions}) at {timing}: {kinds}"
