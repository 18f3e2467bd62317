"""Out-of-turn actions, skipped players, simultaneous actions and the Time call."""

from __future__ import annotations

import pytest

from hub.rules import (
    ActionKind,
    ActionRecord,
    ActionStatus,
    Decision,
    FaultKind,
    Level,
    RulingGiven,
    TimeCaller,
    start_hand,
)
from hub.rules.hand import Hand
from hub.rules.timecall import TimeCall, TimeCallRefused, TimePhase


def six(ruleset: str = "cdc-2013") -> Hand:
    """Button 1, small blind 2, big blind 3; seat 4 speaks first."""
    return start_hand(ruleset, Level(50, 100), 1, {s: 10_000 for s in range(1, 7)})


def rulings(h: Hand) -> list[tuple[Decision, int | None, str]]:
    out = []
    for e in h.log:
        r = e.ruling
        if r is not None:
            out.append((r.decision, r.seat, r.article))
    return out


def test_out_of_turn_call_binding_when_action_unchanged_cdc_10_2() -> None:
    h = six()
    rec = h.act(5, ActionKind.CALL)
    assert rec.status is ActionStatus.ACCEPTED and rec.pending and rec.reason == "out_of_turn"
    assert rec.ruling is not None and rec.ruling.decision is Decision.ACTION_BINDING
    assert rec.ruling.kind is FaultKind.OUT_OF_TURN and rec.ruling.article == "cdc-2013 10.2"
    assert h.stack[5] == 10_000  # nothing moves until the turn comes
    h.act(4, ActionKind.CALL)  # a call does not change the action
    applied = h.log[-1]
    assert isinstance(applied, ActionRecord) and applied.seat == 5
    assert applied.applied is ActionKind.CALL and h.stack[5] == 9_900
    assert h.to_act == 6


def test_out_of_turn_released_by_a_raise_chips_back() -> None:
    h = six()
    h.act(5, ActionKind.RAISE, 300)
    h.act(4, ActionKind.RAISE, 400)
    released = h.log[-1]
    assert isinstance(released, RulingGiven)
    assert released.ruling.decision is Decision.ACTION_RELEASED and released.ruling.seat == 5
    assert h.to_act == 5 and h.stack[5] == 10_000 and h.legal().can_raise


def test_out_of_turn_fold_always_binding() -> None:
    h = six()
    h.act(5, ActionKind.FOLD)
    h.act(4, ActionKind.RAISE, 400)
    assert 5 not in h.live and h.to_act == 6


def test_skipped_player_call_or_fold_after_three_cdc_10_2() -> None:
    h = six()
    h.act(5, ActionKind.FOLD)
    h.act(6, ActionKind.CALL)
    assert not h.restricted
    h.act(1, ActionKind.RAISE, 300)  # third player after the skipped seat 4
    assert (Decision.CALL_OR_FOLD_ONLY, 4, "cdc-2013 10.2") in rulings(h)
    legal = h.legal()
    assert legal.seat == 4 and legal.call_or_fold_only and not legal.can_raise
    assert h.act(4, ActionKind.RAISE, 500).reason == "call_or_fold_only"
    h.act(4, ActionKind.CALL)  # calls 100; then 5 folds, 6 calls, 1 raises to 300 as held
    assert h.bet == {1: 300, 2: 50, 3: 100, 4: 100, 5: 0, 6: 100}
    assert h.to_act == 2
    h.act(2, ActionKind.CALL)
    h.act(3, ActionKind.CALL)
    assert h.to_act == 4 and not h.legal().can_raise  # still only call or fold (cdc 10.2 ex.)


def test_skipped_player_pcpm_hand_dead_when_pot_opened() -> None:
    h = six("pcpm")
    h.act(5, ActionKind.RAISE, 300)  # seat 5 opens... out of turn: held, not yet opened
    h.act(6, ActionKind.CALL)
    h.act(1, ActionKind.CALL)
    # Nothing was opened on the table yet (the raise is held): seat 4 loses the right to bet.
    assert h.legal().call_or_fold_only
    h2 = six("pcpm")
    h2.act(4, ActionKind.RAISE, 300)  # opened in turn
    h2.act(6, ActionKind.CALL)
    h2.act(1, ActionKind.CALL)
    h2.act(2, ActionKind.CALL)  # three players after the skipped seat 5, pot opened
    assert 5 not in h2.live
    assert (Decision.HAND_DEAD, 5, "pcpm Les actions et les relances") in rulings(h2)


def test_skipped_player_pouques_70_td_decision() -> None:
    h = six("pouques-2020")
    for seat in (5, 6, 1):
        h.act(seat, ActionKind.CALL)
    td = [e.ruling for e in h.log if isinstance(e, RulingGiven)
          and e.ruling.decision is Decision.TD_DECISION]
    assert td and td[0].options == ("hand_dead", "call_or_fold_only")
    assert td[0].article == "pouques-2020 70"


def test_simultaneous_in_order_cdc_10_16() -> None:
    h = six()
    recs = h.act_together([(5, ActionKind.CALL, None), (4, ActionKind.RAISE, 300)])
    assert [r.seat for r in recs] == [4, 5]
    assert h.bet[5] == 300  # taken in turn: seat 5's call calls the raise


def test_simultaneous_second_is_out_of_turn_pcpm() -> None:
    h = six("pcpm")
    h.act_together([(5, ActionKind.CALL, None), (4, ActionKind.RAISE, 300)])
    assert h.bet[5] == 0 and h.to_act == 5
    assert (Decision.ACTION_RELEASED, 5, "pcpm Les actions et les relances") in rulings(h)
    # pcpm: released after a mere call, he may not raise.
    assert h.legal().call_or_fold_only


def test_time_countdown_then_hand_dead_cdc_4_5() -> None:
    h = six()
    tc = h.call_time(4, now=100.0)
    assert isinstance(tc, TimeCall)
    assert tc.phase(159.9) is TimePhase.THINKING and tc.phase(160.0) is TimePhase.COUNTDOWN
    assert h.tick(169.9) == []
    (dead,) = h.tick(170.0)
    assert dead.ruling.decision is Decision.HAND_DEAD
    assert dead.ruling.kind is FaultKind.TIME_EXPIRED and dead.ruling.article == "cdc-2013 4.5"
    assert 4 not in h.live and h.to_act == 5


def test_time_cleared_when_the_player_acts() -> None:
    h = six()
    h.call_time(4, now=0.0)
    h.act(4, ActionKind.CALL)
    assert h.tick(1_000.0) == [] and 4 in h.live


def test_time_per_ruleset() -> None:
    pouques = six("pouques-2020")
    tc = pouques.call_time(4, now=0.0)
    assert isinstance(tc, TimeCall) and tc.expires_at == 45.0 and tc.countdown_at == 35.0
    cpt = six("cpt87")
    asked = cpt.call_time(4, now=0.0, caller=TimeCaller.PLAYER)
    assert not isinstance(asked, TimeCall) and asked.decision is Decision.TD_DECISION
    granted = cpt.call_time(4, now=0.0, caller=TimeCaller.OFFICIAL)
    assert isinstance(granted, TimeCall) and granted.expires_at == 40.0
    with pytest.raises(TimeCallRefused):
        pouques.call_time(4, now=0.0, caller=TimeCaller.DEALER)
    with pytest.raises(TimeCallRefused):
        six().call_time(5, now=0.0)  # not the player to act
