"""Shared fixtures: a real Mosquitto on a free loopback port, the seed rulebooks alone in the registry,
and a guard that fails any test whose threads or callbacks logged an exception (a callback must never
fail silently)."""

from __future__ import annotations

import os

# The suite tests the pure engine even where `./setup.sh --compiled` built the compiled one (some tests
# subclass `Hand` or monkeypatch it, which a native class refuses); TAPIS_ENGINE=compiled runs it compiled.
# Set before `hub` is imported: the engine is chosen at the package's import, in this process and its children.
os.environ.setdefault("TAPIS_ENGINE", "pure")

import logging
from collections.abc import Generator, Iterator
from typing import Any

import pytest

import hub.rulebooks as rulebooks
from hub.edge.broker import EmbeddedBroker
from tests.seeds import ENV, draw_seed


@pytest.fixture
def seed(request: pytest.FixtureRequest) -> int:
    """A fresh random seed for this test (`tests/seeds.py`), reported with its failure."""
    drawn = draw_seed()
    request.node.user_properties.append((ENV, drawn))
    return drawn


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        for name, value in item.user_properties:
            if name == ENV:
                report.sections.append(("random seed", f"replay: {ENV}={value} pytest '{item.nodeid}'"))


@pytest.fixture(autouse=True)
def _seed_rulebooks_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A club's rulebook one test registers is forgotten after it: each test starts with the five seeds
    (the registry is process-wide; a club file left in it changed what a later test counted)."""
    monkeypatch.setattr(rulebooks, "_BOOKS", dict(rulebooks._seeds()))


@pytest.fixture
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker() as running:
        yield running


class _ExceptionGuard(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.records.append(record)


@pytest.fixture(autouse=True)
def fail_on_logged_exception(request: pytest.FixtureRequest) -> Iterator[None]:
    guard = _ExceptionGuard()
    root = logging.getLogger()
    root.addHandler(guard)
    yield
    root.removeHandler(guard)
    if guard.records and "allow_logged_exceptions" not in request.keywords:
        messages = "; ".join(f"{r.name}: {r.getMessage()}" for r in guard.records)
        pytest.fail(f"an exception was logged in a thread or callback: {messages}")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "allow_logged_exceptions: the test expects logged exceptions")
