"""The panel through the real gpiozero code: contacts closed and opened, events out, LED levels in.
Seat panels sit on MCP23017 pins, the dealer panel on Pi GPIOs; the tests taking the `panel` fixture
run on both backends of conftest (MockFactory pins, and the MCP23017 factory on a simulated bus)."""

from __future__ import annotations

import pytest
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hypothesis import given, settings
from hypothesis import strategies as st

from hw.panel import Panel, PanelError
from hw.panel_events import (
    AmountKeyed,
    DealerButton,
    DealerPressed,
    PanelEvent,
    SeatActed,
    SeatAction,
    SeatButton,
    SeatOffered,
)
from hw.panel_expander import MockExpanderFactory
from hw.panel_leds import TableLights
from hw.panel_pins import PanelConfig, PinMapError
from hw.ports import ManualClock
from simulators.panel import PanelSimulator
from tests.panel.conftest import Backend, screen

ALL_SEATS = range(1, 11)


def acted(events: list[PanelEvent]) -> list[SeatActed]:
    return [e for e in events if isinstance(e, SeatActed)]


@pytest.mark.parametrize("seat", ALL_SEATS)
def test_every_button_of_every_seat_yields_its_event(
    seat: int, panel: Panel, sim: PanelSimulator, clock: ManualClock, events: list[PanelEvent]
) -> None:
    buttons = panel.seat_buttons[seat]
    for button in SeatButton:
        pin = buttons[button].pin
        sim.down(pin)
        clock.advance(1.0)  # past the all-in hold
        sim.up(pin)
        clock.advance(0.5)
    assert events == [
        SeatActed(seat, SeatAction.FOLD, None, 1000.0),
        SeatActed(seat, SeatAction.CHECK, None, 1001.5),
        SeatActed(seat, SeatAction.BET, None, 1003.0),
        SeatActed(seat, SeatAction.ALLIN, None, 1005.5),  # all-in is reported at release
    ]


def test_check_call_and_bet_raise_follow_what_is_owed(
    panel: Panel, sim: PanelSimulator, events: list[PanelEvent]
) -> None:
    panel.set_to_call(3, 100)  # facing the big blind of 100
    panel.set_to_call(2, 0, opened=True)  # the big blind itself: may check, a bet/raise is a raise
    assert sim.press(3, "check") is SeatAction.CALL  # one button: facing a bet it can only call
    sim.press(3, "call")
    sim.press(2, "check")
    sim.press(2, "raise")
    sim.press(4, "bet")  # nothing known owed at seat 4: check/bet
    sim.press(4, "check")
    assert [(e.seat, e.action) for e in acted(events)] == [
        (3, SeatAction.CALL), (3, SeatAction.CALL), (2, SeatAction.CHECK), (2, SeatAction.RAISE),
        (4, SeatAction.BET), (4, SeatAction.CHECK),
    ]
    panel.clear_to_call()
    sim.press(3, "check")
    assert acted(events)[-1].action is SeatAction.CHECK


@pytest.mark.parametrize("bounces", [1, 3, 8])
def test_a_bouncing_contact_gives_one_event(
    bounces: int, panel: Panel, sim: PanelSimulator, events: list[PanelEvent]
) -> None:
    sim.bounces = bounces
    sim.press(7, "fold")
    sim.press(8, "check")
    sim.press(8, "check")  # the same button again, later: a second action
    sim.dealer("time", 5)
    assert [(e.seat, e.action) for e in acted(events)] == [
        (7, SeatAction.FOLD), (8, SeatAction.CHECK), (8, SeatAction.CHECK)
    ]
    assert [e for e in events if isinstance(e, DealerPressed)] == [
        DealerPressed(DealerButton.TIME, 5, events[-1].at)
    ]


def test_a_short_allin_press_is_ignored(
    panel: Panel, sim: PanelSimulator, clock: ManualClock, events: list[PanelEvent]
) -> None:
    pin = panel.seat_buttons[6][SeatButton.ALLIN].pin
    sim.down(pin)
    clock.advance(0.3)  # under the 0.8 s hold
    sim.up(pin)
    assert events == []


