"""Frames to the host without ever blocking the main loop: a bounded queue written only while USB
CDC has room. A host that holds the port open without reading makes MicroPython's write wait up to
500 ms per call; with the 2 s watchdog that was a reboot loop. Whole frames are dropped when the
queue is full, and `ReaderFault(TX_OVERFLOW)` goes first once the line has room again
(docs/firmware-protocol.md). Pure: host-tested.
"""

import tapis_proto as proto

TX_LIMIT = 2048  # bytes queued: ~50 TagSeen frames, a few scans of a dealt table


class TxQueue:
    def __init__(self, limit: int = TX_LIMIT):
        self.limit = limit
        self._frames = []
        self._size = 0
        self.dropped = 0  # bytes dropped since the last TX_OVERFLOW report

    def push(self, data: bytes) -> None:
        if self._size + len(data) > self.limit:
            self.dropped += len(data)
            return
        self._frames.append(data)
        self._size += len(data)

    def pending(self) -> int:
        return len(self._frames) + (1 if self.dropped else 0)

    def pop(self) -> bytes:
        """The next frame to write: the overflow report first when frames were dropped."""
        if self.dropped:
            report = proto.reader_fault(None, proto.TX_OVERFLOW, "dropped %d bytes" % self.dropped)
            self.dropped = 0
            return report
        data = self._frames.pop(0)
        self._size -= len(data)
        return data

    def drain(self, writable, write, feed) -> int:
        """Write frames while `writable()` says the next write will not wait; `feed()` the
        watchdog between them. Returns the frames written."""
        count = 0
        while self.pending() and writable():
            write(self.pop())
            feed()
            count += 1
        return count
