"""Latency of the TD dashboard: hub event -> SSE client, with 60 simulated tables dealing real hands.

Every table is configured on a real `HubService` (rules engine included) and fed `tablewire.wire` table
events through the hub's MQTT subscription callback (no broker: the figure is the dashboard's, not
Mosquitto's): hole cards, actions from the player whose turn it is, board cards, showdowns, at
`--rate` events per second per table, spread evenly. N SSE clients (viewers and logged-in TDs) read
`/events` over 127.0.0.1; each `update` carries the monotonic time the hub's listener saw the event.

    python tests/dashboard/bench_dashboard.py [--tables 60] [--clients 20] [--tds 5] [--rate 3] [--seconds 20]
"""

from __future__ import annotations

import argparse
import copy
import json
import multiprocessing
import random
import socket
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hub.dashboard import Dashboard, hash_password  # noqa: E402
from hub.rules import HandOver  # noqa: E402
from tests.dashboard.helpers import ScriptedRoom  # noqa: E402

RANKS, SUITS = "23456789TJQKA", "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]


class LeanSseClient:
    """Reads `/events` on a raw socket; keeps (receipt - t0) for every `update`, parses nothing else."""

    def __init__(self, host: str, port: int, cookie: str | None) -> None:
        self.sock = socket.create_connection((host, port))
        extra = f"Cookie: {cookie}\r\n" if cookie else ""
        self.sock.sendall(f"GET /events HTTP/1.1\r\nHost: {host}\r\n{extra}\r\n".encode())
        self.latencies: list[float] = []
        self.leaks = 0  # hole card faces in a viewer's stream (must stay 0)
        self.viewer = cookie is None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        buffer = b""
        prefix = b'data: {"t0":'
        try:
            while True:
                chunk = self.sock.recv(1 << 16)
                if not chunk:
                    return
                now = time.monotonic()
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if line.startswith(prefix):
                        self.latencies.append(now - float(line[len(prefix):line.index(b",", len(prefix))]))
                        if self.viewer and b'"hole":[' in line:
                            self.leaks += 1
        except OSError:
            return

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class Dealer:
    """One table's next fact, read from the hub's game: the deal, the player to act, the board."""

    def __init__(self, room: ScriptedRoom, table: str, rng: random.Random) -> None:
        self.room, self.table, self.rng = room, table, rng
        self.deck: list[str] = []
        self.hand_no = -1
        self.skipped = 0  # steps skipped because the game changed while this thread read it

    def step(self) -> None:
        game = self.room.hub.games[self.table]
        hand = game.hand
        if hand is None or not game.in_hand:
            self.room.new_hand(self.table)
            return
        if game.hand_no != self.hand_no:
            self.hand_no, self.deck = game.hand_no, self.rng.sample(DECK, len(DECK))
        seats = hand.seats
        dealt = sum(len(game.hole.get(s, [])) for s in seats)
        if dealt < 2 * len(seats):
            self.room.card(self.table, f"seat:{seats[dealt % len(seats)]}", self.deck[dealt])
            return
        if hand.round_open and hand.to_act is not None:
            self._act(hand, hand.to_act)
            return
        need = {0: 3, 3: 4, 4: 5}.get(len(hand.board), 5)
        if len(game.board) < need or hand.cards_face_up:
            self.room.card(self.table, "board", self.deck[2 * len(seats) + len(game.board)])
            return
        try:  # the street's cards are out: who speaks first once the engine has them
            ahead = copy.deepcopy(hand)
            ahead.deal_board(*game.board[len(hand.board):need])
        except Exception:  # noqa: BLE001 - read while the hub's thread was changing it: next turn
            self.skipped += 1
            return
        if ahead.to_act is not None:
            self._act(ahead, ahead.to_act)

    def _act(self, hand: object, seat: int) -> None:
        try:
            legal = hand.legal(seat)  # type: ignore[attr-defined]
        except HandOver:
            self.room.act(self.table, seat, "fold")
            return
        r = self.rng.random()
        if legal.can_check:
            self.room.act(self.table, seat, "check")
        else:
            self.room.act(self.table, seat, "call" if r < 0.6 else "fold")


