"""Who knocked a player out (a bounty, la prime): the winners of the last pot his chips went into."""

from __future__ import annotations

from hub.tournament.hands import knocked_out_by


def test_the_winner_of_his_only_pot_knocked_him_out() -> None:
    assert knocked_out_by([((1, 2), (2,))], {1: 0, 2: 4_000}) == {1: (2,)}


def test_the_side_pot_he_was_in_decides_not_the_main_pot_a_shorter_stack_won() -> None:
    # seat 3 (short) wins the main pot he shares with 1 and 2; seat 2 is out, his last chips in the side pot
    # seat 1 won: seat 1 knocked him out, not seat 3
    pots = [((1, 2, 3), (3,)), ((1, 2), (1,))]
    assert knocked_out_by(pots, {1: 9_000, 2: 0, 3: 900}) == {2: (1,)}


def test_two_out_in_one_hand_each_by_the_winners_of_his_last_pot() -> None:
    pots = [((1, 2, 3), (1,)), ((1, 2), (1,))]
    assert knocked_out_by(pots, {1: 12_000, 2: 0, 3: 0}) == {2: (1,), 3: (1,)}


def test_players_who_split_his_last_pot_share_him() -> None:
    assert knocked_out_by([((1, 2, 3), (1, 2))], {1: 5_000, 2: 5_000, 3: 0}) == {3: (1, 2)}


def test_a_player_in_no_pot_was_knocked_out_by_nobody() -> None:
    # a shared pot a ruling made names no eligible seats; a dead hand is in no pot
    assert knocked_out_by([((), (1, 2))], {1: 5_000, 2: 5_000, 3: 0}) == {}
    assert knocked_out_by([((1, 2), (1,))], {1: 5_000, 2: 100, 3: 0}) == {}
