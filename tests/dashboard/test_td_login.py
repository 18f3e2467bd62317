"""A TD login as installed (issue #30, point 1): `tapis td-login` writes the hub's --td-users file (hashes
only, 0640), prints a made-up password once, changes a password in place; bad input is one line; a hub
whose dashboard has no TD login says how to make one."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from hub.cli import main, read_td_users
from hub.dashboard.auth import verify_password
from hub.edge.broker import free_port
from tests.support import wait_until


def login(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(["td-login", *argv])
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()


def test_a_made_up_password_is_printed_once_and_only_its_hash_kept(tmp_path: Path) -> None:
    users = tmp_path / "td-users"
    code, out, _ = login(["ines", "--users", str(users)])
    assert code == 0
    password = out.split("mot de passe / password: ")[1].strip()
    assert len(password) >= 12 and password not in users.read_text()
    assert verify_password(password, read_td_users(str(users))["ines"])
    assert os.stat(users).st_mode & 0o777 == 0o640


def test_a_second_login_is_added_and_a_password_changed_in_place(tmp_path: Path) -> None:
    users = tmp_path / "td-users"
    login(["ines", "--users", str(users)])
    assert login(["bruno", "--users", str(users), "--password-stdin"], "le-bon-mot\n")[0] == 0
    assert login(["ines", "--users", str(users), "--password-stdin"], "nouveau-mot\n")[0] == 0
    known = read_td_users(str(users))
    assert sorted(known) == ["bruno", "ines"]
    assert verify_password("nouveau-mot", known["ines"]) and verify_password("le-bon-mot", known["bruno"])


def test_bad_input_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    users = tmp_path / "td-users"
    login(["ines", "--users", str(users)])
    before = users.read_text()
    for argv, stdin, words in ((["in es", "--users", str(users)], "", "letters, digits"),
                               (["bruno", "--users", str(users), "--password-stdin"], "court\n", "8 characters")):
        code, out, err = login(argv, stdin)
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    broken = tmp_path / "broken"
    broken.write_text("ines:plaintext\n")
    code, _, err = login(["bruno", "--users", str(broken)])
    assert code == 2 and "broken:1" in err and broken.read_text() == "ines:plaintext\n"
    assert users.read_text() == before


def test_a_hub_whose_dashboard_has_no_td_login_says_how_to_make_one(tmp_path: Path) -> None:
    port = free_port()
    hub = subprocess.Popen([sys.executable, "-m", "tapis", "hub", "--dashboard", str(port)],
                           stderr=subprocess.PIPE, text=True)
    try:
        lines: list[str] = []
        stderr = hub.stderr
        assert stderr is not None

        def read() -> bool:
            lines.append(stderr.readline())
            return "listening" in lines[-1]

        assert wait_until(read, 30), lines
        said = [line for line in lines if "td-login" in line]
        assert len(said) == 1 and "lecture seule" in said[0] and "read-only" in said[0], lines
    finally:
        hub.send_signal(signal.SIGTERM)
        hub.wait(15)
