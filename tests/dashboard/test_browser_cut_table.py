"""A tournament table cut off from the hub, for which the floor waits to move a player, says so on the TD's
room page in words (French, English on the switch, no raw identifier), in a real Chromium; the words go
once the table is heard again (docs/tournament.md, "Faults during a tournament")."""

from __future__ import annotations

from pathlib import Path

import pytest

from hub.dashboard import Dashboard, hash_password
from tablewire import wire
from tablewire.mqtt import Message
from tests.dashboard import browser
from tests.dashboard.conftest import PASSWORD

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser  # noqa: E402

from tests.dashboard.test_browser import chromium, login, open_page  # noqa: E402,F401 - a fixture
from tests.dashboard.test_browser_outage import Room  # noqa: E402

WAITS_FR = "Table 1 injoignable : le placement l'attend"
WAITS_EN = "Table 1 unreachable: seating waits for it"


def test_a_table_the_floor_waits_for_says_why(chromium: Browser, tmp_path: Path) -> None:  # noqa: F811
    room = Room(tmp_path / "room.db")
    room.hub.start()
    for table in ("t1", "t2"):
        room.link.handlers[wire.ALL_TABLE_STATUS](Message(wire.table_status(table), wire.ONLINE, True))
    dash = Dashboard(room.hub, floor=room.tables.floor, floor_lock=room.hub.floor_lock,
                     users={"alice": hash_password(PASSWORD)}).start()
    try:
        room.press()  # t1 heard live once (its clock's offset), then cut off
        room.link.handlers[wire.ALL_TABLE_STATUS](Message(wire.table_status("t1"), wire.OFFLINE, True))
        assert room.hub.settle()
        with room.hub.floor_lock:
            floor = room.tables.floor
            seated = sorted(floor.require().state.tables[2].seats.values())
            for name in seated[:3]:  # three out at table 2: 6 against 3, a move from table 1 would be due
                assert floor.execute({"cmd": "eliminate", "player": name}, 5.0).ok
            assert floor.require().waiting_for() == {1}
        td = open_page(chromium, dash.url + "/login")
        login(td, dash.url)
        td.wait_for_selector(f"#table-t1 .blocked-why:has-text(\"{WAITS_FR}\")", timeout=5_000)
        why = td.inner_text("#table-t1 .blocked-why")
        assert "table hors ligne" in why and "_" not in why and "floor_waits" not in why
        td.click("#lang")
        td.wait_for_selector(f"#table-t1 .blocked-why:has-text('{WAITS_EN}')", timeout=5_000)
        td.click("#lang")
        room.link.handlers[wire.ALL_TABLE_STATUS](Message(wire.table_status("t1"), wire.ONLINE, True))  # its birth
        room.card(1, "As")  # heard live again: its player moves once its hand ends, as at any table
        with room.hub.floor_lock:
            assert room.tables.floor.require().waiting_for() == set() and room.tables.floor.in_hand("t1") == 1
        td.wait_for_function(f"() => !document.querySelector('#table-t1').textContent.includes(\"{WAITS_FR}\")",
                             timeout=5_000)
        assert td.errors == []  # type: ignore[attr-defined]
    finally:
        dash.stop()
        room.hub.stop()
        room.store.close()
