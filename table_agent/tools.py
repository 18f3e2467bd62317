"""Install and support tools around a table's reader: `tapis agent scan|capture|replay`.

`ScanView`: live reads for an installer laying antennas. Capture and replay live in
`table_agent.capture`, the setup checks in `table_agent.doctor`; both are re-exported here.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TextIO

from firmware_bridge import (
    Decoder,
    Hello,
    ReaderFault,
    TagGone,
    TagSeen,
)
from hw.ports import ByteLink, Clock, MonotonicClock
from hw.profile import TableProfile
from table_agent.capture import (  # noqa: F401 - the tools' public names, re-exported
    CAPTURE_FORMAT,
    CaptureLink,
    RecordingLink,
    capture,
    decode_capture,
    recording_opener,
    replay_capture,
)
from table_agent.doctor import (  # noqa: F401
    DEFAULT_DECKS,
    DEFAULT_PROFILE,
    Finding,
    Status,
    _pyscard,
    _serial_opener,
    check_broker,
    check_clock,
    check_config,
    check_panel,
    check_pcsc,
    check_reader,
    doctor,
    doctor_main,
    ntp_synchronised,
    parse_pcsc_readers,
)
from table_agent.reader import BoardIdle, BoardRestarted, FrameRejected, FramesRead, LinkChanged, ReaderWorker

# --- scan: live reads while antennas are laid --------------------------------------------------------


@dataclass
class AntennaReads:
    reads: int = 0
    tags: set[bytes] = field(default_factory=set)
    rssi: list[int] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)


class ScanView:
    """Reader items in, installer's lines out: a tag appearing on or leaving an antenna (with its
    zone), faults, link changes; `summary()` gives reads per second and mean RSSI per antenna."""

    def __init__(self, profile: TableProfile) -> None:
        self.profile = profile
        self.antennas: dict[int, AntennaReads] = {}
        self.board: str = ""
        self._present: set[tuple[int, bytes]] = set()
        self._start: float | None = None
        self._last: float = 0.0
        self.rejected = 0

    def _where(self, antenna: int) -> str:
        zone = self.profile.antennas.get(antenna)
        return f"antenna {antenna:>2} ({zone})" if zone else f"antenna {antenna:>2} (NOT IN PROFILE)"

    def feed(self, item: object) -> list[str]:
        at = getattr(item, "at", self._last)
        if self._start is None:
            self._start = at
        self._last = at
        stamp = f"{at - self._start:7.2f}s"
        lines: list[str] = []
        if isinstance(item, LinkChanged):
            lines.append(f"{stamp}  reader {'connected' if item.up else 'LOST'}: {item.detail}")
        elif isinstance(item, BoardRestarted):  # the tags it reports again were here: no "+" lines
            lines.append(f"{stamp}  ! board restarted ({item.detail}): settings and StartScan sent again")
        elif isinstance(item, BoardIdle):
            lines.append(f"{stamp}  ! board counts no scan after StartScan sent {item.tries} times: restart it")
        elif isinstance(item, FrameRejected):
            self.rejected += 1
        elif isinstance(item, FramesRead):
            for frame in item.frames:
                if isinstance(frame, TagSeen):
                    reads = self.antennas.setdefault(frame.antenna, AntennaReads())
                    reads.reads += 1
                    reads.tags.add(frame.uid)
                    if frame.rssi is not None:
                        reads.rssi.append(frame.rssi)
                    if (frame.antenna, frame.uid) not in self._present:
                        self._present.add((frame.antenna, frame.uid))
                        rssi = "" if frame.rssi is None else f"  {frame.rssi} dBm"
                        lines.append(f"{stamp}  + {self._where(frame.antenna)}  {frame.uid.hex().upper()}{rssi}")
                elif isinstance(frame, TagGone):
                    self._present.discard((frame.antenna, frame.uid))
                    lines.append(f"{stamp}  - {self._where(frame.antenna)}  {frame.uid.hex().upper()}")
                elif isinstance(frame, Hello):
                    self.board = f"{frame.firmware} (protocol v{frame.version}, {frame.antennas} antennas)"
                    lines.append(f"{stamp}  board: {self.board}")
                elif isinstance(frame, ReaderFault):
                    where = "board" if frame.antenna is None else self._where(frame.antenna)
                    text = f"{frame.code.name.lower()} {frame.detail}".strip()
                    if frame.antenna is not None:
                        self.antennas.setdefault(frame.antenna, AntennaReads()).faults.append(text)
                    lines.append(f"{stamp}  ! {where}: {text}")
        return lines

    def summary(self) -> list[str]:
        elapsed = max(self._last - (self._start or 0.0), 1e-9)
        lines = [f"{'antenna':>7}  {'zone':<8} {'tags':>4} {'reads/s':>8} {'rssi':>6}  faults"]
        for antenna in sorted(set(self.profile.antennas) | set(self.antennas)):
            reads = self.antennas.get(antenna, AntennaReads())
            rssi = f"{sum(reads.rssi) / len(reads.rssi):.0f}" if reads.rssi else "-"
            zone = self.profile.antennas.get(antenna, "?")
            lines.append(f"{antenna:>7}  {zone:<8} {len(reads.tags):>4} {reads.reads / elapsed:>8.1f} {rssi:>6}  "
                         + ("; ".join(Counter(reads.faults)) or "-"))
        if not self.board:
            lines.append(f"no Hello from the board on {self.profile.reader.url}: run `tapis doctor` to see why")
        silent = [a for a in sorted(self.profile.antennas) if not self.antennas.get(a, AntennaReads()).reads]
        if silent:
            lines.append(f"no read yet on antennas {', '.join(map(str, silent))}: put a card on each to test it")
        if self.rejected:
            lines.append(f"{self.rejected} damaged frames on the line (cable, ground, or baud rate)")
        return lines


class _Worker(Protocol):
    def start(self) -> None: ...

    def stop(self, timeout: float = 2.0) -> None: ...


def scan(profile: TableProfile, open_link: Callable[[], ByteLink] | None, out: TextIO, seconds: float, *,
         clock: Clock | None = None, reader: Callable[..., _Worker] | None = None) -> ScanView:
    """Run the reader for `seconds`, printing each tag as it appears on or leaves an antenna, then a
    summary per antenna. Returns the view (its counters) for callers and tests. `reader`, when given,
    builds the worker instead of a serial `ReaderWorker` (e.g. `hw.pcsc_worker.pcsc_worker_factory`)."""
    clock = clock or MonotonicClock()
    items: queue.Queue[object] = queue.Queue()
    period = profile.reader.scan_period_ms
    worker: _Worker
    if reader is not None:
        worker = reader(out=items, clock=clock, scan_period_ms=period, name="scan")
    elif open_link is not None:
        worker = ReaderWorker(open_link=open_link, out=items, clock=clock, scan_period_ms=period, name="scan")
    else:
        raise ValueError("scan needs a link to open or a reader worker factory")
    view = ScanView(profile)
    worker.start()
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                item = items.get(timeout=0.05)
            except queue.Empty:
                continue
            for line in view.feed(item):
                print(line, file=out, flush=True)
    finally:
        worker.stop()
    for line in view.summary():
        print(line, file=out)
    return view



# --- entry points (wired into `tapis`) ---------------------------------------------------------------




def main_agent_tools(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """`tapis agent scan|capture|replay ...`: install and support tools on one table's reader."""
    out = out or sys.stdout
    p = argparse.ArgumentParser(prog="tapis agent", description="reader tools for installers and support")
    sub = p.add_subparsers(dest="tool", required=True)
    s = sub.add_parser("scan", help="show live antenna reads (lay the antennas, put a card on each)")
    s.add_argument("--profile", default=DEFAULT_PROFILE)
    s.add_argument("--seconds", type=float, default=60.0)
    s.add_argument("--pcsc", action="store_true", help="PC/SC readers instead of the serial board")
    s.add_argument("--pcsc-reader", action="append", default=[], metavar="NAME=ANTENNA",
                   help="with --pcsc: which reader is which antenna (default: every reader, in pcscd's order)")
    c = sub.add_parser("capture", help="record raw reader traffic with timestamps (JSON lines)")
    c.add_argument("file")
    c.add_argument("--profile", default=DEFAULT_PROFILE)
    c.add_argument("--seconds", type=float, default=30.0)
    r = sub.add_parser("replay", help="decode a capture and print its frames with their times")
    r.add_argument("file")
    args = p.parse_args(argv)
    try:
        if args.tool == "replay":
            decoder = Decoder()
            for t, data in replay_capture(args.file):
                for frame in decoder.feed(data):
                    print(f"{t:9.3f}  {frame}", file=out)
            print(f"{decoder.stats.frames} frames, {decoder.stats.rejected_total} rejected", file=out)
            return 0
        profile = TableProfile.load(args.profile)
        if args.tool == "scan" and args.pcsc:
            from hw.pcsc_worker import pcsc_worker_factory

            readers = parse_pcsc_readers(args.pcsc_reader)
            if not readers:
                port = _pyscard()
                try:
                    readers = {name: antenna for antenna, name in enumerate(port.readers())}
                finally:
                    port.close()
            for name, antenna in sorted(readers.items(), key=lambda r: r[1]):
                print(f"antenna {antenna:>2} = PC/SC reader {name!r}", file=out)
            scan(profile, None, out, args.seconds, reader=pcsc_worker_factory(readers))
            return 0
        if args.tool == "scan":
            scan(profile, lambda: _serial_opener(profile), out, args.seconds)
            return 0
        received = capture(lambda: _serial_opener(profile), args.file, args.seconds,
                           scan_period_ms=profile.reader.scan_period_ms)
        print(f"captured {received} bytes from {profile.reader.url} in {args.seconds:g} s to {args.file}", file=out)
        return 0
    except (ValueError, OSError) as err:
        print(f"tapis agent {args.tool}: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # `python -m table_agent.tools doctor|scan|capture|replay ...` until `tapis` wires them
    arguments = sys.argv[1:]
    if arguments[:1] == ["doctor"]:
        sys.exit(doctor_main(arguments[1:]))
    sys.exit(main_agent_tools(arguments))