def run_clients(host: str, port: int, cookie: str, clients: int, tds: int, ready: object, go: object,
                stop: object, out: object) -> None:
    """The SSE clients in their own process (so the figure is not the clients' share of one GIL)."""
    lean = [LeanSseClient(host, port, cookie if i < tds else None) for i in range(clients)]
    ready.set()  # type: ignore[attr-defined]
    go.wait()  # type: ignore[attr-defined]
    for c in lean:
        c.latencies.clear()
    stop.wait()  # type: ignore[attr-defined]
    out.put(([x for c in lean if not c.viewer for x in c.latencies],  # type: ignore[attr-defined]
             [x for c in lean if c.viewer for x in c.latencies], sum(c.leaks for c in lean)))
    for c in lean:
        c.close()


STAMP = """
window.__lat = [];
(() => {
  const Original = window.EventSource;
  window.EventSource = function (url, options) {
    const es = new Original(url, options);
    const add = es.addEventListener.bind(es);
    es.addEventListener = (type, fn, opts) => add(type, ev => {
      if (type !== "update") { fn(ev); return; }
      const got = Date.now();
      fn(ev);
      window.__lat.push([ev.data.slice(6, ev.data.indexOf(",")), got, Date.now()]);
    }, opts);
    return es;
  };
})();
"""


def open_browsers(url: str, count: int) -> tuple[object, object, list[object]]:
    """Room views in Debian's headless Chromium, each stamping every update's arrival and drawing."""
    from playwright.sync_api import sync_playwright

    from tests.dashboard import browser

    why = browser.missing()
    if why is not None:
        raise SystemExit(f"--browsers: {why}")
    pw = sync_playwright().start()
    chromium = browser.launch(pw)
    pages = []
    for _ in range(count):
        page = chromium.new_context(viewport={"width": 1600, "height": 1000}).new_page()
        page.add_init_script(STAMP)
        page.goto(url + "/")
        page.wait_for_selector("#tables")
        pages.append(page)
    return pw, chromium, pages


