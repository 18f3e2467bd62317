"""`tapis doctor` checks the profile's [panel]: each MCP23017 answers at its address, in plain words;
skipped (not failed) on a machine without the I2C bus."""

from __future__ import annotations

from pathlib import Path

from hw.panel_pins import PanelConfig
from simulators.panel import SimulatedExpanderBus
from table_agent.doctor import Status, check_expanders, doctor

DEPLOY_PROFILE = Path(__file__).resolve().parents[2] / "deploy" / "etc-tapis" / "table.toml"
CONFIG = PanelConfig.reference(9)


def _dev(tmp_path: Path) -> Path:
    (tmp_path / "i2c-1").touch()
    return tmp_path


def test_every_expander_answering_is_ok(tmp_path: Path) -> None:
    [finding] = check_expanders(CONFIG, lambda n: SimulatedExpanderBus(CONFIG.expanders), dev=_dev(tmp_path))
    assert finding.status is Status.OK and "5 MCP23017" in finding.message and "0x24" in finding.message


def test_a_silent_expander_fails_naming_its_address_and_seats(tmp_path: Path) -> None:
    bus = SimulatedExpanderBus((0x20, 0x21, 0x23, 0x24))
    [finding] = check_expanders(CONFIG, lambda n: bus, dev=_dev(tmp_path))
    assert finding.status is Status.FAIL
    assert "0x22 (seats 5 and 6)" in finding.message and "0x21" not in finding.message


def test_without_the_i2c_bus_the_expanders_are_skipped_not_failed(tmp_path: Path) -> None:
    opened: list[int] = []
    def open_bus(n: int) -> SimulatedExpanderBus:
        opened.append(n)
        return SimulatedExpanderBus(())

    [finding] = check_expanders(CONFIG, open_bus, dev=tmp_path)
    assert finding.status is Status.WARN and "not checked" in finding.message and "i2c-1" in finding.message
    assert opened == []


def test_a_bus_that_cannot_be_opened_fails_with_the_group_to_join(tmp_path: Path) -> None:
    def denied(number: int) -> SimulatedExpanderBus:
        raise PermissionError(13, "Permission denied")

    [finding] = check_expanders(CONFIG, denied, dev=_dev(tmp_path))
    assert finding.status is Status.FAIL and "i2c group" in finding.message


def test_no_panel_section_is_said(tmp_path: Path) -> None:
    [finding] = check_expanders(None, lambda n: SimulatedExpanderBus(()), dev=tmp_path)
    assert finding.status is Status.WARN and "no [panel] section" in finding.message


def test_doctor_checks_the_shipped_profiles_expanders(tmp_path: Path) -> None:
    bus = SimulatedExpanderBus((0x20, 0x21, 0x22, 0x23))
    findings = doctor(profile_path=DEPLOY_PROFILE,
                      open_link=lambda p: (_ for _ in ()).throw(OSError(2, "No such file")),
                      gpio_chips=(), i2c_buses=(), clock_probe=lambda: True, open_i2c=lambda n: bus,
                      dev=_dev(tmp_path))
    panel = [f for f in findings if f.check == "panel" and "MCP23017" in f.message]
    assert len(panel) == 1 and panel[0].status is Status.FAIL and "0x24 (seat 9)" in panel[0].message
