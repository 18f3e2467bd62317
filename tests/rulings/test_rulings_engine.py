"""The rulings engine beyond the per-fault tables: substantial action, betting corrections, texts,
refunds, options, fallbacks and errors."""

from __future__ import annotations

import pytest

from hub.rulings import (
    RULESETS,
    RulingsError,
    Situation,
    UnknownRuleset,
    clauses_for,
    deadline,
    is_substantial,
    rule,
)
from hub.rulings import (
    Decision as D,
)
from table_agent.dealing import Deadline, FaultDetected
from table_agent.dealing import FaultKind as K


def fault(kind: K, seat: int | None = 3, cards: tuple[str, ...] = (), **details: object) -> FaultDetected:
    return FaultDetected(kind=kind, hand=12, seat=seat, cards=cards, at=100.0, details=details)


@pytest.mark.parametrize("ruleset, article", [
    ("cdc-2013", "cdc-2013 7.7"), ("brest-2011", "brest-2011 III.12"), ("pouques-2020", "pouques-2020 48"),
    ("pcpm", "pcpm Fausse donne"), ("cpt87", "cpt87 6.6"),
])
def test_substantial_action_turns_a_misdeal_into_continue_with_the_hand_dead(ruleset: str, article: str) -> None:
    f = fault(K.MISSING_HOLE_CARD, seat=5, cards=("Ts",), held=1)
    ruling = rule(f, ruleset, Situation(substantial_action=True))
    assert (ruling.decision, ruling.article, ruling.dead_seats) == (D.CONTINUE, article, (5,))


@pytest.mark.parametrize("ruleset, actions, expected", [
    ("cdc-2013", ["fold", "call"], True),  # 7.7: two consecutive, one with chips
    ("cdc-2013", ["fold", "fold"], False),
    ("cdc-2013", ["fold", "fold", "fold"], True),  # three actions
    ("cpt87", ["fold", "call"], False),  # 6.6: both with chips
    ("cpt87", ["call", "raise"], True),
    ("cpt87", ["fold", "check", "fold"], True),
    ("brest-2011", ["fold", "call", "fold"], False),  # III.12: two players bet after the blinds
    ("brest-2011", ["call", "fold", "raise"], True),
    ("pcpm", ["call", "call"], True),
    ("pouques-2020", ["fold", "fold"], True),  # 48: covered by two actions of any kind
    ("pouques-2020", ["call"], False),
])
def test_is_substantial_per_ruleset(ruleset: str, actions: list[str], expected: bool) -> None:
    assert is_substantial(ruleset, actions) is expected


# cdc 10.9: blinds 100/200, raise to 600 -> min re-raise to 1000 (increment 400)
@pytest.mark.parametrize("ruleset, to, announced, decision, article", [
    ("cdc-2013", 800, False, D.COMPLETED_TO_MIN_RAISE, "cdc-2013 10.9"),  # +200 = 50 % of 400
    ("cdc-2013", 790, False, D.TREATED_AS_CALL, "cdc-2013 10.9"),
    ("cdc-2013", 700, True, D.COMPLETED_TO_MIN_RAISE, "cdc-2013 10.9"),  # announced raise (10.3)
    ("brest-2011", 790, False, D.TREATED_AS_CALL, "brest-2011 VII.15"),
    ("cpt87", 800, False, D.COMPLETED_TO_MIN_RAISE, "cpt87 8.4"),
    ("pcpm", 800, False, D.COMPLETED_TO_MIN_RAISE, "pcpm Les actions et les relances"),
    # pouques 52: at least 50 % over the previous bet (600 -> 900) is completed to double
    ("pouques-2020", 900, False, D.COMPLETED_TO_MIN_RAISE, "pouques-2020 52"),
    ("pouques-2020", 890, False, D.TREATED_AS_CALL, "pouques-2020 52"),
])
def test_insufficient_raise(ruleset: str, to: int, announced: bool, decision: D, article: str) -> None:
    f = fault(K.INSUFFICIENT_BET, seat=4, current_bet=600, to=to, min_raise_to=1000, announced=announced)
    ruling = rule(f, ruleset)
    assert (ruling.decision, ruling.article, ruling.seat) == (decision, article, 4)


