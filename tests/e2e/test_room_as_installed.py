"""The room as a club installs it (issue #14), in real processes: the shipped `deploy/` files (only paths,
ports and the table's name substituted), the closed Mosquitto of `deploy/mosquitto-tapis.conf` with the
users `python -m hub.edge.security` writes, a tournament made with `tapis tournament`, `tapis hub --db` with
its dashboard, and three `tapis sim table`. Hands play to their end, a boxed card is ruled, a player busts
and his table is broken up, and Chromium shows names, stacks and the ruling while a viewer's stream
carries no hidden face. README.md "Running a real room" runs these same commands."""

from __future__ import annotations

import getpass
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest

from hub.edge.broker import find_mosquitto, free_port
from hub.floor.commands import TOURNAMENT_CLOCK, TOURNAMENT_TABLES
from tablewire import wire
from tablewire.credentials import client_tls_context
from tablewire.mqtt import Message, MqttLink
from tests.dashboard import browser
from tests.support import wait_until

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
TABLES = ("t1", "t2", "t3")
# 19 players on three 9-seat tables: the first bust leaves 18, who fit on two tables, so t3 is broken up
PLAYERS = ("Agnès", "Bruno", "Céline", "Denis", "Élodie", "Fabien", "Gaëlle", "Hugo", "Inès", "Julien",
           "Karima", "Léo", "Manon", "Nicolas", "Océane", "Pascal", "Quentin", "Rose", "Sami")
STRUCTURE = """name = "Acceptance"
starting_stack = 2000

[[item]]
level = 1
small_blind = 100
big_blind = 200
ante = 0
minutes = 60
"""
# the simulated tables: fast enough for a test, every dealing step still read by the agent on the board
RoomT = TypeVar("RoomT", bound="Room")
SIM_OPTIONS = ("--pace", "0.03", "--scan-ms", "40", "--boxed-rate", "0.04", "--allin-rate", "0.1")


def read_env(path: Path) -> dict[str, str]:
    """A systemd EnvironmentFile: KEY=value lines, # comments."""
    pairs = (line.split("=", 1) for line in path.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.lstrip().startswith("#"))
    return {key.strip(): value.strip() for key, value in pairs}


def tapis(*args: str) -> list[str]:
    return [sys.executable, "-m", "tapis", *args]


def run(*args: str, timeout: float = 60) -> str:
    done = subprocess.run(tapis(*args), capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert done.returncode == 0, f"tapis {' '.join(args)}: {done.stderr}"
    return done.stdout


class TdHttp:
    """The TD logged in on the room's dashboard as install.sh makes his login (`td`): each request carries the
    session cookie and its CSRF token, as the dashboard's pages send them."""

    def __init__(self, room: Room) -> None:
        self.url = f"http://127.0.0.1:{room.dashboard}"
        self.headers: dict[str, str] = {}
        status, body, headers = self.call("POST", "/api/login", {"user": "td", "password": room.td_password})
        assert status == 200, body
        self.headers = {"Cookie": headers["Set-Cookie"].split(";")[0], "X-CSRF-Token": body["csrf"]}

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, dict[str, Any], dict[str, str]]:
        """(status, the JSON answer, its headers), an error status included."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", **self.headers})
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                return response.status, json.loads(response.read()), dict(response.headers)
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read()), dict(err.headers)

    def floor(self, **command: Any) -> dict[str, Any]:
        """A floor command as the desk's page posts it (`/api/td/floor`); its answer, which must be ok."""
        status, answer, _ = self.call("POST", "/api/td/floor", command)
        assert status == 200 and answer["ok"], answer
        return answer


