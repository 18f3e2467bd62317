"""The hand watch keeps the dealing monitor in step with the hub's commands
(`table_agent/hand_watch.py`): cards read between "new hand" and the hub's context are judged once
it arrives, and a command about another hand (late, or repeated by QoS 1) changes nothing."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import pytest

from table_agent.dealing import Deadline, DealingError, FaultDetected, Street
from table_agent.dealing import FaultKind as K
from table_agent.dealing_script import card_tag
from table_agent.events import BURN, CardArrived, CardLeft, Zone
from table_agent.hand_watch import HELD_MAX, HandWatch, SeatLights, fault_details, wire_event
from tablewire import wire

SEATS = [1, 2, 3]


def context(hand: int) -> wire.HandContextCmd:
    return wire.HandContextCmd(hand=hand, seats=SEATS, button=3, first_to_deal=1, deck="A",
                               table_decks=["A", "B"])


class Felt:
    """Puts cards down on one table's zones and hands each read to the watch."""

    def __init__(self, watch: HandWatch) -> None:
        self.watch, self.order = watch, 0

    def put(self, zone: Zone, card: str) -> list[object]:
        self.order += 1
        return list(self.watch.zone_event(CardArrived(zone, card_tag(card), self.order * 0.5, self.order)))

    def deal_round(self, cards: list[str]) -> list[object]:
        out: list[object] = []
        for seat, card in zip(SEATS * 2, cards, strict=True):
            out += self.put(Zone.seat_zone(seat), card)
        return out


def faults(items: Sequence[object]) -> list[tuple[K, tuple[str, ...]]]:
    return [(i.kind, i.cards) for i in items if isinstance(i, FaultDetected)]


def test_cards_read_before_the_context_go_out_at_once_and_are_judged_when_it_arrives() -> None:
    watch = HandWatch(table="t1")
    felt = Felt(watch)
    watch.new_hand_pressed()
    early = felt.put(Zone.seat_zone(1), "As@Z")  # another table's card, read before the context
    assert len(early) == 1 and not faults(early)  # the card event goes out, nothing judged yet
    out = watch.command(context(1))
    assert faults(out) == [(K.FOREIGN_CARD, ("As",))]
    assert not [i for i in out if isinstance(i, CardArrived)]  # not published a second time


def test_a_wrong_deal_order_before_the_context_is_judged_in_its_order() -> None:
    watch = HandWatch(table="t1")
    felt = Felt(watch)
    watch.new_hand_pressed()
    felt.put(Zone.seat_zone(2), "2s")  # first card to seat 2, not to the first to deal (seat 1)
    assert faults(watch.command(context(1))) == [(K.WRONG_DEAL_ORDER, ("2s",))]


def test_a_hand_over_repeated_from_the_last_hand_leaves_the_new_hand_watched() -> None:
    watch = HandWatch(table="t1")
    felt = Felt(watch)
    watch.command(context(1))
    watch.command(wire.HandOverCmd(hand=1, result="showdown"))
    watch.new_hand_pressed()
    watch.command(context(2))
    felt.deal_round(["2s", "3s", "4s", "5s", "6s", "7s"])
    assert watch.command(wire.HandOverCmd(hand=1, result="showdown")) == []  # QoS 1 says it again
    assert watch.result is None and watch.hand == 2
    assert faults(felt.put(BURN, "As@Z")) == [(K.FOREIGN_CARD, ("As",))]  # hand 2 still judged


def test_a_late_command_of_the_last_hand_changes_neither_the_lights_nor_the_rulings() -> None:
    watch = HandWatch(table="t1")
    watch.command(context(1))
    watch.new_hand_pressed()
    assert watch.command(wire.BettingCmd(hand=1, street="flop", open=True, to_act=3, to_call=200)) == []
    watch.command(context(2))
    watch.command(wire.BettingCmd(hand=2, street="preflop", open=True, to_act=1, to_call=100))
    late: list[wire.AnyCommand] = [wire.BettingCmd(hand=1, street="river", open=True, to_act=3, to_call=900),
            wire.RulingCmd(hand=1, kind="exposed_card", decision="card_replaced", seat=2)]
    for cmd in late:
        assert watch.command(cmd) == []
    assert (watch.lights.to_act, watch.lights.to_call, watch.lights.at_fault) == (1, 100, set())
    assert watch.rulings == [] and watch.betting is not None and watch.betting.hand == 2