def test_insufficient_bet_correction_given_by_the_engine_is_cited() -> None:
    f = fault(K.INSUFFICIENT_BET, corrected="treated_as_call")
    assert rule(f, "cdc-2013").decision is D.TREATED_AS_CALL


@pytest.mark.parametrize("ruleset, article", [
    ("cdc-2013", "cdc-2013 4.5"), ("brest-2011", "brest-2011 IV.6"), ("pouques-2020", "pouques-2020 63"),
    ("pcpm", "pcpm Les cartes mortes"), ("cpt87", "cpt87 4.5"),
])
def test_time_expired_kills_the_hand(ruleset: str, article: str) -> None:
    ruling = rule(fault(K.TIME_EXPIRED, seat=2), ruleset)
    assert (ruling.decision, ruling.article, ruling.seat, ruling.dead_seats) == (D.HAND_DEAD, article, 2, (2,))


def test_cancelled_hand_returns_every_chip_put_in() -> None:
    s = Situation(committed={1: 50, 2: 100, 3: 0, 4: 300})
    ruling = rule(fault(K.DUPLICATE_CARD, seat=None, cards=("As",)), "cdc-2013", s)
    assert ruling.decision is D.HAND_CANCELLED_BETS_RETURNED
    assert dict(ruling.refunds) == {1: 50, 2: 100, 4: 300}


def test_td_decision_lists_its_options() -> None:
    ruling = rule(fault(K.BOXED_CARD, seat=None, cards=("5h",), during_deal=False, boxed_after_deal=2), "brest-2011")
    assert (ruling.decision, ruling.options) == (D.TD_DECISION, (D.SET_ASIDE, D.HAND_CANCELLED_POT_SPLIT))
    assert "au choix" in ruling.text() and "options" in ruling.text("en")


def test_texts_in_french_and_english() -> None:
    ruling = rule(fault(K.EXPOSED_CARD, seat=3, cards=("7h",), deal_position=5, exposed_count=1), "cdc-2013")
    assert ruling.text() == (
        "Carte retournée pendant la donne — donne 12 — siège 3 — 7h — cdc-2013 7.3 : la carte est morte ; "
        "le joueur reçoit en fin de donne la future première brûlée ; la carte retournée sera la première "
        "brûlée")
    assert ruling.text("en") == (
        "Card exposed during the deal — hand 12 — seat 3 — 7h — cdc-2013 7.3: the card is dead; the player "
        "gets the would-be first burn at the end of the deal; the exposed card is the first burn")


def test_every_kind_has_a_ruling_in_every_ruleset_and_texts_in_both_languages() -> None:
    for ruleset in RULESETS:
        for kind in K:
            assert clauses_for(kind, ruleset), (ruleset, kind)
            ruling = rule(fault(kind), ruleset)
            assert ruling.article.split()[0] in RULESETS
            assert ruling.text() and ruling.text("en")


def test_fallbacks_say_which_rulebook_is_silent() -> None:
    assert [a for _, a in clauses_for(K.CARD_TO_EMPTY_SEAT, "brest-2011")] == ["cdc-2013 7.1 (brest-2011 silent)"]
    # pouques 78 covers some exposed cards; the rest falls back to cdc-2013
    articles = [a for _, a in clauses_for(K.EXPOSED_CARD, "pouques-2020")]
    assert articles[:3] == ["pouques-2020 78"] * 3
    assert articles[-1] == "cdc-2013 7.3 (pouques-2020 silent)"


def test_deadlines_per_ruleset() -> None:
    assert [deadline(r) for r in RULESETS] == [
        Deadline.FIRST_CARD, Deadline.OWN_LAST_CARD, Deadline.BUTTON_SECOND_CARD, Deadline.LAST_CARD,
        Deadline.LAST_CARD]


def test_unknown_ruleset_refused() -> None:
    with pytest.raises(UnknownRuleset):
        rule(fault(K.BOXED_CARD), "wsop-2024")
    with pytest.raises(RulingsError):
        deadline("wsop-2024")
    with pytest.raises(ValueError):
        is_substantial("wsop-2024", [])


