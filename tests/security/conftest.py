"""Fixtures for the broker security tests: one secured Mosquitto per module (room t1, t2, t3)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from secure_broker import SecureBroker

from hub.edge.security import RoomCredentials

TABLES = ("t1", "t2", "t3")


@pytest.fixture(scope="module")
def room_creds() -> RoomCredentials:
    return RoomCredentials.generate(TABLES)


@pytest.fixture(scope="module")
def secure_broker(tmp_path_factory: pytest.TempPathFactory, room_creds: RoomCredentials) -> Iterator[SecureBroker]:
    broker = SecureBroker(Path(tmp_path_factory.mktemp("secure-broker")), room_creds).start()
    try:
        yield broker
    finally:
        broker.stop()
