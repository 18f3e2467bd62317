"""A table on PC/SC readers (one per zone): the profile's backend, the agent's reader factory,
cards placed and lifted, the in-memory PC/SC fake stopped and started again (standing in for a pcscd
restart; a real pcscd restarted under the worker is tests/pcsc/test_pcscd_vpcd.py); the same presence
and zones code as the serial board."""


from collections.abc import Callable

import pytest

from hw.decks import DeckRegistry
from hw.errors import ConfigError
from hw.pcsc import FakePcsc
from hw.pcsc_worker import pcsc_worker_factory
from hw.ports import MonotonicClock
from hw.profile import TableProfile
from table_agent.agent import TableAgent
from table_agent.events import BOARD, Zone
from tablewire.mqtt import Message
from tests.support import wait_until

READERS = {"ACS ACR122U 00 00": 0, "ACS ACR122U 01 00": 1, "ACS ACR122U 02 00": 2,
           "ACS ACR122U 03 00": 3, "ACS ACR122U 04 00": 4, "ACS ACR122U 05 00": 5}
ANTENNAS = {0: "seat:1", 1: "seat:2", 2: "board", 3: "burn", 4: "muck", 5: "tray"}


class Recorder:
    def __init__(self) -> None:
        self.published: list[tuple[str, bytes]] = []

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> None:
        self.published.append((topic, payload))

    def on_connect(self, hook: Callable[[], None]) -> None: ...

    def subscribe(self, pattern: str, handler: Callable[[Message], None]) -> Callable[[], None]:
        return lambda: None


def wait(condition, timeout: float = 5.0) -> bool:  # type: ignore[no-untyped-def]
    return wait_until(condition, timeout)


def test_profile_chooses_the_pcsc_backend() -> None:
    profile = TableProfile.model_validate({"table": "t1", "seats": 2, "antennas": ANTENNAS,
                                           "reader": {"backend": "pcsc", "pcsc_readers": READERS}})
    assert profile.reader.backend == "pcsc"
    with pytest.raises(ValueError, match="pcsc_readers"):
        TableProfile.model_validate({"table": "t1", "seats": 2, "antennas": ANTENNAS, "reader": {"backend": "pcsc"}})
    with pytest.raises(ValueError, match="needs its url"):
        TableProfile.model_validate({"table": "t1", "seats": 2, "antennas": ANTENNAS, "reader": {}})
    assert issubclass(ConfigError, ValueError)


def test_agent_on_pcsc_readers_follows_cards_through_the_fake_pcsc_stopped_and_started() -> None:
    profile = TableProfile.model_validate({"table": "t1", "seats": 2, "antennas": ANTENNAS,
                                           "reader": {"backend": "pcsc", "pcsc_readers": READERS}})
    registry = DeckRegistry.generate(["t1"])
    fake = FakePcsc(list(READERS))
    agent = TableAgent(profile=profile, registry=registry, open_link=None, publisher=Recorder(),
                       clock=MonotonicClock(),
                       reader_factory=pcsc_worker_factory(READERS, open_pcsc=fake.open, retry_max=0.1))
    agent.start()
    try:
        assert wait(lambda: agent.stats.reader_up)
        ace = registry.uid_of("t1/A", "As")
        fake.place("ACS ACR122U 00 00", bytes.fromhex(ace))
        assert wait(lambda: agent.zones.zone_of(ace) == Zone.seat_zone(1))
        fake.stop()  # the fake's service goes away (as pcscd restarting): contexts rebuilt, the card kept
        assert wait(lambda: not agent.stats.reader_up)
        assert agent.zones.zone_of(ace) == Zone.seat_zone(1)
        fake.start()
        assert wait(lambda: agent.stats.reader_up)
        fake.remove("ACS ACR122U 00 00")
        fake.place("ACS ACR122U 02 00", bytes.fromhex(ace))
        assert wait(lambda: agent.zones.zone_of(ace) == BOARD)
    finally:
        agent.stop()
