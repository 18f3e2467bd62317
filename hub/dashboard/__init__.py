"""The TD dashboard (hub -> browsers): room, table and clock views over HTTP and Server-Sent Events."""

from hub.dashboard.auth import hash_password
from hub.dashboard.server import Dashboard

__all__ = ["Dashboard", "hash_password"]
