"""What follows a fault at one table's game (issue #26): the pot shared as the rulebook says, a cancelled
hand dealt again, a player who leaves with a live hand, the late wake-up left to the TD, the button on a
seat the table has. Each reproduction of `../shared/repro/` as the game sees it (the same scenarios run
through the whole pipeline in `tests/scenarios/test_repro.py`)."""

from __future__ import annotations

from typing import Any

import pytest

from hub.room.game import Output, TableGame, TableSetup
from hub.rules import Level
from tablewire import wire

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


class Felt:
    """Facts as the table sends them: cards in zones, panel presses, faults."""

    def __init__(self, ruleset: str, players: dict[int, int], button: int = 1, seats: int = 4) -> None:
        self.game = TableGame("t1", TableSetup(players=players, button=button, level=Level(50, 100),
                                               ruleset=ruleset, seats=seats))
        self.seq = 0
        self.events: list[dict[str, Any]] = []

    def _keep(self, out: Output) -> Output:
        self.events += out.events
        return out

    def new_hand(self) -> dict[str, Any]:
        out = self._keep(self.game.new_hand(0.0))
        return next(e for e in out.events if e["type"] == "hand_start")

    def card(self, zone: str, face: str) -> Output:
        self.seq += 1
        return self._keep(self.game.card(wire.CardEvent(
            table="t1", boot="b", seq=self.seq, at=float(self.seq), type="card_arrived", zone=zone,
            uid=f"{DECK.index(face) + 1:08X}", card=face, deck="A", order=self.seq)))

    def deal(self, *faces: str) -> None:
        """Hole cards round the table from the first seat dealt."""
        hand = self.game.hand
        assert hand is not None
        order = hand.seats
        for i, face in enumerate(faces):
            self.card(f"seat:{order[i % len(order)]}", face)

    def act(self, seat: int, action: str, to: int | None = None) -> Output:
        return self._keep(self.game.action(seat, action, to))

    def away(self, seat: int) -> Output:
        return self._keep(self.game.dealer("away", seat, 0.0))

    def fault(self, kind: str, cards: list[str], seat: int | None = None, **details: Any) -> Output:
        self.seq += 1
        return self._keep(self.game.fault(wire.FaultSeen(
            table="t1", boot="b", seq=self.seq, at=float(self.seq), hand=self.game.hand_no, kind=kind, seat=seat,
            cards=cards, details=details)))

    def end(self) -> dict[str, Any]:
        return [e for e in self.events if e["type"] == "hand_end"][-1]


def four_players(ruleset: str) -> Felt:
    felt = Felt(ruleset, {1: 10_000, 2: 10_000, 3: 10_000, 4: 10_000})
    felt.new_hand()
    felt.deal("As", "Kd", "Qh", "Jc", "Ah", "Ks", "Qd", "Jd")
    return felt


def stacks(end: dict[str, Any]) -> dict[int, int]:
    return {int(s): v for s, v in end["stacks"].items()}


# -- the pot shared among the live hands (brest III.11, cpt87 6.4) ---------------------------------------


def test_a_round_that_closed_before_the_irregular_card_stays_in_the_shared_pot() -> None:
    """brest-2011 III.11: pre-flop over (4 raised to 300, 1 called, the blinds folded), then another
    table's card on the flop: the 750 are shared by 4 and 1; the folded blinds do not get theirs back."""
    felt = four_players("brest-2011")
    for seat, action, to in ((4, "raise", 300), (1, "call", None), (2, "fold", None), (3, "fold", None)):
        felt.act(seat, action, to)
    felt.card("burn", "2c")
    felt.fault("foreign_card", ["Qc"])
    end = felt.end()
    assert end["result"] == "cancelled" and end["pots"] == [{"amount": 750, "winners": [4, 1]}]
    assert stacks(end) == {1: 10_075, 2: 9_950, 3: 9_900, 4: 10_075}


