"""Screenshots of the registration desk and the printable results into docs/screenshots/ (headless Chromium).

A pouques-2020 tournament of 24 entries, three players out, one re-entered, an elimination waiting
for the TD's confirmation; the desk at 1920x1080 (French, English) and on a 390x844 phone.

    python tests/dashboard/desk_screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hub.dashboard import Dashboard, hash_password  # noqa: E402
from hub.floor.commands import NewTournament  # noqa: E402
from hub.floor.service import FloorService  # noqa: E402
from hub.floor.store import EventStore  # noqa: E402
from hub.tournament.structure import pouques_2020, to_toml  # noqa: E402
from tests.dashboard import browser  # noqa: E402
from tests.dashboard.conftest import RunningClock  # noqa: E402
from tests.dashboard.helpers import ScriptedRoom  # noqa: E402

NAMES = ["Ada", "Basile", "Chloé", "Dédé", "Eulalie", "Fanch", "Gaëlle", "Hervé", "Inès", "Jules", "Katell",
         "Loïc", "Maëlys", "Nolwenn", "Oscar", "Paulette", "Quentin", "Rozenn", "Soizic", "Tugdual", "Ulysse",
         "Vefa", "Wenceslas", "Yann"]


def tournament(store: EventStore) -> FloorService:
    floor = FloorService(store)
    floor.create(NewTournament(name="Pouques du jeudi", ruleset="pouques-2020",
                               structure_toml=to_toml(pouques_2020()), buy_in_cents=5_000, seed=5), 0.0)
    for cmd in ({"cmd": "register", "players": NAMES}, {"cmd": "seat"}, {"cmd": "start"},
                {"cmd": "eliminate", "player": "Hervé"}, {"cmd": "eliminate", "player": "Oscar"},
                {"cmd": "eliminate", "player": "Ulysse"}, {"cmd": "reenter", "player": "Oscar"}):
        result = floor.execute(cmd, 0.5)  # type: ignore[arg-type]
        if not result.ok:
            raise RuntimeError(f"desk screenshots: {result.error}")
    return floor


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--out", default=str(Path(__file__).resolve().parents[2] / "docs" / "screenshots"))
    args = p.parse_args(argv)
    if (why := browser.missing()) is not None:
        print(f"desk screenshots: {why}")
        return 1
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    room = ScriptedRoom()
    room.hub.start()
    with tempfile.TemporaryDirectory() as tmp, EventStore(Path(tmp) / "t.db", durable=False) as store:
        dash = Dashboard(room.hub, floor=tournament(store), users={"alice": hash_password("demo")},
                         clock=RunningClock()).start()
        with sync_playwright() as pw:
            chromium = browser.launch(pw)
            for name, size, lang in (("desk", (1920, 1080), "fr"), ("desk-en", (1920, 1080), "en"),
                                     ("desk-phone", (390, 844), "fr")):
                page = chromium.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
                page.goto(dash.url + "/login")
                page.evaluate(f"() => localStorage.setItem('tapis.lang', '{lang}')")
                page.fill("#user", "alice")
                page.fill("#password", "demo")
                page.click("#submit")
                page.wait_for_url(dash.url + "/")
                page.goto(dash.url + "/desk")
                page.wait_for_selector("#playing tr[data-player='Ada']")
                page.click("#playing tr[data-player='Ada'] button.eliminate")  # the confirmation, shown
                page.wait_for_selector("#confirm:not(.hidden)")
                page.wait_for_timeout(300)
                page.screenshot(path=str(out / f"{name}.png"), full_page=True)
                if name == "desk":
                    page.goto(dash.url + "/results")
                    page.wait_for_selector("#r-table tr[data-player='Hervé']")
                    page.screenshot(path=str(out / "results.png"), full_page=True)
            chromium.close()
        dash.stop()
    room.hub.stop()
    print(f"desk screenshots in {out}: desk.png, desk-en.png, desk-phone.png, results.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
