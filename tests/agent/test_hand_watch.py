"""The hand watch keeps the dealing monitor in step with the hub's commands
(`table_agent/hand_watch.py`): cards read between "new hand" and the hub's context are judged once
it arrives, and a command about another hand (late, or repeated by QoS 1) changes nothing."""

from __future__ import annotations

from collections.abc import Sequence

from table_agent.dealing import FaultDetected
from table_agent.dealing import FaultKind as K
from table_agent.dealing_script import card_tag
from table_agent.events import BURN, CardArrived, Zone
from table_agent.hand_watch import HandWatch
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
