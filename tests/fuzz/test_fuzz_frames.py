"""Fuzzing the reader board's stream decoder (`firmware_bridge.Decoder`): arbitrary bytes and damaged
valid streams, fed in arbitrary splits. It never raises, returns exactly what a reference model of
the wire format says (`reference_frames`: written from the spec, no code shared with the decoder),
rejects for the reason the model names, and never returns a frame that was not sent.
"""

from __future__ import annotations

from fuzz_budget import budget, tally
from hypothesis import given
from hypothesis import strategies as st
from reference_frames import crc16_ccitt_false, reference_decode, unstuff

from firmware_bridge import (
    MAX_ENCODED,
    Decoder,
    FaultCode,
    Frame,
    Heartbeat,
    Hello,
    HostHello,
    ReaderFault,
    Rejected,
    SetScanPeriod,
    StartScan,
    StopScan,
    TagGone,
    TagSeen,
    encode,
)

_uids = st.sampled_from((4, 7, 10)).flatmap(lambda n: st.binary(min_size=n, max_size=n))
_antenna = st.integers(0, 0xFE)
_text = st.text(max_size=12).filter(lambda t: len(t.encode()) <= 32)
frames: st.SearchStrategy[Frame] = st.one_of(
    st.builds(Hello, st.integers(0, 255), st.integers(1, 0xFE), _text),
    st.builds(TagSeen, _antenna, _uids, st.none() | st.integers(-128, 127)),
    st.builds(TagGone, _antenna, _uids),
    st.builds(Heartbeat, st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1)),
    st.builds(ReaderFault, st.none() | _antenna, st.sampled_from(FaultCode), _text),
    st.builds(HostHello, st.integers(0, 255)),
    st.just(StartScan()), st.just(StopScan()),
    st.builds(SetScanPeriod, st.integers(1, 0xFFFF)),
)


def _feed(data: bytes, cuts: list[int]) -> tuple[Decoder, list[Frame], list[Rejected]]:
    rejected: list[Rejected] = []
    decoder = Decoder(on_reject=rejected.append)
    out: list[Frame] = []
    at = 0
    for cut in sorted(c % (len(data) + 1) for c in cuts) + [len(data)]:
        out += decoder.feed(data[at:cut])
        at = max(at, cut)
    return decoder, out, rejected


def _model(data: bytes) -> tuple[list[Frame], list[str], int, int]:
    """The wire format from its definition: 00-delimited chunks, each a frame or a reject.
    Returns (frames, reasons of the rejected candidates, bytes in them, bytes still pending)."""
    *whole, pending = data.split(b"\x00")
    out: list[Frame] = []
    reasons: list[str] = []
    skipped = 0
    for chunk in whole:
        if not chunk:
            continue
        decoded = reference_decode(chunk)
        if isinstance(decoded, str):
            reasons.append(decoded)
            skipped += len(chunk)
        else:
            out.append(decoded)
    return out, reasons, skipped, len(pending)


def _check_against_model(data: bytes, cuts: list[int]) -> list[Frame]:
    decoder, got, rejected = _feed(data, cuts)
    expected, reasons, skipped, pending = _model(data)
    rejects = len(reasons)
    assert got == expected
    assert [str(r.reason) for r in rejected] == reasons
    stats = decoder.stats
    assert (stats.frames, stats.rejected_total, stats.bytes_skipped) == (len(got), rejects, skipped)
    assert stats.bytes_in == len(data) and decoder.pending == pending
    assert len(rejected) == rejects and all(len(r.raw) <= MAX_ENCODED + 1 for r in rejected)
    # an accepted frame is exactly what an encoder puts on the line: nothing half-valid gets through
    chunks = {c for c in data.split(b"\x00") if c}
    assert all(encode(f)[1:-1] in chunks for f in got)
    return got


@budget(200)
@given(st.binary(max_size=400), st.lists(st.integers(0, 400), max_size=8))
def test_arbitrary_bytes(data: bytes, cuts: list[int]) -> None:
    tally("frames: arbitrary bytes")
    _check_against_model(data, cuts)


@budget(80)
@given(st.lists(st.binary(max_size=MAX_ENCODED + 3).map(lambda b: b.replace(b"\x00", b"\x01")), max_size=20),
       st.lists(st.integers(0, 2000), max_size=8))
