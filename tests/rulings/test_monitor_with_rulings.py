"""The two machines wired as the lead will wire them: the monitor's fault goes to `rule()`, the
ruling comes back as `expect_remedy()`, the dealer follows the ruling, the hand ends clean."""

from __future__ import annotations

import fault_scenarios as fs
import pytest

from hub.rulings import Decision as D
from hub.rulings import deadline, rule
from table_agent.dealing import Street
from table_agent.dealing_script import TableScript
from table_agent.events import BOARD, BURN, TRAY


def wire(t: TableScript, ruleset: str) -> D:
    """Rule the last fault and pass the ruling back to the table."""
    ruling = rule(t.faults[-1], ruleset)
    t.monitor.expect_remedy(ruling.decision, cards=ruling.cards, seat=ruling.seat, dead_seats=ruling.dead_seats)
    return ruling.decision


def checks(t: TableScript, street: Street, seats: tuple[int, ...] = (2, 4)) -> None:
    t.round(street, [(s, "check") for s in seats])


@pytest.mark.parametrize("ruleset", ["cdc-2013", "brest-2011", "pouques-2020", "pcpm", "cpt87"])
def test_premature_turn_each_rulebooks_procedure(ruleset: str) -> None:
    t, ctx = fs.table(deadline(ruleset))
    fs.to_flop_round(t, ctx)
    t.monitor.set_to_act(1)
    t.act(1, 1, "check")
    t.burn("3s")
    t.board("3h")
    decision = wire(t, ruleset)
    if decision is D.RIVER_AS_TURN:  # cdc 8.4, brest III.19, pcpm
        t.move("3h", TRAY)
        checks(t, Street.FLOP)
        t.burn("4s")
        t.board("4d")
        checks(t, Street.TURN)
        t.move("3h", BOARD)  # reshuffled, comes back as the river without a burn
    elif decision is D.BOTTOM_CARD:  # pouques 77
        t.leave("3s")
        t.move("3h", BURN)
        t.board("5c")
        checks(t, Street.FLOP)
        checks(t, Street.TURN)
        t.burn("3s")
        t.board("4d")
    elif decision is D.RESHUFFLE_BOARD:  # cpt87 6.9
        t.leave("3h")
        checks(t, Street.FLOP)
        t.board("5c")  # a new turn, no burn
        checks(t, Street.TURN)
        t.burn("4s")
        t.board("4d")
    else:
        raise AssertionError(decision)
    checks(t, Street.RIVER)
    assert [f.kind.value for f in t.faults] == ["premature_turn"]
    expected = {"cdc-2013": D.RIVER_AS_TURN, "brest-2011": D.RIVER_AS_TURN, "pcpm": D.RIVER_AS_TURN,
                "pouques-2020": D.BOTTOM_CARD, "cpt87": D.RESHUFFLE_BOARD}
    assert decision is expected[ruleset]


@pytest.mark.parametrize("ruleset, decision", [
    ("cdc-2013", D.MISDEAL), ("brest-2011", D.BURN_AS_FIRST), ("pouques-2020", D.HAND_DEAD),
    ("pcpm", D.BURN_AS_FIRST), ("cpt87", D.MISDEAL),
])
def test_extra_card_to_the_small_blind(ruleset: str, decision: D) -> None:
    t, ctx = fs.table(deadline(ruleset))
    t.deal(ctx, fs.HOLE)
    t.hole(1, "2s")
    assert wire(t, ruleset) is decision
    if decision is D.MISDEAL:
        t.clear()  # gathered for the redeal: nothing is judged until the next start_hand
        assert [f.kind.value for f in t.faults] == ["extra_hole_card"]
        return
    if decision is D.BURN_AS_FIRST:
        t.move("2s", BURN)  # taken back: it is the flop's burn (brest III.7)
        fs.preflop(t)
    else:  # pouques 79: seat 1's hand is dead and mucked
        t.monitor.set_to_act(3)
        t.muck(1)
        t.round(Street.PREFLOP, [(3, "fold"), (4, "call"), (5, "fold"), (6, "fold"), (2, "check")])
        t.burn("2h")
    t.board("2d", "2c", "3s")
    assert [f.kind.value for f in t.faults] == ["extra_hole_card"]
