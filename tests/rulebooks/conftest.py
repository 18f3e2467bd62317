"""A club's rulebook registered by a test is forgotten after it: the other tests see the five seeds."""

from __future__ import annotations

import pytest

import hub.rulebooks as rb


@pytest.fixture(autouse=True)
def _seeds_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rb, "_BOOKS", dict(rb._seeds()))
