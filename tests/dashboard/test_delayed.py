"""The delayed stream's delay line (hub/dashboard/delayed.py), on a clock the test moves: nothing before its
time plus the delay, nothing of a hand before that hand's end whatever the delay, each table's order kept,
the memory bound kept with the oldest dropped and counted, and what decides which hand a message waits for."""

from __future__ import annotations

from typing import Any

import pytest

from hub.dashboard.delayed import (
    ROOM,
    DelayLine,
    HandGate,
    delay_words,
    ends,
    parse_delay,
    restarted,
    shows_a_hidden_card,
)

DELAY = 300.0


def messages(out: list[tuple[str, bytes]]) -> list[str]:
    return [raw.decode() for _, raw in out]


def test_nothing_leaves_before_its_time_plus_the_delay() -> None:
    line = DelayLine(DELAY)
    line.offer(10.0, "t1", b"a")
    line.offer(20.0, "t1", b"b")
    assert line.due(10.0 + DELAY - 0.001) == []
    assert messages(line.due(10.0 + DELAY)) == ["a"]
    assert line.due(20.0 + DELAY - 0.001) == []
    assert messages(line.due(20.0 + DELAY)) == ["b"]
    assert line.held == 0 and line.held_bytes == 0


def test_a_hand_longer_than_the_delay_shows_nothing_until_it_ends() -> None:
    line = DelayLine(DELAY)
    line.offer(0.0, "t1", b"start", hand=4, ended=3)
    line.offer(1.0, "t1", b"hole As", hand=4, secret=True)
    assert line.due(10 * DELAY) == []  # ten delays later, the hand still in play: nothing
    line.offer(10 * DELAY, "t1", b"end", hand=4, ended=4)
    assert messages(line.due(10 * DELAY)) == ["start", "hole As"]  # over, and long a delay old
    assert line.due(11 * DELAY - 1) == []  # the end itself: once a delay old
    assert messages(line.due(11 * DELAY)) == ["end"]


def test_the_end_alone_does_not_release_before_the_delay() -> None:
    line = DelayLine(DELAY)
    line.offer(0.0, "t1", b"hole", hand=1, secret=True)
    line.offer(5.0, "t1", b"end", hand=1, ended=1)
    assert line.due(DELAY - 1) == []
    assert messages(line.due(DELAY)) == ["hole"]
    assert messages(line.due(DELAY + 5)) == ["end"]


def test_each_table_keeps_its_order_and_one_long_hand_holds_only_its_table() -> None:
    line = DelayLine(DELAY)
    line.offer(0.0, "t1", b"t1 hand 1", hand=1)
    line.offer(1.0, "t2", b"t2 status")
    line.offer(2.0, "t1", b"t1 status")  # behind t1's hand: waits for it, order kept
    line.offer(3.0, ROOM, b"clock")
    assert messages(line.due(DELAY + 3)) == ["t2 status", "clock"]
    line.offer(DELAY + 4, "t1", b"t1 end", hand=1, ended=1)
    assert messages(line.due(2 * DELAY + 4)) == ["t1 hand 1", "t1 status", "t1 end"]


def test_a_hand_restarted_over_the_old_one_keeps_its_cards_for_the_new_hand() -> None:
    """The dealer dealt before pressing "new hand": the hub ends hand 1 by starting 2, and the cards it saw
    in hand 1's time lie in hand 2, which is in play: they wait for hand 2's end."""
    line = DelayLine(DELAY)
    line.offer(0.0, "t1", b"hole of 2?", hand=1, secret=True)
    line.offer(1.0, "t1", b"action of 1", hand=1)
    line.offer(2.0, "t1", b"end 1", hand=1, ended=1, restart=True)
    assert line.due(10 * DELAY) == []
    line.offer(10 * DELAY, "t1", b"end 2", hand=2, ended=2)
    assert messages(line.due(11 * DELAY)) == ["hole of 2?", "action of 1", "end 1", "end 2"]


def test_the_bound_drops_the_oldest_and_counts_them() -> None:
    line = DelayLine(DELAY, max_events=3, max_bytes=1000)
    for i in range(5):
        line.offer(float(i), "t1" if i % 2 else "t2", f"m{i}".encode())
    assert line.held == 3 and line.dropped == 2 and line.dropped_bytes == 4
    assert messages(line.due(10 * DELAY)) == ["m2", "m4", "m3"]  # t2's then t1's: m0 and m1 dropped
    small = DelayLine(DELAY, max_events=100, max_bytes=10)
    for i in range(4):
        small.offer(float(i), "t1", b"xxxx")
    assert small.held_bytes <= 10 and small.dropped == 2


