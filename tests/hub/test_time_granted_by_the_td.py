"""A Time request left to the TD (cpt87 4.5), at one table's game.

« le « Time » peut être demandé, le directeur de tournoi est alors appelé et il décidera ou non d'accorder
la demande [...] trente secondes pour prendre une décision [...] un décompte de dix secondes [...] sa main
sera brûlée. » The dealer's press was published as a bare ruling: nothing pending for the TD, nothing to
grant, so under cpt87 a Time could never run. Now the press is a request he decides, play going on."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import pytest

import hub.rulebooks as rb
from hub.edge.service import HubService
from hub.room.game import Output, TableGame, TableSetup
from hub.room.table_rulings import refusal_in_french
from hub.rules import Level
from tablewire import wire
from tablewire.mqtt import Message, MqttLink
from tests.hub.fake_link import RecordingLink

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


SETUP = TableSetup(players={s: 10_000 for s in (1, 2, 3, 4)}, button=1, level=Level(50, 100), ruleset="cpt87",
                   seats=4)
FACES = ["As", "Kd", "Qh", "Jc", "Ah", "Ks", "Qd", "Jd"]


def dealt(hand_seats: list[int]) -> list[wire.CardEvent]:
    """The hole cards of a hand of four, as the table's antennas read them."""
    return [wire.CardEvent(table="t1", boot="b", seq=i + 2, at=float(i), type="card_arrived",
                           zone=f"seat:{hand_seats[i % 4]}", uid=f"{DECK.index(face) + 1:08X}", card=face, deck="A",
                           order=i + 1) for i, face in enumerate(FACES)]


def table(ruleset: str = "cpt87") -> tuple[TableGame, int]:
    """Four players dealt, the first to act preflop: the game and his seat."""
    game = TableGame("t1", replace(SETUP, ruleset=ruleset))
    game.new_hand(0.0)
    hand = game.hand
    assert hand is not None
    for card in dealt(hand.seats):
        game.card(card)
    assert hand.round_open and hand.to_act is not None
    return game, hand.to_act


def of(out: Output, kind: str) -> list[dict[str, Any]]:
    return [e for e in out.events if e["type"] == kind]


def betting(out: Output) -> wire.BettingCmd:
    return [c for c in out.commands if isinstance(c, wire.BettingCmd)][-1]


def test_a_press_is_a_request_the_td_decides_while_play_goes_on() -> None:
    game, slow = table()
    out = game.dealer("time", slow, 10.0)
    [asked] = of(out, "fault")
    assert (asked["kind"], asked["seat"], asked["ruling"]["article"]) == ("time_request", slow, "cpt87 4.5")
    assert asked["ruling"]["decision"] == "td_decision"
    assert asked["ruling"]["options"] == ["grant_time", "refuse_time"]
    assert asked["message"]["fr"].startswith("Time demandé") and asked["message"]["en"].startswith("Time requested")
    assert asked["ruling"]["text"] == asked["message"]["fr"]  # the ruling as the TD reads it: the table's language
    assert game.pending_td == [asked] and game.can_decide("", "grant_time")
    assert not game.waiting_td and not betting(out).td_wait and not game.timing  # the table does not stop
    again = game.dealer("time", slow, 11.0)
    [refused] = of(again, "time_refused")
    assert refused["message"]["fr"].startswith("Le « Time » est déjà demandé") and refused["message"]["en"]
    assert len(game.pending_td) == 1 and of(again, "fault") == []
    acted = game.action(slow, "call", None)
    assert [e["status"] for e in of(acted, "action")] == ["accepted"]  # he may act while the TD comes
    [lapsed] = of(acted, "time_request_lapsed")
    assert lapsed["seat"] == slow and lapsed["message"]["fr"] and lapsed["message"]["en"]
    assert game.pending_td == [] and not game.can_decide("", "grant_time")
    [no] = of(game.decide("", "grant_time", "Ada", 20.0), "decision_refused")
    assert no["reason"] == "no decision pending for the TD in this hand"


