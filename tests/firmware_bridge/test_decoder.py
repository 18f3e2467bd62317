"""The stream decoder: any split gives the same frames; damage costs only the damaged frames."""

from __future__ import annotations

import logging

import pytest
from fb_streams import any_frame, recorded_session, wire_of
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import (
    MAX_ENCODED,
    Decoder,
    FaultCode,
    Frame,
    Heartbeat,
    ReaderFault,
    Rejected,
    RejectReason,
    StartScan,
    TagSeen,
    encode,
)

SESSION = recorded_session(seed=7, seconds=2.0) + [ReaderFault(None, FaultCode.REBOOTED, "wdt")]
SHORT = recorded_session(seed=11, seconds=1.0)


def decode_all(*pieces: bytes) -> tuple[list[Frame], Decoder]:
    decoder = Decoder()
    frames: list[Frame] = []
    for piece in pieces:
        frames += decoder.feed(piece)
    return frames, decoder


def test_the_recorded_session_has_every_board_frame_and_decodes_whole() -> None:
    kinds = {type(frame).__name__ for frame in SESSION}
    assert kinds >= {"Hello", "TagSeen", "TagGone", "Heartbeat", "ReaderFault"}
    wire, _ = wire_of(SESSION)
    frames, decoder = decode_all(wire)
    assert frames == SESSION
    assert decoder.stats.frames == len(SESSION) and decoder.stats.rejected_total == 0
    assert decoder.stats.bytes_in == len(wire) and decoder.stats.bytes_skipped == 0


def test_split_at_every_offset_gives_the_same_frames() -> None:
    wire, _ = wire_of(SESSION)
    for cut in range(len(wire) + 1):
        frames, decoder = decode_all(wire[:cut], wire[cut:])
        assert frames == SESSION, f"cut at {cut}"
        assert decoder.stats.rejected_total == 0 and decoder.pending == 0


def test_one_byte_at_a_time_gives_the_same_frames() -> None:
    wire, _ = wire_of(SESSION)
    frames, _ = decode_all(*(wire[i : i + 1] for i in range(len(wire))))
    assert frames == SESSION


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10_000), max_size=40))
def test_any_chunking_gives_the_same_frames(cuts: list[int]) -> None:
    wire, _ = wire_of(SESSION)
    points = sorted({c % (len(wire) + 1) for c in cuts} | {0, len(wire)})
    frames, _ = decode_all(*(wire[a:b] for a, b in zip(points, points[1:])))
    assert frames == SESSION


def _owner(spans: list[tuple[int, int]], offset: int) -> int:
    return next(i for i, (start, end) in enumerate(spans) if start <= offset < end)


@pytest.mark.parametrize("damage", [*(1 << bit for bit in range(8)), "zero"])
def test_a_damaged_byte_anywhere_loses_only_its_own_frame(damage: int | str) -> None:
    wire, spans = wire_of(SHORT)
    for offset in range(spans[-1][0]):  # damage followed by at least one clean frame
        broken = bytearray(wire)
        broken[offset] = 0 if damage == "zero" else broken[offset] ^ int(damage)
        if broken[offset] == wire[offset]:
            continue  # zeroing a delimiter changes nothing
        frames, decoder = decode_all(bytes(broken))
        lost = _owner(spans, offset)
        assert frames == SHORT[:lost] + SHORT[lost + 1 :], f"damage {damage} at {offset}"
        assert decoder.stats.rejected_total >= 1


def test_a_truncated_frame_loses_only_itself() -> None:
    wire, spans = wire_of(SHORT)
    for lost, (start, end) in enumerate(spans[:8]):
        # losing only a delimiter costs nothing: the neighbour's delimiter stands in for it
        assert decode_all(wire[: end - 1] + wire[end:])[0] == SHORT
        assert decode_all(wire[:start] + wire[start + 1 :])[0] == SHORT
        for cut in range(2, end - start - 1):
            expected = SHORT[:lost] + SHORT[lost + 1 :]
            head_kept = wire[: end - cut] + wire[end:]  # tail of the frame never sent
            tail_kept = wire[:start] + wire[start + cut :]  # reader plugged in mid-frame
            for broken in (head_kept, tail_kept):
                frames, decoder = decode_all(broken)
                assert frames == expected, f"frame {lost} cut by {cut}"
                assert decoder.stats.rejected_total == 1


