"""The board's transmit queue: never waits on the host, drops whole frames when full, reports it."""

from __future__ import annotations

import tapis_proto as proto
from tapis_tx import TxQueue

from firmware_bridge import Decoder, FaultCode, ReaderFault


def test_frames_wait_for_room_and_a_full_queue_drops_whole_frames_then_says_so() -> None:
    queue = TxQueue(limit=100)
    frames = [proto.tag_seen(i, bytes((4, i, 2, 3, 4, 5, 6))) for i in range(12)]
    for data in frames:
        queue.push(data)
    written: list[bytes] = []
    feeds: list[int] = []
    assert queue.drain(lambda: False, written.append, lambda: feeds.append(1)) == 0  # no room: no write
    kept = 100 // len(frames[0])
    room = iter([True] * 2 + [False])
    queue.drain(lambda: next(room), written.append, lambda: feeds.append(1))
    decoded = Decoder().feed(b"".join(written))
    assert isinstance(decoded[0], ReaderFault) and decoded[0].code is FaultCode.TX_OVERFLOW
    assert decoded[0].detail == f"dropped {len(frames[0]) * (12 - kept)} bytes"
    assert written[1] == frames[0] and len(feeds) == 2  # the watchdog is fed between writes
    queue.drain(lambda: True, written.append, lambda: None)
    assert written[1:] == frames[:kept] and queue.pending() == 0
