"""`mqtt://host:port`: how a table, the hub and the TD's command line name the room's broker."""

from __future__ import annotations


def parse_url(url: str) -> tuple[str, int]:
    """`mqtt://host:port` (or `host:port`) -> (host, port)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        rest = url
    elif scheme != "mqtt":  # refused at once, not after a 30 s wait on a host named "http://..."
        raise ValueError(f"broker URL {url!r}: expected mqtt://host:port "
                         "(TLS is given with --ca, not with mqtts://)")
    host, _, port = rest.rpartition(":")
    if not host or "/" in host or not (port.isascii() and port.isdigit()) or not 1 <= int(port) <= 65535:
        raise ValueError(f"broker URL {url!r}: expected mqtt://host:port, port 1-65535")
    return host, int(port)
