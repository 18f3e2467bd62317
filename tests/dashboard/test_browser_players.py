"""Players on the page (#18 point 1) and the alarms (point 7), in a real Chromium: names on a table's
seats from the floor's clock data, the player list and its search, the seating chart, the balancing
moves in the room and at the table concerned; a blocked table and a pending TD decision draw the eye
and beep for the TD until muted (the choice kept across a reload)."""

from __future__ import annotations

import pytest

from hub.dashboard import Dashboard
from tests.dashboard import browser
from tests.dashboard.helpers import ScriptedRoom
from tests.dashboard.test_http import deal_hole_cards

if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser  # noqa: E402

from tests.dashboard.test_browser import chromium, login, open_page  # noqa: E402,F401 - a fixture


def test_names_list_search_seating_and_moves(chromium: Browser, room: ScriptedRoom,  # noqa: F811
                                             dashboard: Dashboard) -> None:
    deal_hole_cards(room)  # t1, seats 1-3: the floor's table 1 names them
    snap = dashboard.clock_snapshot()
    assert snap is not None
    table1 = snap["tables"]["1"]["seats"]
    viewer = open_page(chromium, dashboard.url + "/")
    viewer.wait_for_selector("#players tr[data-player]")
    names = [viewer.locator("#table-t1 td.player").nth(i).inner_text() for i in range(3)]
    assert names == [table1[str(seat)]["player"] for seat in (1, 2, 3)]
    assert viewer.locator("#players tr[data-player]").count() == 60
    assert viewer.locator("#seating > div").count() == 6
    first = table1["1"]["player"]
    viewer.fill("#player-search", first.upper())
    assert [viewer.locator("#players tr").nth(0).get_attribute("data-player")] == [first]
    assert "Table 1" in viewer.inner_text("#players tr") and "Siège 1" in viewer.inner_text("#players tr")
    viewer.fill("#player-search", "")
    # four players out at table 1: the floor orders balancing moves into it
    for seat in ("4", "5", "6", "7"):
        assert dashboard.floor_command({"cmd": "eliminate", "player": table1[seat]["player"]})["ok"]
    snap = dashboard.clock_snapshot()
    assert snap is not None and snap["moves"]
    move = snap["moves"][0]
    viewer.wait_for_selector(f"#moves li[data-player='{move['player']}']")
    text = viewer.inner_text(f"#moves li[data-player='{move['player']}']")
    assert (f"Table {move['from_table']} · siège {move['from_seat']} → Table {move['to_table']} · "
            f"siège {move['to_seat']} (équilibrage)") in text
    dealer = open_page(chromium, dashboard.url + f"/table?t=t{move['to_table']}")
    dealer.wait_for_selector(f"#moves li[data-player='{move['player']}']")
    elsewhere = open_page(chromium, dashboard.url + "/table?t=t6")
    elsewhere.wait_for_selector("#moves li")
    assert elsewhere.locator(f"#moves li[data-player='{move['player']}']").count() == (
        1 if 6 in (move["from_table"], move["to_table"]) else 0)
    viewer.click("#lang")
    assert "(balancing)" in viewer.inner_text(f"#moves li[data-player='{move['player']}']")
    assert viewer.errors == [] and dealer.errors == []  # type: ignore[attr-defined]


def test_a_blocked_table_and_a_pending_decision_raise_the_alarm(chromium: Browser, room: ScriptedRoom,  # noqa: F811
                                                                dashboard: Dashboard) -> None:
    dashboard.on_decision = lambda d: room.hub.decide(d.table, d.kind, d.option, d.by)
    deal_hole_cards(room)
    td = open_page(chromium, dashboard.url + "/login")
    login(td, dashboard.url)
    td.wait_for_selector("#table-t1")
    assert td.locator("#alarm").is_hidden()
    room.fault("t1", 1, "boxed_card", seat=2, cards=["As"], boxed_in_deal=2, during_deal=True)  # a td_decision
    room.settle()
    td.wait_for_selector("#alarm.on")
    assert "1 décision DT en attente" in td.inner_text("#alarm")
    assert td.title().startswith("⚠")
    td.wait_for_selector("#table-t1.awaiting")
    td.click("body")  # the gesture a browser wants before a sound
    td.wait_for_function("() => window.__alarms.beeps >= 1", timeout=15_000)
    td.click("#alarm-sound")  # mute
    assert td.get_attribute("#alarm-state", "data-on") == "0"
    td.reload()
    td.wait_for_selector("#alarm.on")
    assert td.get_attribute("#alarm-state", "data-on") == "0"  # still muted after the reload
    beeps = td.evaluate("() => window.__alarms.beeps")
    td.wait_for_timeout(5_500)
    assert td.evaluate("() => window.__alarms.beeps") == beeps
    room.status("t1", False)  # the table goes offline: blocked
    room.settle()
    td.wait_for_selector("#table-t1.blocked")
    td.wait_for_function("() => /1 table bloquée/.test(document.getElementById('alarm').textContent)")
    td.locator(".fault.decide button[data-option='set_aside']").click()
    td.wait_for_function("() => !/décision/.test(document.getElementById('alarm').textContent)")
    room.status("t1", True)
    room.settle()
    td.wait_for_selector("#alarm:not(.on)", state="attached")
    td.wait_for_function("() => !document.title.startsWith('⚠')")
    assert td.errors == []  # type: ignore[attr-defined]


def test_the_final_table_draw_is_in_the_moves_box(chromium: Browser, room: ScriptedRoom,  # noqa: F811
                                                  dashboard: Dashboard) -> None:
    """The final table drawn, "Déplacements à faire" lists each player it reseats in words, as a balancing
    move: from where he sat, to his seat at the final table, and why (French, then English), in the room
    and on the final table's page, until that table deals its first hand (`test_moves_after_restart.py`)."""
    while (snap := dashboard.clock_snapshot()) is not None and snap["final_table"] is None:
        table = next(t for t in snap["tables"].values() if t["seats"])  # one out, the others stay seated
        player = next(iter(table["seats"].values()))["player"]
        assert dashboard.floor_command({"cmd": "eliminate", "player": player})["ok"]
    assert snap is not None
    drawn = [m for m in snap["moves"] if m["reason"] == "final"]
    assert drawn and len(drawn) == len(snap["moves"]), snap["moves"]
    move = drawn[0]
    viewer = open_page(chromium, dashboard.url + "/")
    li = f"#moves li[data-player='{move['player']}']"
    viewer.wait_for_selector(li)
    assert viewer.locator("#moves li[data-player]").count() == len(drawn)
    assert (f"Table {move['from_table']} · siège {move['from_seat']} → Table {move['to_table']} · "
            f"siège {move['to_seat']} (tirage de la table finale)") in viewer.inner_text(li)
    viewer.click("#lang")
    assert (f"Table {move['from_table']} · seat {move['from_seat']} → Table {move['to_table']} · "
            f"seat {move['to_seat']} (final table draw)") in viewer.inner_text(li)
    final = open_page(chromium, dashboard.url + f"/table?t=t{snap['final_table']}")
    final.wait_for_selector(li)
    assert final.locator("#moves li[data-player]").count() == len(drawn)
    assert viewer.errors == [] and final.errors == []  # type: ignore[attr-defined]
