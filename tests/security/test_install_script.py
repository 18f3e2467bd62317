"""`deploy/install.sh hub` itself, run for real in a throwaway corner of this machine, then probed.

In private mount and network namespaces (root only: skipped elsewhere): /etc is an overlay (the
`tapis` user, /etc/tapis and /etc/mosquitto/conf.d written there vanish with it), /opt, /run and /var
are tmpfs, the network has only its own loopback. apt-get, systemctl and timedatectl are stubbed (no
packages, no systemd here), pip too (the checkout's virtualenv stands in for /opt/tapis/.venv); all
the rest is the script as shipped: it writes the room with `python -m hub.edge.security`, gives the files
to the groups that read them and installs the broker config. Then Debian's own
`/etc/mosquitto/mosquitto.conf` (which includes conf.d) runs as Mosquitto does after `apt install`,
dropping root for the `mosquitto` user, and an anonymous client and the wrong users try the LAN.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = r'''
import json, sys, time
sys.path.insert(0, "TESTS")
from secure_broker import probe, connect
room = "/etc/tapis/room"
def cred(user):  # an install that made no users (an open broker) lets anyone in: any password then
    try:
        return json.load(open(f"{room}/credentials/{user}.json"))["password"]
    except OSError:
        return "none"
import os
ca = f"{room}/broker/tls/ca.crt"
tls_port = 8883 if os.path.exists(ca) else 1883  # where a LAN client dials
out = {}
hub = connect("127.0.0.1", 1883, "hub", cred("hub"))
hub.subscribe("tapis/v1/hub/tournament/cmd"); hub.subscribe("tapis/v1/hub/sentinel")
hub.publish("tapis/v1/hub/td/t1/state", b'{"zones": {"seat:1": ["As", "Kd"]}}', retain=True)
for name, (user, password, port, tls) in {
        "anonymous on the LAN (TLS)": (None, None, tls_port, True),
        "anonymous on loopback": (None, None, 1883, False),
        "td with a wrong password": ("td", "guess", tls_port, True),
        "table-t1": ("table-t1", cred("table-t1"), tls_port, True),
        "td": ("td", cred("td"), tls_port, True)}.items():
    p = probe("localhost", port, user, password, tls_ca=ca if tls and port == 8883 else None)
    reason = p.connack.get(timeout=5)
    read = sent = False
    if not reason.is_failure:
        p.subscribe("tapis/v1/hub/td/#")
        p.publish("tapis/v1/hub/tournament/cmd", b'{"type": "eliminate"}')
        time.sleep(0.5)
        hub.publish("tapis/v1/hub/sentinel", name.encode())
        got = hub.until("tapis/v1/hub/sentinel", name.encode())
        read = any(b"As" in payload for _t, payload in p.received)
        sent = any(t == "tapis/v1/hub/tournament/cmd" for t, _p in got)
        hub.received.clear()
    out[name] = {"connected": not reason.is_failure, "read_hole_cards": read, "td_command_heard": sent}
    p.close()
print("RESULT " + json.dumps(out))
'''

SCRIPT = r'''
set -euo pipefail
mount -t overlay overlay -o lowerdir=/etc,upperdir=WORK/etc-upper,workdir=WORK/etc-work /etc
for dir in /opt /run /var/log /var/lib/mosquitto; do mount -t tmpfs tmpfs "$dir"; done
chown mosquitto /var/lib/mosquitto
mkdir -p /var/log/mosquitto /run/mosquitto && chown mosquitto /var/log/mosquitto /run/mosquitto
ip link set lo up
mkdir -p WORK/stubs /opt/tapis/.venv/bin
for stub in apt-get systemctl timedatectl; do printf '#!/bin/sh\nexit 0\n' > "WORK/stubs/$stub"; done
printf '#!/bin/sh\n[ "$1 $2" = "-m pip" ] && exit 0\nPYTHONPATH=/opt/tapis exec VENV "$@"\n' > /opt/tapis/.venv/bin/python
printf 'include-system-site-packages = true\n' > /opt/tapis/.venv/pyvenv.cfg  # as install.sh makes it
chmod +x WORK/stubs/* /opt/tapis/.venv/bin/python
PATH="WORK/stubs:$PATH" bash SRC/deploy/install.sh hub --table t1 --table t2 --no-start
echo "ENV $(grep ^TAPIS_HUB_ROOM= /etc/tapis/hub-room.env || true)"
echo "HUBCRED $(runuser -u tapis -- cat /etc/tapis/room/credentials/hub.json >/dev/null && echo readable || echo unreadable)"
echo "TDUSERS $(runuser -u tapis -- grep -c '^td:scrypt\$' /etc/tapis/td-users || echo unreadable)"
echo "T1CRED $(runuser -u tapis -- cat /etc/tapis/room/credentials/table-t1.json >/dev/null 2>&1 && echo readable || echo unreadable)"
mosquitto -c /etc/mosquitto/mosquitto.conf &
broker=$!
trap 'kill $broker' EXIT
for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/1883) 2>/dev/null && break; sleep 0.1; done
sleep 0.3  # the TLS listener opens right after
VENV WORK/probe.py
'''


def test_install_sh_hub_gives_a_closed_room(tmp_path: Path) -> None:
    if os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("mosquitto") is None:
        pytest.skip("needs root, unshare and mosquitto")
    for sub in ("etc-upper", "etc-work"):
        (tmp_path / sub).mkdir()
    (tmp_path / "probe.py").write_text(PROBE.replace("TESTS", str(ROOT / "tests" / "security")))
    script = (SCRIPT.replace("WORK", str(tmp_path)).replace("SRC", str(ROOT)).replace("VENV", sys.executable))
    done = subprocess.run(["unshare", "--mount", "--net", "bash", "-c", script], capture_output=True, text=True,
                          timeout=300)
    if done.returncode != 0 and "unshare failed" in done.stderr:
        pytest.skip(f"namespaces not permitted here: {done.stderr.strip()}")
    lines = {line.split(" ", 1)[0]: line.split(" ", 1)[1] for line in done.stdout.splitlines() if " " in line}
    assert "RESULT" in lines, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    result = json.loads(lines["RESULT"])
    for who in ("anonymous on the LAN (TLS)", "anonymous on loopback", "td with a wrong password"):
        assert result[who]["connected"] is False, (who, result[who])
    assert result["table-t1"] == {"connected": True, "read_hole_cards": False, "td_command_heard": False}
    assert result["td"] == {"connected": True, "read_hole_cards": True, "td_command_heard": True}  # the control
    assert "--password-file /etc/tapis/room/credentials/hub.json --tables t1,t2" in lines["ENV"]
    # issue #30: a TD login as installed, its password printed once, the hub's service reads it
    assert "--td-users /etc/tapis/td-users" in lines["ENV"] and lines["TDUSERS"] == "1"
    assert "mot de passe / password: " in done.stdout
    assert lines["HUBCRED"] == "readable" and lines["T1CRED"] == "unreadable"  # the hub's own user only