def test_the_bound_skips_what_was_already_released() -> None:
    line = DelayLine(DELAY, max_events=2)
    line.offer(0.0, "t1", b"a")
    line.offer(1.0, "t2", b"b", hand=1)  # held by its hand
    assert messages(line.due(DELAY)) == ["a"]
    line.offer(DELAY, "t1", b"c")
    line.offer(DELAY, "t1", b"d")  # over two held: the oldest held (b) goes, not a, long gone
    assert line.dropped == 1 and line.held == 2
    assert messages(line.due(2 * DELAY)) == ["c", "d"]


def test_hands_counted_afresh_are_gated_again() -> None:
    """A new tournament on the same hub starts its tables at hand 1: hand 1 in play is held like any, and
    what the old count held (its hand abandoned) goes after the delay instead of blocking the table."""
    line = DelayLine(DELAY)
    line.offer(0.0, "t1", b"old hand 40", hand=40, ended=39)
    line.offer(1.0, "t1", b"new hand 1", hand=1, ended=0)
    line.offer(2.0, "t1", b"hole of 1", hand=1, secret=True)
    assert messages(line.due(10 * DELAY)) == ["old hand 40"]
    line.offer(10 * DELAY, "t1", b"end 1", hand=1, ended=1)
    assert messages(line.due(10 * DELAY)) == ["new hand 1", "hole of 1"]


def snap(hand: int, open_: bool, **extra: Any) -> dict[str, Any]:
    return {"table": "t1", "hand": hand, "hand_open": open_, "zones": {}, "seats": [], **extra}


def test_which_hand_a_message_waits_for() -> None:
    gate = HandGate()
    action = {"type": "action", "table": "t1", "hand": 7, "seat": 2, "action": "call"}
    assert gate.waits_for(action, snap(7, True)) == 7
    # the hand's last action, its snapshot taken once the hand is over with its cards still on the felt
    over = snap(7, False, zones={"seat:3": ["As"]})
    assert gate.waits_for(action, over) == 7
    assert gate.waits_for({"type": "hand_end", "table": "t1", "hand": 7}, over) == 7
    status = {"type": "table_status", "table": "t1", "online": False}
    assert gate.waits_for(status, over) is None
    # a hand ended by starting the next: the snapshot (after the hub's batch) shows the new hand
    assert gate.waits_for({"type": "hand_end", "table": "t1", "hand": 7}, snap(8, True)) == 8
    # between hands, a card put face down belongs to the next hand, and so does what shows it after
    card = {"type": "card", "table": "t1", "hand": 7, "zone": "seat:3", "card": "Kd", "action": "arrived"}
    early = snap(7, False, zones={"seat:3": ["As", "Kd"]})
    assert shows_a_hidden_card(card, early) and gate.waits_for(card, early) == 8
    assert gate.waits_for(status, early) == 8
    assert gate.waits_for({"type": "hand_start", "table": "t1", "hand": 8}, snap(8, True)) == 8
    assert gate.waits_for(status, snap(8, False)) is None  # hand 8 over, nothing hidden shown
    board = {"type": "card", "table": "t1", "hand": 7, "zone": "board", "card": "Td", "action": "arrived"}
    assert not shows_a_hidden_card(board, snap(7, False, zones={"board": ["Td"]}))
    assert shows_a_hidden_card(action, snap(7, False, seats=[{"seat": 1, "hole": ["Kd"]}]))
    assert ends({"type": "hand_end", "hand": 7}, snap(7, False)) == 7
    assert ends(action, snap(8, True)) == 7
    assert ends(action, snap(3, False, closed=True)) == 4  # broken up: even an early card's next hand is over
    assert restarted({"type": "hand_end", "why": "new_hand"})
    assert restarted({"type": "hand_end", "why": "new hand pressed before the hand ended"})
    assert not restarted({"type": "hand_end", "why": "showdown"})


def test_the_delay_is_minutes_from_five_and_said_in_words() -> None:
    assert parse_delay("30") == 1800.0
    assert parse_delay("7,5") == 450.0
    for bad in ("4", "-30", "nan", "inf", "trente", "", "100000"):
        with pytest.raises(ValueError, match="stream-delay") as err:
            parse_delay(bad)
        assert "\n" not in str(err.value)
    assert delay_words(1800.0) == {"fr": "différé de 30 min", "en": "30-min delay"}
    assert delay_words(7200.0) == {"fr": "différé de 2 h", "en": "2-hour delay"}