def test_the_td_grants_and_the_countdown_runs_from_his_decision_to_a_dead_hand() -> None:
    game, slow = table()
    game.dealer("time", slow, 10.0)
    out = game.decide("time_request", "grant_time", "Ada", 100.0)
    [ruling] = of(out, "ruling")
    assert (ruling["decision"], ruling["by"], ruling["article"]) == ("grant_time", "Ada", "cpt87 4.5 (TD)")
    assert "30 secondes" in ruling["message"]["fr"] and "10-second" in ruling["message"]["en"]
    [called] = of(out, "time")
    assert (called["seat"], called["countdown_at"], called["expires_at"]) == (slow, 130.0, 140.0)
    assert game.timing and game.pending_td == [] and not game.waiting_td
    assert (betting(out).time_seat, betting(out).time_left) == (slow, 40.0)
    assert of(game.tick(139.9), "fault") == []
    [dead] = of(game.tick(140.0), "fault")
    assert (dead["kind"], dead["seat"], dead["ruling"]["article"]) == ("time_expired", slow, "cpt87 4.5")
    assert game.hand is not None and slow not in game.hand.live


def test_the_td_refuses_and_it_is_said_nothing_else() -> None:
    game, slow = table()
    game.dealer("time", slow, 10.0)
    out = game.decide("", "refuse_time", "Ada", 12.0)
    [ruling] = of(out, "ruling")
    assert (ruling["decision"], ruling["seat"]) == ("refuse_time", slow)
    assert ruling["message"]["fr"].startswith("Time refusé") and ruling["message"]["en"].startswith("Time refused")
    assert of(out, "time") == [] and not game.timing and game.pending_td == []
    assert [c for c in out.commands if isinstance(c, wire.RulingCmd)] == []  # no seat lit at fault
    assert of(game.tick(10_000.0), "fault") == [] and game.hand is not None and slow in game.hand.live
    assert of(game.dealer("time", slow, 10_001.0), "fault") != []  # he may be asked again


def test_a_press_while_the_granted_time_runs_is_refused() -> None:
    game, slow = table()
    game.dealer("time", slow, 10.0)
    game.decide("", "grant_time", "Ada", 20.0)
    [refused] = of(game.dealer("time", slow, 25.0), "time_refused")
    assert refused["message"]["en"].startswith("The Time the tournament director granted")
    assert game.hand is not None and game.hand.time_call is not None and game.hand.time_call.expires_at == 60.0


def test_a_request_ends_with_its_hand() -> None:
    game, slow = table()
    game.dealer("time", slow, 10.0)
    out = game.cancel("Ada")
    assert of(out, "hand_end") and game.pending_td == []


def test_a_grant_waits_while_play_is_stopped_for_another_decision() -> None:
    """A Time granted while the table waits for the TD on a fault would not run, then end with his ruling on
    that fault: the grant is refused in words until that one is decided; the request stays."""
    game, slow = table()
    game.dealer("time", slow, 10.0)
    boxed = game.fault(wire.FaultSeen(table="t1", boot="b", seq=99, at=11.0, hand=game.hand_no, kind="boxed_card",
                                      seat=2, cards=["As"], details={"boxed_in_deal": 2, "during_deal": True}))
    [fault] = of(boxed, "fault")
    assert fault["ruling"]["decision"] == "td_decision" and game.waiting_td  # cpt87 6.3: the table stops
    assert not game.can_decide("time_request", "grant_time")
    [no] = of(game.decide("time_request", "grant_time", "Ada", 12.0), "decision_refused")
    assert no["reason"].startswith("play is stopped for another decision of the TD")
    assert refusal_in_french(no["reason"]).startswith("le jeu est arrêté pour une autre décision du DT")
    assert [e["kind"] for e in game.pending_td] == ["time_request", "boxed_card"]
    game.decide("boxed_card", "set_aside", "Ada", 13.0)
    assert not game.waiting_td and game.can_decide("time_request", "grant_time")
    [called] = of(game.decide("time_request", "grant_time", "Ada", 14.0), "time")
    assert called["expires_at"] == 54.0 and game.timing


