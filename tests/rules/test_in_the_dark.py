"""Betting in the dark (cdc 10.14, brest VII.7): an action pressed before the street's cards are out
is held and stands when the round opens and the turn comes, unless the action changed before it."""

from __future__ import annotations

from hub.rules import ActionStatus, Decision, Level, RulingGiven, start_hand


def flop_pending(ruleset: str = "cdc-2013"):  # type: ignore[no-untyped-def]
    # button 9: small blind 1, big blind 2, seat 4 first pre-flop; post-flop 1, 2, 4, 9
    h = start_hand(ruleset, Level(50, 100), 9, {1: 10000, 2: 10000, 4: 10000, 9: 10000})
    for seat, action in ((4, "call"), (9, "call"), (1, "call"), (2, "check")):
        h.act(seat, action)
    assert not h.round_open
    return h


def test_a_bet_in_the_dark_stands_when_the_flop_round_opens() -> None:
    h = flop_pending()
    before = h.stack[1]
    rec = h.act(1, "bet", 300)
    assert rec.status is ActionStatus.ACCEPTED and rec.pending and rec.reason == "in_the_dark"
    assert h.stack[1] == before  # nothing moves before the flop is out
    h.deal_board("Ts", "Jd", "4h")
    assert h.bet[1] == 300 and h.max_bet == 300 and h.to_act == 2


def test_a_check_in_the_dark_is_released_by_a_bet_before_it() -> None:
    h = flop_pending()
    h.act(4, "check")
    h.deal_board("Ts", "Jd", "4h")
    assert 4 in h.pending and h.to_act == 1
    h.act(1, "bet", 200)
    h.act(2, "call")
    released = [e.ruling.decision for e in h.log if isinstance(e, RulingGiven)]
    assert Decision.ACTION_RELEASED in released and h.to_act == 4
    assert h.act(4, "raise", 600).status is ActionStatus.ACCEPTED  # free again (cdc: a check is no wager)


def test_nothing_in_the_dark_once_no_betting_is_possible() -> None:
    h = start_hand("cdc-2013", Level(50, 100), 9, {1: 10000, 2: 300, 4: 300, 9: 300})
    for seat, action in ((4, "allin"), (9, "allin"), (1, "fold"), (2, "allin")):
        h.act(seat, action)
    assert h.cards_face_up
    assert h.act(2, "bet", 200).status is ActionStatus.REJECTED


def test_one_action_in_the_dark_per_seat() -> None:
    h = flop_pending()
    h.act(1, "check")
    assert h.act(1, "bet", 200).reason == "already_pending"


def test_a_dead_hand_loses_its_action_in_the_dark() -> None:
    from hub.rules import Ruling

    h = flop_pending()
    h.act(1, "bet", 300)
    h.kill_hand(1, Ruling(Decision.HAND_DEAD, "cdc-2013 7.5", 1))
    h.deal_board("Ts", "Jd", "4h")
    assert h.max_bet == 0 and h.to_act == 2
