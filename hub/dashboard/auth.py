"""TD logins for the dashboard: scrypt password hashes, session tokens and their CSRF tokens.

Consumes the configured users (name -> hash from `hash_password`) and login attempts; emits
sessions (a cookie token and a CSRF token the page sends back on every TD POST). Expiry uses the
time passed in; nothing here reads the clock.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections.abc import Mapping
from dataclasses import dataclass

_N, _R, _P = 2**14, 8, 1  # scrypt cost: ~50 ms on a Pi 4, once per login
SESSION_SECONDS = 12 * 3600.0  # a tournament day
LOGIN_ATTEMPTS = 5  # per address and LOGIN_WINDOW: a TD who mistypes retries; a guesser waits
LOGIN_WINDOW = 60.0
SCRYPT_AT_ONCE = 2  # scrypt takes 16 MB each: logins beyond this wait their turn, memory stays flat


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    """`scrypt$n$r$p$salt$hash` (hex), the form `users` takes in the hub's config."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        got = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p),
                             dklen=len(bytes.fromhex(digest)))
    except (ValueError, MemoryError):
        return False
    return hmac.compare_digest(got.hex(), digest)


@dataclass(frozen=True, slots=True)
class Session:
    user: str
    token: str  # the cookie
    csrf: str  # sent back in the X-CSRF-Token header on every TD POST
    expires: float


class LoginLimiter:
    """At most `attempts` logins per address in any `window` seconds; a success clears the address.

    Keeps at most `max_addresses` addresses (the oldest forgotten first), so a flood of addresses
    cannot grow it without bound. Thread-safe; the time is passed in."""

    def __init__(self, attempts: int = LOGIN_ATTEMPTS, window: float = LOGIN_WINDOW,
                 max_addresses: int = 4096) -> None:
        self.attempts, self.window, self.max_addresses = attempts, window, max_addresses
        self._seen: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def allow(self, address: str, now: float) -> bool:
        """Count one attempt from `address`; False when it is over the limit (HTTP 429)."""
        with self._lock:
            times = [t for t in self._seen.pop(address, []) if now - t < self.window]
            allowed = len(times) < self.attempts
            if allowed:
                times.append(now)
            self._seen[address] = times  # re-inserted last: the dict's order is the age order
            while len(self._seen) > self.max_addresses:
                del self._seen[next(iter(self._seen))]
            return allowed

    def succeeded(self, address: str) -> None:
        with self._lock:
            self._seen.pop(address, None)


class Sessions:
    """Logged-in TDs; HTTP handler threads call it, so it locks."""

    def __init__(self, users: Mapping[str, str] | None) -> None:
        self._users = dict(users or {})
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self._hashing = threading.BoundedSemaphore(SCRYPT_AT_ONCE)

    def login(self, user: str, password: str, now: float) -> Session | None:
        stored = self._users.get(user)
        with self._hashing:
            if stored is None:
                verify_password(password, hash_password("x", salt=b"0" * 16))  # same cost: no user probing
                return None
            if not verify_password(password, stored):
                return None
        session = Session(user, secrets.token_urlsafe(24), secrets.token_urlsafe(24), now + SESSION_SECONDS)
        with self._lock:
            self._sessions[session.token] = session
        return session

    def get(self, token: str | None, now: float) -> Session | None:
        if not token:
            return None
        with self._lock:
            session = self._sessions.get(token)
            if session is not None and session.expires <= now:
                del self._sessions[token]
                return None
            return session

    def logout(self, token: str | None) -> None:
        with self._lock:
            self._sessions.pop(token or "", None)

    @staticmethod
    def csrf_ok(session: Session, header: str | None) -> bool:
        # as bytes: compare_digest refuses non-ASCII str, and a header may carry any latin-1 byte
        return header is not None and hmac.compare_digest(session.csrf.encode(),
                                                          header.encode("utf-8", "surrogateescape"))
