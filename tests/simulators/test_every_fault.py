"""Every fault kind the simulated croupier makes (issue #26), through the real pipeline (reader pty, agent,
Mosquitto, hub): the table sees it, the hub rules it under the tournament's rulebook, the croupier carries
the ruling out, the hand ends normally or void, and the next hand is dealt and played to its end; no chip
is made or lost. One table, one faulty hand, then a clean one."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from hub.edge.broker import EmbeddedBroker
from hub.edge.service import HubService
from hub.room.game import TableSetup
from hub.rules import Level
from hw.decks import DeckRegistry
from simulators.demo import Room, build_room, deal, seating, start_tables
from simulators.fault_plan import DEFAULT_KINDS, INJECTABLE, FaultPlan
from tablewire import wire
from tablewire.faults import FaultKind
from tablewire.mqtt import MqttLink

STACK = 20_000


class OncePlan(FaultPlan):
    """Every hand carries the kind until the croupier has made it once; then none."""

    def made_it(self, kind: FaultKind) -> None:
        super().made_it(kind)
        self.rate = 0.0


@dataclass
class Run:
    faults: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    plan: FaultPlan | None = None
    stuck: int = 0
    players: int = 0

    def after_fault(self, kind: str) -> list[dict[str, Any]]:
        """The hands that ended from the first fault of `kind` on."""
        at = next(i for i, e in enumerate(self.events) if e["type"] == "fault" and e["kind"] == kind)
        return [e for e in self.events[at:] if e["type"] == "hand_end"]


class Hurried:
    """The hub's clock, 30 times faster than the wall's: a minute of Time and its countdown in 2.3 s."""

    def __init__(self) -> None:
        self._start = time.monotonic()

    def now(self) -> float:
        return self._start + 30 * (time.monotonic() - self._start)


def hurried_room(broker: EmbeddedBroker, *, seed: int, ruleset: str) -> Room:
    """`build_room` of one table, its hub on the hurried clock."""
    room = Room(hub=None, tables=[], registry=DeckRegistry.generate(["t1"]))
    link = MqttLink(client_id="tapis-hub", host=broker.host, port=broker.port, will=(wire.HUB_STATUS, wire.OFFLINE))
    hub = HubService(link=link, clock=Hurried())
    hub.start()
    room._closers.append(hub.stop)  # noqa: SLF001 - the room closes what it started
    link.start()
    room._closers.append(link.stop)  # noqa: SLF001
    seats, button = seating("t1", seed)
    hub.configure_table("t1", TableSetup(players=dict.fromkeys(seats, STACK), button=button, level=Level(50, 100),
                                         ruleset=ruleset, seats=9, decks=("t1/A", "t1/B")))
    room.hub = hub
    start_tables(room, host=broker.host, port=broker.port, ids=["t1"], seed=seed)
    return room


def rehearse(broker: EmbeddedBroker, kind: FaultKind, *, ruleset: str = "cdc-2013", seed: int = 3,
             tables: int = 1, td: dict[str, str] | None = None, timeout: float = 60.0, croupier_seed: int = 7) -> Run:
    """Deal at t1 until `kind` is made and the hand after it has ended; `td`: the TD's option per kind
    for a `td_decision` (decided as the dashboard would); `croupier_seed`: his shuffles and choices."""
    if kind is FaultKind.TIME_EXPIRED:
        room = hurried_room(broker, seed=seed, ruleset=ruleset)
    else:
        room = build_room(tables=tables, host=broker.host, port=broker.port, seed=seed, ruleset=ruleset)
    assert room.hub is not None
    hub = room.hub
    run = Run(plan=OncePlan(rate=1.0, rng=random.Random(5), kinds=[kind]))
    run.players = len(room.tables[0].seats)
    done = threading.Event()

    def on_event(event: dict[str, Any]) -> None:
        if event.get("table") != "t1":
            return
        run.events.append(event)
        if event["type"] == "fault":
            run.faults.append(event)
            decision = event["ruling"]["decision"]
            if decision == "td_decision" and td is not None and not event["ruling"].get("joins"):
                hub.decide("t1", event["kind"], td[event["kind"]], "test")
        if event["type"] == "hand_end" and any(f["kind"] == kind for f in run.faults) \
                and len(run.after_fault(kind)) >= 2:
            done.set()

    hub.add_listener(on_event)
    table = room.tables[0]
    try:
        thread = threading.Thread(target=deal, args=(room, table), daemon=True,
                                  kwargs={"hands": None, "pace": 0.02, "seed": croupier_seed, "faults": run.plan})
        thread.start()
        if not done.wait(timeout):
            ends = [(e.get("hand"), e["result"]) for e in run.events if e["type"] == "hand_end"]
            story = [(e.get("hand"), e["type"], e.get("seat"), e.get("action") or e.get("kind"), e.get("zone"),
                      e.get("card"), e.get("status"), (e.get("ruling") or {}).get("decision")) for e in run.events]
            pytest.fail(f"{kind} under {ruleset}: faults {run.faults}, hands ended {ends}; what the hub saw: {story}")
    finally:
        room.close()
    assert table.croupier is not None
    run.stuck = table.croupier.stuck
    return run


def check(run: Run, kind: FaultKind, decision: str, article: str, ended: tuple[str, ...]) -> None:
    ruled = [(f["ruling"]["decision"], f["ruling"]["article"]) for f in run.faults if f["kind"] == kind]
    assert ruled[:1] == [(decision, article)], run.faults
    others = [f for f in run.faults if f["kind"] != kind]
    assert not others, f"the remedy raised other faults: {others}"  # the ruling carried out cleanly
    assert run.plan is not None and run.plan.made == {kind: 1}
    ends = run.after_fault(kind)
    assert ends[0]["result"] in ended, ends[0]
    assert ends[1]["result"] in ("showdown", "uncontested"), ends[1]  # the next hand dealt and played
    for end in run.events:
        if end["type"] == "hand_end":
            assert sum(end["stacks"].values()) == run.players * STACK, end  # chips conserved
    assert run.stuck == 0


PLAYED = ("showdown", "uncontested")
VOID = ("misdeal",)
CANCELLED = ("cancelled",)

# cdc-2013: every kind the croupier makes, its ruling and how the hand ends.
CDC = [
    (FaultKind.BOXED_CARD, "set_aside", "cdc-2013 6.3", PLAYED),
    (FaultKind.EXPOSED_CARD, "replace_with_burn", "cdc-2013 7.3", PLAYED),
    (FaultKind.CARD_TO_EMPTY_SEAT, "misdeal", "cdc-2013 7.1", VOID),
    (FaultKind.WRONG_DEAL_ORDER, "misdeal", "cdc-2013 7.1", VOID),
    (FaultKind.SEAT_SKIPPED, "misdeal", "cdc-2013 7.1", VOID),
    (FaultKind.EXTRA_HOLE_CARD, "misdeal", "cdc-2013 7.1", VOID),
    (FaultKind.MISSING_HOLE_CARD, "misdeal", "cdc-2013 7.1", VOID),
    (FaultKind.UNKNOWN_TAG, "hand_cancelled_bets_returned", "cdc-2013 6.4", CANCELLED),
    (FaultKind.FOREIGN_CARD, "hand_cancelled_bets_returned", "cdc-2013 6.4", CANCELLED),
    (FaultKind.ABSENT_PLAYER, "hand_dead", "cdc-2013 5.1", PLAYED),
    (FaultKind.FLOP_WITHOUT_BURN, "designate_burn", "cdc-2013 8.3", PLAYED),
    (FaultKind.FLOP_TWO_BURNS, "burn_to_flop", "cdc-2013 8.3", PLAYED),
    (FaultKind.FLOP_FOUR_CARDS, "extra_card_burn", "cdc-2013 8.3", PLAYED),
    (FaultKind.PREMATURE_FLOP, "reshuffle_board", "cdc-2013 8.3", PLAYED),
    (FaultKind.TURN_WITHOUT_BURN, "burn_and_next", "cdc-2013 8.3", PLAYED),
    (FaultKind.RIVER_WITHOUT_BURN, "burn_and_next", "cdc-2013 8.3", PLAYED),
    (FaultKind.PREMATURE_TURN, "river_as_turn", "cdc-2013 8.4", PLAYED),
    (FaultKind.PREMATURE_RIVER, "reshuffle_board", "cdc-2013 8.5", PLAYED),
    (FaultKind.BOARD_REMOVED, "continue", "cdc-2013 8.6", PLAYED),
    (FaultKind.MIXED_DECKS, "set_aside", "cdc-2013 6.4", PLAYED),
    (FaultKind.DEAD_CARD_IN_HAND, "hand_dead", "cdc-2013 7.5", PLAYED),
    (FaultKind.OUT_OF_TURN, "action_binding", "cdc-2013 10.2", PLAYED),
    (FaultKind.INSUFFICIENT_BET, "treated_as_call", "cdc-2013 10.9", PLAYED),
    (FaultKind.TIME_EXPIRED, "hand_dead", "cdc-2013 4.5", PLAYED),  # the hub on a hurried clock
]


def test_the_cdc_table_covers_every_kind_the_croupier_makes() -> None:
    assert sorted(k for k, *_ in CDC) == sorted(INJECTABLE)
    assert set(DEFAULT_KINDS) <= set(INJECTABLE)


@pytest.mark.parametrize(("kind", "decision", "article", "ended"), CDC, ids=[str(k) for k, *_ in CDC])
def test_each_kind_is_made_ruled_under_cdc_and_carried_out(broker: EmbeddedBroker, kind: FaultKind, decision: str,
                                                            article: str, ended: tuple[str, ...]) -> None:
    run = rehearse(broker, kind, tables=2 if kind is FaultKind.FOREIGN_CARD else 1)
    check(run, kind, decision, article, ended)


# The other rulebooks, where the remedy differs from cdc-2013's (a TD's decision: the option he takes).
OTHERS = [
    ("brest-2011", FaultKind.EXTRA_HOLE_CARD, "burn_as_first", "brest-2011 III.7", PLAYED, None),
    ("brest-2011", FaultKind.UNKNOWN_TAG, "hand_cancelled_pot_split", "brest-2011 III.11", CANCELLED, None),
    ("pouques-2020", FaultKind.EXTRA_HOLE_CARD, "hand_dead", "pouques-2020 79", PLAYED, None),
    ("pouques-2020", FaultKind.PREMATURE_FLOP, "misdeal", "pouques-2020 77", VOID, None),
    ("pouques-2020", FaultKind.PREMATURE_TURN, "bottom_card", "pouques-2020 77", PLAYED, None),
    ("pouques-2020", FaultKind.PREMATURE_RIVER, "burn_premature", "pouques-2020 77", PLAYED, None),
    ("cpt87", FaultKind.PREMATURE_TURN, "reshuffle_board", "cpt87 6.9", PLAYED, None),
    ("cpt87", FaultKind.FOREIGN_CARD, "hand_cancelled_pot_split", "cpt87 6.4", CANCELLED, None),
    ("cpt87", FaultKind.MISSING_HOLE_CARD, "td_decision", "cpt87 6.5", VOID, "misdeal"),
    ("cpt87", FaultKind.MISSING_HOLE_CARD, "td_decision", "cpt87 6.5", PLAYED, "continue"),
    ("pcpm", FaultKind.EXPOSED_CARD, "card_kept", "pcpm La donne", PLAYED, None),
    ("pcpm", FaultKind.ABSENT_PLAYER, "hand_dead", "pcpm Retards et absents", PLAYED, None),
]


# Seed 4 exposes the button's first card: the dealing player's own card in a dealerless room (seat 1).
CROUPIER_SEED = {("pcpm", FaultKind.EXPOSED_CARD): 4}


@pytest.mark.parametrize(("ruleset", "kind", "decision", "article", "ended", "option"), OTHERS,
                         ids=[f"{r}-{k}{'-' + o if o else ''}" for r, k, *_, o in OTHERS])
def test_where_a_rulebook_rules_otherwise_its_remedy_is_carried_out(
        broker: EmbeddedBroker, ruleset: str, kind: FaultKind, decision: str, article: str,
        ended: tuple[str, ...], option: str | None) -> None:
    run = rehearse(broker, kind, ruleset=ruleset, tables=2 if kind is FaultKind.FOREIGN_CARD else 1,
                   td=None if option is None else {str(kind): option},
                   croupier_seed=CROUPIER_SEED.get((ruleset, kind), 7))
    check(run, kind, decision, article, ended)
