"""`mqtt://host:port`: how a table, the hub and the TD's command line name the room's broker."""

from __future__ import annotations


def parse_url(url: str) -> tuple[str, int]:
    """`mqtt://host:port` (or `host:port`) -> (host, port)."""
    rest = url.removeprefix("mqtt://")
    host, _, port = rest.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"broker URL {url!r}: expected mqtt://host:port")
    return host, int(port)
