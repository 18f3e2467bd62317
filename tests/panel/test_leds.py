"""The LED policy, purely: seat to act lit, fault lit, Time countdown blinking faster at the end."""

from __future__ import annotations

import pytest

from hw.panel_leds import OFF, ON, LedMode, LedPolicy, LedState, TableLights

POLICY = LedPolicy(9)


def transitions(state_at: object, start: float, end: float, step: float = 0.0625) -> int:
    """Count on/off changes of a LED sampled every `step` seconds in [start, end)."""
    assert callable(state_at)
    changes, previous, t = 0, None, start
    while t < end - 1e-9:
        lit = state_at(t)
        if previous is not None and lit != previous:
            changes += 1
        previous, t = lit, t + step
    return changes


def test_seat_to_act_is_lit_and_others_are_off() -> None:
    frame = POLICY.decide(TableLights(to_act=4), now=0.0)
    assert frame.to_act[4] == ON
    assert [s for s, led in frame.to_act.items() if led != OFF] == [4]
    assert all(led == OFF for led in frame.fault.values())
    assert frame.dealer == OFF


def test_seats_at_fault_are_lit() -> None:
    frame = POLICY.decide(TableLights(to_act=2, faults=frozenset({5, 7})), now=0.0)
    assert {s for s, led in frame.fault.items() if led == ON} == {5, 7}
    assert frame.to_act[2] == ON


def test_cdc_time_blinks_at_1_hz_for_a_minute_then_4_hz_for_the_last_ten_seconds() -> None:
    # cdc-2013 4.5: one minute to decide, then a ten-second count, then the hand is dead
    called = 100.0
    lights = TableLights(to_act=3, time_seat=3, time_ends_at=called + 70.0)
    assert POLICY.decide(lights, called).to_act[3] == LedState(LedMode.BLINK, 1.0, origin=170.0)
    assert POLICY.decide(lights, called + 59.9).to_act[3].period == 1.0
    assert POLICY.decide(lights, called + 60.0).to_act[3].period == 0.25
    assert POLICY.decide(lights, called + 69.9).to_act[3].period == 0.25
    assert POLICY.decide(lights, called + 70.0).to_act[3] == ON  # run out: steady until the ruling

    def lit(t: float) -> bool:
        return POLICY.decide(lights, t).to_act[3].lit_at(t)

    assert transitions(lit, called, called + 10.0) == 19  # 1 Hz: on/off each half second
    assert transitions(lit, called + 60.0, called + 70.0) == 79  # 4 Hz
    assert POLICY.decide(lights, called + 30.0).dealer == ON


def test_pouques_time_turns_fast_for_the_ten_seconds_counted_aloud() -> None:
    # pouques-2020 art. 63: 45 s, the last 10 counted aloud
    lights = TableLights(to_act=6, time_seat=6, time_ends_at=45.0)
    assert POLICY.decide(lights, 34.9).to_act[6].hertz == 1.0
    assert POLICY.decide(lights, 35.0).to_act[6].hertz == 4.0


def test_countdown_blinks_on_whole_seconds_before_the_end() -> None:
    lights = TableLights(time_seat=1, time_ends_at=70.0)
    led = POLICY.decide(lights, 50.0).to_act[1]
    assert led.lit_at(50.0) and led.lit_at(50.49)
    assert not led.lit_at(50.5) and not led.lit_at(50.99)


def test_time_on_another_seat_than_the_one_to_act() -> None:
    lights = TableLights(to_act=2, time_seat=8, time_ends_at=10.0)
    frame = POLICY.decide(lights, 0.0)
    assert frame.to_act[2] == ON
    assert frame.to_act[8].mode is LedMode.BLINK


def test_dealer_led_blinks_while_a_seat_is_picked() -> None:
    frame = POLICY.decide(TableLights(), 0.0, picking=True)
    assert frame.dealer == LedState(LedMode.BLINK, 0.5)


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(ValueError):
        TableLights(time_seat=3)
    with pytest.raises(ValueError):
        LedState(LedMode.BLINK)
    with pytest.raises(ValueError):
        LedPolicy(9, slow_period=0.2, fast_period=0.5)
    with pytest.raises(ValueError):
        LedPolicy(11)