def test_arbitrary_chunks_between_delimiters(chunks: list[bytes], cuts: list[int]) -> None:
    """Delimiter-rich garbage, so most candidates reach the COBS, CRC and payload checks."""
    tally("frames: garbage between delimiters")
    _check_against_model(b"\x00".join(chunks), cuts)


_damage = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10**6), st.integers(0, 7)),
    st.tuples(st.just("set"), st.integers(0, 10**6), st.integers(0, 255)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.integers(0, 255)),
    st.tuples(st.just("delete"), st.integers(0, 10**6), st.integers(1, 8)),
    st.tuples(st.just("repeat"), st.integers(0, 10**6), st.integers(1, 30)),
)


def _mutate(data: bytes, damage: list[tuple[str, int, int]]) -> bytes:
    buf = bytearray(data)
    for kind, where, arg in damage:
        if not buf:
            break
        i = where % len(buf)
        if kind == "flip":
            buf[i] ^= 1 << arg
        elif kind == "set":
            buf[i] = arg
        elif kind == "insert":
            buf.insert(i, arg)
        elif kind == "delete":
            del buf[i:i + arg]
        else:
            buf[i:i] = buf[i:i + arg]
    return bytes(buf)


@budget(120)
@given(st.lists(frames, min_size=1, max_size=12), st.lists(_damage, max_size=6),
       st.lists(st.integers(0, 1000), max_size=8))
def test_damaged_valid_streams_give_only_frames_that_were_sent(sent: list[Frame], damage: list[tuple[str, int, int]],
                                                               cuts: list[int]) -> None:
    tally("frames: damaged valid streams")
    stream = b"".join(encode(f) for f in sent)
    data = _mutate(stream, damage)
    got = _check_against_model(data, cuts)
    assert all(f in sent for f in got), f"garbage accepted: {[f for f in got if f not in sent]}"
    if not damage:
        assert got == sent


@budget(60)
@given(st.lists(frames, min_size=1, max_size=12), st.binary(min_size=1, max_size=300), st.integers(0, 12))
def test_noise_between_frames_costs_no_frame(sent: list[Frame], junk: bytes, at: int) -> None:
    """Noise on the line between two frames: each frame carries its own delimiters, so every frame
    is still decoded, in order, and the noise is rejected."""
    tally("frames: noise between frames")
    at %= len(sent) + 1
    before = b"".join(encode(f) for f in sent[:at])
    after = b"".join(encode(f) for f in sent[at:])
    decoder, got, _ = _feed(before + junk + after, [])
    assert got == sent
    assert decoder.stats.bytes_skipped + decoder.pending == len(junk.replace(b"\x00", b""))  # noise at the end waits


def test_the_reference_model_meets_the_specs_check_values() -> None:
    """The spec's own numbers, so the model is checked against the document, not against the decoder."""
    assert crc16_ccitt_false(b"123456789") == 0x29B1
    assert unstuff(bytes([0x01, 0x01])) == b"\x00"  # COBS of a lone 00
    assert unstuff(bytes([0x03, 0x11, 0x22, 0x02, 0x33])) == b"\x11\x22\x00\x33"
    assert unstuff(bytes([0xFF]) + bytes(range(1, 255))) == bytes(range(1, 255))  # FF: no implied 00
    assert unstuff(bytes([0x05, 0x11])) is None  # a code past the end
    vectors = {  # section 6, delimiters stripped
        "01 04 82 ac c5": StartScan(),
        "03 02 84 04 32 98 23": SetScanPeriod(50),
        "03 06 02 08 04 01 02 03 04 55 13": TagSeen(0, bytes.fromhex("01020304"), None),
        "0c 07 02 03 04 01 02 03 04 c4 b3 39": TagSeen(3, bytes.fromhex("01020304"), -60),
        "08 03 05 ff 03 78 26 34": ReaderFault(None, FaultCode.READER_TIMEOUT, "x"),
        "03 08 04 01 03 03 e8 01 01 04 14 92 e9": Heartbeat(1000, 20),
    }
    for wire_hex, frame in vectors.items():
        assert reference_decode(bytes.fromhex(wire_hex)) == frame, wire_hex
