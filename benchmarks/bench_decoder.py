"""Benchmark of the reader board protocol decoder: frames/s and MB/s, clean and with 1% bad bytes.

Feeds a recorded-like board stream (TagSeen-heavy, as at a dealing table) to `firmware_bridge.Decoder`
in 4 KiB reads, as the serial worker does. Prints figures; asserts nothing about speed.
Run: python benchmarks/bench_decoder.py [--frames N] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge import Decoder, Frame, Heartbeat, TagGone, TagSeen, encode  # noqa: E402


def board_stream(count: int, rng: random.Random) -> tuple[list[Frame], bytes]:
    frames: list[Frame] = []
    for i in range(count):
        uid = bytes(rng.randrange(256) for _ in range(rng.choice((4, 7))))
        roll = rng.random()
        if roll < 0.9:
            frames.append(TagSeen(rng.randrange(20), uid, rng.randint(-75, -35)))
        elif roll < 0.98:
            frames.append(TagGone(rng.randrange(20), uid))
        else:
            frames.append(Heartbeat(i * 50, i))
    return frames, b"".join(encode(f) for f in frames)


def corrupt(data: bytes, rate: float, rng: random.Random) -> tuple[bytes, list[int]]:
    damaged = bytearray(data)
    hits = sorted(rng.sample(range(len(damaged)), int(len(damaged) * rate)))
    for i in hits:
        damaged[i] ^= 1 << rng.randrange(8)
    return bytes(damaged), hits


def undamaged(frames: list[Frame], hits: list[int]) -> int:
    count, at, hit = 0, 0, 0
    for frame in frames:
        end = at + len(encode(frame))
        while hit < len(hits) and hits[hit] < at:
            hit += 1
        if hit == len(hits) or hits[hit] >= end:
            count += 1
        at = end
    return count


def wrong_frames(decoded: list[Frame], sent: list[Frame]) -> int:
    """Decoded frames that are not, in order, among the frames sent (damage that passed every check)."""
    wrong, at = 0, 0
    for frame in decoded:
        found = next((i for i in range(at, min(at + 50, len(sent))) if sent[i] == frame), None)
        if found is None:
            wrong += 1
        else:
            at = found + 1
    return wrong


def run(label: str, data: bytes, repeat: int) -> list[Frame]:
    best = float("inf")
    decoder = Decoder()
    decoded: list[Frame] = []
    for _ in range(repeat):
        decoder = Decoder()
        started = time.perf_counter()
        decoded = []
        for at in range(0, len(data), 4096):
            decoded += decoder.feed(data[at : at + 4096])
        best = min(best, time.perf_counter() - started)
    frames = len(decoded)
    stats = decoder.stats
    print(
        f"{label:<22} {frames:>8} frames  {stats.rejected_total:>6} rejected  "
        f"{frames / best:>10,.0f} frames/s  {len(data) / best / 1e6:>6.2f} MB/s  "
        f"({best * 1e6 / max(frames, 1):.2f} us/frame, best of {repeat})"
    )
    if stats.rejected:
        reasons = ", ".join(f"{reason.value} {n}" for reason, n in stats.rejected.most_common())
        print(f"{'':<22} rejected by reason: {reasons}; bytes skipped {stats.bytes_skipped}")
    return decoded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(2026)
    frames, clean = board_stream(args.frames, rng)
    print(f"stream: {len(frames)} frames, {len(clean)} bytes ({len(clean) / len(frames):.1f} bytes/frame)")
    assert run("clean", clean, args.repeat) == frames
    noisy, hits = corrupt(clean, 0.01, rng)
    damaged = run("1% bytes corrupted", noisy, args.repeat)
    print(
        f"{'':<22} recovered {len(damaged)} of {undamaged(frames, hits)} undamaged frames; "
        f"damaged frames accepted as valid: {wrong_frames(damaged, frames)}"
    )
    # a 20-antenna scan with 20 tags is 20 TagSeen: what one scan costs the host
    scan = b"".join(encode(TagSeen(a, bytes([4, a, a, a]), -50)) for a in range(20))
    decoder = Decoder()
    started = time.perf_counter()
    for _ in range(10_000):
        decoder.feed(scan)
    per_scan = (time.perf_counter() - started) / 10_000
    print(f"one 20-tag scan        {per_scan * 1e6:.1f} us to decode (board scan period: 50,000 us)")


if __name__ == "__main__":
    main()
