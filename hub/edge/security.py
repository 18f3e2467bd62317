"""Broker security material for one room: users, Mosquitto password file, ACL, TLS CA and config.

Sits beside `hub.edge.broker`: consumes the room's table ids and a directory, emits the files Mosquitto
reads (`passwd`, `acl`, `tls/*.pem`) and the text of a secure `mosquitto.conf`. One user per table
(`table-<id>`), `hub`, `td` and a read-only `dashboard`; hole cards stay on topics only hub and TD read.
"""

from __future__ import annotations

import base64
import getpass
import hashlib
import json
import os
import re
import secrets
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from ipaddress import ip_address
from pathlib import Path

from tablewire import wire

# Mosquitto 2's `$7$` format: PBKDF2-HMAC-SHA512, 12-byte salt, 64-byte hash, both base64.
HASH_ITERATIONS = 101  # mosquitto_passwd's default; passwords are random, so rounds buy little
SALT_BYTES = 12
TABLE_PREFIX = "table-"
CERT_DAYS = 3650  # a club's room CA: renewal every ten years, not every season
# The broker refuses bigger packets (Mosquitto `max_packet_size`): a table's event is under 2 kB, the
# hub's largest (a TD state, a tournament status) tens of kB; a flood of 1 MB messages never gets in.
MAX_PACKET = 256 * 1024  # as hub.edge.broker.MAX_PACKET (the embedded broker) and deploy/mosquitto-tapis*.conf
HUB_WORKER_PREFIX = "hub-"
_TOPIC = wire.ROOT
_TABLE_ID = re.compile(wire.TABLE_ID)


class SecurityError(Exception):
    """Root of every error raised by `hub.edge.security`."""


class CredentialsError(SecurityError, ValueError):
    """A user name, table id or credentials directory that cannot be used."""


class TlsError(SecurityError, RuntimeError):
    """openssl is missing or failed; the message carries its output."""


class Role(StrEnum):
    TABLE = "table"  # writes its own event and status, reads its own commands
    HUB = "hub"  # the rules engine: reads and writes everything under tapis/v1
    TD = "td"  # tournament director: reads everything (hole cards too), sends floor commands
    DASHBOARD = "dashboard"  # spectators' and players' screens: public hub views only, no writes


@dataclass(frozen=True, slots=True)
class Credential:
    username: str
    password: str = field(repr=False)
    role: Role
    table: str | None = None


def table_user(table: str) -> str:
    """`t1` -> `table-t1`; the table id must be one the wire accepts."""
    if _TABLE_ID.match(table) is None:
        raise CredentialsError(f"table id {table!r} does not match {wire.TABLE_ID}")
    return TABLE_PREFIX + table


def _new_password() -> str:
    return secrets.token_urlsafe(24)  # 192 bits, no ':' or whitespace (the password file's separators)


@dataclass(frozen=True, slots=True)
class RoomCredentials:
    """Every broker user of one room. `generate` makes fresh random passwords; `save`/`load` keep them
    in a directory of 0600 JSON files, one per user, that each process's config points at."""

    users: tuple[Credential, ...]

    @classmethod
    def generate(cls, tables: Iterable[str]) -> RoomCredentials:
        fixed = [Credential(role.value, _new_password(), role) for role in (Role.HUB, Role.TD, Role.DASHBOARD)]
        return cls(tuple(fixed)).with_tables(tables)

    def with_tables(self, tables: Iterable[str]) -> RoomCredentials:
        """Add users for tables not yet known; existing passwords are kept (agents already hold them)."""
        users = list(self.users)
        known = {u.table for u in users}
        for table in tables:
            if table not in known:
                users.append(Credential(table_user(table), _new_password(), Role.TABLE, table))
                known.add(table)
        return replace(self, users=tuple(users))

    def with_hub_workers(self, count: int) -> RoomCredentials:
        """Users `hub-shard-N-of-K` for K sharded hub workers (role hub). The broker names each client by
        its user (`use_username_as_clientid`), so two processes sharing a user would take over each
        other's connection: each worker needs its own."""
        from hub.edge.shard import Shard  # the worker's name is the shard's, one spelling for both
        names = [HUB_WORKER_PREFIX + Shard(n, count).name for n in range(1, count + 1)] if count > 1 else []
        known = {u.username for u in self.users}
        added = tuple(Credential(name, _new_password(), Role.HUB) for name in names if name not in known)
        return replace(self, users=self.users + added)

    def user(self, username: str) -> Credential:
        for cred in self.users:
            if cred.username == username:
                return cred
        raise CredentialsError(f"no broker user {username!r}")

    def table(self, table: str) -> Credential:
        return self.user(table_user(table))

    @property
    def hub(self) -> Credential:
        return self.user(Role.HUB.value)

    @property
    def td(self) -> Credential:
        return self.user(Role.TD.value)

    @property
    def dashboard(self) -> Credential:
        return self.user(Role.DASHBOARD.value)

    @property
    def tables(self) -> list[str]:
        return [u.table for u in self.users if u.table is not None]

    def save(self, directory: str | Path) -> None:
        """One `<user>.json` per user, mode 0600, in a 0700 directory (each Pi gets only its own)."""
        root = Path(directory)
        root.mkdir(parents=True, exist_ok=True)
        root.chmod(0o700)
        for cred in self.users:
            data = {"username": cred.username, "password": cred.password, "role": cred.role.value,
                    "table": cred.table}
            _write_private(root / f"{cred.username}.json", json.dumps(data, indent=1) + "\n")

    @classmethod
    def load(cls, directory: str | Path) -> RoomCredentials:
        users: list[Credential] = []
        for path in sorted(Path(directory).glob("*.json")):
            try:
                data = json.loads(path.read_text())
                cred = Credential(str(data["username"]), str(data["password"]), Role(data["role"]),
                                  None if data.get("table") is None else str(data["table"]))
            except (ValueError, KeyError, TypeError) as err:
                raise CredentialsError(f"{path}: not a tapis credential file ({err})") from err
            if cred.role is Role.TABLE and (cred.table is None or cred.username != table_user(cred.table)):
                raise CredentialsError(f"{path}: table user {cred.username!r} does not match its table")
            users.append(cred)
        return cls(tuple(users))