def test_garbage_and_a_fake_frame_start_between_frames_lose_nothing() -> None:
    a, b, c = TagSeen(1, bytes.fromhex("04a1b2c3"), -50), StartScan(), Heartbeat(5000, 100)
    garbage = [
        b"\xff\xfe\x13\x37",  # line noise, no delimiter: one rejection
        b"\x00\x0c\x07\x02\x03\x04\x01",  # a delimiter then the start of a TagSeen that never ends
        b"\x00\x00\x00",  # idle line
        b"\x00\x01\x04\x82",  # a fake start: begins exactly like StartScan
    ]
    wire = encode(a) + garbage[0] + encode(b) + garbage[1] + garbage[2] + encode(c) + garbage[3]
    rejected: list[Rejected] = []
    decoder = Decoder(on_reject=rejected.append)
    assert decoder.feed(wire + encode(a)) == [a, b, c, a]
    assert [r.reason for r in rejected] == [RejectReason.ENCODING] * 3
    assert [r.raw for r in rejected] == [b"\xff\xfe\x13\x37", b"\x0c\x07\x02\x03\x04\x01", b"\x01\x04\x82"]
    assert decoder.stats.bytes_skipped == 4 + 6 + 3
    assert decoder.stats.rejected == {RejectReason.ENCODING: 3}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(any_frame, st.binary(max_size=30)), min_size=1, max_size=25), st.integers(0, 5000))
def test_every_valid_frame_survives_any_garbage_between_frames(
    pairs: list[tuple[Frame, bytes]], cut: int
) -> None:
    wire = b"".join(encode(frame) + garbage for frame, garbage in pairs)
    cut %= len(wire) + 1
    frames, decoder = decode_all(wire[:cut], wire[cut:])
    # garbage ending without a delimiter is still pending: the next frame's leading 00 settles it
    assert frames == [frame for frame, _ in pairs]
    assert decoder.stats.bytes_in == len(wire)


def test_a_long_run_without_delimiter_is_one_rejection_and_memory_stays_bounded() -> None:
    rejected: list[Rejected] = []
    decoder = Decoder(on_reject=rejected.append)
    frame = TagSeen(0, bytes.fromhex("01020304"))
    for _ in range(100):
        assert decoder.feed(b"\x55" * 1000) == []
    assert decoder.pending == 100_000
    assert decoder.feed(encode(frame)) == [frame]
    assert len(rejected) == 1 and rejected[0].reason is RejectReason.LENGTH
    assert rejected[0].detail == f"100000 bytes between delimiters, at most {MAX_ENCODED}"
    assert len(rejected[0].raw) == MAX_ENCODED + 1
    assert decoder.stats.bytes_skipped == 100_000 and decoder.pending == 0


def test_reset_drops_a_partial_frame_and_counts_it() -> None:
    wire = encode(StartScan())
    decoder = Decoder()
    assert decoder.feed(wire[:4]) == []  # the leading 00 and three bytes of the frame
    assert decoder.pending == 3
    decoder.reset()
    assert decoder.pending == 0 and decoder.stats.bytes_skipped == 3
    assert decoder.feed(wire) == [StartScan()]


@pytest.mark.allow_logged_exceptions
def test_a_failing_callback_does_not_stop_decoding(caplog: pytest.LogCaptureFixture) -> None:
    def explode(_: Rejected) -> None:
        raise RuntimeError("bug in the agent's handler")

    decoder = Decoder(on_reject=explode)
    with caplog.at_level(logging.ERROR, logger="firmware_bridge.decoder"):
        assert decoder.feed(b"\x00\x99\x00" + encode(StartScan())) == [StartScan()]
    assert decoder.stats.callback_errors == 1
    assert "on_reject callback raised" in caplog.text


def _is_subsequence(small: list[Frame], big: list[Frame]) -> bool:
    it = iter(big)
    return all(any(frame == other for other in it) for frame in small)


@settings(max_examples=300, deadline=None, print_blob=True)  # fresh examples every run
@given(
    st.lists(any_frame, min_size=2, max_size=30),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=8),
    st.integers(0, 10**6),
)
def test_random_damage_costs_only_the_frames_it_touches(
    frames: list[Frame], damage: list[tuple[int, int]], cut: int
) -> None:
    wire, spans = wire_of(frames)
    broken = bytearray(wire)
    touched: set[int] = set()
    for offset, value in damage:
        offset %= len(wire)
        if broken[offset] != value:
            broken[offset] = value
            touched.add(_owner(spans, offset))
    cut %= len(wire) + 1
    decoded, _ = decode_all(bytes(broken[:cut]), bytes(broken[cut:]), encode(StartScan()))
    untouched = [frame for i, frame in enumerate(frames) if i not in touched]
    assert _is_subsequence(untouched, decoded)  # every frame the damage missed is recovered
    assert _is_subsequence(decoded, frames + [StartScan()])  # and nothing invented
    assert decoded[-1] == StartScan()  # the decoder is back in step after any damage
