"""Pot-limit betting as a dealer announces it: the call first, then the pot that makes (every chip
in the middle and in front of the players); the minimum raise is no-limit's."""

from __future__ import annotations

import pytest

from hub.rules import ActionKind, ActionStatus, Hand, Level, start_hand
from hub.rules.game_file import get_game
from hub.rules.records import UnknownGame

PLO = get_game("plo")
BLINDS = Level(50, 100)


def table(stacks: dict[int, int] | None = None, level: Level = BLINDS, ruleset: str = "cpt87") -> Hand:
    # button 4: small blind 1, big blind 2, seat 3 first to act
    return start_hand(ruleset, level, 4, stacks or {1: 10_000, 2: 10_000, 3: 10_000, 4: 10_000}, game=PLO)


def test_first_to_act_may_raise_to_350_with_blinds_50_100() -> None:
    h = table()
    legal = h.legal()
    assert (legal.seat, legal.min_raise_to, legal.max_raise_to) == (3, 200, 350)


def test_after_a_pot_raise_the_next_pot_raise_is_1200() -> None:
    """Pot 50 + 100 + 350 = 500, call 350 makes 850: raise 850 more, to 1,200."""
    h = table()
    assert h.act(3, ActionKind.RAISE, 350).status is ActionStatus.ACCEPTED
    assert h.legal().max_raise_to == 1_200
    assert h.legal().min_raise_to == 600


def test_small_blind_completing_counts_his_own_blind() -> None:
    h = table()
    h.act(3, ActionKind.CALL)
    h.act(4, ActionKind.CALL)
    # pot 50 + 100 + 100 + 100 = 350, call 50 makes 400: raise to 100 + 400 = 500
    assert h.legal(1).max_raise_to == 500


def test_antes_are_in_the_pot() -> None:
    h = table(level=Level(50, 100, ante=10), ruleset="cdc-2013")
    assert h.legal().max_raise_to == 390  # 40 of antes more in the middle


def test_post_flop_bet_is_at_most_the_pot_then_pot_raise() -> None:
    h = table()
    for seat in (3, 4, 1):
        h.act(seat, ActionKind.CALL)
    h.act(2, ActionKind.CHECK)
    h.deal_board("As", "Kd", "7c")
    assert h.legal().max_raise_to == 400 and h.legal().min_raise_to == 100
    h.act(1, ActionKind.BET, 400)
    assert h.legal().max_raise_to == 400 + 800 + 400  # call 400 makes 1,200: to 1,600


def test_above_the_pot_is_refused_and_the_player_says_again() -> None:
    h = table()
    rec = h.act(3, ActionKind.RAISE, 351)
    assert rec.status is ActionStatus.REJECTED and rec.reason == "above_pot_limit"
    assert h.to_act == 3 and h.act(3, ActionKind.RAISE, 350).status is ActionStatus.ACCEPTED


def test_allin_with_more_than_the_pot_is_a_pot_raise() -> None:
    h = table()
    rec = h.act(3, ActionKind.ALLIN)
    assert rec.status is ActionStatus.CORRECTED and rec.reason == "pot_limit"
    assert (rec.applied, rec.to) == (ActionKind.RAISE, 350)
    assert h.stack[3] == 10_000 - 350


def test_allin_within_the_pot_stays_an_allin() -> None:
    h = table({1: 10_000, 2: 10_000, 3: 300, 4: 10_000})
    rec = h.act(3, ActionKind.ALLIN)
    assert rec.status is ActionStatus.ACCEPTED and (rec.applied, rec.to) == (ActionKind.ALLIN, 300)
    assert h.legal().max_raise_to == 300 + 50 + 100 + 300 + 300  # call 300 makes 750: to 1,050


def test_no_limit_has_no_cap() -> None:
    h = start_hand("cpt87", Level(50, 100), 4, {1: 10_000, 2: 10_000, 3: 10_000, 4: 10_000})
    assert h.pot_limit_to(3) is None and h.legal().max_raise_to == 10_000


def test_the_hub_tells_the_table_the_pot_maximum_of_the_seat_to_act() -> None:
    """The betting command carries the pot-limit maximum for the dealer's display; none in no-limit."""
    from hub.room.game import TableGame, TableSetup
    from tablewire import wire

    players = {1: 10_000, 2: 10_000, 3: 10_000, 4: 10_000}
    for game, expected in (("plo", 350), ("nlhe", None)):
        table_game = TableGame("t1", TableSetup(players=players, button=4, ruleset="cpt87", game=game))
        out = table_game.new_hand(0.0)
        betting = [c for c in out.commands if isinstance(c, wire.BettingCmd)][-1]
        assert (betting.to_act, betting.max_to) == (3, expected)
        context = next(c for c in out.commands if isinstance(c, wire.HandContextCmd))
        assert context.hole_cards == (4 if game == "plo" else 2)
        rejected = table_game.action(3, "raise", 400)
        if game == "plo":
            event = next(e for e in rejected.events if e["type"] == "action")
            assert (event["status"], event["reason"], event["max_to"]) == ("rejected", "above_pot_limit", 350)
            assert event["message"]["fr"].startswith("Au-dessus du pot")


def test_a_table_of_an_unknown_game_is_refused() -> None:
    from hub.room.game import TableSetup

    with pytest.raises(UnknownGame, match="unknown game 'razz'"):
        TableSetup(players={1: 100, 2: 100}, button=1, game="razz")