def test_a_time_a_player_calls_is_told_to_the_table_from_his_call() -> None:
    """cdc-2013 10.13: the countdown starts at the press, whatever the clock last ticked (the game is ticked
    only while a countdown runs): the dealer's display shows the whole time, not that less the hand's age."""
    game, slow = table("cdc-2013")
    out = game.dealer("time", slow, 500.0)
    [called] = of(out, "time")
    assert called["expires_at"] == 570.0  # 60 s, then 10 counted down
    assert (betting(out).time_seat, betting(out).time_left) == (slow, 70.0)


CLUB_WITHOUT_OFFICIALS = """id = "club-sans-officiel"
name = "Club sans officiel"
inherits = "cpt87"

[ruleset]
time_callers = ["player"]
"""


def test_a_grant_the_rulebook_gives_no_official_is_refused_in_words_and_the_request_stays() -> None:
    """A club file on cpt87 that leaves officials out of Time: the grant would call a Time no one may call."""
    rb.register(rb.parse(CLUB_WITHOUT_OFFICIALS))
    game, slow = table("club-sans-officiel")
    [asked] = of(game.dealer("time", slow, 10.0), "fault")
    assert not game.can_decide("time_request", "grant_time")
    [no] = of(game.decide("time_request", "grant_time", "Ada", 12.0), "decision_refused")
    assert no["reason"] == "the rulebook lets no official call Time"
    assert refusal_in_french(no["reason"]) == "le règlement ne permet à aucun officiel de demander le Time"
    assert game.pending_td == [asked] and not game.timing
    assert of(game.decide("time_request", "refuse_time", "Ada", 13.0), "ruling") != [] and game.pending_td == []


@pytest.mark.parametrize(("reason", "french"), [
    ("no decision pending for the TD in this hand", "aucune décision en attente dans cette donne"),
    ("the ruling offered grant_time, refuse_time", "la décision proposait grant_time, refuse_time"),
    ("the rulebook lets no official call Time", "le règlement ne permet à aucun officiel de demander le Time"),
    ("play is stopped for another decision of the TD: that one first",
     "le jeu est arrêté pour une autre décision du DT : celle-ci d'abord"),
    ("hand 3 is over", "la donne 3 est terminée"),  # `FloorTables.decide`'s
    ("no hand in progress", "aucune donne en cours"),
])
def test_each_reason_the_hub_refuses_a_decision_reads_in_french(reason: str, french: str) -> None:
    """What the TD reads first, on the dashboard and at `tapis tournament decide`."""
    assert refusal_in_french(reason) == french


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def now(self) -> float:
        return self.t


def test_a_cash_tables_grant_counts_from_the_tds_decision_on_the_hubs_clock() -> None:
    """A hub's own (cash) table: the Time granted starts when the TD decides, not at the press the game last saw
    the clock at (the TD comes minutes later: the countdown would be over at once, the hand dead)."""
    clock, link = Clock(1000.0), RecordingLink()
    hub = HubService(link=cast(MqttLink, link), clock=clock, tick=3600)
    heard: list[dict[str, Any]] = []
    hub.add_listener(heard.append)
    hub.start()

    def send(event: wire.AnyTableEvent) -> None:
        link.handlers[wire.ALL_TABLE_EVENTS](Message(wire.table_events(event.table), wire.encode(event), False))

    try:
        hub.configure_table("t1", SETUP)
        send(wire.DealerPressed(table="t1", boot="b", seq=1, at=0.0, button="new_hand", seat=None))
        assert hub.settle(10)
        hand = hub.games["t1"].hand
        assert hand is not None
        for card in dealt(hand.seats):
            send(card)
        assert hub.settle(10) and hand.to_act is not None
        send(wire.DealerPressed(table="t1", boot="b", seq=10, at=20.0, button="time", seat=hand.to_act))
        assert hub.settle(10) and [e["kind"] for e in heard if e["type"] == "fault"] == ["time_request"]
        clock.t = 1120.0  # the TD comes two minutes later
        hub.decide("t1", "time_request", "grant_time", "Ada")
        assert hub.settle(10)
        [called] = [e for e in heard if e["type"] == "time"]
        assert (called["countdown_at"], called["expires_at"]) == (1150.0, 1160.0)
    finally:
        hub.stop()
