"""The panel's default pins stay off the Pi's buses: a display on SPI0's pins cannot be opened once
SPI is enabled (the kernel's spidev holds GPIO 8-11)."""

from __future__ import annotations

from hw.panel_pins import DisplayPins, PanelConfig

SPI0 = {f"GPIO{n}" for n in (7, 8, 9, 10, 11)}
SPI1 = {f"GPIO{n}" for n in range(16, 22)}
UART_AND_ID = {"GPIO14", "GPIO15", "GPIO0", "GPIO1"}


def test_the_display_defaults_are_on_no_bus() -> None:
    pins = DisplayPins()
    assert not {pins.din, pins.clk, pins.cs} & (SPI0 | SPI1 | UART_AND_ID)


def test_the_reference_map_uses_each_pin_once_with_the_display_defaults() -> None:
    config = PanelConfig.reference(10)
    used = [pin for pin, _ in config.uses()]
    assert len(used) == len(set(used)) == 72
