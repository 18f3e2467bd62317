"""The decision matrix (issue #26): for every ruleset and every decision a ruling leaves to the TD (and
his cancel), in real processes as installed: the closed Mosquitto of `deploy/`, a tournament made with
`tapis tournament`, `tapis hub --db` with its dashboard, the TD deciding on the room page in Chromium
(the option's button, or "Annuler la donne" and its confirmation) where this machine has Chromium, else
with `tapis tournament decide` (or `cancel-hand`) over the broker (the test then says it skipped the
page). The table is the wire contract played by the test (its own user and TLS): it deals, makes the
fault, stops when told to wait, and the hub's commands say what it carries out. After each decision the
hand ends or goes on as decided, the next hand starts from the right button (the same one after a
misdeal or a hand cancelled with every bet returned, the next one otherwise), chips conserved to the
unit, and the table is never left waiting."""

from __future__ import annotations

import json
import re
import subprocess
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import pytest

from tablewire import wire
from tablewire.credentials import client_tls_context
from tablewire.mqtt import Message, MqttLink
from tests.dashboard import browser
from tests.e2e.test_room_as_installed import Room, Watcher, room, run  # noqa: F401 - the fixture
from tests.support import wait_until

STACK = 10_000
PLAYERS = ("Agnès", "Bruno", "Céline", "Denis")
STRUCTURE = f"""name = "Matrice"
starting_stack = {STACK}

[[item]]
level = 1
small_blind = 50
big_blind = 100
ante = 0
minutes = 60
"""
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
TD = "td"  # the login install.sh makes (`Room.install`)


@dataclass(frozen=True)
class Case:
    """One decision: the fault that raises it (or the TD's cancel), the option the TD takes, and
    whether the hand is then dealt again from the same button."""

    kind: str  # a fault kind, or "td_cancel"
    option: str
    ends: bool  # the decision ends the hand
    same_button: bool  # the next hand is dealt from the same button (misdeal, every bet returned)


MATRIX: dict[str, list[Case]] = {
    "cdc-2013": [Case("td_cancel", "", True, True)],
    "pcpm": [Case("td_cancel", "", True, True)],
    "brest-2011": [Case("boxed_card", "set_aside", False, False),
                   Case("boxed_card", "hand_cancelled_pot_split", True, False),
                   Case("td_cancel", "", True, False)],
    "cpt87": [Case("boxed_card", "set_aside", False, False),
              Case("boxed_card", "hand_cancelled_pot_split", True, False),
              Case("extra_hole_card", "burn_as_first", False, False),
              Case("extra_hole_card", "misdeal", True, True),
              Case("missing_hole_card", "continue", False, False),
              Case("missing_hole_card", "misdeal", True, True),
              Case("td_cancel", "", True, False)],
    "pouques-2020": [Case("premature_flop", "misdeal", True, True),
                     Case("premature_flop", "reshuffle_board", False, False),
                     Case("out_of_turn", "hand_dead", False, False),
                     Case("out_of_turn", "call_or_fold_only", False, False),
                     Case("td_cancel", "", True, True)],
}


class ScriptedTable:
    """Table t1 as the wire contract: its facts published as its agent publishes them (numbered, QoS 1,
    as the table's own broker user over TLS), the hub's commands to it kept in order."""

    def __init__(self, installed: Room) -> None:
        creds = json.loads((installed.room / "credentials" / "table-t1.json").read_text(encoding="utf-8"))
        self.link = MqttLink(client_id=creds["username"], host="localhost", port=installed.tls_port,
                             username=creds["username"], password=creds["password"],
                             tls=client_tls_context(installed.room / "broker" / "tls" / "ca.crt"))
        self.commands: list[wire.AnyCommand] = []
        self.lock = threading.Lock()
        self.seq = 0
        self.boot = f"matrix-{time.monotonic_ns()}"
        self.link.subscribe(wire.table_commands("t1"), self._command)

    def _command(self, message: Message) -> None:
        with self.lock:
            self.commands.append(wire.decode_command(message.topic, message.payload))

    def sent(self, kind: type[Any], hand: int) -> list[Any]:
        with self.lock:
            return [c for c in self.commands if isinstance(c, kind) and c.hand == hand]

    def _send(self, model: type[Any], **fields: Any) -> None:
        self.seq += 1
        event = model(table="t1", boot=self.boot, seq=self.seq, at=time.monotonic(), **fields)
        self.link.publish(wire.table_events("t1"), wire.encode(event), qos=1)

    def press(self, button: str = "new_hand", seat: int | None = None) -> None:
        self._send(wire.DealerPressed, button=button, seat=seat)

    def card(self, zone: str, face: str) -> None:
        self._send(wire.CardEvent, type="card_arrived", zone=zone, uid=f"{DECK.index(face) + 1:08X}", card=face,
                   deck=wire.table_deck_ids("t1")[0], order=self.seq + 1)

    def act(self, seat: int, action: str) -> None:
        self._send(wire.SeatActed, seat=seat, action=action)

    def fault(self, hand: int, kind: str, seat: int | None, cards: list[str], **details: Any) -> None:
        self._send(wire.FaultSeen, hand=hand, kind=kind, seat=seat, cards=cards, details=details)