def test_faults_md_contract_ids() -> None:
    """The ids of spec/faults.md, verbatim: renaming one breaks clubs' acceptance suites."""
    assert {k.value for k in K} == {
        "boxed_card", "exposed_card", "card_to_empty_seat", "wrong_deal_order", "seat_skipped",
        "extra_hole_card", "missing_hole_card", "flop_without_burn", "flop_two_burns", "flop_four_cards",
        "premature_flop", "turn_without_burn", "river_without_burn", "premature_turn", "premature_river",
        "board_removed", "unknown_tag", "foreign_card", "mixed_decks", "duplicate_card", "dead_card_in_hand",
        "absent_player", "out_of_turn", "time_expired", "insufficient_bet"}
    contract = {
        "set_aside", "misdeal", "replace_with_burn", "continue", "designate_burn", "burn_to_flop",
        "extra_card_burn", "reshuffle_board", "river_as_turn", "bottom_card", "burn_and_next", "burn_as_first",
        "hand_cancelled_bets_returned", "hand_cancelled_pot_split", "hand_dead", "action_binding",
        "action_released", "call_or_fold_only", "completed_to_min_raise", "treated_as_call", "td_decision"}
    assert contract <= {d.value for d in D}
    assert {d.value for d in D} - contract == {"burn_premature", "card_kept"}  # ours, in docs/faults.md


def test_payloads_are_json_and_carry_the_contract_fields() -> None:
    import json

    f = fault(K.EXPOSED_CARD, seat=3, cards=("7h",), deal_position=1, exposed_count=1)
    ruling = rule(f, "brest-2011")
    payload = {**f.as_payload(), "ruling": ruling.as_payload()}
    back = json.loads(json.dumps(payload))
    assert (back["type"], back["hand"], back["kind"], back["seat"], back["cards"]) == (
        "fault", 12, "exposed_card", 3, ["7h"])
    assert (back["ruling"]["decision"], back["ruling"]["article"]) == ("misdeal", "brest-2011 III.7")
    assert back["ruling"]["text"].startswith("Carte retournée pendant la donne")


def test_substantial_action_kills_only_a_hand_with_the_wrong_cards() -> None:
    order = rule(fault(K.WRONG_DEAL_ORDER, seat=6, cards=("As",)), "cdc-2013", Situation(substantial_action=True))
    assert (order.decision, order.dead_seats) == (D.CONTINUE, ())
    skipped = rule(fault(K.SEAT_SKIPPED, seat=3, cards=("Qh",)), "brest-2011", Situation(substantial_action=True))
    assert (skipped.decision, skipped.article, skipped.dead_seats) == (D.CONTINUE, "brest-2011 III.12", (3,))


@pytest.mark.parametrize("ruleset, article", [
    ("cdc-2013", "cdc-2013 10.2"), ("brest-2011", "brest-2011 VII.20"), ("pouques-2020", "pouques-2020 59"),
    ("pcpm", "pcpm Les actions et les relances"), ("cpt87", "cpt87 8.2"),
])
def test_out_of_turn_action_released_when_the_action_changes(ruleset: str, article: str) -> None:
    from hub.rulings import release

    f = fault(K.OUT_OF_TURN, seat=5, via="panel", action="call", skipped=3, acted_since_skipped=1)
    assert rule(f, ruleset).decision is D.ACTION_BINDING
    released = release(f, ruleset)
    assert (released.decision, released.article, released.seat) == (D.ACTION_RELEASED, article, 5)


def test_dead_hands_are_named_as_seats_in_the_ruling_text() -> None:
    """« (mains mortes : 2, 5) » read as two and five dead hands: they are seats 2 and 5."""
    from hub.rulings.model import Ruling

    ruling = Ruling(D.CONTINUE, "pouques-2020 70", "pouques-2020", K.OUT_OF_TURN, 4, 3, (), dead_seats=(2, 5))
    assert ruling.text().endswith("(mains mortes : siège 2, siège 5)"), ruling.text()
    assert ruling.text("en").endswith("(dead hands: seat 2, seat 5)"), ruling.text("en")
