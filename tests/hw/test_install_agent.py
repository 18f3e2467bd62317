"""`deploy/install.sh agent` itself, run for real in a throwaway corner of this machine (issue #33,
point 2), as `tests/security/test_install_script.py` runs the hub's install.

In a private mount and network namespace (root only: skipped elsewhere): /etc is an overlay (the
`tapis` user and the groups made there vanish with it), /opt, /run and /var are tmpfs. apt-get,
systemctl, timedatectl and modprobe are stubs that log what they were asked; pip too (a stub
virtualenv stands in for /opt/tapis/.venv). The rest is the script as shipped. Then: every group the
installed unit names in SupplementaryGroups= exists (systemd refuses to start it otherwise:
status=216/GROUP), with panels or without, and --pcsc asks apt for what pip needs to build pyscard.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r'''
set -euo pipefail
mount -t overlay overlay -o lowerdir=/etc,upperdir=WORK/etc-upper,workdir=WORK/etc-work /etc
for dir in /opt /run /var/log /var/lib; do mount -t tmpfs tmpfs "$dir"; done
for group in gpio i2c; do  # a Debian 12 without panels has neither (the bug's premise)
  if getent group "$group" >/dev/null; then groupdel "$group"; fi
done
mkdir -p WORK/stubs /opt/tapis/.venv/bin /etc/modprobe.d  # (kmod's directory: every Pi has it)
for stub in apt-get systemctl timedatectl modprobe; do
  printf '#!/bin/sh\necho "%s $*" >> WORK/calls\nexit 0\n' "$stub" > "WORK/stubs/$stub"
done
printf '#!/bin/sh\necho "venv-python $*" >> WORK/calls\nexit 0\n' > /opt/tapis/.venv/bin/python
printf 'include-system-site-packages = true\n' > /opt/tapis/.venv/pyvenv.cfg  # as install.sh makes it
chmod +x WORK/stubs/* /opt/tapis/.venv/bin/python
for _ in $(seq RUNS); do PATH="WORK/stubs:$PATH" bash SRC/deploy/install.sh agent ARGS --no-start; done
unit=/etc/systemd/system/tapis-agent.service
for group in $(sed -n 's/^SupplementaryGroups=//p' "$unit"); do
  echo "GROUP $group $(getent group "$group" >/dev/null && echo exists || echo missing)"
done
echo "MEMBER $(id -nG tapis)"
'''


def install_agent(tmp_path: Path, *args: str, runs: int = 1) -> tuple[dict[str, str], list[str], str]:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare")
    for sub in ("etc-upper", "etc-work"):
        (tmp_path / sub).mkdir()
    script = (SCRIPT.replace("WORK", str(tmp_path)).replace("SRC", str(ROOT)).replace("ARGS", " ".join(args))
              .replace("RUNS", str(runs)))
    done = subprocess.run(["unshare", "--mount", "--net", "bash", "-c", script], capture_output=True, text=True,
                          timeout=300)
    if done.returncode != 0 and "unshare failed" in done.stderr:
        pytest.skip(f"namespaces not permitted here: {done.stderr.strip()}")
    assert done.returncode == 0, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    groups = {line.split()[1]: line.split()[2] for line in done.stdout.splitlines() if line.startswith("GROUP ")}
    calls = (tmp_path / "calls").read_text().splitlines()
    member = next(line for line in done.stdout.splitlines() if line.startswith("MEMBER "))
    return groups, calls, member


@pytest.mark.parametrize("args", [("--no-panel",), ("--no-panel", "--pcsc")], ids=["no-panel", "pcsc"])
def test_every_group_the_agents_unit_names_exists_after_an_install_without_panels(
        tmp_path: Path, args: tuple[str, ...]) -> None:
    groups, calls, member = install_agent(tmp_path, *args)
    assert set(groups) >= {"dialout", "gpio", "i2c"}
    assert all(state == "exists" for state in groups.values()), groups
    assert "dialout" in member.split()
    installs = [call for call in calls if call.startswith("apt-get install")]
    assert installs and "lgpio" not in installs[-1]
    if "--pcsc" in args:
        # pip builds pyscard (no Linux wheel): a compiler, swig and the PC/SC headers
        assert {"build-essential", "swig", "libpcsclite-dev", "pcscd"} <= set(installs[-1].split())
        assert any("pip install -q pyscard" in call for call in calls)


def test_an_install_run_again_keeps_the_groups_and_succeeds(tmp_path: Path) -> None:
    """groupadd only where a group is missing: a second run (an update) must not fail on them."""
    groups, calls, _ = install_agent(tmp_path, "--no-panel", runs=2)
    assert groups["gpio"] == groups["i2c"] == "exists"
    assert len([call for call in calls if call.startswith("apt-get install")]) == 2
