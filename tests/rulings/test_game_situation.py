"""The hub's glue between the game and the rulings: `TableGame` fills the `Situation` a ruling
depends on from what the hand really is (no Situation passed in by hand, unlike the rulings tests)."""

from __future__ import annotations

from typing import Any

from hub.room.game import TableGame, TableSetup
from hub.rules import Level
from tablewire import wire

_seq = iter(range(1, 10**6))


def fault(kind: str, seat: int | None, cards: list[str], **details: Any) -> wire.FaultSeen:
    return wire.FaultSeen(table="t1", boot="b", seq=next(_seq), at=1.0, hand=1, kind=kind, seat=seat,
                          cards=cards, details=details)


def game(players: dict[int, int]) -> TableGame:
    g = TableGame("t1", TableSetup(players=players, button=4, level=Level(50, 100), ruleset="cdc-2013"))
    g.new_hand(0.0)  # button 4: small blind 1, big blind 2, seat 4 first to act
    return g


def two_boxed_after_deal(g: TableGame) -> dict[str, Any]:
    for n in (1, 2):
        out = g.fault(fault("boxed_card", None, [f"{n + 1}c"], during_deal=False, boxed_in_deal=0,
                            boxed_after_deal=n))
    return out.events[0]["ruling"]


def test_two_boxed_after_the_deal_with_betting_left_cancel_the_hand() -> None:
    g = game({1: 5000, 2: 5000, 4: 5000})
    g.action(4, "call", None)
    assert two_boxed_after_deal(g)["decision"] == "hand_cancelled_bets_returned"  # cdc 6.3
    assert not g.in_hand


def test_two_boxed_after_the_deal_with_everyone_all_in_are_set_aside() -> None:
    """cdc 6.3 cancels only "s'il reste des enchères": all in, no betting is possible any more."""
    g = game({1: 5000, 2: 5000, 4: 5000})
    for seat in (4, 1, 2):
        g.action(seat, "allin", None)
    assert g.hand is not None and g.hand.cards_face_up
    assert two_boxed_after_deal(g)["decision"] == "set_aside"
    assert g.in_hand


def test_a_card_of_the_other_deck_is_recoverable_before_its_holder_acted() -> None:
    g = game({1: 5000, 2: 5000, 4: 5000})
    out = g.fault(fault("mixed_decks", 4, ["Kc"], deck="B", deck_in_play="A", during_deal=True))
    assert out.events[0]["ruling"]["decision"] == "set_aside"
    assert g.in_hand


def test_a_card_of_the_other_deck_read_after_its_holder_acted_cancels_the_hand() -> None:
    """cdc 6.4: not recoverable once actions were made with cards of both decks."""
    g = game({1: 5000, 2: 5000, 4: 5000})
    g.action(4, "raise", 300)
    out = g.fault(fault("mixed_decks", 4, ["Kc"], deck="B", deck_in_play="A", during_deal=False))
    ruling = out.events[0]["ruling"]
    assert ruling["decision"] == "hand_cancelled_bets_returned" and ruling["article"] == "cdc-2013 6.4"
    assert ruling["refunds"] == {"1": 50, "2": 100, "4": 300}
    end = out.events[-1]
    assert end["type"] == "hand_end" and end["result"] == "cancelled"
    assert end["stacks"] == {"1": 5000, "2": 5000, "4": 5000}


def test_a_rejected_press_is_no_action_made_with_the_cards() -> None:
    g = game({1: 5000, 2: 5000, 4: 5000})
    g.action(4, "check", None)  # facing the big blind: refused
    out = g.fault(fault("mixed_decks", 4, ["Kc"], deck="B", deck_in_play="A", during_deal=False))
    assert out.events[0]["ruling"]["decision"] == "set_aside"
