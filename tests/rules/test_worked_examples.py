"""Every worked example of RULES.md section 3, each under the ruleset it comes from."""

from __future__ import annotations

from hub.rules import ActionKind, ActionStatus, Decision, Level, start_hand
from hub.rules.hand import Hand

FOUR = {1: 10_000, 2: 10_000, 3: 10_000, 4: 10_000}


def four_handed(ruleset: str, sb: int, bb: int, **stacks: int) -> Hand:
    """Button 1, small blind 2, big blind 3, seat 4 first to act pre-flop."""
    s = dict(FOUR)
    s.update({int(k[1:]): v for k, v in stacks.items()})
    return start_hand(ruleset, Level(sb, bb), 1, s)


def to_flop(h: Hand, flop: tuple[str, str, str] = ("2c", "7d", "9h")) -> None:
    while h.betting_open:
        assert h.to_act is not None
        assert h.act(h.to_act, ActionKind.CALL).status is ActionStatus.ACCEPTED
    h.deal_board(*flop)


def test_cdc_10_5_min_raise_preflop() -> None:
    h = four_handed("cdc-2013", 25, 50)
    assert h.legal().min_raise_to == 100
    h.act(4, ActionKind.RAISE, 150)
    assert h.legal().min_raise_to == 250
    h.act(1, ActionKind.RAISE, 250)
    assert h.legal().min_raise_to == 350


def test_cdc_10_5_min_raise_postflop() -> None:
    h = four_handed("cdc-2013", 25, 50)
    h.act(4, ActionKind.RAISE, 350)
    h.act(1, ActionKind.CALL)
    h.act(2, ActionKind.FOLD)
    h.act(3, ActionKind.FOLD)
    h.deal_board("2c", "7d", "9h")
    assert h.to_act == 4 and h.legal().min_raise_to == 50  # a new round: the bet is at least BB
    h.act(4, ActionKind.BET, 350)
    assert h.legal().min_raise_to == 700
    h.act(1, ActionKind.RAISE, 700)
    assert h.legal().min_raise_to == 1050


def test_cdc_10_6_preflop_allin_below_big_blind() -> None:
    h = four_handed("cdc-2013", 50, 100, s4=30)
    rec = h.act(4, ActionKind.ALLIN)
    assert rec.status is ActionStatus.ACCEPTED and rec.to == 30
    legal = h.legal()
    assert (legal.seat, legal.call_to, legal.min_raise_to) == (1, 100, 200)


def test_cdc_10_7_preflop_allin_below_min_raise() -> None:
    h = four_handed("cdc-2013", 50, 100, s4=130)
    h.act(4, ActionKind.ALLIN)
    legal = h.legal()
    assert (legal.call_to, legal.min_raise_to) == (130, 230)


def test_cdc_10_8_postflop_allin_below_big_blind() -> None:
    h = four_handed("cdc-2013", 50, 100, s4=130)
    to_flop(h)
    h.act(2, ActionKind.CHECK)
    h.act(3, ActionKind.CHECK)
    rec = h.act(4, ActionKind.ALLIN)
    assert rec.to == 30
    legal = h.legal()
    assert (legal.seat, legal.call_to, legal.min_raise_to) == (1, 30, 130)


def test_cdc_10_11_two_identical_chips_are_a_call() -> None:
    h = four_handed("cdc-2013", 100, 200)
    h.act(4, ActionKind.RAISE, 1200)
    rec = h.act(1, ActionKind.RAISE, chips=(1000, 1000))
    assert rec.status is ActionStatus.CORRECTED
    assert rec.applied is ActionKind.CALL and rec.to == 1200
    assert rec.ruling is not None
    assert rec.ruling.decision is Decision.TREATED_AS_CALL
    assert rec.ruling.article == "cdc-2013 10.11"


def test_brest_vii_10_min_reraise_and_min_raise_at_10_20() -> None:
    h = four_handed("brest-2011", 50, 100)
    to_flop(h)
    h.act(2, ActionKind.BET, 100)
    h.act(3, ActionKind.RAISE, 300)
    assert h.legal().min_raise_to == 500
    small = four_handed("brest-2011", 10, 20)
    assert small.legal().min_raise_to == 40


def test_brest_vii_12_allin_230_at_100_200() -> None:
    h = four_handed("brest-2011", 100, 200, s4=230)
    h.act(4, ActionKind.ALLIN)
    legal = h.legal()
    assert (legal.call_to, legal.min_raise_to) == (230, 430)


def test_pcpm_open_200_allin_290_min_raise_490() -> None:
    h = four_handed("pcpm", 50, 100, s1=290)
    h.act(4, ActionKind.RAISE, 200)
    h.act(1, ActionKind.ALLIN)
    legal = h.legal()
    assert (legal.seat, legal.call_to, legal.min_raise_to) == (2, 290, 490)


def test_pcpm_doubling_rule_open_100_raise_200_reraise_400() -> None:
    h = four_handed("pcpm", 50, 100)
    to_flop(h)
    h.act(2, ActionKind.BET, 100)
    assert h.legal().min_raise_to == 200
    h.act(3, ActionKind.RAISE, 200)
    assert h.legal().min_raise_to == 400


def test_cpt87_8_4_min_reraise() -> None:
    h = four_handed("cpt87", 25, 50)
    h.act(4, ActionKind.RAISE, 150)
    assert h.legal().min_raise_to == 250  # 150 + (150 - 50)
    h.act(1, ActionKind.RAISE, 250)
    assert h.legal().min_raise_to == 350


def test_cpt87_8_8_big_blind_ante_six_handed() -> None:
    stacks = {s: 10_000 for s in range(1, 7)}
    h = start_hand("cpt87", Level(150, 300, ante=25, bb_ante=True), 1, stacks)
    assert h.positions.big_blind == 3
    assert h.dead == {3: 150}
    assert h.contributed == {1: 0, 2: 150, 3: 450, 4: 0, 5: 0, 6: 0}
    assert h.pot == 600
