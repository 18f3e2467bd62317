"""Screenshots of every dashboard view into docs/screenshots/ (headless Chromium, scripted room).

Eight tables dealt to different points of a hand by the benchmark's dealer, one offline, one whose
reader is lost, a cpt87 td_decision open and a fault acknowledged; the demo tournament on the clock.

    python tests/dashboard/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hub.dashboard import Dashboard, hash_password  # noqa: E402
from hub.floor.service import FloorService  # noqa: E402
from hub.floor.store import EventStore  # noqa: E402
from simulators.tournament_demo import new_demo  # noqa: E402
from tablewire import wire  # noqa: E402
from tests.dashboard import browser  # noqa: E402
from tests.dashboard.bench_dashboard import Dealer  # noqa: E402
from tests.dashboard.conftest import RunningClock  # noqa: E402
from tests.dashboard.helpers import ScriptedRoom  # noqa: E402


def populate(room: ScriptedRoom) -> None:
    rng = random.Random(7)
    for i, steps in enumerate((30, 22, 45, 14, 9, 33, 27, 18), start=1):
        table = f"t{i}"
        seats = sorted(rng.sample(range(1, 10), rng.randint(6, 9)))
        room.configure(table, dict.fromkeys(seats, 20_000), button=seats[0],
                       ruleset="cpt87" if i == 2 else "cdc-2013")
        room.status(table, True)
        room.settle()
        dealer = Dealer(room, table, random.Random(i))
        for _ in range(steps):
            dealer.step()
            room.settle()
    base = room._base("t5")
    room.send(wire.ReaderStatus(**base, state="lost", detail="/dev/ttyACM0: no answer"))
    room.status("t8", False)
    room.fault("t2", 1, "boxed_card", seat=None, cards=["Qd"], boxed_in_deal=2, during_deal=True)
    room.fault("t3", 1, "flop_without_burn", cards=[])
    room.settle()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--out", default=str(Path(__file__).resolve().parents[2] / "docs" / "screenshots"))
    args = p.parse_args(argv)
    why = browser.missing()
    if why is not None:
        print(f"screenshots: {why}")
        return 1
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    room = ScriptedRoom()
    room.hub.start()
    with tempfile.TemporaryDirectory() as tmp, EventStore(Path(tmp) / "t.db", durable=False) as store:
        new_demo(store, players=60, tables=6, ruleset="cdc-2013", seed=1)
        floor = FloorService.open(store)
        dash = Dashboard(room.hub, floor=floor, users={"alice": hash_password("demo")}, clock=RunningClock()).start()
        populate(room)
        with sync_playwright() as pw:
            chromium = browser.launch(pw)
            viewer = chromium.new_context(viewport={"width": 1600, "height": 1000}).new_page()
            viewer.goto(dash.url + "/login")
            viewer.fill("#user", "alice")
            viewer.screenshot(path=str(out / "login.png"))
            viewer.goto(dash.url + "/")
            viewer.wait_for_selector("#table-t8")
            viewer.wait_for_timeout(300)
            viewer.screenshot(path=str(out / "room-viewer.png"), full_page=True)
            td = chromium.new_context(viewport={"width": 1600, "height": 1000}).new_page()
            td.goto(dash.url + "/login")
            td.fill("#user", "alice")
            td.fill("#password", "demo")
            td.click("#submit")
            td.wait_for_selector("#controls:not(.hidden)")
            td.wait_for_selector("#table-t8")
            td.locator(".fault:not(.decide) button.ack").first.click()
            td.wait_for_selector(".fault.closed")
            td.screenshot(path=str(out / "room-td.png"), full_page=True)
            td.goto(dash.url + "/table?t=t3")
            td.wait_for_selector("#table-t3")
            td.wait_for_timeout(300)
            td.screenshot(path=str(out / "table-td.png"), full_page=True)
            clock = chromium.new_context(viewport={"width": 1600, "height": 900}).new_page()
            clock.goto(dash.url + "/clock")
            clock.wait_for_function("() => /\\d\\d:\\d\\d/.test(document.getElementById('clk-time').textContent)")
            clock.wait_for_timeout(500)
            clock.screenshot(path=str(out / "clock.png"))
            clock.click("#full")  # full screen: the header hidden
            clock.wait_for_timeout(300)
            clock.screenshot(path=str(out / "clock-full.png"))
            en = chromium.new_context(viewport={"width": 1600, "height": 900}).new_page()
            en.goto(dash.url + "/clock")
            en.click("#lang")
            en.wait_for_timeout(500)
            en.screenshot(path=str(out / "clock-en.png"))
            # a phone (390x844): the TD's room in one column, the clock in portrait
            phone = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
            phone.goto(dash.url + "/login")
            phone.fill("#user", "alice")
            phone.fill("#password", "demo")
            phone.click("#submit")
            phone.wait_for_selector("#controls:not(.hidden)")
            phone.wait_for_selector("#table-t8")
            phone.wait_for_timeout(300)
            phone.screenshot(path=str(out / "room-phone.png"))
            phone.goto(dash.url + "/clock")
            phone.wait_for_function("() => /\\d\\d:\\d\\d/.test(document.getElementById('clk-time').textContent)")
            phone.wait_for_timeout(500)
            phone.screenshot(path=str(out / "clock-phone.png"))
            chromium.close()
        dash.stop()
    room.hub.stop()
    print(f"screenshots in {out}: " + ", ".join(sorted(f.name for f in out.glob("*.png"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
