"""Every fault kind, per ruleset: the monitor raises it at the revealing card, and each rulebook's
table gives the exact decision and article (fallbacks to cdc-2013 say so)."""

from __future__ import annotations

from collections.abc import Callable

import fault_scenarios as fs
import pytest

from hub.rulings import Decision as D
from hub.rulings import Situation, deadline, rule
from table_agent.dealing import FaultDetected
from table_agent.dealing import FaultKind as K

RULESETS = ("cdc-2013", "brest-2011", "pouques-2020", "pcpm", "cpt87")
ONE = Situation()
BETTING_ON = Situation(substantial_action=True, betting_possible=True)

# scenario -> (kind, seat, cards, situation, {ruleset: (decision, article)}); a ruling seat other than
# the fault's is given as a 3rd element
Expect = dict[str, tuple]
CASES: list[tuple[str, Callable[..., list[FaultDetected]], K, int | None, tuple[str, ...], Situation, Expect]] = [
    ("boxed_in_deal", fs.boxed_in_deal, K.BOXED_CARD, None, ("2s",), ONE, {
        "cdc-2013": (D.SET_ASIDE, "cdc-2013 6.3"),
        "brest-2011": (D.SET_ASIDE, "brest-2011 III.9"),
        "pouques-2020": (D.SET_ASIDE, "pouques-2020 79"),
        "pcpm": (D.SET_ASIDE, "cdc-2013 6.3 (pcpm silent)"),
        "cpt87": (D.SET_ASIDE, "cpt87 6.3")}),
    ("two_boxed_in_deal", fs.two_boxed_in_deal, K.BOXED_CARD, None, ("5c",), ONE, {
        "cdc-2013": (D.MISDEAL, "cdc-2013 6.3"),
        "brest-2011": (D.MISDEAL, "brest-2011 III.9"),
        "pouques-2020": (D.MISDEAL, "pouques-2020 78"),
        "pcpm": (D.MISDEAL, "cdc-2013 6.3 (pcpm silent)"),
        "cpt87": (D.TD_DECISION, "cpt87 6.3")}),
    ("two_boxed_on_flop", fs.two_boxed_on_flop, K.BOXED_CARD, None, ("5h",), BETTING_ON, {
        "cdc-2013": (D.HAND_CANCELLED_BETS_RETURNED, "cdc-2013 6.3"),
        "brest-2011": (D.TD_DECISION, "brest-2011 III.9"),
        "pouques-2020": (D.CONTINUE, "pouques-2020 48"),
        "pcpm": (D.HAND_CANCELLED_BETS_RETURNED, "cdc-2013 6.3 (pcpm silent)"),
        "cpt87": (D.TD_DECISION, "cpt87 6.3")}),
    ("exposed_mid_deal", fs.exposed_mid_deal, K.EXPOSED_CARD, 4, ("Jc",), ONE, {
        "cdc-2013": (D.REPLACE_WITH_BURN, "cdc-2013 7.3"),
        "brest-2011": (D.REPLACE_WITH_BURN, "brest-2011 III.4"),
        "pouques-2020": (D.REPLACE_WITH_BURN, "cdc-2013 7.3 (pouques-2020 silent)"),
        "pcpm": (D.REPLACE_WITH_BURN, "pcpm La donne"),
        "cpt87": (D.REPLACE_WITH_BURN, "cpt87 6.7")}),
    ("exposed_first_card", fs.exposed_first_card, K.EXPOSED_CARD, 1, ("As",), ONE, {
        "cdc-2013": (D.MISDEAL, "cdc-2013 7.1"),
        "brest-2011": (D.MISDEAL, "brest-2011 III.7"),
        "pouques-2020": (D.MISDEAL, "pouques-2020 78"),
        "pcpm": (D.MISDEAL, "pcpm Fausse donne"),
        "cpt87": (D.MISDEAL, "cpt87 6.5")}),
    ("exposed_twice", fs.exposed_twice, K.EXPOSED_CARD, 3, ("6s",), ONE, {
        "cdc-2013": (D.MISDEAL, "cdc-2013 7.1"),
        "brest-2011": (D.MISDEAL, "brest-2011 III.7"),
        "pouques-2020": (D.MISDEAL, "pouques-2020 78"),
        "pcpm": (D.MISDEAL, "pcpm Fausse donne"),
        "cpt87": (D.MISDEAL, "cpt87 6.5")}),
    ("dealer_card_exposed", fs.dealer_card_exposed, K.EXPOSED_CARD, 6, ("9d",), ONE, {
        "cdc-2013": (D.REPLACE_WITH_BURN, "cdc-2013 7.3"),
        "brest-2011": (D.MISDEAL, "brest-2011 III.4"),
        "pouques-2020": (D.MISDEAL, "pouques-2020 78"),  # the button's first card
        "pcpm": (D.CARD_KEPT, "pcpm La donne"),
        "cpt87": (D.REPLACE_WITH_BURN, "cpt87 6.7")}),
    ("card_to_empty_seat", fs.card_to_empty_seat, K.CARD_TO_EMPTY_SEAT, 7, ("8h",), ONE, {
        "cdc-2013": (D.MISDEAL, "cdc-2013 7.1"),
        "brest-2011": (D.MISDEAL, "cdc-2013 7.1 (brest-2011 silent)"),
        "pouques-2020": (D.MISDEAL, "pouques-2020 78"),
        "pcpm": (D.MISDEAL, "cdc-2013 7.1 (pcpm silent)"),
        "cpt87": (D.MISDEAL, "cpt87 6.5")}),
    ("deal_starts_at_button", fs.deal_starts_at_button, K.WRONG_DEAL_ORDER, 6, ("As",), ONE, {
        "cdc-2013": (D.MISDEAL, "cdc-2013 7.1"),
        "brest-2011": (D.MISDEAL, "brest-2011 III.7"),
        "pouques-2020": (D.MISDEAL, "pouques-2020 78"),
        "pcpm": (D.MISDEAL, "pcpm Fausse donne"),
        "cpt87": (D.MISDEAL, "cpt87 6.5")}),
    ("seat_skipped", fs.seat_skipped, K.SEAT_SKIPPED, 3, ("Qh",), ONE, {
        "cdc-2013": (D.MISDEAL, "cdc-2013 7.1"),
        "brest-2011": (D.MISDEAL, "brest-2011 III.7"),
        "pouques-2020": (D.MISDEAL, "pouques-2020 78"),
        "pcpm": (D.MISDEAL, "pcpm Fausse donne"),
        "cpt87": (D.MISDEAL, "cpt87 6.5")}),
    ("extra_to_small_blind", fs.extra_to_small_blind, K.EXTRA_HOLE_CARD, 1, ("2s",), ONE, {
        "cdc-2013": (D.MISDEAL, "cdc-2013 7.1"),
        "brest-2011": (D.BURN_AS_FIRST, "brest-2011 III.7"),
        "pouques-2020": (D.HAND_DEAD, "pouques-2020 79"),
        "pcpm": (D.BURN_AS_FIRST, "pcpm Fausse donne"),
        "cpt87": (D.MISDEAL, "cpt87 6.5")}),
    ("extra_to_button", fs.extra_to_button, K.EXTRA_HOLE_CARD, 6, ("2s",), ONE, {
        "cdc-2013": (D.MISDEAL, "cdc-2013 7.1"),
        "brest-2011": (D.MISDEAL, "brest-2011 III.7"),
        "pouques-2020": (D.HAND_DEAD, "pouques-2020 79"),
        "pcpm": (D.MISDEAL, "pcpm Fausse donne"),
        "cpt87": (D.TD_DECISION, "cpt87 6.5")}),
    ("missing_last_card", fs.missing_last_card, K.MISSING_HOLE_CARD, 6, ("9d",), ONE, {
        "cdc-2013": (D.MISDEAL, "cdc-2013 7.1"),
        "brest-2011": (D.MISDEAL, "brest-2011 III.7"),
        "pouques-2020": (D.MISDEAL, "pouques-2020 78"),
        "pcpm": (D.MISDEAL, "pcpm Fausse donne"),
        "cpt87": (D.TD_DECISION, "cpt87 6.5")}),
    ("flop_without_burn", fs.flop_without_burn, K.FLOP_WITHOUT_BURN, None, ("2s",), ONE, {
        "cdc-2013": (D.DESIGNATE_BURN, "cdc-2013 8.3"),
        "brest-2011": (D.DESIGNATE_BURN, "brest-2011 III.14"),
        "pouques-2020": (D.DESIGNATE_BURN, "pouques-2020 77"),
        "pcpm": (D.DESIGNATE_BURN, "pcpm La donne"),
        "cpt87": (D.DESIGNATE_BURN, "cpt87 6.8")}),
    ("flop_two_burns", fs.flop_two_burns, K.FLOP_TWO_BURNS, None, ("2s", "2h"), ONE, {
        "cdc-2013": (D.BURN_TO_FLOP, "cdc-2013 8.3"),
        "brest-2011": (D.BURN_TO_FLOP, "brest-2011 III.15"),
        "pouques-2020": (D.BURN_TO_FLOP, "cdc-2013 8.3 (pouques-2020 silent)"),
        "pcpm": (D.BURN_TO_FLOP, "pcpm La donne"),
        "cpt87": (D.BURN_TO_FLOP, "cpt87 6.8")}),
    ("flop_four_cards", fs.flop_four_cards, K.FLOP_FOUR_CARDS, None, ("3s",), ONE, {
        "cdc-2013": (D.EXTRA_CARD_BURN, "cdc-2013 8.3"),
        "brest-2011": (D.EXTRA_CARD_BURN, "brest-2011 III.16"),
        "pouques-2020": (D.EXTRA_CARD_BURN, "cdc-2013 8.3 (pouques-2020 silent)"),
        "pcpm": (D.EXTRA_CARD_BURN, "pcpm La donne"),
        "cpt87": (D.EXTRA_CARD_BURN, "cpt87 6.8")}),
    ("premature_flop_no_action", fs.premature_flop(0), K.PREMATURE_FLOP, None, ("2h",), ONE, {
        "cdc-2013": (D.RESHUFFLE_BOARD, "cdc-2013 8.3"),
        "brest-2011": (D.RESHUFFLE_BOARD, "brest-2011 III.18"),
        "pouques-2020": (D.MISDEAL, "pouques-2020 77"),
        "pcpm": (D.RESHUFFLE_BOARD, "pcpm La donne"),
        "cpt87": (D.RESHUFFLE_BOARD, "cpt87 6.8")}),
    ("premature_flop_one_action", fs.premature_flop(1), K.PREMATURE_FLOP, None, ("2h",), ONE, {
        "pouques-2020": (D.TD_DECISION, "pouques-2020 77")}),
    ("premature_flop_two_actions", fs.premature_flop(2), K.PREMATURE_FLOP, None, ("2h",), ONE, {
        "cdc-2013": (D.RESHUFFLE_BOARD, "cdc-2013 8.3"),
        "pouques-2020": (D.RESHUFFLE_BOARD, "pouques-2020 77")}),
    ("turn_without_burn", fs.turn_without_burn, K.TURN_WITHOUT_BURN, None, ("3s",), ONE, {
        "cdc-2013": (D.BURN_AND_NEXT, "cdc-2013 8.3"),
        "brest-2011": (D.BURN_AND_NEXT, "brest-2011 III.17"),
        "pouques-2020": (D.BURN_AND_NEXT, "pouques-2020 77"),
        "pcpm": (D.BURN_AND_NEXT, "pcpm La donne"),
        "cpt87": (D.BURN_AND_NEXT, "cdc-2013 8.3 (cpt87 silent)")}),
    ("river_without_burn", fs.river_without_burn, K.RIVER_WITHOUT_BURN, None, ("4s",), ONE, {
        "cdc-2013": (D.BURN_AND_NEXT, "cdc-2013 8.3"),
        "brest-2011": (D.BURN_AND_NEXT, "brest-2011 III.17"),
        "pouques-2020": (D.BURN_AND_NEXT, "pouques-2020 77"),
        "pcpm": (D.BURN_AND_NEXT, "pcpm La donne"),
        "cpt87": (D.BURN_AND_NEXT, "cdc-2013 8.3 (cpt87 silent)")}),
    ("premature_turn", fs.premature_turn, K.PREMATURE_TURN, None, ("3h",), ONE, {
        "cdc-2013": (D.RIVER_AS_TURN, "cdc-2013 8.4"),
        "brest-2011": (D.RIVER_AS_TURN, "brest-2011 III.19"),
        "pouques-2020": (D.BOTTOM_CARD, "pouques-2020 77"),
        "pcpm": (D.RIVER_AS_TURN, "pcpm La donne"),
        "cpt87": (D.RESHUFFLE_BOARD, "cpt87 6.9")}),
    ("premature_river", fs.premature_river, K.PREMATURE_RIVER, None, ("4d",), ONE, {
        "cdc-2013": (D.RESHUFFLE_BOARD, "cdc-2013 8.5"),
        "brest-2011": (D.RESHUFFLE_BOARD, "brest-2011 III.20"),
        "pouques-2020": (D.BURN_PREMATURE, "pouques-2020 77"),
        "pcpm": (D.RESHUFFLE_BOARD, "pcpm La donne"),
        "cpt87": (D.RESHUFFLE_BOARD, "cpt87 6.9")}),
    ("board_removed", fs.board_removed, K.BOARD_REMOVED, None, ("2h",), ONE, {
        "cdc-2013": (D.CONTINUE, "cdc-2013 8.6"),
        "brest-2011": (D.CONTINUE, "cdc-2013 8.6 (brest-2011 silent)"),
        "pouques-2020": (D.CONTINUE, "cdc-2013 8.6 (pouques-2020 silent)"),
        "pcpm": (D.CONTINUE, "cdc-2013 8.6 (pcpm silent)"),
        "cpt87": (D.CONTINUE, "cdc-2013 8.6 (cpt87 silent)")}),
    ("unknown_tag", fs.unknown_tag, K.UNKNOWN_TAG, 5, (), ONE, {
        "cdc-2013": (D.HAND_CANCELLED_BETS_RETURNED, "cdc-2013 6.4"),
        "brest-2011": (D.HAND_CANCELLED_POT_SPLIT, "brest-2011 III.11"),
        "pouques-2020": (D.HAND_CANCELLED_BETS_RETURNED, "cdc-2013 6.4 (pouques-2020 silent)"),
        "pcpm": (D.HAND_CANCELLED_BETS_RETURNED, "cdc-2013 6.4 (pcpm silent)"),
        "cpt87": (D.HAND_CANCELLED_POT_SPLIT, "cpt87 6.4")}),
    ("foreign_card", fs.foreign_card, K.FOREIGN_CARD, 5, ("Ts",), ONE, {
        "cdc-2013": (D.HAND_CANCELLED_BETS_RETURNED, "cdc-2013 6.4"),
        "brest-2011": (D.HAND_CANCELLED_POT_SPLIT, "brest-2011 III.11"),
        "pouques-2020": (D.HAND_CANCELLED_BETS_RETURNED, "cdc-2013 6.4 (pouques-2020 silent)"),
        "pcpm": (D.HAND_CANCELLED_BETS_RETURNED, "cdc-2013 6.4 (pcpm silent)"),
        "cpt87": (D.HAND_CANCELLED_POT_SPLIT, "cpt87 6.4")}),
    ("duplicate_card", fs.duplicate_card, K.DUPLICATE_CARD, None, ("As",), ONE, {
        "cdc-2013": (D.HAND_CANCELLED_BETS_RETURNED, "cdc-2013 6.4"),
        "brest-2011": (D.HAND_CANCELLED_POT_SPLIT, "brest-2011 III.11"),
        "cpt87": (D.HAND_CANCELLED_POT_SPLIT, "cpt87 6.4")}),
    ("mixed_decks", fs.mixed_decks, K.MIXED_DECKS, None, ("2h",), ONE, {
        "cdc-2013": (D.SET_ASIDE, "cdc-2013 6.4"),
        "brest-2011": (D.SET_ASIDE, "cdc-2013 6.4 (brest-2011 silent)"),
        "cpt87": (D.SET_ASIDE, "cpt87 6.4")}),
    ("mixed_decks_not_recoverable", fs.mixed_decks, K.MIXED_DECKS, None, ("2h",), Situation(recoverable=False), {
        "cdc-2013": (D.HAND_CANCELLED_BETS_RETURNED, "cdc-2013 6.4"),
        "cpt87": (D.HAND_CANCELLED_POT_SPLIT, "cpt87 6.4")}),
    ("dead_card_in_hand", fs.dead_card_in_hand, K.DEAD_CARD_IN_HAND, 4, ("Ts",), ONE, {
        "cdc-2013": (D.HAND_DEAD, "cdc-2013 7.5"),
        "brest-2011": (D.HAND_DEAD, "brest-2011 III.6"),
        "pouques-2020": (D.HAND_DEAD, "pouques-2020 79"),
        "pcpm": (D.HAND_DEAD, "pcpm La donne"),
        "cpt87": (D.HAND_DEAD, "cdc-2013 7.5 (cpt87 silent)")}),
    ("out_of_turn_once", fs.out_of_turn_once, K.OUT_OF_TURN, 5, (), ONE, {
        "cdc-2013": (D.ACTION_BINDING, "cdc-2013 10.2"),
        "brest-2011": (D.ACTION_BINDING, "brest-2011 VII.20"),
        "pouques-2020": (D.ACTION_BINDING, "pouques-2020 59"),
        "pcpm": (D.ACTION_BINDING, "pcpm Les actions et les relances"),
        "cpt87": (D.ACTION_BINDING, "cpt87 8.2")}),
    ("out_of_turn_muck", fs.out_of_turn_muck, K.OUT_OF_TURN, 5, ("Ts",), ONE, {
        "cdc-2013": (D.ACTION_BINDING, "cdc-2013 10.2"),
        "pouques-2020": (D.ACTION_BINDING, "pouques-2020 59")}),
    ("out_of_turn_three_after", fs.out_of_turn_three_after, K.OUT_OF_TURN, 6, (), ONE, {
        "cdc-2013": (D.CALL_OR_FOLD_ONLY, "cdc-2013 10.2", 3),
        "brest-2011": (D.CALL_OR_FOLD_ONLY, "brest-2011 VII.21", 3),
        "pouques-2020": (D.TD_DECISION, "pouques-2020 70", 3),
        "pcpm": (D.CALL_OR_FOLD_ONLY, "pcpm Les actions et les relances", 3),
        "cpt87": (D.CALL_OR_FOLD_ONLY, "cpt87 8.2", 3)}),
    ("out_of_turn_three_after_pot_opened", fs.out_of_turn_three_after, K.OUT_OF_TURN, 6, (),
     Situation(pot_opened=True), {
        "pcpm": (D.HAND_DEAD, "pcpm Les actions et les relances", 3),
        "brest-2011": (D.CALL_OR_FOLD_ONLY, "brest-2011 VII.21", 3)}),
]

