"""The simulated board's timing model (`firmware_bridge.timing`) is the firmware's: the figures equal
what the real firmware costs on the register-level MFRC522 model at the SPI clock main.py asks for."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from model_rig import nxp_uid, rig
from picc_model import Card

from firmware_bridge import timing

MAIN = Path(__file__).resolve().parents[2] / "hw" / "firmware" / "main.py"
RP2040_HZ = 125_000_000


def rp2040_spi_hz(asked: int) -> float:
    """What the RP2040's SPI gives for a rate asked (the SDK's even prescaler 2..254 times 1..256)."""
    for prescale in range(2, 255, 2):
        if RP2040_HZ < (prescale + 2) * 256 * asked:
            break
    postdiv = 256
    while postdiv > 1 and RP2040_HZ / (prescale * (postdiv - 1)) <= asked:
        postdiv -= 1
    return RP2040_HZ / (prescale * postdiv)


def model_ms(cards: int, spi_hz: float) -> float:
    rng = random.Random(cards)
    total = 0.0
    for _ in range(4):
        bench = rig(1, spi_hz=spi_hz, call_us=25.0, settle_ms=5)
        chip = bench.chips[0]
        assert chip is not None
        uids = [nxp_uid(rng) for _ in range(cards)]
        for uid in uids:
            chip.place(Card(uid))
        start = bench.clock.now_us
        read, complete = bench.bank.inventory(0)
        assert complete and sorted(read) == sorted(uids)
        total += (bench.clock.now_us - start) / 4000
    return total


def test_main_asks_the_clock_the_timing_model_assumes() -> None:
    asked = int(re.search(r"^SPI_HZ = ([\d_]+)", MAIN.read_text(), re.M).group(1))  # type: ignore[union-attr]
    assert rp2040_spi_hz(asked) == pytest.approx(1_953_125)


@pytest.mark.parametrize("cards", [0, 1, 2, 5, 8])
def test_the_timing_model_is_the_firmwares_on_the_register_model(cards: int) -> None:
    assert timing.MODEL_MS[cards] == pytest.approx(model_ms(cards, 1_953_125), rel=0.04)


def test_a_dealt_table_scan_and_the_stacks_past_the_model() -> None:
    model = timing.REFERENCE
    assert model.antenna_ms(10) - model.antenna_ms(9) == pytest.approx(model.antenna_ms(8) - model.antenna_ms(7))
    assert 285 <= model.scan_ms(timing.DEALT_TABLE) <= 300  # hw/README.md: ~290 ms a dealt table