def test_amount_keyed_then_bet_or_raise_carries_it(
    panel: Panel, sim: PanelSimulator, events: list[PanelEvent]
) -> None:
    panel.set_chip_unit(25)
    sim.press(3, "bet", to=600)
    assert acted(events) == [SeatActed(3, SeatAction.BET, 600, acted(events)[0].at)]
    # the amount was consumed: the display is blank again and the next press carries none
    assert events[-1] == AmountKeyed(0, acted(events)[0].at)
    assert screen(panel).text == " " * 8
    panel.set_to_call(4, 600)
    sim.press(4, "raise", to=1850)
    sim.press(5, "raise")
    assert [(e.seat, e.action, e.to) for e in acted(events)] == [
        (3, SeatAction.BET, 600), (4, SeatAction.RAISE, 1850), (5, SeatAction.BET, None)
    ]
    assert "    1850" in screen(panel).shown


def test_encoder_moves_in_chip_units_and_snaps_on_level_change(
    panel: Panel, sim: PanelSimulator, events: list[PanelEvent]
) -> None:
    panel.set_chip_unit(25)
    sim.turn(3)
    sim.turn(-1)
    assert [e.amount for e in events if isinstance(e, AmountKeyed)] == [25, 50, 75, 50]
    sim.turn(-5)  # never below zero
    assert panel.input.amount == 0
    sim.turn(7)
    assert panel.input.amount == 175
    panel.set_chip_unit(100)  # next level's smallest chip is 100: 175 snaps to 200
    assert panel.input.amount == 200
    assert screen(panel).text == "     200"


def test_dealer_commands_pick_their_seat(panel: Panel, sim: PanelSimulator, events: list[PanelEvent]) -> None:
    panel.show(TableLights(to_act=4))
    sim.dealer("time")  # Time offers the seat to act
    sim.dealer("away", 9)
    sim.dealer("back", 2)
    sim.dealer("new_hand")
    commands = [(e.button, e.seat) for e in events if isinstance(e, DealerPressed)]
    assert commands == [
        (DealerButton.TIME, 4), (DealerButton.AWAY, 9), (DealerButton.BACK, 2), (DealerButton.NEW_HAND, None)
    ]
    offered = [e.seat for e in events if isinstance(e, SeatOffered) and e.button is DealerButton.AWAY]
    assert offered == [4, 5, 6, 7, 8, 9]  # from the seat to act, clockwise
    assert "AWAY   9" in screen(panel).shown


def test_encoder_push_confirms_a_pick(panel: Panel, sim: PanelSimulator, events: list[PanelEvent]) -> None:
    sim.tap(panel.dealer_buttons[DealerButton.BACK].pin, 0.1)
    sim.turn(-1)  # from seat 1 counter-clockwise: seat 10
    sim.tap(panel.push.pin, 0.1)
    assert [e for e in events if isinstance(e, DealerPressed)][0].seat == 10


def test_an_unconfirmed_pick_expires(
    panel: Panel, sim: PanelSimulator, clock: ManualClock, events: list[PanelEvent]
) -> None:
    sim.tap(panel.dealer_buttons[DealerButton.AWAY].pin, 0.1)
    assert panel.input.picking is DealerButton.AWAY
    clock.advance(8.0)
    panel.refresh()
    assert panel.input.picking is None
    sim.turn(1)  # the encoder keys amounts again
    assert not any(isinstance(e, DealerPressed) for e in events)
    assert events[-1] == AmountKeyed(1, events[-1].at)


def test_new_hand_needs_a_long_press(
    panel: Panel, sim: PanelSimulator, clock: ManualClock, events: list[PanelEvent]
) -> None:
    pin = panel.dealer_buttons[DealerButton.NEW_HAND].pin
    sim.down(pin)
    clock.advance(0.5)
    sim.up(pin)
    clock.advance(0.5)
    assert events == []
    sim.down(pin)
    clock.advance(1.0)
    sim.up(pin)
    assert events == [DealerPressed(DealerButton.NEW_HAND, None, 1002.0)]


def test_seat_to_act_led_is_lit(panel: Panel) -> None:
    panel.show(TableLights(to_act=4))
    assert [s for s, led in panel.to_act_leds.items() if led.pin.state] == [4]
    panel.show(TableLights(to_act=5))
    assert [s for s, led in panel.to_act_leds.items() if led.pin.state] == [5]