class Calls:
    """What the watch asks of the monitor (through `ReadOrder.call`), recorded and passed on."""

    def __init__(self, watch: HandWatch) -> None:
        self.seen: list[tuple[str, tuple[object, ...], dict[str, object]]] = []
        real = watch.judge.call

        def call(name: str, *args: object, **kwargs: object) -> list[object]:
            self.seen.append((name, args, kwargs))
            return list(real(name, *args, **kwargs))

        watch.judge.call = call  # type: ignore[method-assign,assignment]


def test_the_betting_opens_and_closes_each_street_once_and_lights_follow_the_hub() -> None:
    watch = HandWatch(table="t1")
    watch.command(context(4))
    calls = Calls(watch)
    first = wire.BettingCmd(hand=4, street="preflop", open=True, to_act=1, to_call=100, opened=True,
                            time_seat=1, time_left=12.5)
    for cmd in (first, first, wire.BettingCmd(hand=4, street="flop", open=True, to_act=2, closed=["preflop"]),
                wire.BettingCmd(hand=4, street="flop", open=False, closed=["preflop", "flop", "nonsense"])):
        watch.command(cmd)
    assert [(n, a) for n, a, _ in calls.seen if n != "set_to_act"] == [
        ("betting_opened", (Street.PREFLOP,)), ("betting_closed", (Street.PREFLOP,)),
        ("betting_opened", (Street.FLOP,)), ("betting_closed", (Street.FLOP,))]
    assert [a for n, a, _ in calls.seen if n == "set_to_act"] == [(1,), (1,), (2,), (None,)]
    assert watch.betting is not None and watch.betting.street == "flop"
    lights = watch.lights
    assert (lights.to_act, lights.to_call, lights.opened, lights.time_seat, lights.time_left) == (
        None, 0, False, None, None)
    watch.command(first)
    assert (lights.to_act, lights.to_call, lights.opened, lights.time_seat, lights.time_left) == (
        1, 100, True, 1, 12.5)


def test_rulings_are_kept_in_order_light_their_seats_and_pass_their_remedy_on() -> None:
    watch = HandWatch(table="t1")
    watch.command(context(4))
    calls = Calls(watch)
    remedy = wire.RulingCmd(hand=4, kind="exposed_card", decision="card_kept", seat=2, cards=["As"])
    betting = wire.RulingCmd(hand=4, kind="insufficient_bet", decision="treated_as_call", seat=3,
                             dead_seats=[1])
    before = watch.rulings
    watch.command(remedy)
    watch.command(betting)
    assert watch.rulings == [remedy, betting] and before == []  # a new list each time
    assert watch.lights.at_fault == {1, 2, 3}
    assert [(n, a, k) for n, a, k in calls.seen] == [
        ("expect_remedy", ("card_kept",), {"cards": ["As"], "seat": 2, "dead_seats": []}),
        ("expect_remedy", ("treated_as_call",), {"cards": [], "seat": 3, "dead_seats": [1]})]


def test_a_remedy_the_monitor_cannot_follow_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    watch = HandWatch(table="t1")
    watch.command(context(4))

    def refuse(name: str, *args: object, **kwargs: object) -> list[object]:
        raise DealingError("no card to designate")

    watch.judge.call = refuse  # type: ignore[method-assign,assignment]
    with caplog.at_level(logging.WARNING, logger="table_agent.hand_watch"):
        assert watch.command(wire.RulingCmd(hand=4, kind="flop_without_burn", decision="designate_burn")) == []
    assert "hand 4: ruling designate_burn not understood: no card to designate" in caplog.text
    assert len(watch.rulings) == 1


def test_a_hand_over_keeps_the_result_and_darkens_the_seats() -> None:
    watch = HandWatch(table="t1")
    watch.command(context(4))
    watch.command(wire.BettingCmd(hand=4, street="preflop", open=True, to_act=1, to_call=100))
    watch.command(wire.RulingCmd(hand=4, kind="exposed_card", decision="td_decision", seat=2))
    assert watch.command(wire.HandOverCmd(hand=4, result="uncontested")) == []
    assert watch.result == "uncontested" and watch.lights == SeatLights()
    assert watch.new_hand_pressed() == []
    assert (watch.hand, watch.context, watch.betting, watch.result, watch.rulings) == (None, None, None, None, [])


