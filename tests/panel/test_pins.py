"""The `[panel]` pin map: the reference wiring is valid, and wrong maps are refused by name."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from hw.errors import ConfigError
from hw.panel_pins import PanelConfig, PinMapError


def reference_data(seats: int = 10) -> dict[str, Any]:
    return PanelConfig.reference(seats).model_dump()


def test_reference_map_wires_two_seats_per_expander() -> None:
    config = PanelConfig.reference(10)
    assert config.expanders == (0x20, 0x21, 0x22, 0x23, 0x24)
    assert config.seats[1].fold == "MCP20:A0"
    assert config.seats[2].fold == "MCP20:B0"
    assert config.seats[10].fault_led == "MCP24:B5"
    assert config.dealer.encoder_a == "GPIO5"
    # 10 seats x 6 + 8 dealer pins + 3 display pins + the shared interrupt line
    assert len(list(config.uses())) == 72
    assert config.display is not None and config.display.din == "GPIO24"
    assert PanelConfig.reference(9).expanders == (0x20, 0x21, 0x22, 0x23, 0x24)
    assert PanelConfig.reference(6).expanders == (0x20, 0x21, 0x22)


def test_pin_used_twice_is_refused_naming_both_uses() -> None:
    data = reference_data()
    data["seats"][4]["allin"] = "MCP20:A0"  # seat 1's fold
    with pytest.raises(PinMapError, match=r"pin MCP20:A0 used twice: seat 1 fold and seat 4 allin"):
        PanelConfig.parse(data)


def test_dealer_pin_shared_with_a_seat_is_refused() -> None:
    data = reference_data()
    data["dealer"]["time"] = data["seats"][7]["to_act_led"]
    with pytest.raises(PinMapError, match="used twice: seat 7 to_act_led and dealer time"):
        PanelConfig.parse(data)


def test_missing_seat_is_refused() -> None:
    data = reference_data()
    del data["seats"][3]
    with pytest.raises(PinMapError, match=r"seat 3 has no pins"):
        PanelConfig.parse(data)


def test_map_smaller_than_the_table_is_refused() -> None:
    config = PanelConfig.reference(8)
    config.check_table(8)
    with pytest.raises(PinMapError, match="the table has 9 seats but the panel map wires none for seat 9"):
        config.check_table(9)


@pytest.mark.parametrize(
    ("field", "pin", "message"),
    [
        ("fold", "GPIO28", "not a Raspberry Pi GPIO"),
        ("fold", "GPIO2", "carries the I2C bus"),
        ("fold", "GPIO24", "pin GPIO24 used twice: seat 5 fold and display din"),
        ("fold", "MCP27:A0", "expander 0x27, not listed"),
        ("fold", "MCP20:C0", "is not a pin name"),
        ("fold", "MCP22:A7", "output-only on the MCP23017"),
        ("fold", "17", "is not a pin name"),
    ],
)
def test_bad_pin_names_are_refused(field: str, pin: str, message: str) -> None:
    data = reference_data()
    data["seats"][5][field] = pin
    with pytest.raises(PinMapError, match=message):
        PanelConfig.parse(data)


def test_leds_may_use_the_output_only_bit_7() -> None:
    data = reference_data()
    data["seats"][5]["fault_led"] = "MCP22:A7"
    assert PanelConfig.parse(data).seats[5].fault_led == "MCP22:A7"


def test_encoder_must_sit_on_a_pi_gpio() -> None:
    data = reference_data()
    data["seats"][10]["fault_led"] = "MCP24:B6"
    data["dealer"]["encoder_a"] = "MCP24:B5"
    with pytest.raises(PinMapError, match="dealer encoder a: MCP24:B5 must be a Pi GPIO"):
        PanelConfig.parse(data)


def test_errors_are_value_errors_of_the_hw_root() -> None:
    data = reference_data()
    del data["seats"][1]
    with pytest.raises(ValueError) as caught:
        PanelConfig.parse(data)
    assert isinstance(caught.value, ConfigError)
    # built directly, pydantic's ValidationError (also a ValueError) carries the same text
    with pytest.raises(ValidationError, match="seat 1 has no pins"):
        PanelConfig.model_validate(data)


def test_unknown_key_is_refused() -> None:
    data = reference_data()
    data["seats"][2]["raise"] = "MCP20:B7"
    with pytest.raises(PinMapError, match=r"seats\.2\.raise: Extra inputs are not permitted"):
        PanelConfig.parse(data)


BARE_TOML = """
[panel]
bounce_ms = 30

[panel.seats.1]
fold = "GPIO4"
check_call = "GPIO14"
bet_raise = "GPIO15"
allin = "GPIO18"
to_act_led = "GPIO24"
fault_led = "GPIO25"

[panel.seats.2]
fold = "GPIO7"
check_call = "GPIO16"
bet_raise = "GPIO19"
allin = "GPIO20"
to_act_led = "GPIO21"
fault_led = "GPIO26"

[panel.display]
din = "GPIO9"
clk = "GPIO11"
cs = "GPIO8"

[panel.dealer]
new_hand = "GPIO17"
away = "GPIO27"
back = "GPIO22"
time = "GPIO23"
encoder_a = "GPIO5"
encoder_b = "GPIO6"
encoder_push = "GPIO13"
led = "GPIO12"
"""


def test_a_toml_panel_section_parses() -> None:
    config = PanelConfig.parse(tomllib.loads(BARE_TOML)["panel"])
    assert sorted(config.seats) == [1, 2]
    assert config.seats[2].allin == "GPIO20"
    assert config.bounce_ms == 30
    assert config.expanders == ()
    assert config.display is not None
    assert (config.display.din, config.display.clk, config.display.cs) == ("GPIO9", "GPIO11", "GPIO8")


def test_load_reads_the_panel_section_of_a_profile_file(tmp_path: Path) -> None:
    profile = tmp_path / "t1.toml"
    profile.write_text('table = "t1"\nseats = 2\n' + BARE_TOML, encoding="utf-8")
    assert PanelConfig.load(profile).seats[1].fold == "GPIO4"
    broken = tmp_path / "t2.toml"
    broken.write_text(BARE_TOML.replace('allin = "GPIO20"', 'allin = "GPIO16"'), encoding="utf-8")
    with pytest.raises(PinMapError,
                       match=r"t2\.toml \[panel\]: pin GPIO16 used twice: seat 2 check_call and seat 2 allin"):
        PanelConfig.load(broken)
    with pytest.raises(PinMapError, match="no \\[panel\\] section"):
        (tmp_path / "t3.toml").write_text('table = "t3"\n', encoding="utf-8")
        PanelConfig.load(tmp_path / "t3.toml")
    with pytest.raises(PinMapError, match="t4.toml"):
        PanelConfig.load(tmp_path / "t4.toml")
