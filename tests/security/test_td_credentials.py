"""`tapis tournament --broker` in a closed room (issue #14, left from #15): the TD's user, password file and
CA, taken as `tapis agent` and `tapis hub` take them; the floor's `serve` with the hub's credentials."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from secure_broker import SecureBroker

from hub.edge.security import RoomCredentials
from hub.floor.td import td_main

ROOT = Path(__file__).resolve().parents[2]


def test_the_td_reaches_the_floor_through_the_closed_broker(
        tmp_path: Path, secure_broker: SecureBroker, room_creds: RoomCredentials,
        capsys: pytest.CaptureFixture[str]) -> None:
    room_creds.save(tmp_path / "credentials")
    db = str(tmp_path / "t.db")
    assert td_main(["new", "--db", db, "--ruleset", "cdc-2013", "--structure", "pouques", "--buy-in", "10",
                    "--payouts", "50,30,20"]) == 0
    plain = f"mqtt://127.0.0.1:{secure_broker.port}"
    floor = subprocess.Popen([sys.executable, "-m", "tapis", "tournament", "serve", "--db", db, "--broker", plain,
                              "--password-file", str(tmp_path / "credentials" / "hub.json")],
                             stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        capsys.readouterr()
        assert td_main(["status", "--broker", plain]) == 2  # anonymous: refused at once, in one line
        err = capsys.readouterr().err
        assert "tapis tournament status:" in err and err.count("\n") == 1, err
        tls = f"mqtt://localhost:{secure_broker.tls_port}"
        td = ["--password-file", str(tmp_path / "credentials" / "td.json"), "--ca", secure_broker.ca_file]
        for _ in range(20):  # the floor process may still be connecting
            if td_main(["--broker", tls, *td, "status", "--json"]) == 0:
                break
        status = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert status["ok"] and status["cmd"] == "status", status
    finally:
        floor.send_signal(signal.SIGTERM)
        floor.communicate(timeout=20)


def test_credentials_without_a_broker_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "pw"
    secret.write_text("x")
    assert td_main(["status", "--db", str(tmp_path / "t.db"), "--password-file", str(secret)]) == 2
    assert "give --broker too" in capsys.readouterr().err
    assert td_main(["status", "--broker", "mqtt://127.0.0.1:1", "--password-file", str(tmp_path / "none")]) == 2
    assert "tapis tournament status:" in capsys.readouterr().err
