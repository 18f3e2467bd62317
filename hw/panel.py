"""Seat and dealer panels on gpiozero: buttons, LEDs and the amount encoder of one table.

Sits at the edge of the table agent: builds gpiozero button inputs, `LED` and `RotaryEncoder` devices on an
injected pin factory from a `PanelConfig`, turns their callbacks into `SeatActed` / `DealerPressed`
events (via the pure `PanelInput`, stamped by the injected `Clock`) handed to `on_event`, and lights the
LEDs from `TableLights` through the pure `LedPolicy` each time the agent calls `refresh()`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from types import TracebackType
from typing import Protocol

from gpiozero import (  # gpiozero ships no type hints
    LED,
    Device,
    DigitalInputDevice,
    GPIOZeroError,
    PinInvalidPin,
    RotaryEncoder,
)
from gpiozero.pins import Factory

from hw.errors import HardwareError
from hw.panel_events import DealerButton, PanelEvent, SeatButton
from hw.panel_input import PanelInput
from hw.panel_leds import LedFrame, LedPolicy, TableLights
from hw.panel_pins import PanelConfig, PinMapError
from hw.ports import Clock

log = logging.getLogger(__name__)

EventSink = Callable[[PanelEvent], None]


class PanelError(HardwareError, OSError):
    """The panel's devices could not be opened (pin already in use, GPIO driver refused)."""


class AmountDisplay(Protocol):
    """The dealer panel's 8-digit display (MAX7219 module in the reference wiring)."""

    def show(self, text: str) -> None: ...

    def close(self) -> None: ...


class MemoryDisplay:
    """A display that remembers what it showed: for tests, the simulator and headless tables."""

    def __init__(self) -> None:
        self.shown: list[str] = []

    @property
    def text(self) -> str:
        return self.shown[-1] if self.shown else ""

    def show(self, text: str) -> None:
        self.shown.append(text)

    def close(self) -> None:
        pass


TD_WAIT_TEXT = "APPEL DT"  # « appel du directeur de tournoi »: play stopped until he decides


def display_text(pad: PanelInput, now: float) -> str:
    """Eight characters: `AWAY   3` while picking a seat, `STEP 250` just after the step changed,
    else the keyed amount right-aligned (blank at 0)."""
    if pad.picking is not None:
        word = {DealerButton.AWAY: "AWAY", DealerButton.BACK: "BACK", DealerButton.TIME: "TIME"}[pad.picking]
        return f"{word}{pad.picked_seat:>4}"
    if now < pad.step_shown_until:
        return f"STEP{pad.step:>4}" if pad.step < 10_000 else f"S{pad.step:>7}"
    return f"{pad.amount:>8}" if pad.amount else " " * 8


