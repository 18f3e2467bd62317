"""A table blocked by an outage is said on the TD's page in words (issue #27, point 2), in a real
Chromium: its dealer pressed "new hand" while the hub still holds the hand in progress (the felt not
cleared), so the hub refuses it; the table blinks, counts in the alarm and the tab's title, and says why
in words, in French and, on the switch, in English, no raw identifier. The TD's cancel from the page is
played by the hub (store-first) and the table is no longer blocked."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.dashboard import Dashboard, hash_password
from hub.edge.service import HubService
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from tablewire import wire
from tablewire.mqtt import Message
from tests.dashboard import browser
from tests.dashboard.conftest import PASSWORD
from tests.hub.fake_link import RecordingLink

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser  # noqa: E402

from tests.dashboard.test_browser import chromium, login, open_page  # noqa: E402,F401 - a fixture

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "floor"))
from service_helpers import started_floor  # noqa: E402


class Room:
    """A tournament hub (store, floor, tables) whose table facts the test sends one by one."""

    def __init__(self, path: Path) -> None:
        self.store = EventStore(path)
        started_floor(self.store, 12, tables=2)
        self.link = RecordingLink()
        self.tables = FloorTables.open(FloorService.open(self.store), self.store)
        self.hub = HubService(link=self.link, tick=0.05, floor_tables=self.tables,  # type: ignore[arg-type]
                              wall=lambda: 5.0)
        self.seq = 0

    def send(self, event: wire.AnyTableEvent) -> None:
        self.link.handlers[wire.ALL_TABLE_EVENTS](Message(wire.table_events(event.table), wire.encode(event), False))
        assert self.hub.settle()

    def head(self) -> dict[str, object]:
        self.seq += 1
        return {"table": "t1", "boot": "b1", "seq": self.seq, "at": float(self.seq)}

    def press(self) -> None:
        self.send(wire.DealerPressed(**self.head(), button="new_hand", seat=None))

    def card(self, seat: int, face: str) -> None:
        self.send(wire.CardEvent(**self.head(), type="card_arrived", zone=f"seat:{seat}",
                                 uid=f"{self.seq:08X}", card=face, deck=wire.table_deck_ids("t1")[0], order=self.seq))


@pytest.fixture
def outage_room(tmp_path: Path) -> Iterator[Room]:
    room = Room(tmp_path / "room.db")
    room.hub.start()
    room.link.handlers[wire.ALL_TABLE_STATUS](Message(wire.table_status("t1"), wire.ONLINE, True))
    yield room
    room.hub.stop()
    room.store.close()


def test_a_table_whose_new_hand_is_refused_is_blocked_in_words(chromium: Browser,  # noqa: F811
                                                               outage_room: Room) -> None:
    room = outage_room
    dash = Dashboard(room.hub, floor=room.tables.floor, floor_lock=room.hub.floor_lock,
                     users={"alice": hash_password(PASSWORD)}).start()
    try:
        room.press()
        room.card(1, "As")  # the hand was dealt: one card still lies on seat 1
        td = open_page(chromium, dash.url + "/login")
        login(td, dash.url)
        td.wait_for_selector("#table-t1")
        assert not td.locator("#table-t1.blocked").count()
        room.press()  # the dealer gave up and pressed "new hand": refused, the hand in progress stands
        td.wait_for_selector("#table-t1.blocked", timeout=5_000)
        why = td.inner_text("#table-t1 .blocked-why")
        assert "nouvelle donne refusée" in why and "la donne en cours n'est pas finie" in why
        assert "hand_refused" not in why and "_" not in why
        assert why.lstrip("⚠ ") in (td.get_attribute("#table-t1", "title") or "")
        td.wait_for_function("() => /1 table bloquée/.test(document.getElementById('alarm').textContent)")
        assert "nouvelle donne refusée" in (td.get_attribute("#alarm", "title") or "")
        assert td.title().startswith("⚠")
        td.click("#lang")
        td.wait_for_selector("#table-t1 .blocked-why:has-text('new hand refused: the hand in progress has not ended')")
        assert "new hand refused" in (td.get_attribute("#alarm", "title") or "")
        td.click("#lang")
        td.click("#table-t1 button.cancel-hand")
        td.wait_for_selector("#confirm:not(.hidden)")
        td.click("#confirm-yes")
        td.wait_for_selector("#table-t1 .cancel-result:has-text('6.4')", timeout=5_000)
        td.wait_for_selector("#table-t1:not(.blocked)", state="attached")
        assert room.tables.floor.in_hand("t1") is None
        room.press()  # the next hand; then nothing moves for 11 minutes (as the hub's clock says)
        room.hub.tables["t1"].hand_since = 5.0 - 660
        room.card(2, "Kd")
        td.wait_for_selector("#table-t1 .blocked-why:has-text('donne commencée il y a 11 min')", timeout=5_000)
        td.wait_for_function("() => /1 table bloquée/.test(document.getElementById('alarm').textContent)")
        assert td.errors == []  # type: ignore[attr-defined]
    finally:
        dash.stop()
