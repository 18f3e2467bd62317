"""The real firmware (`tapis_mfrc522.AntennaBank`) wired to MFRC522 models on a fake SPI bus, and
the random card stacks the trials use. Shared by the model tests and benchmarks/bench_firmware_scan.py."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from mfrc522_model import Clock, Mfrc522Model, SpiBus
from picc_model import CASCADE_TAG, Card
from tapis_mfrc522 import AntennaBank


@dataclass
class Rig:
    clock: Clock
    bus: SpiBus
    chips: list[Mfrc522Model | None]
    bank: AntennaBank


def rig(antennas: int = 1, *, reading: str = "frame", parity_with_coll: bool = False, dead: tuple[int, ...] = (),
        spi_hz: int = 10_000_000, call_us: float = 30.0, miso_idle: int = 0x00, **bank_options: object) -> Rig:
    """`antennas` chips on one bus; those in `dead` do not answer (MISO left to `miso_idle`)."""
    clock = Clock()
    bus = SpiBus(clock, spi_hz=spi_hz, call_us=call_us, miso_idle=miso_idle)
    chips: list[Mfrc522Model | None] = []
    pins = []
    for index in range(antennas):
        chip = None if index in dead else Mfrc522Model(clock, coll_reading=reading, parity_with_coll=parity_with_coll)
        chips.append(chip)
        pins.append(bus.add(chip))
    bank = AntennaBank(bus, pins, clock.sleep_ms, **bank_options)
    return Rig(clock, bus, chips, bank)


def nxp_uid(rng: random.Random) -> bytes:
    """An NXP 7-byte UID: manufacturer byte 0x04, then six random bytes."""
    return bytes([0x04]) + bytes(rng.randrange(256) for _ in range(6))


def four_byte_uid(rng: random.Random) -> bytes:
    """A single-size UID (MIFARE Classic): never starting with the cascade tag 0x88."""
    while True:
        uid = bytes(rng.randrange(256) for _ in range(4))
        if uid[0] != CASCADE_TAG:
            return uid


def stack(rng: random.Random, size: int, mixed: bool) -> list[bytes]:
    """`size` distinct UIDs: all NXP 7-byte, or each 4- or 7-byte at random."""
    uids: list[bytes] = []
    while len(uids) < size:
        uid = four_byte_uid(rng) if mixed and rng.random() < 0.5 else nxp_uid(rng)
        if uid not in uids:
            uids.append(uid)
    return uids


def read_stack(uids: list[bytes], reading: str, parity_with_coll: bool = False,
               **bank_options: Any) -> tuple[list[bytes], bool]:
    """One antenna, these cards on it, one inventory."""
    bench = rig(1, reading=reading, parity_with_coll=parity_with_coll, **bank_options)
    chip = bench.chips[0]
    assert chip is not None
    for uid in uids:
        chip.place(Card(uid))
    return bench.bank.inventory(0)


def trials(size: int, count: int, reading: str, mixed: bool, seed: int = 0,
           parity_with_coll: bool = False) -> int:
    """How many of `count` random stacks of `size` cards were read whole (all UIDs, complete)."""
    rng = random.Random(seed * 1000 + size)
    whole = 0
    for _ in range(count):
        uids = stack(rng, size, mixed)
        read, complete = read_stack(uids, reading, parity_with_coll or rng.random() < 0.5)
        whole += complete and sorted(read) == sorted(uids)
    return whole
