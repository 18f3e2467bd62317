"""A client's broker credentials: user, password file and the room's CA, as `MqttLink` keywords.

`hub.edge.security` writes the room's credentials (`python -m hub.edge.security`); a table's agent, the
hub and the TD's command line read theirs back here, so each side connects without knowing the other.
"""

from __future__ import annotations

import argparse
import json
import ssl
from pathlib import Path


def add_options(p: argparse.ArgumentParser) -> None:
    """`--user`, `--password-file`, `--ca` on a command that connects to the room's broker."""
    p.add_argument("--user", default=None, help="broker user (hub, or table-<id>: see docs/security.md)")
    p.add_argument("--password-file", default=None,
                   help="the broker password, or the credentials JSON `python -m hub.edge.security` wrote")
    p.add_argument("--ca", default=None, help="the room's CA certificate: connect to the TLS listener")


def link_options(args: argparse.Namespace) -> dict[str, object]:
    """MqttLink keywords from --user, --password-file and --ca (a wrong file is a plain error)."""
    options: dict[str, object] = {}
    if args.password_file:
        with open(args.password_file, encoding="utf-8") as secret:
            text = secret.read().strip()
        try:  # the credentials file `python -m hub.edge.security` writes, or the bare password
            saved = json.loads(text)
        except ValueError:
            saved = None
        if isinstance(saved, dict) and "password" in saved:
            options["username"] = args.user or saved.get("username")
            options["password"] = saved["password"]
        else:
            options["password"] = text
    if args.user:
        options["username"] = args.user
    if args.ca:
        options["tls"] = client_tls_context(args.ca)
    return options


def client_tls_context(ca_file: str | Path) -> ssl.SSLContext:
    """What a table's paho client needs to trust the room's broker: the room CA only, host names checked
    (`client.tls_set_context(client_tls_context(".../ca.crt"))`)."""
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=str(ca_file))
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context