def test_a_flop_round_that_closed_is_shared_not_handed_back() -> None:
    """cpt87 6.4: the flop round is over (seat 3 folded his 200), the turn is another table's card."""
    felt = four_players("cpt87")
    for seat, action in ((4, "call"), (1, "call"), (2, "call"), (3, "check")):
        felt.act(seat, action)
    for zone, face in (("burn", "2c"), ("board", "5h"), ("board", "9s"), ("board", "Tc")):
        felt.card(zone, face)
    for seat, action, to in ((2, "bet", 200), (3, "call", None), (4, "raise", 600), (1, "fold", None),
                             (2, "call", None), (3, "fold", None)):
        felt.act(seat, action, to)
    felt.card("burn", "3d")
    felt.fault("foreign_card", ["4h"])
    assert stacks(felt.end()) == {1: 9_900, 2: 10_200, 3: 9_700, 4: 10_200}


def test_the_unfinished_round_goes_back_to_its_bettors() -> None:
    """cpt87 6.4: a flop bet not yet called when the irregular card shows: it goes back; the pre-flop
    pot is shared."""
    felt = four_players("cpt87")
    for seat, action in ((4, "call"), (1, "call"), (2, "call"), (3, "check")):
        felt.act(seat, action)
    for zone, face in (("burn", "2c"), ("board", "5h"), ("board", "9s"), ("board", "Tc")):
        felt.card(zone, face)
    felt.act(2, "bet", 300)
    felt.fault("duplicate_card", ["5h"])
    assert stacks(felt.end()) == {1: 10_000, 2: 10_000, 3: 10_000, 4: 10_000}
    assert felt.end()["pots"] == [{"amount": 400, "winners": [2, 3, 4, 1]}]


# -- a cancelled hand is dealt again (cdc 6.3, 6.4) ------------------------------------------------------


def test_a_hand_cancelled_with_bets_returned_is_dealt_again_from_the_same_button() -> None:
    felt = four_players("cdc-2013")
    for seat, action in ((4, "call"), (1, "call"), (2, "call"), (3, "check")):
        felt.act(seat, action)
    felt.card("burn", "2c")
    felt.fault("foreign_card", ["Qc"])
    assert felt.end()["result"] == "cancelled" and felt.game.replays_hand
    start = felt.new_hand()
    assert (start["hand"], start["button"], start["small_blind"], start["big_blind"]) == (2, 1, 2, 3)


@pytest.mark.parametrize(("ruleset", "button"), [("cdc-2013", 1), ("brest-2011", 2)])
def test_the_tds_cancel_replays_the_hand_only_where_every_bet_goes_back(ruleset: str, button: int) -> None:
    """cdc: all chips back, the hand is played again; brest: the pot was shared, the hand counts."""
    felt = four_players(ruleset)
    felt._keep(felt.game.cancel("alice"))
    assert felt.new_hand()["button"] == button


def test_a_shared_pot_moves_the_button_on() -> None:
    felt = four_players("brest-2011")
    felt.fault("foreign_card", ["Qc"])
    assert not felt.game.replays_hand and felt.new_hand()["button"] == 2


# -- a player who leaves the table with a live hand (cdc 5.1, cpt87 5.1) ---------------------------------


def test_a_player_marked_away_mid_hand_has_his_hand_thrown() -> None:
    felt = four_players("cdc-2013")
    for seat, action, to in ((4, "raise", 300), (1, "call", None), (2, "fold", None), (3, "call", None)):
        felt.act(seat, action, to)
    for zone, face in (("burn", "2c"), ("board", "5h"), ("board", "9s"), ("board", "Tc")):
        felt.card(zone, face)
    out = felt.away(4)
    ruling = next(e for e in out.events if e["type"] == "ruling")
    assert (ruling["seat"], ruling["decision"], ruling["article"]) == (4, "hand_dead", "cdc-2013 5.1")
    assert felt.act(3, "check").events[0]["status"] == "accepted"
    assert felt.act(1, "bet", 500).events[0]["reason"] is None  # in turn now: seat 4 no longer speaks
    felt.act(3, "fold")
    end = felt.end()
    assert end["result"] == "uncontested" and stacks(end) == {1: 10_650, 2: 9_950, 3: 9_700, 4: 9_700}