def _write_private(path: Path, text: str) -> None:
    # created 0600 from the start: never a moment where another user could read a secret
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(text)
    path.chmod(0o600)


# Password file ---------------------------------------------------------------------------------

def password_hash(password: str, *, salt: bytes | None = None, iterations: int = HASH_ITERATIONS) -> str:
    """The `$7$` hash Mosquitto 2 reads (what `mosquitto_passwd -b` writes), without the binary."""
    salt = salt if salt is not None else secrets.token_bytes(SALT_BYTES)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
    return f"$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def check_password(line_hash: str, password: str) -> bool:
    """Does `password` match a `$7$` hash from a password file line?"""
    try:
        _, kind, rounds, salt, digest = line_hash.split("$")
        if kind != "7":
            return False
        got = hashlib.pbkdf2_hmac("sha512", password.encode(), base64.b64decode(salt), int(rounds))
    except ValueError:
        return False
    return secrets.compare_digest(got, base64.b64decode(digest))


def render_password_file(creds: RoomCredentials) -> str:
    return "".join(f"{u.username}:{password_hash(u.password)}\n" for u in creds.users)


# ACL -------------------------------------------------------------------------------------------

# What a dashboard may read: the hub's public views, the floor clock and tables' online status.
# Not `table/+/event` (the agents' raw card events carry hole cards as they are dealt), not
# `table/+/cmd` (rulings can name cards), not `hub/td/#`, not `hub/tournament/cmd/#`.
DASHBOARD_READ = (
    f"{_TOPIC}/hub/status",
    f"{_TOPIC}/hub/health",  # the hub's store and what it refused (`HubService.health`), and each worker's
    f"{_TOPIC}/hub/health/+",
    f"{_TOPIC}/hub/table/+/state",
    f"{_TOPIC}/hub/table/+/event",
    f"{_TOPIC}/hub/tournament/clock",
    f"{_TOPIC}/hub/tournament/table/+",  # each table's seats (`hub.floor.clock_topics`)
    f"{_TOPIC}/table/+/status",
)


def render_acl(creds: RoomCredentials) -> str:
    """Explicit `user` sections (not `%u` patterns: a user name is `table-t1`, the topic level `t1`).

    Mosquitto grants an access if any line of the user's section allows it; there is no deny needed
    because nothing outside a section is granted (no `pattern` lines, no anonymous access)."""
    lines = ["# generated by tapis (hub.edge.security.render_acl): one section per broker user", ""]
    for cred in creds.users:
        lines.append(f"user {cred.username}")
        if cred.role is Role.TABLE:
            assert cred.table is not None
            lines += [f"topic write {wire.table_events(cred.table)}",
                      f"topic write {wire.table_status(cred.table)}",  # birth and the MQTT will
                      f"topic read {wire.table_commands(cred.table)}",
                      f"topic read {wire.hub_ack(cred.table)}",  # its outbox forgets what the hub stored
                      f"topic read {wire.HUB_STATUS}",  # a hub coming online gets the outbox at once
                      f"topic read {wire.HUB_STATUS}/+"]  # (or a shard worker)
        elif cred.role is Role.HUB:
            lines.append(f"topic readwrite {_TOPIC}/#")
        elif cred.role is Role.TD:
            lines += [f"topic read {_TOPIC}/#",
                      f"topic write {_TOPIC}/hub/tournament/cmd"]
        else:
            lines += [f"topic read {topic}" for topic in DASHBOARD_READ]
        lines.append("")
    return "\n".join(lines)