def read_browsers(opened: tuple[object, object, list[object]], wall_offset: float) -> tuple[list[float], list[float]]:
    pw, chromium, pages = opened
    received: list[float] = []
    drawn: list[float] = []
    for page in pages:
        for t0, got, done in page.evaluate("() => window.__lat"):  # type: ignore[attr-defined]
            sent_ms = (float(t0) + wall_offset) * 1000
            received.append(got - sent_ms)
            drawn.append(done - sent_ms)
    chromium.close()  # type: ignore[attr-defined]
    pw.stop()  # type: ignore[attr-defined]
    return received, drawn


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=60)
    p.add_argument("--clients", type=int, default=20, help="SSE clients in all")
    p.add_argument("--tds", type=int, default=5, help="of which logged-in TDs (the rest are viewers)")
    p.add_argument("--rate", type=float, default=3.0, help="table events per second per table")
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--same-process", action="store_true", help="run the SSE clients in the hub's process")
    p.add_argument("--browsers", type=int, default=0,
                   help="also open this many room views in headless Chromium and time the event's arrival there")
    args = p.parse_args(argv)

    rng = random.Random(args.seed)
    room = ScriptedRoom()
    tables = [f"t{i + 1}" for i in range(args.tables)]
    for table in tables:
        seats = sorted(rng.sample(range(1, 10), rng.randint(6, 9)))
        room.configure(table, dict.fromkeys(seats, 20_000), button=rng.choice(seats))
    room.hub.start()
    dash = Dashboard(room.hub, users={"td": hash_password("bench")}).start()
    host, port = dash.url[7:].split(":")
    login = urllib.request.Request(dash.url + "/api/login",
                                   data=json.dumps({"user": "td", "password": "bench"}).encode(),
                                   headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(login) as resp:
        cookie = resp.headers["Set-Cookie"].split(";")[0]
    ctx = multiprocessing.get_context("fork")
    ready, go, stop, out = ctx.Event(), ctx.Event(), ctx.Event(), ctx.Queue()
    clients: list[LeanSseClient] = []
    if args.same_process:
        clients = [LeanSseClient(host, int(port), cookie if i < args.tds else None) for i in range(args.clients)]
    else:
        proc = ctx.Process(target=run_clients, args=(host, int(port), cookie, args.clients, args.tds, ready, go,
                                                     stop, out), daemon=True)
        proc.start()
        ready.wait(30)
    for table in tables:
        room.status(table, True)
    dealers = [Dealer(room, t, random.Random(f"{args.seed}/{t}")) for t in tables]
    time.sleep(0.5)
    for c in clients:
        c.latencies.clear()
    pages = open_browsers(dash.url, args.browsers) if args.browsers else None
    go.set()
    wall_offset = time.time() - time.monotonic()  # the browser stamps Date.now(): same machine, wall clock

    interval = 1.0 / (args.rate * len(tables))  # the tables' events spread evenly, as a room's would be
    start = time.monotonic()
    cpu = time.process_time()
    sent = 0
    while (now := time.monotonic()) - start < args.seconds:
        due = start + sent * interval
        if due > now:
            time.sleep(due - now)
        dealers[sent % len(dealers)].step()
        sent += 1
    room.settle(30)
    time.sleep(0.5)
    elapsed = time.monotonic() - start
    cpu = time.process_time() - cpu
    hands = sum(g.hand_no for g in room.hub.games.values())
    if args.same_process:
        td = [x for c in clients if not c.viewer for x in c.latencies]
        viewer = [x for c in clients if c.viewer for x in c.latencies]
        leaks = sum(c.leaks for c in clients)
    else:
        stop.set()
        td, viewer, leaks = out.get(timeout=60)
        proc.join(10)
    every = td + viewer
    browser_ms: tuple[list[float], list[float]] = ([], [])
    if pages is not None:
        browser_ms = read_browsers(pages, wall_offset)
    print(f"dashboard bench: {args.tables} tables, {args.clients} SSE clients ({args.tds} TD), "
          f"{args.rate:g} table events/s/table for {args.seconds:g} s")
    print(f"  table events sent {sent} ({sent / elapsed:.0f}/s), hub events out {room.hub.stats.events_out}, "
          f"hands started {hands}, messages received by clients {len(every)}, "
          f"feeder steps skipped {sum(d.skipped for d in dealers)}")
    for name, values in (("all", every), ("TD", td), ("viewer", viewer)):
        if values:
            ms = [v * 1000 for v in values]
            print(f"  hub event -> SSE client ({name:6}): p50 {statistics.median(ms):6.2f} ms  "
                  f"p90 {percentile(ms, 90):6.2f} ms  p99 {percentile(ms, 99):6.2f} ms  max {max(ms):6.2f} ms")
    # The room view redraws changed tables at the next animation frame (<= 16 ms after "received").
    for name, ms in (("browser, received", browser_ms[0]),):
        if ms:
            print(f"  hub event -> {name:17}: p50 {statistics.median(ms):6.1f} ms  p90 {percentile(ms, 90):6.1f} ms  "
                  f"p99 {percentile(ms, 99):6.1f} ms  max {max(ms):6.1f} ms  ({len(ms)} updates, {args.browsers} "
                  f"page(s), Date.now() has 1 ms resolution)")
    print(f"  process CPU {cpu:.1f} s over {elapsed:.1f} s ({100 * cpu / elapsed:.0f} % of one core, hub + "
          f"dashboard + feeder{' + clients' if args.same_process else ''})")
    print(f"  SSE clients {'in the hub process' if args.same_process else 'in a separate process'}; "
          f"hole-card leaks in viewers' streams: {leaks}")
    for c in clients:
        c.close()
    dash.stop()
    room.hub.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