def test_an_all_in_player_who_leaves_keeps_his_hand() -> None:
    felt = four_players("cpt87")
    felt.act(4, "allin")
    out = felt.away(4)
    assert [e["type"] for e in out.events] == ["seat"]
    hand = felt.game.hand
    assert hand is not None and 4 in hand.live


@pytest.mark.parametrize(("ruleset", "article"), [("cpt87", "cpt87 5.1"), ("pcpm", "cdc-2013 5.1 (pcpm silent)")])
def test_the_article_is_the_rulesets_own_or_cdcs(ruleset: str, article: str) -> None:
    felt = four_players(ruleset)
    ruling = next(e for e in felt.away(1).events if e["type"] == "ruling")
    assert ruling["article"] == article


# -- pouques 70: the late wake-up is the floor's once more than one player acted ---------------------------


def test_a_late_wake_up_after_two_players_goes_to_the_td_and_the_table_waits() -> None:
    felt = four_players("pouques-2020")
    felt.act(1, "call")  # 4 (UTG) is to speak; the button and the small blind call before him
    out = felt.act(2, "call")
    fault = next(e for e in out.events if e["type"] == "fault" and e["ruling"]["decision"] == "td_decision")
    assert (fault["kind"], fault["seat"], fault["ruling"]["article"]) == ("out_of_turn", 4, "pouques-2020 70")
    assert set(fault["ruling"]["options"]) == {"hand_dead", "call_or_fold_only"}
    waits = [c for c in out.commands if isinstance(c, wire.BettingCmd)][-1]
    assert waits.td_wait and felt.game.waiting_td
    assert felt.act(4, "call").events[0]["status"] == "rejected"
    out = felt._keep(felt.game.decide("out_of_turn", "hand_dead", "alice"))
    assert not felt.game.waiting_td
    hand = felt.game.hand
    assert hand is not None and 4 not in hand.live
    resumed = [c for c in out.commands if isinstance(c, wire.BettingCmd)][-1]
    assert not resumed.td_wait


def test_one_player_out_of_turn_is_still_binding_at_pouques() -> None:
    felt = four_players("pouques-2020")
    out = felt.act(1, "call")
    assert [e["ruling"]["decision"] for e in out.events if e["type"] == "fault"] == ["action_binding"]
    assert not felt.game.waiting_td


# -- the dead button stays on the table's own seats --------------------------------------------------------


def test_the_dead_button_goes_round_a_nine_seat_table_not_to_seat_ten() -> None:
    felt = Felt("cdc-2013", {s: 10_000 for s in range(2, 10)} | {1: 100}, button=8, seats=9)
    felt.new_hand()
    felt.game.stacks[1] = 0  # seat 1 busted in hand 1 (his 100 went to the winner)
    felt.game.stacks[2] += 100
    felt.game.hand = None
    start = felt.new_hand()  # hand 2: button 9, no small blind, big blind 2
    assert (start["button"], start["small_blind"], start["big_blind"]) == (9, None, 2)
    felt.game.hand = None
    start = felt.new_hand()
    assert (start["button"], start["small_blind"], start["big_blind"]) == (1, 2, 3)  # not seat 10


def test_an_all_in_player_shares_only_the_pot_he_can_win() -> None:
    """cpt87 6.4 with an all-in: seat 4 is all-in for 300, seats 1 and 2 called 1,000 (the pre-flop
    round is over), seat 3 folded his big blind; then another table's card. The main pot (3 x 300 and
    the folded 100) is shared three ways, the side pot (2 x 700) by the two who covered it."""
    felt = Felt("cpt87", {1: 10_000, 2: 10_000, 3: 10_000, 4: 300})
    felt.new_hand()
    felt.deal("As", "Kd", "Qh", "Jc", "Ah", "Ks", "Qd", "Jd")
    for seat, action, to in ((4, "allin", None), (1, "raise", 1_000), (2, "call", None), (3, "fold", None)):
        assert felt.act(seat, action, to).events[0]["status"] != "rejected"
    felt.card("burn", "2c")
    felt.fault("foreign_card", ["Qc"])
    end = felt.end()
    assert end["pots"] == [{"amount": 1_000, "winners": [2, 4, 1]}, {"amount": 1_400, "winners": [2, 1]}]
    # 1,000 shared by 2, 4, 1 (the odd chip to the first left of the button); 1,400 by 2 and 1
    assert stacks(end) == {1: 10_000 - 1_000 + 333 + 700, 2: 10_000 - 1_000 + 334 + 700, 3: 9_900, 4: 333}
    assert sum(stacks(end).values()) == 30_300