def test_panel_presses_reach_the_monitor_with_their_time() -> None:
    watch = HandWatch(table="t1")
    watch.command(context(4))
    calls = Calls(watch)
    watch.action(2, "call", 12.5)
    watch.away(3)
    watch.back(3)
    assert calls.seen == [("action_seen", (2, None), {"action": "call", "at": 12.5}),
                          ("seat_away", (3,), {}), ("seat_back", (3,), {})]


def test_a_context_carries_everything_the_monitor_judges_by() -> None:
    watch = HandWatch(table="t1")
    cmd = wire.HandContextCmd(hand=9, seats=[1, 3, 5], button=5, first_to_deal=1, small_blind=1, hole_cards=4,
                              discards=1, excluded_ranks=["2", "3"], deck="B", table_decks=["B", "C"], away=[3],
                              table_seats=6, deadline="last_card", dealer=5)
    watch.command(cmd)
    ctx = watch.judge._ctx  # noqa: SLF001 - what the monitor was started with
    assert ctx is not None
    assert (ctx.hand, ctx.seats, ctx.button, ctx.first_to_deal, ctx.small_blind, ctx.hole_cards, ctx.discards,
            ctx.excluded_ranks, ctx.deck, ctx.table_decks, ctx.away, ctx.table_seats, ctx.deadline, ctx.dealer) == (
        9, (1, 3, 5), 5, 1, 1, 4, 1, frozenset({"2", "3"}), "B", frozenset({"B", "C"}), frozenset({3}), 6,
        Deadline("last_card"), 5)
    assert watch.context == cmd and watch.hand == 9


def test_at_most_held_max_cards_wait_for_a_context_the_oldest_dropped() -> None:
    watch = HandWatch(table="t1")
    felt = Felt(watch)
    watch.new_hand_pressed()
    for i in range(HELD_MAX + 1):
        felt.put(Zone.seat_zone(1), "As@Z" if i == 0 else "2s")  # the foreign card first, then dropped
    assert not [f for f in faults(watch.command(context(1))) if f[0] is K.FOREIGN_CARD]


def test_wire_events_carry_the_fault_or_the_card() -> None:
    head = {"table": "t1", "boot": "b1", "seq": 7, "at": 3.5}
    fault = FaultDetected(K.EXPOSED_CARD, 4, 2, ("As",), 3.0, {"count": 2, "during_deal": True, "left": 0.5,
                                                                 "note": None, "seats": (1, 2), "cards": ["As", "Kd"],
                                                                 "mixed": (1, "x"), "zone": Zone.seat_zone(3)})
    seen = wire_event(fault, head)
    assert seen == wire.FaultSeen(table="t1", boot="b1", seq=7, at=3.5, hand=4, kind=K.EXPOSED_CARD, seat=2,
                                  cards=["As"], details={"count": 2, "during_deal": True, "left": 0.5, "note": None,
                                                         "seats": [1, 2], "cards": ["As", "Kd"],
                                                         "mixed": ["1", "x"], "zone": "seat:3"})
    tag = card_tag("Kd")
    arrived = wire_event(CardArrived(Zone.seat_zone(3), tag, 1.0, 5), head)
    assert arrived == wire.CardEvent(table="t1", boot="b1", seq=7, at=3.5, type="card_arrived", zone="seat:3",
                                     uid=tag.uid, card="Kd", deck="A", order=5)
    left = wire_event(CardLeft(BURN, tag, 1.0, 6), head)
    assert isinstance(left, wire.CardEvent) and (left.type, left.zone, left.order) == ("card_left", "burn", 6)
    assert fault_details({"flag": False, "n": 0}) == {"flag": False, "n": 0}
    assert fault_details({"bools": (True, 1)}) == {"bools": ["True", "1"]}  # a bool is no seat number


def test_a_fresh_watch_knows_no_hand_and_does_not_judge_cards_read_before_the_first_new_hand() -> None:
    watch = HandWatch(table="t1")
    assert (watch.hand, watch.context, watch.betting, watch.result, watch.rulings, watch.lights) == (
        None, None, None, None, [], SeatLights())
    felt = Felt(watch)
    assert len(felt.put(Zone.seat_zone(1), "As@Z")) == 1  # the agent just started: published, not held
    assert faults(watch.command(context(1))) == []  # the hub's first context does not judge it