class Play:
    """The hands of one tournament table, each checked against what the hub published."""

    def __init__(self, installed: Room, table: ScriptedTable, watcher: Watcher, hub: subprocess.Popen[str],
                 page: Any) -> None:
        self.room, self.table, self.watcher, self.hub, self.page = installed, table, watcher, hub, page
        self.hand = 0
        self.rng_cards: list[str] = []

    def wait(self, what: str, test: Callable[[], object], timeout: float = 20) -> None:
        def ok() -> object:
            assert self.hub.poll() is None, self.room.log("hub")[-3000:]
            return test()

        assert wait_until(ok, timeout), (what, [e for e in self.events() if e["type"] != "card"][-12:], self.betting())

    def events(self, kind: str | None = None, hand: int | None = None) -> list[dict[str, Any]]:
        return self.watcher.seen(lambda e: e.get("table") == "t1" and (kind is None or e["type"] == kind)
                                 and (hand is None or e.get("hand") == hand))

    def start(self) -> tuple[dict[str, Any], wire.HandContextCmd]:
        self.table.press()
        self.hand += 1
        hand = self.hand
        # the table plays once it has the hand's context and its first betting state: two messages, the
        # second may still be on its way when the first is here
        self.wait(f"hand {hand} starts", lambda: self.events("hand_start", hand) and self.table.sent(
            wire.HandContextCmd, hand) and self.table.sent(wire.BettingCmd, hand))
        self.rng_cards = list(DECK)
        return self.events("hand_start", hand)[0], self.table.sent(wire.HandContextCmd, hand)[0]

    def deal(self, ctx: wire.HandContextCmd, *, skip_last: bool = False) -> None:
        seats = sorted(ctx.seats)
        first = seats.index(ctx.first_to_deal)
        order = seats[first:] + seats[:first]
        cards = [(seat, self.rng_cards.pop()) for _ in range(2) for seat in order]
        for seat, face in cards[:-1] if skip_last else cards:
            self.table.card(f"seat:{seat}", face)

    def betting(self) -> wire.BettingCmd | None:
        sent = self.table.sent(wire.BettingCmd, self.hand)
        return sent[-1] if sent else None

    def to_act(self) -> int:
        self.wait("a player to act", lambda: (b := self.betting()) is not None and b.open and b.to_act is not None)
        betting = self.betting()
        assert betting is not None and betting.to_act is not None
        return betting.to_act

    def folds_to_the_end(self) -> None:
        """Whoever is to act folds, until one hand is left; a street whose betting is over is dealt."""
        hand = self.hand
        while not self.events("hand_end", hand):
            before = self.betting()
            assert before is not None
            if before.open and before.to_act is not None:
                self.table.act(before.to_act, "fold")
            else:
                board = len([e for e in self.events("card", hand) if e.get("zone") == "board"])
                self.table.card("burn", self.rng_cards.pop())
                for _ in range(3 if board == 0 else 1):
                    self.table.card("board", self.rng_cards.pop())
            self.wait("the table moved on", lambda: self.betting() is not before or self.events("hand_end", hand))  # noqa: B023

    def decide(self, case: Case) -> None:
        by = TD if self.page is not None else "Inès"
        if case.kind == "td_cancel":
            if self.page is not None:  # "Annuler la donne" on the table's card, then its confirmation
                self.page.locator("#table-t1 button.cancel-hand").click()
                self.page.wait_for_selector("#confirm:not(.hidden)")
                self.page.click("#confirm-yes")
            else:
                self.room.td("cancel-hand", "t1", "--by", by)
            self.wait("the TD's cancel", lambda: self.events("hand_end", self.hand))
            return
        hand = self.hand

        def waiting() -> bool:
            betting = self.betting()
            return betting is not None and betting.td_wait

        def raised() -> list[dict[str, Any]]:
            return [e for e in self.events("fault", hand) if e["ruling"]["decision"] == "td_decision"]

        self.wait("the table told to wait for the TD", lambda: waiting() and raised())
        faults = raised()
        assert len([f for f in faults if not f["ruling"].get("joins")]) == 1, faults  # one decision per fault
        assert case.option in faults[0]["ruling"]["options"]
        if self.page is not None:  # the option's button on the room page, in words
            button = self.page.locator(f".fault.decide button[data-option='{case.option}']")
            button.wait_for(timeout=15_000)
            words = button.inner_text()
            assert words.strip() != case.option and not re.search(r"[a-z]+_[a-z]+", words), words  # in words
            button.click()
        else:
            self.room.td("decide", "t1", case.option, "--kind", case.kind, "--by", by)
        self.wait("the TD's decision carried out", lambda: any(
            e["decision"] == case.option and e.get("by") == by for e in self.events("ruling", hand)))
        # what the table carries out: its command comes on its own subscription, not in step with the
        # room's events (the ruling event seen first does not mean the table has its command yet)
        self.wait("the table told the decision", lambda: any(
            r.decision == case.option for r in self.table.sent(wire.RulingCmd, hand)))
        if case.ends:  # the hand's end is a later event than the ruling: waited for, not assumed
            self.wait("the hand ended by the decision", lambda: self.events("hand_end", hand))
        else:
            self.wait("play resumes", lambda: not waiting() or self.events("hand_end", hand))


