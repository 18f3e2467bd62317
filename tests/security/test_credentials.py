"""Room credentials, the Mosquitto password hash and the ACL text, without a broker."""

from __future__ import annotations

import base64
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from hub.edge.security import (
    CredentialsError,
    Role,
    RoomCredentials,
    SecurityError,
    check_password,
    password_hash,
    render_acl,
    render_password_file,
    table_user,
)


def test_users_of_a_room() -> None:
    creds = RoomCredentials.generate(["t1", "t2"])
    assert [u.username for u in creds.users] == ["hub", "td", "dashboard", "table-t1", "table-t2"]
    assert creds.table("t2").role is Role.TABLE and creds.table("t2").table == "t2"
    assert creds.dashboard.role is Role.DASHBOARD
    assert len({u.password for u in creds.users}) == 5  # independent random passwords
    assert all(len(u.password) == 32 and ":" not in u.password for u in creds.users)
    assert "password" not in repr(creds.hub).replace("password=", "")  # never printed in a log


def test_new_tables_keep_existing_passwords() -> None:
    creds = RoomCredentials.generate(["t1"])
    grown = creds.with_tables(["t1", "t2"])
    assert grown.table("t1").password == creds.table("t1").password
    assert grown.hub.password == creds.hub.password
    assert grown.tables == ["t1", "t2"]


@pytest.mark.parametrize("bad", ["", "t 1", "t1/event", "+", "#", "a" * 33])
def test_table_ids_that_would_break_topics_are_refused(bad: str) -> None:
    with pytest.raises(CredentialsError) as err:
        table_user(bad)
    assert isinstance(err.value, ValueError) and isinstance(err.value, SecurityError)


def test_save_and_load_with_private_files(tmp_path: Path) -> None:
    creds = RoomCredentials.generate(["t1", "t2"])
    creds.save(tmp_path / "creds")
    assert stat.S_IMODE((tmp_path / "creds").stat().st_mode) == 0o700
    files = sorted(p.name for p in (tmp_path / "creds").iterdir())
    assert files == ["dashboard.json", "hub.json", "table-t1.json", "table-t2.json", "td.json"]
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in (tmp_path / "creds").iterdir())
    loaded = RoomCredentials.load(tmp_path / "creds")
    assert sorted(loaded.users, key=lambda u: u.username) == sorted(creds.users, key=lambda u: u.username)


def test_load_refuses_a_table_file_for_another_table(tmp_path: Path) -> None:
    (tmp_path / "table-t1.json").write_text(
        '{"username": "table-t1", "password": "x", "role": "table", "table": "t2"}')
    with pytest.raises(CredentialsError):
        RoomCredentials.load(tmp_path)


def test_password_hash_is_mosquitto_format() -> None:
    salt = bytes(range(12))
    line = password_hash("secret", salt=salt)
    kind, rounds, salt64, digest64 = line.split("$")[1:]
    assert (kind, rounds, salt64) == ("7", "101", "AAECAwQFBgcICQoL")
    assert len(base64.b64decode(digest64)) == 64
    assert check_password(line, "secret") and not check_password(line, "Secret")


@pytest.mark.skipif(shutil.which("mosquitto_passwd") is None, reason="mosquitto_passwd not installed")
def test_hash_agrees_with_mosquitto_passwd(tmp_path: Path) -> None:
    passwd = tmp_path / "passwd"
    subprocess.run(["mosquitto_passwd", "-c", "-b", str(passwd), "table-t1", "s3cret-pw"], check=True)
    user, line_hash = passwd.read_text().strip().split(":", 1)
    assert user == "table-t1"
    assert check_password(line_hash, "s3cret-pw") and not check_password(line_hash, "s3cret-pX")


def test_password_file_has_one_line_per_user() -> None:
    creds = RoomCredentials.generate(["t1"])
    lines = render_password_file(creds).splitlines()
    assert [line.split(":")[0] for line in lines] == ["hub", "td", "dashboard", "table-t1"]
    assert check_password(lines[3].split(":", 1)[1], creds.table("t1").password)


def test_acl_of_a_table_names_only_its_own_topics() -> None:
    acl = render_acl(RoomCredentials.generate(["t7"]))
    section = acl.split("user table-t7\n")[1].split("\n\n")[0]
    assert section.splitlines() == [
        "topic write tapis/v1/table/t7/event",
        "topic write tapis/v1/table/t7/status",
        "topic read tapis/v1/table/t7/cmd",
        "topic read tapis/v1/hub/ack/t7",
        "topic read tapis/v1/hub/status",  # a hub coming online gets the outbox at once
        "topic read tapis/v1/hub/status/+",
    ]
    dashboard = acl.split("user dashboard\n")[1].split("\n\n")[0]
    assert dashboard.splitlines() == [  # read only; no hub/td, no table/+/event, no */cmd
        "topic read tapis/v1/hub/status",
        "topic read tapis/v1/hub/health",
        "topic read tapis/v1/hub/health/+",
        "topic read tapis/v1/hub/table/+/state",
        "topic read tapis/v1/hub/table/+/event",
        "topic read tapis/v1/hub/tournament/clock",
        "topic read tapis/v1/hub/tournament/table/+",
        "topic read tapis/v1/table/+/status",
    ]
    assert "pattern" not in acl


def test_init_room_keeps_passwords_and_ca_when_a_table_is_added(tmp_path: Path) -> None:
    from hub.edge.security import main
    assert main([str(tmp_path), "--table", "t1", "--host", "hub.local"]) == 0
    first = RoomCredentials.load(tmp_path / "credentials")
    ca = (tmp_path / "broker" / "tls" / "ca.crt").read_bytes()
    assert main([str(tmp_path), "--table", "t1", "--table", "t2"]) == 0
    again = RoomCredentials.load(tmp_path / "credentials")
    assert again.table("t1").password == first.table("t1").password and again.tables == ["t1", "t2"]
    assert (tmp_path / "broker" / "tls" / "ca.crt").read_bytes() == ca
    assert "user table-t2" in (tmp_path / "broker" / "acl").read_text()
    conf = (tmp_path / "mosquitto.conf").read_text()
    assert "listener 1883 127.0.0.1\n" in conf and "listener 8883\n" in conf and "allow_anonymous false" in conf
    assert main([str(tmp_path), "--table", "bad/id"]) == 2