def test_led_pin_history_on_mock_pins(config: PanelConfig, clock: ManualClock) -> None:
    factory = MockExpanderFactory(config.expanders)
    try:
        with Panel(config, pin_factory=factory, clock=clock, on_event=lambda e: None) as panel:
            panel.show(TableLights(to_act=4))
            panel.show(TableLights(to_act=5))
            panel.show(TableLights(to_act=5, faults=frozenset({5})))
            assert [p.state for p in panel.to_act_leds[4].pin.states] == [False, True, False]
            assert [p.state for p in panel.to_act_leds[5].pin.states] == [False, True]
            assert [p.state for p in panel.fault_leds[5].pin.states] == [False, True]
            assert [p.state for p in panel.to_act_leds[6].pin.states] == [False]
    finally:
        factory.reset()


def test_seat_at_fault_is_lit(panel: Panel) -> None:
    panel.show(TableLights(to_act=1, faults=frozenset({3, 9})))
    assert {s for s, led in panel.fault_leds.items() if led.pin.state} == {3, 9}
    panel.show(TableLights(to_act=1))
    assert not any(led.pin.state for led in panel.fault_leds.values())


def test_time_countdown_blinks_faster_in_the_last_ten_seconds(panel: Panel, clock: ManualClock) -> None:
    # cdc-2013 4.5 on seat 6: a minute then ten seconds; the agent refreshes every 1/16 s
    start = clock.now()
    panel.show(TableLights(to_act=6, time_seat=6, time_ends_at=start + 70.0))
    pin = panel.to_act_leds[6].pin

    def changes_over(seconds: float) -> int:
        changes, level = 0, pin.state
        for _ in range(int(seconds * 16)):
            clock.advance(1 / 16)
            panel.refresh()
            changes, level = changes + (pin.state != level), pin.state
        return changes

    assert changes_over(50.0) == 100  # 1 Hz: two changes a second
    changes_over(10.0)
    assert changes_over(10.0) == 80  # last ten seconds at 4 Hz
    assert pin.state  # run out: steady on until the hub rules
    assert changes_over(5.0) == 0
    assert panel.dealer_led is not None and not panel.dealer_led.pin.state


def test_closing_releases_every_pin(config: PanelConfig, factory: Factory, clock: ManualClock, panel: Panel) -> None:
    panel.show(TableLights(to_act=2))
    panel.close()
    assert all(d.closed for d in panel.devices())
    assert not factory.pin(config.seats[2].to_act_led).state  # closing turned the LED off
    with Panel(config, pin_factory=factory, clock=clock, on_event=lambda e: None) as again:
        assert again.seat_buttons[1][SeatButton.FOLD].pin is factory.pin("MCP20:A0")


def test_a_pin_already_taken_is_refused_and_nothing_leaks(
    config: PanelConfig, factory: Factory, clock: ManualClock, panel: Panel
) -> None:
    with pytest.raises(PanelError, match="MCP20:A0"):
        Panel(config, pin_factory=factory, clock=clock, on_event=lambda e: None)
    # the live panel still works: the failed one released only what it took
    assert panel.seat_buttons[1][SeatButton.FOLD].closed is False


def test_expander_pins_unknown_to_the_factory_are_a_pin_map_error(clock: ManualClock) -> None:
    factory = MockFactory()  # no expander headers: MCP pins do not exist here
    try:
        with pytest.raises(PinMapError, match="MCP20:A0"):
            Panel(PanelConfig.reference(2), pin_factory=factory, clock=clock, on_event=lambda e: None)
        assert not factory._reservations or not any(factory._reservations.values())
    finally:
        factory.reset()


def test_map_not_covering_the_table_is_refused(factory: Factory, clock: ManualClock) -> None:
    with pytest.raises(PinMapError, match="seat 10"):
        Panel(PanelConfig.reference(9), seats=10, pin_factory=factory, clock=clock, on_event=lambda e: None)