class Room:
    """The files and processes of one room, laid out in `tmp` as install.sh lays them out in /etc."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.port, self.tls_port, self.dashboard = free_port(), free_port(), free_port()
        self.room = tmp / "room"  # /etc/tapis/room
        self.etc = tmp / "etc"  # /etc/tapis
        self.db = tmp / "tournament.db"
        self.procs: list[subprocess.Popen[str]] = []
        self.td_password = ""  # the TD's dashboard login `td`, as install.sh makes it
        self.logs: dict[str, Path] = {}

    # -- the files -----------------------------------------------------------------------------------

    def install(self) -> None:
        tables = [arg for t in TABLES for arg in ("--table", t)]
        subprocess.run([sys.executable, "-m", "hub.edge.security", str(self.room), *tables,
                        "--port", str(self.port), "--tls-port", str(self.tls_port)],
                       check=True, capture_output=True, cwd=ROOT, timeout=60)
        conf = (DEPLOY / "mosquitto-tapis.conf").read_text(encoding="utf-8")
        conf = conf.replace("/etc/tapis/room", str(self.room))
        conf = conf.replace("listener 1883 127.0.0.1", f"listener {self.port} 127.0.0.1")
        conf = conf.replace("listener 8883\n", f"listener {self.tls_port} 127.0.0.1\n")  # loopback only here
        (self.tmp / "conf.d").mkdir()
        (self.tmp / "conf.d" / "tapis.conf").write_text(conf, encoding="utf-8")
        # Debian's /etc/mosquitto/mosquitto.conf, which includes conf.d/; `user`: as whoever runs the test
        # (the Pi's broker runs as `mosquitto`, the group install.sh gives the password file)
        (self.tmp / "mosquitto.conf").write_text(
            f"user {getpass.getuser()}\npersistence_location {self.tmp}/\nlog_dest stderr\n"
            f"include_dir {self.tmp / 'conf.d'}\n", encoding="utf-8")
        self.etc.mkdir()
        (self.etc / "rulebooks").mkdir()  # the club's rulebook files, offered by the desk
        decks = run("sim", "decks", *TABLES)  # the simulated tags (a real room enrols its own: `agent scan`)
        (self.etc / "decks.toml").write_text(decks, encoding="utf-8")
        (self.etc / "structure.toml").write_text(STRUCTURE, encoding="utf-8")
        said = run("td-login", "td", "--users", str(self.etc / "td-users"))  # install.sh: the TD's login
        self.td_password = said.split("mot de passe / password: ")[1].strip()
        for table in TABLES:
            shipped = (DEPLOY / "etc-tapis" / "table.toml").read_text(encoding="utf-8")
            profile = re.sub(r'^table = "t1"', f'table = "{table}"', shipped, count=1, flags=re.M)
            assert profile != shipped or table == "t1"
            (self.etc / f"{table}.toml").write_text(profile, encoding="utf-8")

    sim_options: tuple[str, ...] | None = None  # the simulated croupier's options (None: SIM_OPTIONS)

    def agent_command(self, table: str) -> list[str]:
        """tapis-agent.service's ExecStart from the shipped agent.env, `agent` made `sim table`."""
        env = read_env(DEPLOY / "etc-tapis" / "agent.env")
        subst = {"/etc/tapis/table.toml": str(self.etc / f"{table}.toml"),
                 "/etc/tapis/decks.toml": str(self.etc / "decks.toml"),
                 "tapis-hub.local:8883": f"localhost:{self.tls_port}",
                 "/etc/tapis/table-credentials.json": str(self.room / "credentials" / f"table-{table}.json"),
                 "/etc/tapis/ca.crt": str(self.room / "broker" / "tls" / "ca.crt")}
        for key, value in env.items():
            for old, new in subst.items():
                value = value.replace(old, new)
            env[key] = value
        return tapis("sim", "table", "--profile", env["TAPIS_PROFILE"], "--decks", env["TAPIS_DECKS"],
                     "--broker", env["TAPIS_BROKER"], *shlex.split(env["TAPIS_AGENT_AUTH"]),
                     *(self.sim_options if self.sim_options is not None else SIM_OPTIONS),
                     "--seed", table[1:])

    def hub_command(self) -> list[str]:
        """tapis-hub.service's ExecStart from the shipped hub.env and the hub-room.env install.sh writes."""
        broker = read_env(DEPLOY / "etc-tapis" / "hub.env")["TAPIS_BROKER"].replace(":1883", f":{self.port}")
        hub_room = ["--password-file", str(self.room / "credentials" / "hub.json"), "--tables", ",".join(TABLES),
                    "--td-users", str(self.etc / "td-users"), "--rulebooks", str(self.etc / "rulebooks")]
        return tapis("hub", "--broker", broker, *hub_room, "--db", str(self.db), "--dashboard", str(self.dashboard))

    def td(self, *args: str) -> str:
        """`tapis tournament` on the running hub, as the TD's user."""
        return run("tournament", "--broker", f"mqtt://127.0.0.1:{self.port}", "--password-file",
                   str(self.room / "credentials" / "td.json"), *args)

    # -- the processes -------------------------------------------------------------------------------

    def start(self, name: str, command: list[str], cwd: Path | None = None) -> subprocess.Popen[str]:
        log = self.tmp / f"{name}.log"
        self.logs[name] = log
        with log.open("w") as out:
            # PYTHONFAULTHANDLER: a process that will not stop dumps its threads into its log (`stop`)
            proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, text=True, cwd=cwd or ROOT,
                                    env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONFAULTHANDLER": "1"})
        self.procs.append(proc)
        return proc

    def log(self, name: str) -> str:
        return self.logs[name].read_text(encoding="utf-8", errors="replace")

    def start_hub(self, cleanup: ExitStack) -> tuple[subprocess.Popen[str], Watcher]:
        """`tapis hub` as installed, a screen's `Watcher` on it (stopped by `cleanup`), once the hub listens
        and serves its dashboard."""
        hub = self.start("hub", self.hub_command())
        watcher = Watcher(self)
        watcher.link.start(timeout=30)
        cleanup.callback(watcher.link.stop)
        assert wait_until(lambda: "TD dashboard on" in self.log("hub") and "listening" in self.log("hub"), 30), \
            self.log("hub")
        return hub, watcher

    def stop(self) -> dict[str, int | None]:
        codes: dict[str, int | None] = {}
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for name, proc in zip(self.logs, self.procs, strict=True):
            try:
                codes[name] = proc.wait(15)
            except subprocess.TimeoutExpired:
                # still running 15 s after SIGTERM: its threads' stacks into its log, then killed
                proc.send_signal(signal.SIGABRT)
                try:
                    proc.wait(5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                codes[name] = proc.wait()
        return codes

    def stopped_logs(self, codes: dict[str, int | None]) -> dict[str, str]:
        """The end of the log of each process `stop` found in error (for an assertion's message)."""
        return {name: self.log(name)[-6000:] for name, code in codes.items() if code != 0}


class Watcher:
    """A screen's view of the room over MQTT (the read-only `dashboard` user, over TLS): the hub's public
    events per table, the floor's clock. (Not the `td` user: a user is one client id on this broker, and
    the `tapis tournament` commands the test runs log in as `td`.)"""

    def __init__(self, room: Room) -> None:
        creds = json.loads((room.room / "credentials" / "dashboard.json").read_text(encoding="utf-8"))
        self.link = MqttLink(client_id=creds["username"], host="localhost", port=room.tls_port,
                             username=creds["username"], password=creds["password"],
                             tls=client_tls_context(room.room / "broker" / "tls" / "ca.crt"))
        self.events: list[dict[str, Any]] = []
        self.clock: dict[str, Any] = {}  # the clock, its "tables" put back from each table's topic
        self._clock_only: dict[str, Any] = {}
        self._tables: dict[str, Any] = {}
        self.lock = threading.Lock()
        self.link.subscribe(wire.hub_table_events("+"), self._event)
        self.link.subscribe(TOURNAMENT_TABLES, self._table)
        self.link.subscribe(TOURNAMENT_CLOCK, self._clock)

    def _event(self, message: Message) -> None:
        with self.lock:
            self.events.append(json.loads(message.payload))

    def _clock(self, message: Message) -> None:
        with self.lock:
            self._clock_only = json.loads(message.payload)
            self._compose()

    def _table(self, message: Message) -> None:
        number = message.topic.rsplit("/", 1)[1]
        with self.lock:
            if message.payload:
                self._tables[number] = json.loads(message.payload)
            else:  # cleared: the table is gone
                self._tables.pop(number, None)
            self._compose()

    def _compose(self) -> None:
        numbers = [str(n) for n in self._clock_only.get("table_numbers", [])]
        self.clock = {**self._clock_only, "tables": {n: self._tables[n] for n in numbers if n in self._tables}}

    def seen(self, test: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        with self.lock:
            return [e for e in self.events if test(e)]


@contextmanager
def installed(room: RoomT) -> Iterator[RoomT]:
    """`room`'s files laid out and its closed Mosquitto running; at the end every process stopped and
    the private keys removed."""
    room.install()
    broker = subprocess.Popen([find_mosquitto(), "-c", str(room.tmp / "mosquitto.conf")], cwd=room.tmp,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_until(lambda: _listening(room.tls_port) and _listening(room.port), 20), "Mosquitto did not start"
        yield room
    finally:
        room.stop()
        broker.terminate()
        broker.wait(10)
        shutil.rmtree(room.tmp / "room", ignore_errors=True)  # private keys: not left in /tmp


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Room]:
    with installed(Room(tmp_path)) as ready:
        yield ready


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def viewer_leaks(messages: list[tuple[str, Any]]) -> list[str]:
    """Faces of face-down cards (hole cards, burns, muck: `hub.room.tables.face_down`) a viewer received:
    in the tables' zones, in card events, in faults (a viewer's faults name no card)."""
    leaks: list[str] = []
    for name, data in messages:
        tables = list(data.get("tables", {}).values()) if name == "room" else [data.get("table")] \
            if name == "update" else []
        for table in filter(None, tables):
            for zone, cards in table.get("zones", {}).items():
                if (zone.startswith("seat:") or zone in ("burn", "muck")) and not isinstance(cards, int):
                    leaks.append(f"{name}: zone {zone} = {cards}")
        event = data.get("event") or {} if name == "update" else {}
        zone = str(event.get("zone"))
        if event.get("type") == "card" and (zone.startswith("seat:") or zone in ("burn", "muck")) and event["card"]:
            leaks.append(f"{name}: card {event['card']} in {zone}")
        faults = data.get("faults", []) if name == "room" else [data] if name == "fault" else []
        for fault in faults + ([event] if event.get("type") == "fault" else []):
            if fault.get("cards") or (fault.get("ruling") or {}).get("cards"):
                leaks.append(f"{name}: fault {fault.get('kind')} names {fault.get('cards')}")
    return leaks


def test_a_room_as_installed_plays_a_tournament(room: Room) -> None:
    db = str(room.db)
    run("tournament", "new", "--db", db, "--ruleset", "cdc-2013", "--structure", str(room.etc / "structure.toml"),
        "--tables", "3", "--seats", "9", "--buy-in", "20", "--payouts", "50,30,20", "--seed", "7")
    run("tournament", "register", "--db", db, *PLAYERS)
    run("tournament", "seat", "--db", db)
    with ExitStack() as cleanup:
        hub, watcher = room.start_hub(cleanup)
        # which rules engine runs: the pure one and why (the suite's TAPIS_ENGINE=pure, tests/conftest.py), or
        # the build tests/rules/test_compiled_build.py runs this test on (TAPIS_ENGINE=compiled)
        engine = ("moteur de règles compilé / compiled rules engine" if os.environ["TAPIS_ENGINE"] == "compiled" else
                  "moteur de règles pur (TAPIS_ENGINE=pure) / pure rules engine (TAPIS_ENGINE=pure)")
        assert f"tapis hub: {engine}" in room.log("hub")
        room.td("start")
        # the clock and each table come on topics of their own (retained): both, before reading the seats
        assert wait_until(lambda: watcher.clock.get("running") and len(watcher.clock["tables"]) == len(TABLES), 15), \
            (watcher.clock, room.log("hub")[-3000:])
        seated = {t: {s["player"] for s in watcher.clock["tables"][str(i + 1)]["seats"].values()}
                  for i, t in enumerate(TABLES)}
        page = viewer_page(room, cleanup)  # a viewer follows the room from before the first card
        for table in TABLES:
            room.start(table, room.agent_command(table))

        def played(test: Callable[[dict[str, Any]], bool]) -> bool:
            assert hub.poll() is None, room.log("hub")
            return bool(watcher.seen(test))

        def boxed_ruled(e: dict[str, Any]) -> bool:
            return e["type"] == "fault" and e.get("kind") == "boxed_card" and bool(e["ruling"].get("article"))

        def busted_and_broken() -> bool:
            clock = watcher.clock
            return clock.get("players_left", 19) < 19 and "3" not in clock.get("tables", {"3": 0})

        assert wait_until(lambda: played(lambda e: e["type"] == "hand_end" and e.get("result") != "cancelled"),
                          60), [room.log(t) for t in TABLES]
        assert wait_until(lambda: played(boxed_ruled), 60), \
            (sorted({(e["type"], e.get("kind"), e.get("result")) for e in watcher.seen(lambda e: True)}, key=str),
             [room.log(t)[-3000:] for t in TABLES])
        assert wait_until(busted_and_broken, 90), watcher.clock
        ended = watcher.seen(lambda e: e["type"] == "hand_end")
        assert ended and all(e.get("result") != "cancelled" for e in ended), [e for e in ended
                                                                            if e.get("result") == "cancelled"]
        assert not watcher.seen(lambda e: e["type"] == "fault" and e.get("kind") == "foreign_card")
        # the bust broke t3 up (cdc-2013 3.4; or, if enough busted at once, the final-table draw 3.6)
        moves = [m for e in watcher.seen(lambda e: e["type"] == "floor_moves") for m in e["moves"]]
        assert any(m["from_table"] == "t3" and m["to_table"] != "t3" and m["reason"] in ("break", "final")
                   for m in moves), moves
        still = {x["player"] for s in watcher.clock["tables"].values() for x in s["seats"].values()}
        assert still & seated["t3"], "t3's players were not seated elsewhere"
        status = json.loads(room.td("status", "--json"))
        assert status["ok"], status
        # each bust was a hand's: who knocked him out is on record (a bounty), players still in or out before him
        ranking = json.loads(room.td("results", "--json"))["data"]["ranking"]
        busts = [r for r in ranking if r["status"] == "out"]
        assert busts and all(r["knocked_out_by"] and r["player"] not in r["knocked_out_by"] for r in busts), busts
        # the club's season reads the store the hub is writing: the night is in progress, not counted yet
        season = room.db.parent / "saison.toml"
        season.write_text(f'name = "Saison"\n[points]\nby_place = [10, 5]\n[[tournament]]\ndb = "{room.db.name}"\n'
                          'label = "ce soir"\n', encoding="utf-8")
        assert "in progress, not counted yet: ce soir" in run("season", "check", str(season))
        if page is not None:
            check_viewer_page(page, watcher, hands=len(ended))
        # SIGTERM, as systemd stops them: every process ends cleanly
        codes = room.stop()
        assert codes == {name: 0 for name in ("hub", *TABLES)}, room.stopped_logs(codes)
    if page is None:
        pytest.skip(f"the room played; the dashboard in Chromium was not checked: {browser.missing()}")


def test_the_viewer_check_finds_a_face_down_card() -> None:
    """`viewer_leaks` can fail: a burn's face, a mucked card named by a card event, a seat's cards."""
    assert viewer_leaks([("update", {"table": {"zones": {"burn": ["Ac"], "board": ["2d"]}}, "event": {}})])
    assert viewer_leaks([("update", {"table": None, "event": {"type": "card", "zone": "muck", "card": "5d"}})])
    assert viewer_leaks([("room", {"tables": {"t1": {"zones": {"seat:3": ["As", "Kd"]}}}})])
    assert viewer_leaks([("fault", {"table": "t1", "kind": "misdeal", "cards": ["7h"], "ruling": {}})])
    assert not viewer_leaks([("fault", {"table": "t1", "kind": "boxed_card", "cards": [], "ruling": {"cards": []}})])
    assert not viewer_leaks([("room", {"tables": {"t1": {"zones": {"seat:3": 2, "burn": 1, "board": ["2d"]}}}})])


def viewer_page(room: Room, cleanup: ExitStack) -> Any:
    """The dashboard's room view in Chromium, not logged in (a viewer), recording its event stream
    (`browser.RECORD_STREAM`); None where this machine has no Chromium."""
    if browser.missing() is not None:
        return None
    from playwright.sync_api import sync_playwright

    playwright = cleanup.enter_context(sync_playwright())
    chromium = browser.launch(playwright)
    cleanup.callback(chromium.close)
    page = chromium.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.add_init_script(browser.RECORD_STREAM)
    page.goto(f"http://127.0.0.1:{room.dashboard}/")
    return page


def check_viewer_page(page: Any, watcher: Watcher, *, hands: int) -> None:
    """Names and stacks on the seats, the boxed card's ruling in the log; what the page's event stream
    received during the live hands (burns, folds to the muck, all-ins, showdowns) shows no face-down card."""
    alive = {x["player"] for s in watcher.clock["tables"].values() for x in s["seats"].values()}

    def shown() -> bool:
        text = page.inner_text("body")
        return sum(name in text for name in alive) >= min(4, len(alive)) and "cdc-2013 6.3" in text

    assert wait_until(shown, 30), page.inner_text("body")
    # each row's cells as the DOM has them: a row's innerText joins them with tabs only while it is laid out
    # (the room redraws a table card as its events come), and a CI run once read one without (IndexError)
    rows = page.eval_on_selector_all(".table .seats tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))")
    named = [cells for cells in rows if any(name in " ".join(cells) for name in alive)]
    # a stack by each name: chips, or « tapis » for a player all in as the page is read
    assert named and all(re.search(r"\d", cells[3]) or cells[3] == "tapis" for cells in named), named
    text = page.inner_text("body")
    # the fault and its ruling in words (labels.js), with the article; never the raw identifier
    assert "Feuille morte" in text and "Carte mise de côté" in text and "cdc-2013 6.3" in text
    assert "boxed_card" not in text and "set_aside" not in text
    messages = [(name, json.loads(data)) for name, data in page.evaluate("() => window.__raw")]
    ends = [d for name, d in messages if name == "update" and (d.get("event") or {}).get("type") == "hand_end"]
    assert len(ends) >= min(hands, 3), f"the page saw {len(ends)} hands end of {hands}"
    assert viewer_leaks(messages) == []


def readme_commands() -> list[list[str]]:
    """The `tapis ...` lines of README.md's "Running a real room" (comments and shell glue left out)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Running a real room"):]
    section = section[:section.index("\n## ", 1)]
    lines = [line.split(" > ")[0] for block in re.findall(r"```sh\n(.*?)```", section, re.S)
             for line in block.splitlines()]
    return [shlex.split(line) for line in lines if line.startswith("tapis ")]


def test_the_readme_room_commands_parse_and_are_the_ones_this_test_runs(tmp_path: Path) -> None:
    from hub.cli import parser as hub_parser
    from hub.floor.td import parser as td_parser
    from simulators.cli import parser as sim_parser
    from table_agent.cli import parser as agent_parser

    commands = readme_commands()
    verbs = {argv[1] for argv in commands}
    assert verbs == {"tournament", "hub", "agent", "sim", "td-login"}, verbs
    for argv in commands:
        parsers: dict[str, Callable[[list[str]], object]] = {
            "hub": hub_parser().parse_args, "agent": agent_parser().parse_args, "sim": sim_parser().parse_args,
            "td-login": hub_parser().parse_args,
            "tournament": lambda a: td_parser().parse_args(a[1:])}
        try:
            parsers[argv[1]](argv[1:])
        except SystemExit:
            pytest.fail(f"README.md: `{shlex.join(argv)}` does not parse")
    # every option this test gives a process is one the README's commands (or its text) show
    room = Room(tmp_path)
    ours = [room.hub_command(), room.agent_command("t2"), tapis("tournament", "new", "--db", "x", "--ruleset",
            "cdc-2013", "--structure", "s", "--tables", "3", "--seats", "9", "--buy-in", "20", "--payouts", "1")]
    (tmp_path / "room" / "credentials").mkdir(parents=True)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = {arg for argv in commands for arg in argv if arg.startswith("--")}
    for argv in ours:
        for arg in (a for a in argv if a.startswith("--")):
            assert arg in shown or f"`{arg}`" in readme, f"{arg} of `{shlex.join(argv[2:])}` is not in README.md"
