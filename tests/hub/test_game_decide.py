"""A ruleset that leaves a fault to the TD: the ruling offers options, the TD's choice is applied."""

from hub.room.game import TableGame, TableSetup
from hub.rules import Level
from tablewire import wire


def premature_flop(seq: int) -> wire.FaultSeen:
    return wire.FaultSeen(table="t1", boot="b", seq=seq, at=1.0, hand=1, kind="premature_flop", seat=None,
                          cards=["Ts"], details={"actions_preflop": 1, "board_position": 1, "burns": 1,
                                                 "round_open": True})


def game() -> TableGame:
    g = TableGame("t1", TableSetup(players={1: 5000, 2: 5000, 4: 5000}, button=4, level=Level(50, 100),
                                   ruleset="pouques-2020"))
    g.new_hand(0.0)
    g.action(1, "call", None)  # one action: pouques 77 names "before any bet" and "two bets or more" only
    return g


def test_td_decision_then_the_tds_choice_applies() -> None:
    g = game()
    out = g.fault(premature_flop(9))
    ruling = out.events[0]["ruling"]
    assert ruling["decision"] == "td_decision" and set(ruling["options"]) == {"misdeal", "reshuffle_board"}
    refused = g.decide("premature_flop", "hand_dead", by="td")
    assert refused.events[0]["type"] == "decision_refused" and g.in_hand
    assert refused.events[0]["hand"] == g.hand_no == 1  # the game's refusal names its hand
    out = g.decide("premature_flop", "misdeal", by="alice")
    assert [e["type"] for e in out.events] == ["ruling", "hand_end"]
    assert out.events[0]["decision"] == "misdeal" and out.events[0]["by"] == "alice"
    assert out.events[1]["result"] == "misdeal" and out.events[1]["stacks"] == {"1": 5000, "2": 5000, "4": 5000}
    assert any(isinstance(c, wire.RulingCmd) and c.decision == "misdeal" for c in out.commands)
    assert g.decide("premature_flop", "misdeal", by="td").events[0]["type"] == "decision_refused"  # once


def test_reshuffle_keeps_the_hand_going() -> None:
    g = game()
    g.fault(premature_flop(9))
    out = g.decide("premature_flop", "reshuffle_board", by="td")
    assert out.events[0]["decision"] == "reshuffle_board" and g.in_hand
