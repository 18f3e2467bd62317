"""The demo croupier's dealing faults (issue #14 point 7): a boxed card, an exposed card, a flop without
its burn or with two, an action out of turn, each made through the real pipeline (reader pty, agent,
Mosquitto, hub), ruled by the hub with its article, and the ruling carried out so the hand plays on."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from hub.edge.broker import EmbeddedBroker
from simulators.demo import build_room, deal
from simulators.fault_plan import DEFAULT_KINDS, INJECTABLE, FaultPlan
from tablewire.faults import FaultKind

# The kinds the demo's croupier made first (issue #14).
FIRST_FIVE = (FaultKind.BOXED_CARD, FaultKind.EXPOSED_CARD, FaultKind.FLOP_WITHOUT_BURN, FaultKind.FLOP_TWO_BURNS,
              FaultKind.OUT_OF_TURN)


def test_the_plan_draws_every_kind_in_turn_and_keeps_one_due_until_it_is_made() -> None:
    plan = FaultPlan(rate=1.0, rng=random.Random(2))  # the default kinds: all but Time run out (70 s a time)
    drawn = []
    n = len(DEFAULT_KINDS)
    for _ in range(2 * n):
        kind = plan.for_hand()
        assert kind is not None
        assert plan.for_hand() == kind  # not made yet (the hand had no flop): still due
        plan.made_it(kind)
        drawn.append(kind)
    assert sorted(drawn[:n]) == sorted(DEFAULT_KINDS) == sorted(drawn[n:])
    assert set(INJECTABLE) - set(DEFAULT_KINDS) == {FaultKind.TIME_EXPIRED}
    assert plan.made == dict.fromkeys(DEFAULT_KINDS, 2)


def test_a_kind_this_table_cannot_make_is_passed_on_and_counted() -> None:
    plan = FaultPlan(rate=1.0, rng=random.Random(2), kinds=["foreign_card"])
    assert plan.for_hand() == FaultKind.FOREIGN_CARD
    plan.pass_on(FaultKind.FOREIGN_CARD)  # no other table's deck in the registry
    assert plan.passed == {FaultKind.FOREIGN_CARD: 1} and plan.made == {}
    assert plan.for_hand() == FaultKind.FOREIGN_CARD  # drawn again for the next hand


def test_the_plan_rate_is_the_share_of_hands_with_a_fault() -> None:
    plan = FaultPlan(rate=0.1, rng=random.Random(4))
    faulty = 0
    for _ in range(2000):
        kind = plan.for_hand()
        if kind is not None:
            faulty += 1
            plan.made_it(kind)
    assert 150 < faulty < 250


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"rate": 1.5}, "expected 0 to 1"),
    ({"rate": 0.1, "kinds": ["duplicate_card"]}, "cannot make duplicate_card"),
    ({"rate": 0.1, "kinds": ["no_such_fault"]}, "no_such_fault"),
])
def test_a_plan_the_croupier_cannot_follow_is_refused(kwargs: dict[str, Any], says: str) -> None:
    with pytest.raises(ValueError, match=says):
        FaultPlan(rng=random.Random(1), **kwargs)


def test_each_fault_kind_is_made_ruled_with_its_article_and_the_hands_play_to_their_end() -> None:
    broker = EmbeddedBroker().start()
    room = build_room(tables=1, host=broker.host, port=broker.port, seed=3)
    events: list[dict[str, Any]] = []
    assert room.hub is not None
    room.hub.add_listener(events.append)
    table = room.tables[0]
    plan = FaultPlan(rate=1.0, rng=random.Random(5), kinds=FIRST_FIVE)  # every other kind: test_every_fault
    try:
        thread = threading.Thread(target=deal, args=(room, table), daemon=True,
                                  kwargs={"hands": 6, "pace": 0.03, "seed": 7, "faults": plan})
        thread.start()
        thread.join(240)
        assert not thread.is_alive()
    finally:
        room.close()
        broker.stop()
    faults = [e for e in events if e["type"] == "fault"]
    ruled = {e["kind"]: (e["ruling"]["decision"], e["ruling"]["article"]) for e in faults}
    assert ruled == {
        "boxed_card": ("set_aside", "cdc-2013 6.3"),
        "exposed_card": ("replace_with_burn", "cdc-2013 7.3"),
        "flop_without_burn": ("designate_burn", "cdc-2013 8.3"),
        "flop_two_burns": ("burn_to_flop", "cdc-2013 8.3"),
        "out_of_turn": ("action_binding", "cdc-2013 10.2"),
    }
    # The rulings carried out: no fault follows from the remedy, every hand ends with a result.
    assert len(faults) == sum(plan.made.values()) and set(plan.made) == set(FaultKind(k) for k in ruled)
    ends = [e for e in events if e["type"] == "hand_end"]
    assert len(ends) == 6 and all(e["result"] in ("showdown", "uncontested") for e in ends)
    assert table.croupier is not None and table.croupier.stuck == 0
