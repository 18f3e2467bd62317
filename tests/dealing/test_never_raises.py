"""Observations never raise: any sequence of zone events and hub calls yields fault lists only."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from table_agent.dealing import DealingMonitor, Decision, FaultDetected, HandContext, Street
from table_agent.dealing_script import card_tag
from table_agent.events import BOARD, BURN, MUCK, TRAY, CardArrived, CardLeft, Zone

ZONES = [Zone.seat_zone(s) for s in range(1, 10)] + [BOARD, BURN, MUCK, TRAY]
CARDS = ["As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "As@B", "As#2", "Kd@Z", "tag:0BADC0DE"]

step = st.one_of(
    st.tuples(st.just("arrive"), st.sampled_from(ZONES), st.sampled_from(CARDS)),
    st.tuples(st.just("leave"), st.sampled_from(ZONES), st.sampled_from(CARDS)),
    st.tuples(st.just("act"), st.integers(1, 9), st.one_of(st.none(), st.integers(1, 9))),
    st.tuples(st.just("to_act"), st.one_of(st.none(), st.integers(1, 9)), st.none()),
    st.tuples(st.just("open"), st.sampled_from(list(Street)), st.none()),
    st.tuples(st.just("close"), st.sampled_from(list(Street)), st.none()),
    st.tuples(st.just("away"), st.integers(1, 9), st.none()),
    st.tuples(st.just("back"), st.integers(1, 9), st.none()),
    st.tuples(st.just("remedy"), st.sampled_from(list(Decision)), st.one_of(st.none(), st.integers(1, 9))),
    st.tuples(st.just("end"), st.none(), st.none()),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(step, max_size=60), st.integers(2, 6), st.sampled_from([2, 3, 4]))
def test_any_sequence_yields_faults_and_never_raises(steps: list[tuple[object, object, object]],
                                                     players: int, hole: int) -> None:
    m = DealingMonitor(table="t1")
    seats = tuple(range(1, players + 1))
    m.start_hand(HandContext(hand=1, seats=seats, button=players, first_to_deal=1, hole_cards=hole,
                             table_seats=9))
    for n, (what, a, b) in enumerate(steps):
        out: list[FaultDetected] = []
        if what in ("arrive", "leave"):
            assert isinstance(a, Zone) and isinstance(b, str)
            cls = CardArrived if what == "arrive" else CardLeft
            out = m.observe(cls(a, card_tag(b), float(n), n))
        elif what == "act":
            assert isinstance(a, int)
            out = m.action_seen(a, b if isinstance(b, int) else None, at=float(n))
        elif what == "to_act":
            m.set_to_act(a if isinstance(a, int) else None)
        elif what == "open":
            assert isinstance(a, Street)
            out = m.betting_opened(a)
        elif what == "close":
            assert isinstance(a, Street)
            out = m.betting_closed(a)
        elif what == "away" and isinstance(a, int):
            m.seat_away(a)
        elif what == "back" and isinstance(a, int):
            m.seat_back(a)
        elif what == "remedy":
            assert isinstance(a, Decision)
            m.expect_remedy(a, seat=b if isinstance(b, int) else None)
        elif what == "end":
            m.end_hand()
        assert all(isinstance(f, FaultDetected) and f.hand == 1 for f in out)
