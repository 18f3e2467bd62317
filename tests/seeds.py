"""Seeds for the tests that draw random cases themselves (PokerKit differential, chip invariants):
a new seed every run, so CI explores instead of replaying the same hands, and the seed printed with
any failure (`replay: TAPIS_SEED=N pytest <test>`). `TAPIS_SEED=N` pins it for every such test (the
mutation runs pin it, so every mutant meets the same cases)."""

from __future__ import annotations

import os

ENV = "TAPIS_SEED"


def draw_seed() -> int:
    """`TAPIS_SEED` when set, else 32 fresh bits from the OS."""
    pinned = os.environ.get(ENV, "").strip()
    if pinned:
        try:
            return int(pinned, 0)
        except ValueError:
            raise SystemExit(f"{ENV} must be an integer, got {pinned!r}") from None
    return int.from_bytes(os.urandom(4), "big")
