"""A club night as installed, watched for what breaks play (issue #26): the closed broker of `deploy/`, a
tournament made with `tapis tournament`, `tapis hub --db` with its dashboard, N `tapis sim table` making
dealing faults, and a TD in Chromium who decides at random every decision a table waits for.

    .venv/bin/python tools/club_night.py --minutes 30 --ruleset cpt87 --fault-rate 0.3

Prints a line a minute and a summary: hands played per table, faults by kind, decisions raised and
carried out, the longest time a table went without a hand ending, chips in play; exits 1 if a table was
blocked (no hand ended for `--blocked-after` seconds while it had players), chips were created or lost, or a
decision the TD took was not carried out. Uses the test suite's installed room (`tests/e2e`), Chromium
through Playwright (`setup.sh --test`). A tool for a person to run, not a test: it takes its minutes.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

STRUCTURE = """name = "Soirée"
starting_stack = 20000

[[item]]
level = 1
small_blind = 50
big_blind = 100
ante = 0
minutes = 15

[[item]]
level = 2
small_blind = 100
big_blind = 200
ante = 0
minutes = 15

[[item]]
level = 3
small_blind = 150
big_blind = 300
ante = 25
minutes = 15

[[item]]
level = 4
small_blind = 200
big_blind = 400
ante = 50
minutes = 15
"""


def random_td(room: Any, rng: random.Random, clicked: Counter[str], stop: threading.Event) -> None:
    """The TD in Chromium, on its own thread: logged in as install.sh made him, he clicks one of the options
    of any decision a table waits for, after a few seconds (he walks to the table, thinks)."""
    from playwright.sync_api import sync_playwright

    from tests.dashboard import browser

    with sync_playwright() as playwright:
        chromium = browser.launch(playwright)
        page = chromium.new_context(viewport={"width": 1400, "height": 900}).new_page()
        url = f"http://127.0.0.1:{room.dashboard}"
        page.goto(url + "/login")
        page.fill("#user", "td")
        page.fill("#password", room.td_password)
        page.click("#submit")
        page.wait_for_url(url + "/")
        while not stop.is_set():
            if page.is_closed():
                return
            buttons = page.locator(".fault.decide button[data-option]")
            count = buttons.count()
            if count:
                button = buttons.nth(rng.randrange(count))
                page.wait_for_timeout(rng.uniform(500, 4000))
                try:
                    option = button.get_attribute("data-option", timeout=2000) or "?"
                    button.click(timeout=2000)
                    clicked[option] += 1
                except Exception:  # noqa: BLE001 - made moot meanwhile (the page redrew): look again
                    pass
            page.wait_for_timeout(300)
        chromium.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--ruleset", default="cpt87")
    parser.add_argument("--fault-rate", type=float, default=0.3, help="each table's croupier (tapis sim table)")
    parser.add_argument("--boxed-rate", type=float, default=0.0, help="cards boxed in the deck, per card")
    parser.add_argument("--players", type=int, default=24)
    parser.add_argument("--allin-rate", type=float, default=0.003, help="the simulated players' shoves")
    parser.add_argument("--blocked-after", type=float, default=120.0, help="seconds without a hand ending")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the room's folder (logs, store)")
    args = parser.parse_args(argv)

    from hub.edge.broker import find_mosquitto
    from tablewire.stopping import stop_on_signals
    from tests.dashboard import browser
    from tests.e2e import test_room_as_installed as installed
    from tests.support import wait_until

    if browser.missing():
        print(f"club_night: {browser.missing()}", file=sys.stderr)
        return 2
    import subprocess

    rng = random.Random(args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="tapis-night-"))
    room = installed.Room(tmp)
    # a night's pace: a shove now and then (the simulator's default empties a table in a few hands)
    sim = ["--pace", "0.05", "--scan-ms", "40", "--allin-rate", str(args.allin_rate), "--boxed-rate",
           str(args.boxed_rate)]
    if args.fault_rate:
        sim += ["--fault-rate", str(args.fault_rate)]
    installed.SIM_OPTIONS = tuple(sim)
    room.install()
    (room.etc / "structure.toml").write_text(STRUCTURE, encoding="utf-8")
    names = [f"Joueur{i:02d}" for i in range(1, args.players + 1)]
    db = str(room.db)
    installed.run("tournament", "new", "--db", db, "--ruleset", args.ruleset, "--structure",
                  str(room.etc / "structure.toml"), "--tables", "3", "--seats", "9", "--buy-in", "20",
                  "--payouts", "50,30,20", "--seed", str(args.seed))
    installed.run("tournament", "register", "--db", db, *names)
    installed.run("tournament", "seat", "--db", db)
    broker = subprocess.Popen([find_mosquitto(), "-c", str(tmp / "mosquitto.conf")], cwd=tmp,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    failures: list[str] = []
    with ExitStack() as stack:
        stack.callback(lambda: (broker.terminate(), broker.wait(10)))
        stack.callback(room.stop)
        assert wait_until(lambda: installed._listening(room.tls_port), 20), "Mosquitto did not start"
        hub, watcher = room.start_hub(stack)  # with the TD login install.sh makes
        room.td("start")
        clicked: Counter[str] = Counter()
        stop = threading.Event()
        td = threading.Thread(target=random_td, args=(room, rng, clicked, stop), name="td", daemon=True)
        td.start()
        stack.callback(lambda: (stop.set(), td.join(30)))
        for table in installed.TABLES:
            room.start(table, room.agent_command(table))
        stopped = stop_on_signals((signal.SIGINT,))  # Ctrl-C: the summary, then a clean stop
        total = None
        start = time.monotonic()
        last_end = {t: start for t in installed.TABLES}
        longest = dict.fromkeys(installed.TABLES, 0.0)
        next_line = start + 60
        seen_ends = 0
        while time.monotonic() - start < args.minutes * 60:
            if stopped.is_set():
                failures.append("interrupted (Ctrl-C): the figures are those so far")
                break
            if hub.poll() is not None:
                failures.append(f"the hub stopped ({hub.returncode})")
                break
            time.sleep(0.3)
            now = time.monotonic()
            ends = watcher.seen(lambda e: e["type"] == "hand_end")
            for e in ends[seen_ends:]:
                last_end[e["table"]] = now
            seen_ends = len(ends)
            alive = {f"t{n}" for n, t in watcher.clock.get("tables", {}).items() if len(t.get("seats", {})) >= 2}
            for table in alive:
                longest[table] = max(longest[table], now - last_end[table])
            if now >= next_line:
                next_line += 60
                status = json.loads(room.td("status", "--json"))["data"]
                chips = status["chips_in_play"]
                total = chips if total is None else total
                if chips != total:
                    failures.append(f"chips in play {chips} != {total} at {int((now - start) / 60)} min")
                print(f"{int((now - start) / 60):3d} min: {seen_ends} hands ended, "
                      f"{sum(clicked.values())} decisions clicked, players left {status['players_left']}, "
                      f"chips {chips}, longest wait {max(longest.values()):.0f} s", flush=True)
            if watcher.clock.get("players_left", 99) <= 1:
                print("the tournament is over", flush=True)
                break
        events = watcher.seen(lambda e: True)
    faults = Counter(e.get("kind") for e in events if e["type"] == "fault")
    raised = [e for e in events if e["type"] == "fault" and e["ruling"].get("decision") == "td_decision"
              and not e["ruling"].get("joins")]
    decided = [e for e in events if e["type"] == "ruling" and e.get("by") == "td"]
    refused = [e for e in events if e["type"] == "decision_refused"]
    ends = Counter((e["table"], e["result"]) for e in events if e["type"] == "hand_end")
    print(f"hands ended: {dict(sorted(ends.items()))}")
    print(f"faults: {dict(sorted(faults.items(), key=str))}")
    print(f"decisions: {len(raised)} raised, {sum(clicked.values())} clicked ({dict(clicked)}), "
          f"{len(decided)} carried out, {len(refused)} refused")
    print(f"longest time without a hand ending, per table: { {t: round(v) for t, v in longest.items()} }")
    if len(decided) != sum(clicked.values()):
        failures.append(f"{sum(clicked.values())} decisions clicked, {len(decided)} carried out")
    failures += [f"{t} blocked {v:.0f} s" for t, v in longest.items() if v > args.blocked_after]
    if not args.keep:
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        print(f"room kept in {tmp}")
    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