@pytest.mark.allow_logged_exceptions
def test_a_failing_sink_is_logged_not_raised_into_gpiozero(
    config: PanelConfig, backend: Backend, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(event: PanelEvent) -> None:
        raise RuntimeError("queue full")

    with Panel(config, pin_factory=backend.factory, clock=clock, on_event=broken) as panel:
        pin = panel.seat_buttons[2][SeatButton.FOLD].pin
        with caplog.at_level("ERROR"):
            PanelSimulator(panel, clock, bus=backend.bus).down(pin)
        assert "panel event lost" in caplog.text


def test_a_two_seat_panel_on_bare_pi_gpios_with_a_pwm_pin_factory(clock: ManualClock) -> None:
    # small home-game table: no expanders, everything on the header; PWM pins work for the LEDs too
    import tomllib

    from tests.panel.test_pins import BARE_TOML

    config = PanelConfig.parse(tomllib.loads(BARE_TOML)["panel"])
    factory = MockFactory(pin_class=MockPWMPin)
    events: list[PanelEvent] = []
    try:
        with Panel(config, pin_factory=factory, clock=clock, on_event=events.append) as panel:
            sim = PanelSimulator(panel, clock, bounces=2)
            panel.set_to_call(2, 50)
            sim.press(1, "fold")
            sim.press(2, "call")
            sim.press(2, "allin")
            panel.show(TableLights(to_act=2))
            assert panel.to_act_leds[2].pin.state == 1
            assert [(e.seat, e.action) for e in acted(events)] == [
                (1, SeatAction.FOLD), (2, SeatAction.CALL), (2, SeatAction.ALLIN)
            ]
    finally:
        factory.reset()


def test_gpiozero_bounce_time_and_pull_ups_are_set_on_every_button(panel: Panel) -> None:
    buttons = [b for seat in panel.seat_buttons.values() for b in seat.values()]
    buttons += [*panel.dealer_buttons.values(), panel.push]
    assert len(buttons) == 45
    assert {(b.pin.bounce, b.pin.pull) for b in buttons} == {(0.02, "up")}


press_plan = st.lists(
    st.tuples(st.integers(1, 10), st.sampled_from(list(SeatButton)), st.integers(0, 8),
              st.floats(0.03, 1.5)),
    min_size=1, max_size=25,
)


@settings(max_examples=40, deadline=None)
@given(plan=press_plan)
def test_any_sequence_of_bouncing_presses_gives_one_event_per_press(
    plan: list[tuple[int, SeatButton, int, float]]
) -> None:
    config = PanelConfig.reference(10)
    factory = MockExpanderFactory(config.expanders)
    clock = ManualClock()
    events: list[PanelEvent] = []
    try:
        with Panel(config, pin_factory=factory, clock=clock, on_event=events.append) as panel:
            sim = PanelSimulator(panel, clock)
            expected: list[tuple[int, SeatAction]] = []
            for seat, button, bounces, hold in plan:
                sim.bounces = bounces
                sim.tap(panel.seat_buttons[seat][button].pin, hold)
                if button is SeatButton.ALLIN:
                    # held from the first contact: the press chatter (2 ms per bounce) counts too
                    if hold + bounces * 2 * sim.chatter_s >= 0.8:
                        expected.append((seat, SeatAction.ALLIN))
                else:
                    action = {SeatButton.FOLD: SeatAction.FOLD, SeatButton.CHECK_CALL: SeatAction.CHECK,
                              SeatButton.BET_RAISE: SeatAction.BET}[button]
                    expected.append((seat, action))
            assert [(e.seat, e.action) for e in acted(events)] == expected
    finally:
        factory.reset()


def test_while_the_table_waits_for_the_td_nobody_speaks_and_the_panel_says_so(panel: Panel, clock: ManualClock) -> None:
    """Issue #26: a fault left to the TD stops play: no to-act LED, the dealer LED blinks fast, and the
    dealer's display reads "APPEL DT" until he decides."""
    panel.show(TableLights(to_act=4, faults=frozenset({4}), td_wait=True))
    assert not any(led.pin.state for led in panel.to_act_leds.values())
    assert panel.fault_leds[4].pin.state  # the seat at fault stays lit
    assert panel.display.text == "APPEL DT"  # type: ignore[attr-defined]
    assert panel.dealer_led is not None
    seen = set()
    for _ in range(8):
        clock.advance(0.05)
        panel.refresh()
        seen.add(panel.dealer_led.pin.state)
    assert seen == {True, False}  # blinking
    panel.show(TableLights(to_act=4))  # decided: play resumes
    assert panel.to_act_leds[4].pin.state and panel.display.text.strip() == ""  # type: ignore[attr-defined]
    panel.refresh()
    assert not panel.dealer_led.pin.state