# TLS -------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TlsMaterial:
    """PEM files of the room's CA and of the broker's server certificate."""

    ca_cert: Path
    ca_key: Path
    server_cert: Path
    server_key: Path


def _openssl(args: Sequence[str], *, openssl: str) -> None:
    try:
        done = subprocess.run([openssl, *args], capture_output=True, text=True, check=False, timeout=60)
    except OSError as err:
        raise TlsError(f"cannot run {openssl}: {err} (`sudo apt-get install openssl`)") from err
    if done.returncode != 0:
        raise TlsError(f"openssl {args[0]} failed ({done.returncode}): {done.stderr.strip()}")


def _san(hosts: Sequence[str]) -> str:
    names = []
    for host in hosts:
        try:
            ip_address(host)
            names.append(f"IP:{host}")
        except ValueError:
            names.append(f"DNS:{host}")
    return ",".join(names)


def generate_tls(directory: str | Path, *, hosts: Sequence[str] = ("localhost", "127.0.0.1"),
                 room: str = "tapis room", days: int = CERT_DAYS, openssl: str | None = None) -> TlsMaterial:
    """A new CA and a server certificate for `hosts` (names and IPs the tables dial), with the
    `openssl` command line (EC P-256 keys). Keys are 0600; the CA key can leave the hub afterwards."""
    binary = openssl or shutil.which("openssl")
    if binary is None:
        raise TlsError("openssl is not installed: `sudo apt-get install openssl`")
    if not hosts:
        raise TlsError("the server certificate needs at least one host name or IP")
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    out = TlsMaterial(root / "ca.crt", root / "ca.key", root / "server.crt", root / "server.key")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    _openssl(["req", "-x509", *ec, "-keyout", str(out.ca_key), "-out", str(out.ca_cert), "-days", str(days),
              "-subj", f"/O=tapis/CN={room} CA", "-addext", "basicConstraints=critical,CA:TRUE",
              "-addext", "keyUsage=critical,keyCertSign,cRLSign"], openssl=binary)
    csr = root / "server.csr"
    _openssl(["req", "-new", *ec, "-keyout", str(out.server_key), "-out", str(csr),
              "-subj", f"/O=tapis/CN={hosts[0]}"], openssl=binary)
    ext = root / "server.ext"
    ext.write_text(f"basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n"
                   f"extendedKeyUsage=serverAuth\nsubjectAltName={_san(hosts)}\n")
    _openssl(["x509", "-req", "-in", str(csr), "-CA", str(out.ca_cert), "-CAkey", str(out.ca_key),
              "-CAcreateserial", "-out", str(out.server_cert), "-days", str(days), "-sha256",
              "-extfile", str(ext)], openssl=binary)
    csr.unlink()
    ext.unlink()
    (root / "ca.srl").unlink(missing_ok=True)
    for key in (out.ca_key, out.server_key):
        key.chmod(0o600)
    return out


# Broker config ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SecureFiles:
    password_file: Path
    acl_file: Path
    tls: TlsMaterial | None


def write_secure_files(directory: str | Path, creds: RoomCredentials, *, tls: bool = True,
                       tls_hosts: Sequence[str] = ("localhost", "127.0.0.1")) -> SecureFiles:
    """`passwd`, `acl` and (with `tls`) `tls/` in `directory`: what `render_secure_config` points at.
    A TLS directory already there is reused, so tables keep trusting the same CA across restarts."""
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    passwd, acl = root / "passwd", root / "acl"
    _write_private(passwd, render_password_file(creds))
    _write_private(acl, render_acl(creds))
    material: TlsMaterial | None = None
    if tls:
        tls_dir = root / "tls"
        existing = TlsMaterial(tls_dir / "ca.crt", tls_dir / "ca.key", tls_dir / "server.crt", tls_dir / "server.key")
        if all(p.exists() for p in (existing.ca_cert, existing.server_cert, existing.server_key)):
            material = existing
        else:
            material = generate_tls(tls_dir, hosts=tls_hosts)
    return SecureFiles(passwd, acl, material)


