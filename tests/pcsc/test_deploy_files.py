"""The Raspberry Pi deployment files: systemd units that systemd accepts, example configuration that
the agent accepts, an install script that parses."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hw.decks import DeckRegistry
from hw.profile import TableProfile
from table_agent.tools import Status, check_config

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


@pytest.mark.parametrize("unit", ["tapis-agent.service", "tapis-hub.service"])
def test_units_pass_systemd_analyze_verify(unit: str, tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze not installed")
    text = (DEPLOY / unit).read_text()
    assert "ExecStart=/opt/tapis/.venv/bin/tapis " in text
    # /opt/tapis is not installed here: point ExecStart at a binary that exists, change nothing else
    copy = tmp_path / unit
    copy.write_text(text.replace("/opt/tapis/.venv/bin/tapis", "/bin/true"))
    done = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr


def test_the_agent_unit_keeps_serial_and_gpio_reachable() -> None:
    unit = (DEPLOY / "tapis-agent.service").read_text()
    settings = [line.split("=", 1)[0] for line in unit.splitlines() if "=" in line and not line.startswith("#")]
    assert "SupplementaryGroups=dialout gpio i2c" in unit
    assert "PrivateDevices" not in settings and "ProtectClock" not in settings and "DeviceAllow" not in settings
    assert "Restart=always" in unit and "StandardOutput=journal" in unit and "User=tapis" in unit


def test_example_configuration_loads() -> None:
    profile = TableProfile.load(DEPLOY / "etc-tapis" / "table.toml")
    assert (profile.table, profile.seats, profile.antenna_count) == ("t1", 9, 14)  # board on 9 and 10
    assert profile.reader.url.startswith("/dev/serial/by-id/")
    registry = DeckRegistry.load(DEPLOY / "etc-tapis" / "decks.toml")
    assert registry.lookup("04A1B2C3D4E580").card == "As"
    findings, _ = check_config(DEPLOY / "etc-tapis" / "table.toml", DEPLOY / "etc-tapis" / "decks.toml")
    assert [f.status for f in findings] == [Status.OK, Status.WARN]  # 3 of 52 cards in the example decks
    for line in (DEPLOY / "etc-tapis" / "agent.env").read_text().splitlines():
        assert not line or line.startswith("#") or line.split("=", 1)[0] in {
            "TAPIS_PROFILE", "TAPIS_DECKS", "TAPIS_AGENT_AUTH", "TAPIS_BROKER"}


def test_install_script_parses_and_refuses_a_wrong_role() -> None:
    script = DEPLOY / "install.sh"
    assert subprocess.run(["bash", "-n", str(script)], timeout=30).returncode == 0
    done = subprocess.run(["bash", str(script), "toaster"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "sudo deploy/install.sh agent" in done.stderr
