"""How long the reference firmware takes to read one antenna: the simulated board's timing model.

Figures from `benchmarks/bench_firmware_scan.py`, the real `hw/firmware` code run against the
register-level MFRC522 model (tests/firmware_ref): SPI at 1.95 MHz (`SPI_HZ` 2 MHz asked, the buffered
bus of hw/README.md), 25 µs of MicroPython per SPI call, 5 ms of field before WUPA, 7-byte NXP UIDs,
plus 10 % for the Python work between SPI calls that the model does not count.
`tests/firmware_ref/test_fw_timing.py` keeps these figures equal to the model's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# ms for one antenna's inventory with 0, 1, ... 8 cards on it, on the register-level model
MODEL_MS = (5.96, 12.35, 19.80, 27.67, 35.92, 44.48, 53.79, 61.98, 70.49)
PYTHON_WORK = 1.10  # the model counts SPI and air time only: ~10 % more between the calls
SILENT_MS = 0.3  # a silent chip: one VersionReg read that answers 0x00, no field


@dataclass(frozen=True, slots=True)
class AntennaTiming:
    """ms one antenna's inventory takes, by the number of cards lying on it."""

    by_cards: tuple[float, ...] = tuple(round(ms * PYTHON_WORK, 2) for ms in MODEL_MS)
    silent_ms: float = SILENT_MS

    def antenna_ms(self, cards: int) -> float:
        """Past the model's largest stack, each more card costs what the last one did."""
        last = len(self.by_cards) - 1
        if cards <= last:
            return self.by_cards[cards]
        return self.by_cards[last] + (cards - last) * (self.by_cards[last] - self.by_cards[last - 1])

    def scan_ms(self, cards_per_antenna: Sequence[int]) -> float:
        return sum(self.antenna_ms(n) for n in cards_per_antenna)


REFERENCE = AntennaTiming()
# a dealt 9-seat table on the 14-antenna board: two hole cards a seat, five board cards on two
# antennas, three burnt cards, muck and tray empty (hw/README.md, "Scan time")
DEALT_TABLE = (2,) * 9 + (3, 2, 3, 0, 0)