PARAMS = [
    pytest.param(drive, kind, seat, cards, situation, ruleset, expected, id=f"{name}-{ruleset}")
    for name, drive, kind, seat, cards, situation, table in CASES
    for ruleset, expected in table.items()
]


@pytest.mark.parametrize("drive, kind, seat, cards, situation, ruleset, expected", PARAMS)
def test_fault_and_ruling(drive: Callable[..., list[FaultDetected]], kind: K, seat: int | None,
                          cards: tuple[str, ...], situation: Situation, ruleset: str, expected: tuple) -> None:
    faults = drive(deadline(ruleset))
    assert [(f.kind, f.seat, f.cards) for f in faults] == [(kind, seat, cards)]
    ruling = rule(faults[0], ruleset, situation)
    assert (ruling.decision, ruling.article) == expected[:2]
    assert ruling.seat == (expected[2] if len(expected) > 2 else seat)
    assert ruling.cards == cards
    assert ruling.article in ruling.text() and ruling.article in ruling.text("en")


# absent player: the deadline card differs per ruleset (cdc 5.1, brest III.13, pouques 27, pcpm, cpt87 5.1)
@pytest.mark.parametrize("ruleset, position, article", [
    ("cdc-2013", 1, "cdc-2013 5.1"),  # the first card of the deal
    ("brest-2011", 10, "brest-2011 III.13"),  # seat 4's own last card (4th seat, 2nd round)
    ("pouques-2020", 12, "pouques-2020 27"),  # the button's second card
    ("pcpm", 12, "pcpm Retards et absents"),  # the last card of the deal
    ("cpt87", 12, "cpt87 5.1"),
])
def test_absent_player_at_the_rulesets_deadline(ruleset: str, position: int, article: str) -> None:
    faults = fs.absent_player(deadline(ruleset))
    assert [(f.kind, f.seat, f.details["deal_position"]) for f in faults] == [(K.ABSENT_PLAYER, 4, position)]
    ruling = rule(faults[0], ruleset)
    assert (ruling.decision, ruling.article, ruling.dead_seats) == (D.HAND_DEAD, article, (4,))
