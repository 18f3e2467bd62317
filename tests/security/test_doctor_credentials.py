"""`tapis doctor --broker` in a closed room: it logs in with the table's credentials file and the room's CA,
as `tapis agent` will, and says in one finding whether the broker accepts them."""

from __future__ import annotations

import io
from pathlib import Path

from secure_broker import SecureBroker

from hub.edge.security import RoomCredentials
from table_agent.doctor import Status, check_broker_login, doctor_main
from tablewire.credentials import client_tls_context


def test_the_tables_credentials_are_accepted_and_a_wrong_password_is_named(
        tmp_path: Path, secure_broker: SecureBroker, room_creds: RoomCredentials) -> None:
    table = room_creds.table("t1")
    tls = client_tls_context(secure_broker.ca_file)
    url = f"mqtt://localhost:{secure_broker.tls_port}"
    [ok] = check_broker_login(url, {"username": table.username, "password": table.password, "tls": tls}, timeout=10)
    assert ok.status is Status.OK and "table-t1" in ok.message and "TLS" in ok.message
    [bad] = check_broker_login(url, {"username": table.username, "password": "wrong", "tls": tls}, timeout=10)
    assert bad.status is Status.FAIL and "--password-file" in bad.message


def test_doctor_takes_the_agents_password_file_and_ca(tmp_path: Path, secure_broker: SecureBroker,
                                                      room_creds: RoomCredentials) -> None:
    room_creds.save(tmp_path / "credentials")
    out = io.StringIO()
    doctor_main(["--profile", str(tmp_path / "missing.toml"), "--broker", f"mqtt://localhost:{secure_broker.tls_port}",
                 "--password-file", str(tmp_path / "credentials" / "table-t2.json"), "--ca", secure_broker.ca_file],
                out=out)
    broker = [line for line in out.getvalue().splitlines() if "broker" in line]
    assert len(broker) == 1 and "accepts user table-t2 over TLS" in broker[0], out.getvalue()
