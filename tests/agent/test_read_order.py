"""The benefit of the doubt on read order (`table_agent.read_order.ReadOrder`): two cards read less
than `window` apart may have been dealt in the other order (same scan, or the first one's read missed
for a scan); a fault that only the read order shows waits for the card that would explain it."""

from __future__ import annotations

from typing import Any

import pytest

from table_agent.dealing import FaultDetected, HandContext, Street
from table_agent.dealing import FaultKind as K
from table_agent.dealing_script import card_tag
from table_agent.events import BOARD, BURN, TRAY, CardArrived, Zone
from table_agent.read_order import ReadOrder

WINDOW = 0.075  # 1.5 scans of 50 ms, as the agent sets it
CTX = HandContext(hand=1, seats=(1, 2, 3, 4, 5, 6), button=6, first_to_deal=1)


class Felt:
    def __init__(self, window: float = WINDOW) -> None:
        self.judge = ReadOrder(table="t1", window=window)
        self.out: list[object] = []
        self.order = 0
        self.out += self.judge.start_hand(CTX)

    def read(self, zone: Zone, card: str, at: float) -> list[Any]:
        self.order += 1
        got = self.judge.observe(CardArrived(zone, card_tag(card), at, self.order))
        self.out += got
        return got

    def hole(self, seat: int, card: str, at: float) -> list[Any]:
        return self.read(Zone.seat_zone(seat), card, at)

    def tick(self, now: float) -> list[Any]:
        got = self.judge.tick(now)
        self.out += got
        return got

    def faults(self) -> list[K]:
        return [i.kind for i in self.out if isinstance(i, FaultDetected)]

    def cards(self) -> list[str]:
        return [i.tag.card for i in self.out if isinstance(i, CardArrived)]  # type: ignore[misc]


def deal_round(felt: Felt, seats: list[int], at: float, suit: str = "c", step: float = 0.3) -> float:
    for n, seat in enumerate(seats):
        felt.hole(seat, f"{'23456789'[n]}{suit}", at + n * step)
    return at + len(seats) * step


def test_a_card_read_one_scan_late_is_judged_where_it_was_dealt() -> None:
    felt = Felt()
    felt.hole(1, "2c", 1.0)
    felt.hole(2, "3c", 1.3)
    assert felt.hole(4, "5c", 1.6) == []  # seat 3 looks skipped: held
    assert felt.judge.holding
    got = felt.hole(3, "4c", 1.65)  # seat 3's card, read a scan later
    assert [i.tag.card for i in got] == ["4c", "5c"]
    assert not felt.judge.holding and felt.faults() == [] and felt.judge.reconsidered == 1
    deal_round(felt, [5, 6], 1.9, suit="h")
    assert felt.faults() == []


def test_cards_read_in_the_same_scan_are_given_the_dealing_order() -> None:
    felt = Felt()
    deal_round(felt, [1, 2, 3, 4, 5, 6], 1.0)
    assert felt.faults() == []
    for seat in (1, 2):
        felt.hole(seat, f"{'TJ'[seat - 1]}d", 3.0 + seat * 0.3)
    assert felt.hole(4, "Qd", 4.0) == []
    felt.hole(3, "Kd", 4.0)  # the same scan read both: its order on the line says nothing
    assert felt.faults() == [] and felt.cards()[-2:] == ["Kd", "Qd"]


def test_a_real_skip_goes_out_once_the_window_has_passed_fault_first() -> None:
    felt = Felt()
    felt.hole(1, "2c", 1.0)
    felt.hole(2, "3c", 1.3)
    assert felt.hole(4, "5c", 1.6) == []
    assert felt.tick(1.6 + WINDOW / 2) == [] and felt.judge.holding
    got = felt.tick(1.6 + WINDOW * 1.01)
    assert isinstance(got[0], FaultDetected) and got[0].kind in (K.SEAT_SKIPPED, K.WRONG_DEAL_ORDER)
    assert isinstance(got[1], CardArrived) and got[1].tag.card == "5c"  # the fault before its card
    late = felt.hole(3, "4c", 2.0)  # too late to explain it; the order no longer judged (misdeal-class)
    assert [type(i).__name__ for i in late] == ["CardArrived"]
    assert felt.faults()[0] in (K.SEAT_SKIPPED, K.WRONG_DEAL_ORDER) and felt.judge.reconsidered == 0


def test_a_card_read_after_the_window_does_not_excuse_the_fault() -> None:
    felt = Felt()
    felt.hole(1, "2c", 1.0)
    felt.hole(2, "3c", 1.3)
    felt.hole(4, "5c", 1.6)
    got = felt.hole(3, "4c", 1.6 + WINDOW * 2)  # the late card itself releases what was held first
    assert isinstance(got[0], FaultDetected) and felt.cards()[-2:] == ["5c", "4c"]


def test_a_burn_read_with_the_first_flop_card_counts_as_burnt_first() -> None:
    felt = Felt()
    at = deal_round(felt, [1, 2, 3, 4, 5, 6], 1.0)
    at = deal_round(felt, [1, 2, 3, 4, 5, 6], at, suit="s")
    felt.judge.call("betting_closed", Street.PREFLOP)
    assert felt.read(BOARD, "Ah", at + 1) == []  # flop without burn, as read
    got = felt.read(BURN, "Kh", at + 1.04)
    assert [i.tag.card for i in got] == ["Kh", "Ah"] and felt.faults() == []


