"""deploy/install.sh checked as far as this Debian machine allows: parsed by bash, then run with
--dry-run (it changes nothing and needs no root) against stubbed apt sources: Raspberry Pi OS
Bookworm (python3-lgpio in apt), Debian 12 (it is not), a system without apt."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "deploy" / "install.sh"
PI_OS = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_CODENAME=bookworm\n'

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed")


def install(tmp_path: Path, *args: str, lgpio: bool = True, apt: bool = True) -> subprocess.CompletedProcess[str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    stub = bin_dir / "apt-cache"  # apt-cache show PKG: known (0) or not (100), as apt says
    stub.write_text(f"#!/bin/sh\n[ \"$2\" = python3-lgpio ] && exit {0 if lgpio else 100}\nexit 0\n")
    stub.chmod(0o755)
    release = tmp_path / "os-release"
    release.write_text(PI_OS)
    path = f"{bin_dir}:{os.environ['PATH']}"
    if not apt:  # only the tools the script needs before it looks for apt
        for tool in ("sed", "tr", "cat", "python3", "id", "dirname"):
            found = shutil.which(tool)
            if found and not (bin_dir / tool).exists():
                (bin_dir / tool).symlink_to(found)
        stub.unlink()
        path = str(bin_dir)
    env = {"PATH": path, "TAPIS_OS_RELEASE": str(release), "LANG": "C.UTF-8"}
    return subprocess.run([shutil.which("bash") or "bash", str(SCRIPT), *args, "--dry-run"], capture_output=True,
                          text=True, env=env, timeout=60)


def test_the_script_parses() -> None:
    done = subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr


def test_a_table_on_raspberry_pi_os_gets_apts_lgpio_through_system_site_packages(tmp_path: Path) -> None:
    done = install(tmp_path, "agent")
    assert done.returncode == 0, done.stderr
    assert "python3-lgpio" in done.stdout
    assert "python3 -m venv --system-site-packages /opt/tapis/.venv" in done.stdout
    assert "usermod -aG gpio tapis" in done.stdout and "usermod -aG i2c tapis" in done.stdout
    assert "dry run: nothing was changed" in done.stderr


def test_pcsc_readers_blacklist_the_kernels_nfc_drivers_and_say_how_to_silence_the_acr122u(tmp_path: Path) -> None:
    done = install(tmp_path, "agent", "--pcsc")
    assert done.returncode == 0, done.stderr
    assert "would write /etc/modprobe.d/tapis-pcsc.conf" in done.stdout
    for module in ("pn533_usb", "pn533", "nfc"):
        assert f"    blacklist {module}\n" in done.stdout
    assert "pcscd" in done.stdout and "pyscard" in done.stdout
    assert "FF 00 52 00 00" in done.stderr


def test_debian_12_without_lgpio_says_what_it_needs_before_changing_anything(tmp_path: Path) -> None:
    done = install(tmp_path, "agent", lgpio=False)
    assert done.returncode == 2
    assert "python3-lgpio is not in this system's apt sources" in done.stderr
    assert "Raspberry Pi OS Bookworm" in done.stderr and "--no-panel" in done.stderr
    assert "would run" not in done.stdout and "Traceback" not in done.stderr


def test_debian_12_installs_a_table_without_panels_and_a_hub(tmp_path: Path) -> None:
    table = install(tmp_path, "agent", "--no-panel", lgpio=False)
    assert table.returncode == 0, table.stderr
    assert "lgpio" not in table.stdout and "usermod -aG dialout tapis" in table.stdout
    assert "usermod -aG gpio" not in table.stdout
    hub = install(tmp_path, "hub", "--table", "t1", lgpio=False)
    assert hub.returncode == 0, hub.stderr
    assert "mosquitto" in hub.stdout and "tapis-hub.service" in hub.stdout
    assert "-m hub.edge.security /etc/tapis/room --table t1" in hub.stdout  # the closed broker, in a dry run too
    assert "mosquitto-tapis.conf" in hub.stdout and "mosquitto-tapis-open.conf" not in hub.stdout


def test_a_hub_without_its_tables_is_refused_before_anything(tmp_path: Path) -> None:
    done = install(tmp_path, "hub", lgpio=False)
    assert done.returncode == 2 and "--table t1" in done.stderr and done.stdout == ""


def test_a_system_without_apt_is_told_plainly(tmp_path: Path) -> None:
    done = install(tmp_path, "agent", apt=False)
    assert done.returncode == 2
    assert done.stderr.startswith("install: no apt on Debian GNU/Linux 12 (bookworm).")
    assert "Raspberry Pi OS Bookworm" in done.stderr and "Python 3.11+" in done.stderr


def test_an_unknown_option_is_one_line(tmp_path: Path) -> None:
    done = install(tmp_path, "agent", "--fast")
    assert done.returncode == 2 and done.stderr == "install: unknown option --fast\n"


def test_a_table_without_panels_is_told_to_drop_the_example_profiles_panel_section(tmp_path: Path) -> None:
    without = install(tmp_path, "agent", "--no-panel", lgpio=False)
    assert without.returncode == 0, without.stderr
    assert "delete the [panel] section of /etc/tapis/table.toml" in without.stderr
    assert "[panel] section" not in install(tmp_path, "agent").stderr


def test_compiled_builds_the_rules_engine_after_the_package(tmp_path: Path) -> None:
    done = install(tmp_path, "agent", "--compiled")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    package = lines.index("would run: /opt/tapis/.venv/bin/python -m pip install -q /opt/tapis")
    build = lines.index("would run: /opt/tapis/.venv/bin/python /opt/tapis/tools/build_engine.py")
    assert package < build
    assert "tools/build_engine.py" not in install(tmp_path, "agent").stdout