class Panel:
    """All panels of one table. gpiozero callbacks feed `PanelInput` under a lock and pass the events
    to `on_event`, which must only enqueue: the agent's thread owns the table state.
    """

    def __init__(
        self,
        config: PanelConfig,
        *,
        pin_factory: Factory,
        clock: Clock,
        on_event: EventSink,
        seats: int | None = None,
        policy: LedPolicy | None = None,
        display: AmountDisplay | None = None,
    ) -> None:
        self.seats = seats if seats is not None else max(config.seats)
        config.check_table(self.seats)
        self.config = config
        self._clock = clock
        self._factory = pin_factory
        self._on_event = on_event
        self._lock = threading.RLock()
        self.input = PanelInput(
            self.seats,
            bounce=config.bounce_ms / 1000,
            allin_hold=config.allin_hold_ms / 1000,
            new_hand_hold=config.new_hand_hold_ms / 1000,
            clear_hold=config.clear_hold_ms / 1000,
            pick_window=config.pick_window_ms / 1000,
        )
        self.policy = policy if policy is not None else LedPolicy(self.seats)
        self.display = display if display is not None else MemoryDisplay()  # the panel owns and closes it
        self._lights = TableLights()
        self._shown_text: str | None = None
        self.seat_buttons: dict[int, dict[SeatButton, DigitalInputDevice]] = {}
        self.to_act_leds: dict[int, LED] = {}
        self.fault_leds: dict[int, LED] = {}
        self.dealer_buttons: dict[DealerButton, DigitalInputDevice] = {}
        bounce = config.bounce_ms / 1000 or None
        # Buttons are DigitalInputDevice (Button's base): long presses are timed on the injected clock,
        # and Button's hold thread per button (45 of them) polls every 100 ms and takes 0.1 s to close.
        with ExitStack() as undo:  # a half-built panel releases the pins it took
            for seat in range(1, self.seats + 1):
                pins = config.seats[seat]
                buttons: dict[SeatButton, DigitalInputDevice] = {}
                for kind in SeatButton:
                    button = self._open(undo, DigitalInputDevice, getattr(pins, kind.value), pin_factory,
                                        pull_up=True, bounce_time=bounce)
                    button.when_activated = self._seat_handler(seat, kind, True)
                    button.when_deactivated = self._seat_handler(seat, kind, False)
                    buttons[kind] = button
                self.seat_buttons[seat] = buttons
                self.to_act_leds[seat] = self._open(undo, LED, pins.to_act_led, pin_factory)
                self.fault_leds[seat] = self._open(undo, LED, pins.fault_led, pin_factory)
            dealer = config.dealer
            for command in DealerButton:
                button = self._open(undo, DigitalInputDevice, getattr(dealer, command.value), pin_factory,
                                    pull_up=True, bounce_time=bounce)
                button.when_activated = self._dealer_handler(command, True)
                button.when_deactivated = self._dealer_handler(command, False)
                self.dealer_buttons[command] = button
            # max_steps=0: the encoder only reports detents; the amount lives in PanelInput
            self.encoder: RotaryEncoder = self._open(undo, RotaryEncoder, (dealer.encoder_a, dealer.encoder_b),
                                                     pin_factory, max_steps=0, bounce_time=None)
            self.encoder.when_rotated_clockwise = self._encoder_handler(True)
            self.encoder.when_rotated_counter_clockwise = self._encoder_handler(False)
            self.push: DigitalInputDevice = self._open(undo, DigitalInputDevice, dealer.encoder_push, pin_factory,
                                           pull_up=True, bounce_time=bounce)
            self.push.when_activated = self._push_handler(True)
            self.push.when_deactivated = self._push_handler(False)
            self.dealer_led: LED | None = (
                self._open(undo, LED, dealer.led, pin_factory) if dealer.led is not None else None
            )
            self._devices: ExitStack = undo.pop_all()
        self.refresh()

    # -- what the agent tells the panel --------------------------------------------------------------

    def set_to_call(self, seat: int, amount: int, *, opened: bool | None = None) -> None:
        """What `seat` must add to call (0: check). `opened`: a bet or blind stands (bet/raise → raise)."""
        with self._lock:
            self.input.set_to_call(seat, amount, opened=opened)

    def clear_to_call(self) -> None:
        with self._lock:
            self.input.clear_to_call()

    def set_chip_unit(self, unit: int) -> None:
        """The level's smallest chip: the encoder moves the amount by multiples of it."""
        with self._lock:
            self.input.set_chip_unit(unit)
            self._update_display()

    def show(self, lights: TableLights) -> None:
        """New table state for the LEDs (seat to act, faults, Time countdown); applied at once."""
        with self._lock:
            self._lights = lights
            self.input.to_act = lights.to_act
        self.refresh()

    @property
    def lights(self) -> TableLights:
        return self._lights

    def refresh(self) -> LedFrame:
        """Apply the LED policy at the clock's now. The agent calls it every ~50 ms so LEDs blink."""
        with self._lock:
            now = self._clock.now()
            service = getattr(self._factory, "service", None)  # expanders: brown-out check (hw.panel_mcp23017)
            if service is not None:
                service(now)
            self.input.expire(now)
            frame = self.policy.decide(self._lights, now, picking=self.input.picking is not None)
            for seat in range(1, self.seats + 1):
                _set(self.to_act_leds[seat], frame.to_act[seat].lit_at(now))
                _set(self.fault_leds[seat], frame.fault[seat].lit_at(now))
            if self.dealer_led is not None:
                _set(self.dealer_led, frame.dealer.lit_at(now))
            self._update_display()
            return frame

    def close(self) -> None:
        """Turn the LEDs off and release every pin (a released pin floats: it would not switch off)."""
        with self._lock:
            for led in (*self.to_act_leds.values(), *self.fault_leds.values(), self.dealer_led):
                if led is not None and not led.closed:
                    led.off()
            self._devices.close()
            self.display.close()

    def __enter__(self) -> Panel:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def devices(self) -> Iterator[Device]:
        for buttons in self.seat_buttons.values():
            yield from buttons.values()
        yield from self.to_act_leds.values()
        yield from self.fault_leds.values()
        yield from self.dealer_buttons.values()
        yield self.encoder
        yield self.push
        if self.dealer_led is not None:
            yield self.dealer_led

    # -- gpiozero side ---------------------------------------------------------------------------------

    @staticmethod
    def _open(undo: ExitStack, kind: Callable[..., Device], pin: str | tuple[str, str], factory: Factory,
              **options: object) -> Device:
        pins = pin if isinstance(pin, tuple) else (pin,)
        try:
            device = kind(*pins, pin_factory=factory, **options)
        except PinInvalidPin as err:
            raise PinMapError(f"panel pin {' / '.join(pins)}: {err}") from err
        except GPIOZeroError as err:
            raise PanelError(f"panel pin {' / '.join(pins)}: {err}") from err
        undo.callback(device.close)
        return device

    def _deliver(self, produce: Callable[[float], list[PanelEvent]]) -> None:
        # runs on gpiozero's callback thread: a failing sink must not kill that thread
        try:
            with self._lock:
                events = produce(self._clock.now())
                for event in events:
                    self._on_event(event)
                self._update_display()  # after delivery: a display fault loses no press
        except Exception:
            log.exception("panel event lost")

    def _seat_handler(self, seat: int, kind: SeatButton, pressed: bool) -> Callable[[], None]:
        return lambda: self._deliver(lambda at: self.input.seat_edge(seat, kind, pressed, at))

    def _dealer_handler(self, kind: DealerButton, pressed: bool) -> Callable[[], None]:
        return lambda: self._deliver(lambda at: self.input.dealer_edge(kind, pressed, at))

    def _encoder_handler(self, clockwise: bool) -> Callable[[], None]:
        return lambda: self._deliver(lambda at: self.input.encoder_step(clockwise, at))

    def _push_handler(self, pressed: bool) -> Callable[[], None]:
        return lambda: self._deliver(lambda at: self.input.push_edge(pressed, at))

    def _update_display(self) -> None:
        text = display_text(self.input, self._clock.now())
        if self._lights.td_wait and self.input.picking is None:
            text = TD_WAIT_TEXT
        if text != self._shown_text:
            self._shown_text = text
            self.display.show(text)


def _set(led: LED, lit: bool) -> None:
    # only write on change: on an expander every write is an I2C transaction
    if bool(led.value) != lit:
        led.value = lit