def test_other_faults_are_not_held_and_later_cards_wait_behind_a_doubt() -> None:
    felt = Felt()
    got = felt.read(TRAY, "Ks", 0.5)  # boxed card: nothing to do with order
    assert [i.kind for i in got if isinstance(i, FaultDetected)] == [K.BOXED_CARD]
    felt.hole(1, "2c", 1.0)
    felt.hole(3, "4c", 1.3)  # seat 2 skipped, as read
    assert felt.hole(4, "5c", 1.32) == []  # behind the doubt, in its order
    assert felt.judge.holding
    got = felt.tick(2.0)
    assert [type(i).__name__ for i in got] == ["FaultDetected", "CardArrived", "CardArrived"]


def test_without_a_window_the_monitor_judges_as_read() -> None:
    felt = Felt(window=0.0)
    felt.hole(1, "2c", 1.0)
    got = felt.hole(3, "4c", 1.3)
    assert isinstance(got[0], FaultDetected) and not felt.judge.holding


def test_ending_the_hand_releases_what_was_held() -> None:
    felt = Felt()
    felt.hole(1, "2c", 1.0)
    felt.hole(3, "4c", 1.3)
    got = felt.judge.end_hand()
    assert isinstance(got[0], FaultDetected) and not felt.judge.holding and felt.judge.monitor.hand is None


def test_cards_already_published_before_the_context_are_judged_but_not_sent_again() -> None:
    judge = ReadOrder(table="t1", window=WINDOW)
    judge.start_hand(CTX)
    out = judge.observe(CardArrived(Zone.seat_zone(1), card_tag("2c"), 1.0, 1), published=True)
    out += judge.observe(CardArrived(Zone.seat_zone(3), card_tag("4c"), 1.3, 2), published=True)
    out += judge.tick(2.0)
    assert [type(i).__name__ for i in out] == ["FaultDetected"]


def test_a_hand_too_long_to_judge_again_releases_what_was_held(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("table_agent.read_order.LOG_MAX", 2)
    felt = Felt()
    felt.hole(1, "2c", 1.0)
    felt.hole(3, "4c", 1.3)  # held
    got = felt.hole(4, "5c", 1.32)  # the log is full: nothing more is held, nothing is lost
    assert [type(i).__name__ for i in got] == ["FaultDetected", "CardArrived", "CardArrived"]
    assert not felt.judge.holding and felt.cards() == ["2c", "4c", "5c"]


class ScanFelt(Felt):
    """The doubt ended by the board's scans (`by_scans`), as the agent judges a serial board."""

    def __init__(self, window: float = WINDOW) -> None:
        super().__init__(window)
        self.judge.by_scans = True

    def swept(self, before: float) -> list[Any]:
        got = self.judge.swept(before)
        self.out += got
        return got


def test_a_real_skip_goes_out_once_every_antenna_has_been_read_again() -> None:
    felt = ScanFelt()
    felt.hole(1, "2c", 1.0)
    felt.hole(2, "3c", 1.3)
    assert felt.hole(4, "5c", 1.6) == []
    assert felt.swept(1.6) == [] and felt.judge.holding  # read again since 1.3, not yet since 1.6
    got = felt.swept(1.61)
    assert [type(i).__name__ for i in got] == ["FaultDetected", "CardArrived"]
    assert felt.faults()[0] in (K.SEAT_SKIPPED, K.WRONG_DEAL_ORDER)


def test_by_scans_a_card_read_before_the_sweep_explains_the_doubt_even_past_the_window() -> None:
    """A board slower than the window said (a table filling up): the card read late, but before every
    antenna was read again, still explains the skip."""
    felt = ScanFelt()
    felt.hole(1, "2c", 1.0)
    felt.hole(2, "3c", 1.3)
    felt.hole(4, "5c", 1.6)
    assert felt.tick(1.6 + WINDOW * 2) == []  # the window alone no longer ends it
    got = felt.hole(3, "4c", 1.6 + WINDOW * 2)
    assert [i.tag.card for i in got] == ["4c", "5c"] and felt.faults() == []


def test_by_scans_a_board_that_stops_reading_releases_the_doubt_on_the_clock() -> None:
    felt = ScanFelt()
    felt.hole(1, "2c", 1.0)
    felt.hole(3, "4c", 1.3)
    assert felt.tick(2.2) == []
    got = felt.tick(2.31)  # a second at least
    assert isinstance(got[0], FaultDetected)


def test_by_scans_what_was_read_behind_the_doubt_goes_out_with_it() -> None:
    felt = ScanFelt()
    felt.hole(1, "2c", 1.0)
    felt.hole(3, "4c", 1.3)  # seat 2 skipped, as read: held
    assert felt.hole(4, "5c", 1.5) == []  # behind the doubt
    assert felt.swept(1.3) == []
    got = felt.swept(1.4)
    assert [type(i).__name__ for i in got] == ["FaultDetected", "CardArrived", "CardArrived"]
    assert not felt.judge.holding and felt.cards() == ["2c", "4c", "5c"]
