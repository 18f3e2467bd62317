"""The panel's input logic, purely (no gpiozero): debounce, long presses, amounts, seat picks."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hw.panel_events import (
    AmountKeyed,
    DealerButton,
    DealerPressed,
    SeatActed,
    SeatAction,
    SeatButton,
    SeatOffered,
)
from hw.panel_input import MAX_AMOUNT, PanelInput

FOLD, CHECK_CALL, BET_RAISE, ALLIN = SeatButton.FOLD, SeatButton.CHECK_CALL, SeatButton.BET_RAISE, SeatButton.ALLIN


def pad() -> PanelInput:
    return PanelInput(9, bounce=0.02, allin_hold=0.8, new_hand_hold=1.0, clear_hold=1.0, pick_window=8.0)


def test_chatter_within_the_bounce_window_is_one_press() -> None:
    p = pad()
    out = []
    # press at 0 chattering for 3 ms, released at 0.15 chattering again
    for t, down in [(0.0, True), (0.001, False), (0.002, True), (0.003, False), (0.004, True),
                    (0.15, False), (0.151, True), (0.152, False)]:
        out += p.seat_edge(4, FOLD, down, t)
    assert out == [SeatActed(4, SeatAction.FOLD, None, 0.0)]
    assert p.seat_edge(4, FOLD, True, 0.4) == [SeatActed(4, SeatAction.FOLD, None, 0.4)]


def test_a_release_lost_in_bounce_does_not_block_the_next_press() -> None:
    p = pad()
    assert p.seat_edge(2, CHECK_CALL, True, 0.0)
    assert p.seat_edge(2, CHECK_CALL, False, 0.01) == []  # too short: taken as bounce
    assert p.seat_edge(2, CHECK_CALL, True, 2.0) == [SeatActed(2, SeatAction.CHECK, None, 2.0)]


def test_allin_is_reported_at_release_after_the_hold() -> None:
    p = pad()
    assert p.seat_edge(5, ALLIN, True, 10.0) == []
    assert p.seat_edge(5, ALLIN, False, 10.79) == []  # 0.79 s: not deliberate enough
    assert p.seat_edge(5, ALLIN, True, 11.0) == []
    assert p.seat_edge(5, ALLIN, False, 11.8) == [SeatActed(5, SeatAction.ALLIN, None, 11.8)]


def acted(events: Sequence[object]) -> SeatAction:
    """The action of the one `SeatActed` a seat's edge produced."""
    (event,) = events
    assert isinstance(event, SeatActed)
    return event.action


def test_check_call_and_bet_raise_resolution() -> None:
    p = pad()
    p.set_to_call(1, 200)
    p.set_to_call(2, 0, opened=True)  # big blind option pre-flop
    p.set_to_call(3, 0)
    assert acted(p.seat_edge(1, CHECK_CALL, True, 0.0)) is SeatAction.CALL
    assert acted(p.seat_edge(1, BET_RAISE, True, 0.0)) is SeatAction.RAISE
    assert acted(p.seat_edge(2, CHECK_CALL, True, 0.0)) is SeatAction.CHECK
    assert acted(p.seat_edge(2, BET_RAISE, True, 0.0)) is SeatAction.RAISE
    assert acted(p.seat_edge(3, BET_RAISE, True, 0.0)) is SeatAction.BET
    with pytest.raises(ValueError, match="seat 10 is not at this table"):
        p.set_to_call(10, 0)
    with pytest.raises(ValueError):
        p.set_to_call(1, -5)


