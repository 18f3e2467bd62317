"""The reader firmware's scan-time budget, computed by running the real `hw/firmware` code against the
register-level MFRC522 model (tests/firmware_ref/mfrc522_model.py) on a simulated clock.

Every SPI call the firmware makes costs `--call-us` (MicroPython's per-call overhead on an RP2040 at
125 MHz: the method call, two Pin.value() and the SPI call set-up; an assumption, bench it on a Pico)
plus its bytes at `--spi-hz`; every frame costs its ISO 14443-3 air time at 106 kbit/s (9.44 µs a
bit, a parity bit per byte, start and end bits, 91 µs PCD-to-card frame delay) or the chip's 1 ms
timeout when no card answers; each antenna gets `settle_ms` of field before REQA (5 ms, ISO 14443-3).
Python work between SPI calls (CRC_A, the collision bookkeeping) is not counted: add ~10 %.

Run: python benchmarks/bench_firmware_scan.py [--spi-hz 1953125] [--call-us 25] [--reading frame|uid]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "firmware_ref"), str(ROOT / "hw" / "firmware")]

from mfrc522_model import Stats  # noqa: E402
from model_rig import four_byte_uid, nxp_uid, rig  # noqa: E402
from picc_model import Card  # noqa: E402

# a dealt 9-seat table, one antenna each: 9 seats with two hole cards, the board (five cards on two
# antennas), burn with three cards, muck and tray empty
DEALT_TABLE = [2] * 9 + [3, 2, 3, 0, 0]


def measure(cards: list[bytes], args: argparse.Namespace) -> tuple[float, Stats, Stats, bool]:
    """One inventory of one antenna with these cards: (µs, SPI stats, air stats, all read)."""
    bench = rig(1, reading=args.reading, spi_hz=args.spi_hz, call_us=args.call_us, settle_ms=args.settle_ms)
    chip = bench.chips[0]
    assert chip is not None
    for uid in cards:
        chip.place(Card(uid))
    bench.bus.stats = Stats()
    chip.stats = Stats()
    start = bench.clock.now_us
    read, complete = bench.bank.inventory(0)
    ok = complete and sorted(read) == sorted(cards)
    return bench.clock.now_us - start, bench.bus.stats, chip.stats, ok


def average(size: int, args: argparse.Namespace, four_bytes: bool = False) -> tuple[float, float, float, float, float]:
    """Mean over random stacks: (µs, SPI calls, SPI bytes, air µs, ComIrqReg polls among the calls)."""
    rng = random.Random(size)
    total = [0.0, 0.0, 0.0, 0.0, 0.0]
    for _ in range(args.samples):
        uids: list[bytes] = []
        while len(uids) < size:
            uid = four_byte_uid(rng) if four_bytes else nxp_uid(rng)
            if uid not in uids:
                uids.append(uid)
        us, spi, air, ok = measure(uids, args)
        if not ok:
            raise SystemExit(f"bench: a stack of {size} was not read whole: a firmware bug, run the model tests")
        for i, value in enumerate((us, spi.spi_calls, spi.spi_bytes, air.air_us, spi.polls)):
            total[i] += value / args.samples
    return total[0], total[1], total[2], total[3], total[4]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spi-hz", type=int, default=1_953_125,
                        help="SPI clock (main.py asks 2 MHz: 125 MHz / 64; 7812500 for the 8 MHz of before)")
    parser.add_argument("--call-us", type=float, default=25.0, help="MicroPython overhead per SPI call, µs")
    parser.add_argument("--settle-ms", type=int, default=5)
    parser.add_argument("--reading", choices=("frame", "uid"), default="frame")
    parser.add_argument("--samples", type=int, default=50)
    args = parser.parse_args()
    print(f"assumptions: SPI {args.spi_hz / 1e6:.2f} MHz, {args.call_us:.0f} µs per SPI call, "
          f"{args.settle_ms} ms of field before REQA, CollPos read as '{args.reading}'")
    print(f"{'cards on the antenna':<26}{'ms':>8}{'SPI calls':>11}{'of which polls':>16}{'SPI bytes':>11}"
          f"{'air ms':>9}{'ms/card':>9}")
    empty = average(0, args)
    rows = {0: empty}
    for size in (1, 2, 3, 5, 8):
        rows[size] = average(size, args)
    for size, (us, calls, nbytes, air, polls) in rows.items():
        per_card = (us - empty[0]) / size / 1000 if size else 0.0
        label = f"{size} NXP 7-byte UID" + ("s" if size != 1 else "")
        print(f"{label:<26}{us / 1000:>8.2f}{calls:>11.0f}{polls:>16.0f}{nbytes:>11.0f}"
              f"{air / 1000:>9.2f}{per_card:>9.2f}")
    four = average(1, args, four_bytes=True)
    print(f"{'1 4-byte UID (Classic)':<26}{four[0] / 1000:>8.2f}{four[1]:>11.0f}{four[4]:>16.0f}{four[2]:>11.0f}"
          f"{four[3] / 1000:>9.2f}{(four[0] - empty[0]) / 1000:>9.2f}")
    scan = sum(rows[n][0] if n in rows else average(n, args)[0] for n in DEALT_TABLE) / 1000
    idle = len(DEALT_TABLE) * empty[0] / 1000
    print(f"scan of {len(DEALT_TABLE)} antennas: empty table {idle:.1f} ms, dealt 9-seat table "
          f"({sum(DEALT_TABLE)} cards) {scan:.1f} ms")
    print(f"shortest honest scan_period_ms for this board: {int(-(-scan // 10) * 10)}")


if __name__ == "__main__":
    main()