# -- Time called and run out (cdc 10.13): the table is told, not only the room ---------------------------


def test_a_time_run_out_is_a_ruling_the_table_carries_out() -> None:
    """The hand of a player whose called time runs out is dead: the hub's event said so to the room, but
    the table got no ruling, so no seat light and nothing for the dealer to muck (issue #26)."""
    felt = four_players("cdc-2013")
    to_act = felt.game.hand.to_act  # type: ignore[union-attr]
    assert to_act is not None
    felt._keep(felt.game.dealer("time", to_act, 1.0))
    out = felt._keep(felt.game.tick(1_000.0))
    fault = next(e for e in out.events if e["type"] == "fault")
    assert (fault["kind"], fault["seat"]) == ("time_expired", to_act)
    told = [c for c in out.commands if isinstance(c, wire.RulingCmd)]
    assert [(c.kind, c.seat, c.decision) for c in told] == [("time_expired", to_act, fault["ruling"]["decision"])]
    assert to_act not in felt.game.hand.live  # type: ignore[union-attr]


def test_an_absent_big_blinds_blind_stays_in_the_pot_when_all_fold_to_the_small_blind() -> None:
    """Seat 3 is away when dealt (cdc 5.1): his big blind is posted, his hand dead. All fold to the small
    blind, the last live hand: he wins the whole pot. The hub gave the dead blind's unmatched half back
    to the absent player, as if it were a live bet nobody called (found by the hand histories, #32)."""
    felt = Felt("cdc-2013", {1: 10_000, 2: 10_000, 3: 10_000, 4: 10_000})
    start = felt.new_hand()
    assert (start["button"], start["small_blind"], start["big_blind"]) == (1, 2, 3)
    felt.deal("As", "Kd", "Qh", "Jc", "Ah", "Ks", "Qd", "Jd")
    ruled = felt.fault("absent_player", [], seat=3)  # the table saw his seat empty at the last card
    assert next(e for e in ruled.events if e["type"] == "fault")["ruling"]["decision"] == "hand_dead"
    felt.act(4, "fold")
    felt.act(1, "fold")
    end = felt.end()
    assert end["result"] == "uncontested" and stacks(end) == {1: 10_000, 2: 10_100, 3: 9_900, 4: 10_000}, end


def test_after_a_board_fault_bet_out_the_next_street_shows_who_speaks() -> None:
    """A fourth card on the flop, burned for the turn (cdc 8.3), the flop bet out: the turn is dealt as
    usual. The board fault's hold (a street fed to the game at its first action) lasted one street too
    long: at the turn the table's lights showed nobody to act until someone pressed."""
    felt = four_players("cdc-2013")
    for seat in (4, 1, 2):
        felt.act(seat, "call")
    felt.act(3, "check")
    felt.card("burn", "2c")
    for face in ("3c", "4c", "5c"):
        felt.card("board", face)
    ruled = felt.fault("flop_four_cards", ["6c"])
    assert next(e for e in ruled.events if e["type"] == "fault")["ruling"]["decision"] == "extra_card_burn"
    felt.card("board", "6c")
    felt.seq += 1
    felt.game.card(wire.CardEvent(table="t1", boot="b", seq=felt.seq, at=float(felt.seq), type="card_left",
                                  zone="board", uid=f"{DECK.index('6c') + 1:08X}", card="6c", deck="A",
                                  order=felt.seq))
    felt.card("burn", "6c")
    for seat in (2, 3, 4, 1):
        felt.act(seat, "check")
    turn = felt.card("board", "7c")
    told = [c for c in turn.commands if isinstance(c, wire.BettingCmd)]
    assert [(c.street, c.open, c.to_act) for c in told] == [("turn", True, 2)], turn.commands