def test_amount_steps_cycle_1_10_100_chip_units_and_long_press_clears() -> None:
    p = pad()
    p.set_chip_unit(25)
    assert p.encoder_step(True, 0.0) == [AmountKeyed(25, 0.0)]
    p.push_edge(True, 0.1)
    p.push_edge(False, 0.2)  # short: 10 x 25
    assert p.step == 250
    assert p.encoder_step(True, 0.3) == [AmountKeyed(275, 0.3)]
    p.push_edge(True, 0.4)
    p.push_edge(False, 0.5)
    assert p.step == 2500
    p.push_edge(True, 0.6)
    p.push_edge(False, 0.7)
    assert p.step == 25
    p.push_edge(True, 1.0)
    assert p.push_edge(False, 2.0) == [AmountKeyed(0, 2.0)]
    assert p.amount == 0
    assert p.encoder_step(False, 2.1) == []  # already at zero: nothing changes


def test_level_change_snaps_the_amount_to_the_new_chip_unit() -> None:
    p = pad()
    p.set_chip_unit(25)
    for i in range(5):
        p.encoder_step(True, i)  # 125
    p.set_chip_unit(100)
    assert p.amount == 100  # 1.25 units rounds to 1 (half rounds up: 150 would give 200)
    p.set_chip_unit(1000)
    assert p.amount == 0
    with pytest.raises(ValueError):
        p.set_chip_unit(0)


@given(unit=st.sampled_from([1, 5, 25, 100, 500, 1000]), clicks=st.lists(st.booleans(), max_size=60))
def test_amount_is_always_a_non_negative_multiple_of_the_chip_unit(unit: int, clicks: list[bool]) -> None:
    p = pad()
    p.set_chip_unit(unit)
    for i, clockwise in enumerate(clicks):
        p.encoder_step(clockwise, float(i))
        assert 0 <= p.amount <= MAX_AMOUNT and p.amount % unit == 0


def test_seat_pick_wraps_around_the_table_and_confirms() -> None:
    p = pad()
    p.to_act = 8
    assert p.dealer_edge(DealerButton.TIME, True, 0.0) == [SeatOffered(DealerButton.TIME, 8, 0.0)]
    p.dealer_edge(DealerButton.TIME, False, 0.1)
    assert p.encoder_step(True, 0.2) == [SeatOffered(DealerButton.TIME, 9, 0.2)]
    assert p.encoder_step(True, 0.3) == [SeatOffered(DealerButton.TIME, 1, 0.3)]
    assert p.amount == 0  # turning during a pick moves the seat, not the amount
    assert p.dealer_edge(DealerButton.TIME, True, 0.5) == [DealerPressed(DealerButton.TIME, 1, 0.5)]
    assert p.picking is None


def test_another_seat_bound_button_restarts_the_pick_on_the_offered_seat() -> None:
    p = pad()
    p.dealer_edge(DealerButton.AWAY, True, 0.0)
    p.dealer_edge(DealerButton.AWAY, False, 0.1)
    p.encoder_step(True, 0.2)  # seat 2
    assert p.dealer_edge(DealerButton.BACK, True, 0.3) == [SeatOffered(DealerButton.BACK, 2, 0.3)]


def test_the_pick_window_restarts_with_each_turn_and_then_expires() -> None:
    p = pad()
    p.dealer_edge(DealerButton.AWAY, True, 0.0)
    p.dealer_edge(DealerButton.AWAY, False, 0.1)
    p.encoder_step(True, 7.0)  # window now runs to 15.0
    p.expire(14.9)
    assert p.picking is DealerButton.AWAY
    p.expire(15.0)
    assert p.picking is None
    assert p.dealer_edge(DealerButton.AWAY, True, 15.1) == [SeatOffered(DealerButton.AWAY, 1, 15.1)]


def test_new_hand_clears_what_was_owed_and_the_amount() -> None:
    p = pad()
    p.set_to_call(3, 400)
    p.encoder_step(True, 0.0)
    p.dealer_edge(DealerButton.NEW_HAND, True, 1.0)
    assert p.dealer_edge(DealerButton.NEW_HAND, False, 2.0) == [
        DealerPressed(DealerButton.NEW_HAND, None, 2.0), AmountKeyed(0, 2.0)
    ]
    assert acted(p.seat_edge(3, CHECK_CALL, True, 3.0)) is SeatAction.CHECK
