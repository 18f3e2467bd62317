"""ISO 14443-3A inventory (firmware, run on CPython) against a simulated field of cards: CRC_A
vectors, cascade levels for 4/7/10-byte UIDs, bit collisions resolved, stacked cards read one by one."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tapis_iso14443 import CASCADE_TAG, SEL, Iso14443a, crc_a

IDLE, READY, ACTIVE, HALT = "idle", "ready", "active", "halt"


def levels(uid: bytes) -> list[bytes]:
    """A UID's CLn at each cascade level, BCC appended (ISO 14443-3 6.5.4)."""
    parts = {4: [uid], 7: [bytes([CASCADE_TAG]) + uid[:3], uid[3:]],
             10: [bytes([CASCADE_TAG]) + uid[:3], bytes([CASCADE_TAG]) + uid[3:6], uid[6:]]}[len(uid)]
    return [p + bytes([p[0] ^ p[1] ^ p[2] ^ p[3]]) for p in parts]


def bits_of(data: bytes, count: int) -> list[int]:
    return [(data[i >> 3] >> (i & 7)) & 1 for i in range(count)]


class Field:
    """Cards in one antenna's field, answering as the MFRC522 would present their answers."""

    def __init__(self, uids: list[bytes]) -> None:
        self.cards: list[dict[str, Any]] = [{"uid": u, "levels": levels(u), "state": IDLE, "level": 0} for u in uids]
        self.commands: list[bytes] = []

    def transceive(self, data: bytes, last_bits: int = 0) -> bytes | None:
        self.commands.append(data)
        if data in (b"\x26", b"\x52") and last_bits == 7:  # REQA, WUPA (which wakes halted cards too)
            woken = (IDLE, HALT) if data == b"\x52" else (IDLE,)
            awake = [c for c in self.cards if c["state"] in woken]
            for card in awake:
                card["state"], card["level"] = READY, 0
            return b"\x44\x00" if awake else None
        if data[:1] == b"\x50":  # HLTA
            assert data == b"\x50\x00" + crc_a(b"\x50\x00")
            for card in self.cards:
                if card["state"] == ACTIVE:
                    card["state"] = HALT
            return None
        if len(data) == 9 and data[0] in SEL and data[1] == 0x70:  # SELECT
            assert data[7:] == crc_a(data[:7])
            level = SEL.index(data[0])
            chosen = [c for c in self.cards if c["state"] == READY and c["level"] == level
                      and c["levels"][level] == data[2:7]]
            for card in self.cards:
                if card["state"] == READY and card not in chosen:
                    card["state"] = IDLE  # not selected: back to idle until the next REQA
            if not chosen:
                return None
            # cards sharing this CLn (same first UID bytes) are all selected and go on to the next level
            complete = level == len(chosen[0]["levels"]) - 1
            for card in chosen:
                if complete:
                    card["state"] = ACTIVE
                else:
                    card["level"] += 1
            sak = bytes([0x08 if complete else 0x04])
            return sak + crc_a(sak)
        raise AssertionError(f"unexpected command {data.hex()}")

    def anticollision(self, sel: int, known: bytes, known_bits: int) -> tuple[bytes, int, bool] | None:
        level = SEL.index(sel)
        prefix = bits_of(known, known_bits)
        answering = [c for c in self.cards if c["state"] == READY and c["level"] == level
                     and bits_of(c["levels"][level], known_bits) == prefix]
        if not answering:
            return None
        streams = [bits_of(c["levels"][level], 40) for c in answering]
        buffer = bytearray(known[:5].ljust(5, b"\x00"))
        for index in range(known_bits, 40):
            values = {s[index] for s in streams}
            if len(values) > 1:  # cards answer at once: the bit collides
                return bytes(buffer), index, True
            if values.pop():
                buffer[index >> 3] |= 1 << (index & 7)
            else:
                buffer[index >> 3] &= ~(1 << (index & 7)) & 0xFF
        return bytes(buffer), 40, False


def test_crc_a_vectors_from_iso_14443_3() -> None:
    assert crc_a(b"\x00\x00") == b"\xa0\x1e"  # annex B
    assert crc_a(b"\x12\x34") == b"\x26\xcf"
    assert crc_a(b"\x50\x00") == b"\x57\xcd"  # HLTA as every reader sends it


@pytest.mark.parametrize("uid", ["04A1B2C3", "04112233445566", "04112233445566778899"])
def test_one_card_of_each_uid_size_is_read_through_its_cascade_levels(uid: str) -> None:
    field = Field([bytes.fromhex(uid)])
    assert Iso14443a(field).inventory() == ([bytes.fromhex(uid)], True)


def test_cards_differing_in_one_bit_are_both_resolved() -> None:
    a = bytes.fromhex("04C0FFEE112233")
    b = bytes.fromhex("04C0FFEE112232")  # the last UID bit differs: collides deep at cascade level 2
    uids, complete = Iso14443a(Field([a, b])).inventory()
    assert sorted(uids) == sorted([a, b]) and complete


@pytest.mark.parametrize("seed", range(10))
def test_a_stack_of_hole_cards_and_board_cards_is_read_card_by_card(seed: int) -> None:
    rng = random.Random(seed)
    stack = [bytes([4]) + bytes(rng.randrange(256) for _ in range(6)) for _ in range(rng.randint(2, 8))]
    field = Field(stack)
    uids, complete = Iso14443a(field, max_tags=8).inventory()
    assert sorted(uids) == sorted(stack) and complete
    assert all(c["state"] == HALT for c in field.cards)


def test_more_cards_than_max_tags_is_incomplete() -> None:
    stack = [bytes([4, i, 0xAB, 0xCD, 0x01, 0x02, i]) for i in range(10)]
    uids, complete = Iso14443a(Field(stack), max_tags=8).inventory()
    assert len(uids) == 8 and set(uids) <= set(stack) and not complete


def test_an_empty_field_answers_nothing() -> None:
    assert Iso14443a(Field([])).inventory() == ([], True)