def make_fault(play: Play, case: Case, ctx: wire.HandContextCmd) -> None:
    """Deal the hand with the fault that leaves the case to the TD."""
    table, hand = play.table, play.hand
    if case.kind == "missing_hole_card":
        play.deal(ctx, skip_last=True)
        table.fault(hand, "missing_hole_card", ctx.seats[-1], [], last_served=True)
        return
    play.deal(ctx)
    if case.kind == "boxed_card":
        for n in (1, 2):
            table.fault(hand, "boxed_card", None, [play.rng_cards.pop()], during_deal=False, boxed_in_deal=0,
                        boxed_after_deal=n)
    elif case.kind == "extra_hole_card":
        table.fault(hand, "extra_hole_card", ctx.first_to_deal, [play.rng_cards.pop()], last_served=True)
    elif case.kind == "premature_flop":
        table.act(play.to_act(), "call")  # one action: pouques 77 leaves it to the floor
        play.wait("the call applied", lambda: (b := play.betting()) is not None and b.to_act is not None
                  and len(play.events("action", hand)) >= 1)
        table.fault(hand, "premature_flop", None, [play.rng_cards.pop()], actions_preflop=1, board_position=1,
                    burns=1, round_open=True)
    elif case.kind == "out_of_turn":
        skipped = play.to_act()
        seats = sorted(ctx.seats)
        at = seats.index(skipped)
        for seat in (seats[(at + 1) % len(seats)], seats[(at + 2) % len(seats)]):  # two bid after him: pouques 70
            table.act(seat, "call")


@pytest.mark.parametrize("ruleset", sorted(MATRIX))
def test_every_decision_is_carried_out_and_the_next_hand_deals(room: Room, ruleset: str) -> None:  # noqa: F811
    db = str(room.db)
    (room.etc / "structure.toml").write_text(STRUCTURE, encoding="utf-8")
    run("tournament", "new", "--db", db, "--ruleset", ruleset, "--structure", str(room.etc / "structure.toml"),
        "--tables", "1", "--seats", "9", "--buy-in", "20", "--payouts", "100", "--seed", "5")
    run("tournament", "register", "--db", db, *PLAYERS)
    run("tournament", "seat", "--db", db)
    hub = room.start("hub", room.hub_command())
    watcher, table = Watcher(room), ScriptedTable(room)
    watcher.link.start(timeout=30)
    table.link.start(timeout=30)
    cleanup = ExitStack()
    try:
        assert wait_until(lambda: "listening" in room.log("hub") and "TD dashboard on" in room.log("hub"), 30), \
            room.log("hub")
        room.td("start")
        assert wait_until(lambda: watcher.clock.get("running"), 15), watcher.clock
        play = Play(room, table, watcher, hub, td_page(room, cleanup))
        total = STACK * len(PLAYERS)
        for case in MATRIX[ruleset]:
            start, ctx = play.start()
            make_fault(play, case, ctx)
            play.decide(case)
            if not play.events("hand_end", play.hand):
                assert not case.ends, f"{case}: the hand should have ended"
                play.folds_to_the_end()
            end = play.events("hand_end", play.hand)[-1]
            assert sum(end["stacks"].values()) == total, (case, end)  # chips to the unit
            if case.ends:
                assert end["result"] in ("misdeal", "cancelled"), (case, end)
            nxt, _ = play.start()  # no table left waiting: the next hand deals
            same = (nxt["button"], nxt["small_blind"], nxt["big_blind"]) == (
                start["button"], start["small_blind"], start["big_blind"])
            assert same == case.same_button, (case, start, nxt)
            posted = nxt["level"]["bb"] + (nxt["level"]["sb"] if nxt["small_blind"] is not None else 0)
            assert sum(nxt["stacks"].values()) + posted == total, nxt  # the blinds in, nothing else moved
            play.folds_to_the_end()  # that hand played out, for the next case
        status = json.loads(room.td("status", "--json"))
        assert status["ok"] and status["data"]["chips_in_play"] == total, status
    finally:
        cleanup.close()
        watcher.link.stop()
        table.link.stop()
    if play.page is None:
        pytest.skip(f"every decision carried out, taken with tapis tournament: the page was not used: "
                    f"{browser.missing()}")


def td_page(installed: Room, cleanup: ExitStack) -> Any:
    """The TD logged in on the room page in Chromium; None where this machine has none."""
    if browser.missing() is not None:
        return None
    from playwright.sync_api import sync_playwright

    playwright = cleanup.enter_context(sync_playwright())
    chromium = browser.launch(playwright)
    cleanup.callback(chromium.close)
    page = chromium.new_context(viewport={"width": 1400, "height": 900}).new_page()
    url = f"http://127.0.0.1:{installed.dashboard}"
    page.goto(url + "/login")
    page.fill("#user", TD)
    page.fill("#password", installed.td_password)
    page.click("#submit")
    page.wait_for_url(url + "/")
    page.wait_for_selector("#controls:not(.hidden)")
    return page
