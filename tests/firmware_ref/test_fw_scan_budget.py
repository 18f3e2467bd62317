"""The firmware's cost per card on the register-level model (benchmarks/bench_firmware_scan.py prints
the full budget): SPI transfers other than ComIrqReg polls, and time at the benchmark's assumptions
(7.8 MHz SPI, 25 µs of MicroPython per SPI call, 5 ms of field before REQA)."""

from __future__ import annotations

import random

from model_rig import nxp_uid, rig
from picc_model import Card


def cost(cards: int) -> tuple[float, int]:
    """(ms, SPI transfers that are not polls) for one inventory with `cards` NXP 7-byte UIDs."""
    rng = random.Random(cards)
    bench = rig(1, spi_hz=7_812_500, call_us=25.0, settle_ms=5)
    chip = bench.chips[0]
    assert chip is not None
    uids = [nxp_uid(rng) for _ in range(cards)]
    for uid in uids:
        chip.place(Card(uid))
    start, calls, polls = bench.clock.now_us, bench.bus.stats.spi_calls, bench.bus.stats.polls
    read, complete = bench.bank.inventory(0)
    assert sorted(read) == sorted(uids) and complete
    return (bench.clock.now_us - start) / 1000, (bench.bus.stats.spi_calls - calls) - (bench.bus.stats.polls - polls)


def test_a_seven_byte_card_costs_its_air_time_and_little_spi() -> None:
    empty_ms, empty_calls = cost(0)
    one_ms, one_calls = cost(1)
    # REQA, 2 x (ANTICOLLISION + SELECT), HLTA: 6 frames at ~9 transfers each (FIFO bursts, one
    # status read), not the ~120 single-register transfers of a byte-at-a-time driver
    assert one_calls - empty_calls <= 60
    assert one_ms - empty_ms <= 6.5  # 4.5 ms of it on air (ISO 14443-3 bit times at 106 kbit/s)
    assert 5.0 <= empty_ms <= 6.5  # 5 ms of field for the cards to power up, then one silent REQA
