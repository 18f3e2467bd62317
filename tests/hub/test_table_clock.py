"""Table time to hub time (`hub.floor.table_clock`): offsets learned live, backlogs converted, boots apart."""

from __future__ import annotations

from hub.floor.table_clock import BOOTS_KEPT, LEARN_STEP, LIVE_WITHIN, TableClock


def test_the_smallest_delay_seen_live_is_the_offset() -> None:
    """The table's monotonic clock reads 50 when the hub's reads 1050; deliveries take 0.2-0.5 s."""
    clock = TableClock()
    assert clock.learn("t1", "b1", 50.0, 1050.5)
    assert clock.learn("t1", "b1", 60.0, 1060.2)  # a quicker delivery: a better estimate
    assert not clock.learn("t1", "b1", 70.0, 1070.4)  # a slower one teaches nothing
    assert clock.offsets("t1") == {"b1": 1000.2}



def test_a_delay_better_by_less_than_a_millisecond_is_not_learned_nor_stored() -> None:
    """Jitter betters the smallest delay by microseconds, event after event: each offset learned is a
    write to the store, and none of them would place a late event differently."""
    clock = TableClock()
    assert clock.learn("t1", "b1", 0.0, 1000.25)
    stored = sum(clock.learn("t1", "b1", float(n), 1000.25 + n - n * 1e-6) for n in range(1, 500))
    assert stored == 0 and clock.offsets("t1") == {"b1": 1000.25}
    assert clock.learn("t1", "b1", 600.0, 1600.25 - 2 * LEARN_STEP)  # two milliseconds better: learned
    assert abs(clock.offsets("t1")["b1"] - (1000.25 - 2 * LEARN_STEP)) < 1e-9

def test_a_backlog_is_placed_when_the_table_stamped_it() -> None:
    """Cut for ten minutes: the events it kept arrive together, each placed at its own time."""
    clock = TableClock()
    clock.learn("t1", "b1", 50.0, 1050.0)
    backlog = [(100.0 + 60 * n) for n in range(10)]
    arrival = 1700.0
    for at in backlog:
        clock.learn("t1", "b1", at, arrival)  # the late ones do not spoil the estimate
    assert [clock.hub_time("t1", "b1", at, arrival) for at in backlog] == [1100.0 + 60 * n for n in range(10)]
    assert clock.offsets("t1") == {"b1": 1000.0}


def test_an_event_heard_live_keeps_its_arrival() -> None:
    """Jitter and drift below `LIVE_WITHIN` change nothing: the hub decides as when it hears it."""
    clock = TableClock()
    clock.learn("t1", "b1", 10.0, 1010.0)
    assert clock.hub_time("t1", "b1", 20.0, 1020.3) == 1020.3
    assert clock.hub_time("t1", "b1", 20.0, 1020.0 + LIVE_WITHIN) == 1020.0 + LIVE_WITHIN
    assert clock.hub_time("t1", "b1", 20.0, 1020.0 + LIVE_WITHIN + 0.5) == 1020.0  # late: its own time
    assert clock.hub_time("t1", "b1", 30.0, 1020.0) == 1020.0  # never after its arrival


def test_a_new_boot_has_a_clock_of_its_own() -> None:
    """An agent restarted: its monotonic clock starts again, the old run's offset does not apply."""
    clock = TableClock()
    clock.learn("t1", "b1", 5000.0, 6000.0)
    clock.learn("t1", "b2", 3.0, 6100.0)
    assert clock.offsets("t1") == {"b1": 1000.0, "b2": 6097.0}
    assert clock.hub_time("t1", "b1", 5050.0, 6200.0) == 6050.0  # the dead run's backlog
    assert clock.hub_time("t1", "b2", 50.0, 6200.0) == 6147.0
    assert clock.offsets("t2") == {}  # another table learns nothing from t1


def test_a_boot_never_heard_live_gets_its_arrival() -> None:
    """No better knowledge: the first event of a run is taken at its arrival, however late."""
    clock = TableClock()
    assert clock.hub_time("t1", "b1", 10.0, 2000.0) == 2000.0
    clock.learn("t1", "b1", 10.0, 2000.0)  # its own delay is all the hub knows of that clock
    assert clock.hub_time("t1", "b1", 10.0, 2000.0) == 2000.0
    assert clock.hub_time("t1", "b1", 40.0, 2001.0) == 2001.0  # taken as live, not after its arrival


def test_restored_offsets_convert_the_same() -> None:
    """A hub rebuilt from its store converts a late event as the one that was killed."""
    before = TableClock()
    before.learn("t1", "b1", 50.0, 1050.0)
    after = TableClock()
    after.restore("t1", before.offsets("t1"))
    assert after.hub_time("t1", "b1", 500.0, 1800.0) == before.hub_time("t1", "b1", 500.0, 1800.0) == 1500.0


def test_only_the_last_boots_of_a_table_are_remembered() -> None:
    clock = TableClock()
    for n in range(BOOTS_KEPT + 4):
        clock.learn("t1", f"boot{n}", at=10.0, arrival=1000.0 + n)
    kept = clock.offsets("t1")
    assert len(kept) == BOOTS_KEPT and "boot0" not in kept and f"boot{BOOTS_KEPT + 3}" in kept
    assert clock.hub_time("t1", "boot0", at=20.0, arrival=5000.0) == 5000.0  # forgotten: as never heard live
    assert clock.hub_time("t1", "boot4", at=20.0, arrival=5000.0) == 1014.0  # kept: its own offset
    clock.learn("t2", "a", at=10.0, arrival=11.0)
    assert clock.offsets("t2") == {"a": 1.0}  # per table
