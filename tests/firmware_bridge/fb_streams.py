"""Shared material for the protocol tests: a recorded board stream and a strategy over all frames."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from firmware_bridge import (
    FaultCode,
    Frame,
    Heartbeat,
    Hello,
    HostHello,
    ReaderFault,
    SetScanPeriod,
    StartScan,
    StopScan,
    TagGone,
    TagSeen,
    encode,
)
from firmware_bridge.board import ReaderBoardLogic


def recorded_session(seed: int, seconds: float, antennas: int = 10) -> list[Frame]:
    """What a board says during a few hands: cards placed and picked up, misses, heartbeats, a fault."""
    rng = random.Random(seed)
    board = ReaderBoardLogic(antennas=antennas, rng=rng, miss_rate=0.05, dropout_rate=0.05)
    out: list[Frame] = list(board.boot(0))
    out += board.handle(StartScan(), 0)
    on_felt: list[tuple[int, bytes]] = []
    for now in range(0, int(seconds * 1000), 50):
        if rng.random() < 0.3:
            tag = (rng.randrange(antennas), bytes(rng.randrange(256) for _ in range(rng.choice((4, 7)))))
            board.place(*tag)
            on_felt.append(tag)
        if on_felt and rng.random() < 0.2:
            board.remove(*on_felt.pop(rng.randrange(len(on_felt))))
        if rng.random() < 0.01:
            out.append(board.fault(rng.randrange(antennas), FaultCode.ANTENNA_SHORT, "detuned"))
        out += board.advance(now)
    return out


def wire_of(frames: list[Frame]) -> tuple[bytes, list[tuple[int, int]]]:
    """The stream and each frame's [start, end) span in it."""
    spans: list[tuple[int, int]] = []
    chunks: list[bytes] = []
    at = 0
    for frame in frames:
        data = encode(frame)
        chunks.append(data)
        spans.append((at, at + len(data)))
        at += len(data)
    return b"".join(chunks), spans


_uids = st.sampled_from((4, 7, 10)).flatmap(lambda n: st.binary(min_size=n, max_size=n))
_antennas = st.integers(0, 254)
_text = st.text(max_size=10)

any_frame: st.SearchStrategy[Frame] = st.one_of(
    st.builds(Hello, st.integers(0, 255), st.integers(1, 254), _text),
    st.builds(TagSeen, _antennas, _uids, st.none() | st.integers(-128, 127)),
    st.builds(TagGone, _antennas, _uids),
    st.builds(Heartbeat, st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1)),
    st.builds(ReaderFault, st.none() | _antennas, st.sampled_from(FaultCode), _text),
    st.builds(HostHello, st.integers(0, 255)),
    st.just(StartScan()),
    st.just(StopScan()),
    st.builds(SetScanPeriod, st.integers(1, 65535)),
)
