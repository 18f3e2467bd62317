"""Where the hub's thread is when it is busy for long (`bench_load.py --stalls MS`): a latency tail's cause.

A thread beside the hub samples the hub's loop thread's stack every 2 ms (as often as the interpreter lets
it: every switch interval while the hub runs Python). A busy spell is the time between two samples that
find the loop waiting in its selector; a spell of at least the threshold is kept with the stacks seen in
it, and the longest are printed at the end: what held every event that arrived meanwhile.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from pathlib import Path
from types import FrameType

DEPTH = 7  # innermost frames kept per sample: the work, and enough of its callers to place it


def _stack(frame: FrameType | None) -> tuple[bool, str]:
    """(idle: the loop waits in its selector, the innermost frames as `file:function:line <- ...`)"""
    frames: list[str] = []
    while frame is not None:
        code = frame.f_code
        if code.co_name == "select" and code.co_filename.endswith("selectors.py"):
            return True, ""
        if len(frames) < DEPTH:
            frames.append(f"{Path(code.co_filename).name}:{code.co_name}:{frame.f_lineno}")
        frame = frame.f_back
    return False, " <- ".join(frames)


class StallSampler(threading.Thread):
    def __init__(self, thread_id: int, threshold: float, period: float = 0.002) -> None:
        super().__init__(name="stall-sampler", daemon=True)
        self.thread_id, self.threshold, self.period = thread_id, threshold, period
        self.spells: list[tuple[float, Counter[str]]] = []  # (seconds, stacks seen) of each long spell
        self.busy = 0.0  # seconds of all spells, long or not
        self._stop_at = threading.Event()

    def run(self) -> None:
        started: float | None = None
        seen: Counter[str] = Counter()
        while not self._stop_at.wait(self.period):
            idle, stack = _stack(sys._current_frames().get(self.thread_id))  # noqa: SLF001 - a sampler's way
            now = time.monotonic()
            if not idle:
                started = now if started is None else started
                seen[stack] += 1
                continue
            if started is not None:
                self.busy += now - started
                if now - started >= self.threshold:
                    self.spells.append((now - started, seen))
            started, seen = None, Counter()

    def stop(self) -> None:
        self._stop_at.set()
        self.join(2)

    def report(self, seconds: float, top: int = 6) -> str:
        longest = sorted(self.spells, key=lambda s: -s[0])
        total = sum(s for s, _ in self.spells)
        lines = [f"hub thread busy spells of {self.threshold * 1e3:.0f} ms or more: {len(self.spells)} in "
                 f"{seconds:.0f} s, {total * 1e3:.0f} ms in all (busy {self.busy / seconds:.0%} of the time)"]
        for spell, seen in longest[:top]:
            samples = sum(seen.values())
            lines.append(f"  {spell * 1e3:.0f} ms, {samples} samples:")
            lines += [f"    {n:3d}  {stack}" for stack, n in seen.most_common(3)]
        everything: Counter[str] = Counter()
        for _, seen in self.spells:
            everything.update(seen)
        if everything:
            lines.append("  in all long spells, the most seen:")
            lines += [f"    {n:4d}  {stack}" for stack, n in everything.most_common(8)]
        return "\n".join(lines)


def loop_thread_id(loop: object) -> int:
    """The thread that runs `loop` (asked on it)."""
    got: list[int] = []
    done = threading.Event()

    def ask() -> None:
        got.append(threading.get_ident())
        done.set()

    loop.call_soon_threadsafe(ask)  # type: ignore[attr-defined]
    done.wait(10)
    return got[0]