def render_secure_config(*, port: int, tls_port: int | None, data_dir: Path, files: SecureFiles,
                         host: str = "127.0.0.1", tls_host: str | None = None,
                         max_queued: int = 100_000, run_as: str | None = None) -> str:
    """A `mosquitto.conf` with no anonymous access: the loopback listener (hub, local tools) and, when
    `tls_port` is given, a TLS listener for the room's network (`tls_host` None: every interface).
    Client certificates are optional: tables authenticate with their password over TLS.
    `run_as` (default: the user running this process) is Mosquitto's `user`: started as root it would
    otherwise switch to `mosquitto` before reading the 0600 password file this process wrote."""
    if tls_port is not None and files.tls is None:
        raise SecurityError("a TLS listener needs TLS material: write_secure_files(..., tls=True)")
    lines = [
        "# generated by tapis (hub.edge.security.render_secure_config): secured broker for one room",
        "per_listener_settings false",
        f"user {run_as or getpass.getuser()}",
        "allow_anonymous false",
        f"password_file {files.password_file}",
        f"acl_file {files.acl_file}",
        f"max_packet_size {MAX_PACKET}",
        f"listener {port} {host}",
        # A client's id is its user name, whatever it asks for: table t1's credentials cannot take over
        # the session of `tapis-hub` or `tapis-table-t2` (a takeover disconnects the other side). A
        # listener's setting in Mosquitto: under each `listener` line, or it is silently ignored.
        "use_username_as_clientid true",
    ]
    if tls_port is not None and files.tls is not None:
        lines += [
            f"listener {tls_port}" + (f" {tls_host}" if tls_host else ""),
            "use_username_as_clientid true",
            f"cafile {files.tls.ca_cert}",
            f"certfile {files.tls.server_cert}",
            f"keyfile {files.tls.server_key}",
            "require_certificate false",
        ]
    lines += [
        "persistence true",
        f"persistence_location {data_dir}/",
        "autosave_interval 60",  # as hub.edge.broker's: a save stalls the broker, the outboxes lose nothing
        f"max_queued_messages {max_queued}",
        "max_inflight_messages 0",
        "set_tcp_nodelay true",
        "log_dest stderr",
        "log_type error",
        "log_type warning",
        "",
    ]
    return "\n".join(lines)


# Command line ----------------------------------------------------------------------------------

def init_room(directory: str | Path, tables: Sequence[str], *, hosts: Sequence[str] = ("localhost", "127.0.0.1"),
              port: int = 1883, tls_port: int | None = 8883, hub_workers: int = 0) -> Path:
    """Everything a room needs in `directory`: `credentials/` (copy `table-<id>.json` to each table),
    `broker/` (passwd, acl, tls/) and `mosquitto.conf`. Existing passwords and CA are kept; returns
    the config path."""
    root = Path(directory)
    creds_dir = root / "credentials"
    creds = RoomCredentials.load(creds_dir) if creds_dir.exists() else RoomCredentials.generate([])
    if not creds.users:
        creds = RoomCredentials.generate(tables)
    creds = creds.with_tables(tables).with_hub_workers(hub_workers)
    creds.save(creds_dir)
    files = write_secure_files(root / "broker", creds, tls=tls_port is not None, tls_hosts=hosts)
    conf = root / "mosquitto.conf"
    conf.write_text(render_secure_config(port=port, tls_port=tls_port, data_dir=root / "broker", files=files,
                                         host="127.0.0.1", tls_host=None))
    return conf


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m hub.edge.security",
                                     description="Broker users, password file, ACL and TLS for one room.")
    parser.add_argument("directory")
    parser.add_argument("--table", action="append", required=True, help="a table id (repeat)")
    parser.add_argument("--host", action="append", help="a name or IP the tables dial (repeat)")
    parser.add_argument("--port", type=int, default=1883)
    parser.add_argument("--tls-port", type=int, default=8883)
    parser.add_argument("--hub-workers", type=int, default=0, metavar="K",
                        help="users hub-shard-N-of-K for K sharded hub workers (tapis hub --shard N/K)")
    args = parser.parse_args(argv)
    try:
        conf = init_room(args.directory, args.table, hosts=args.host or ("localhost", "127.0.0.1"),
                         port=args.port, tls_port=args.tls_port, hub_workers=args.hub_workers)
    except SecurityError as err:
        print(f"hub.edge.security: {err}")
        return 2
    print(f"wrote {conf}; give each table its credentials/table-<id>.json and broker/tls/ca.crt")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
