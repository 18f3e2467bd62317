"""Benchmark (not a test): what the PC/SC backend costs and how late it sees cards, on a private
pcscd with vpcd virtual cards. Prints figures; asserts nothing.

    python tests/pcsc/bench_pcsc.py [--trials 20]
"""

from __future__ import annotations

import argparse
import os
import queue
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

SOCKET = Path(tempfile.mkdtemp(prefix="tapis-pcsc-bench-")) / "pcscd.comm"
os.environ["PCSCLITE_CSOCK_NAME"] = str(SOCKET)  # before any PC/SC call in this process

from firmware_bridge import TagGone, TagSeen  # noqa: E402
from hw.pcsc import PyscardPort  # noqa: E402
from hw.pcsc_worker import PcscReaderWorker, PcscScanner  # noqa: E402
from hw.ports import MonotonicClock  # noqa: E402
from simulators.vcard import PrivatePcscd, VirtualCard, unavailable_reason  # noqa: E402
from table_agent.reader import FramesRead  # noqa: E402

UID = bytes.fromhex("04112233445566")


def wait_for(out: queue.Queue[object], frame: object, timeout: float = 5.0) -> float:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            item = out.get(timeout=0.01)
        except queue.Empty:
            continue
        if isinstance(item, FramesRead) and frame in item.frames:
            return time.monotonic()
    raise TimeoutError(f"no {frame}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=20)
    args = parser.parse_args()
    reason = unavailable_reason()
    if reason:
        print(f"cannot run: {reason}")
        return 1
    with PrivatePcscd(socket_path=SOCKET, readers=2) as pcscd:
        pcscd.wait_ready()
        names = {pcscd.names[0]: 0, pcscd.names[1]: 1}
        card = VirtualCard(UID, port=pcscd.ports[0]).place()
        port = PyscardPort()
        scanner = PcscScanner(port=port, antennas=names)
        deadline = time.monotonic() + 5
        while TagSeen(0, UID) not in scanner.scan() and time.monotonic() < deadline:
            time.sleep(0.01)
        polls = 2000
        start = time.perf_counter()
        for _ in range(polls):
            scanner.scan()
        per_poll = (time.perf_counter() - start) / polls
        port.close()
        card.remove()
        print(f"poll of 2 readers, one card present (list + status, no UID read): {per_poll * 1e6:.0f} us "
              f"({per_poll / 0.05 * 100:.2f} % of a 50 ms scan period)")

        out: queue.Queue[object] = queue.Queue()
        worker = PcscReaderWorker(open_pcsc=PyscardPort, readers=names, out=out, clock=MonotonicClock(),
                                  scan_period_ms=20)
        worker.start()
        placed: list[float] = []
        lifted: list[float] = []
        try:
            time.sleep(0.5)
            for _ in range(args.trials):
                t0 = time.monotonic()
                card.place()
                placed.append(wait_for(out, TagSeen(0, UID)) - t0)
                t0 = time.monotonic()
                card.remove()
                lifted.append(wait_for(out, TagGone(0, UID)) - t0)
        finally:
            worker.stop()
            card.remove()

    def figures(values: list[float]) -> str:
        ms = sorted(v * 1000 for v in values)
        return (f"median {statistics.median(ms):.0f} ms, min {ms[0]:.0f}, max {ms[-1]:.0f} "
                f"(n={len(ms)})")

    print(f"card placed -> TagSeen on the agent's queue: {figures(placed)}")
    print(f"card lifted -> TagGone on the agent's queue: {figures(lifted)}")
    print("(pcscd polls a reader without interrupt support every ~400 ms: that, not tapis, sets these)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
