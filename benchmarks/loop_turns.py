"""What the hub's loop runs in one go (`bench_load.py --turns MS`): each callback's time on the loop, so a
latency tail's lumps are named (a clock's publish, a refresh, a burst of 500 events) rather than guessed.

Every callback the hub's asyncio loop runs (`asyncio.Handle._run`: a read's packets, a drain of the
inbox, a timer) is timed on the wall clock; those of at least the threshold are counted by callback,
with their total and longest. The service's drains are also counted by how many items each applied.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections import Counter, defaultdict
from typing import Any


def _name(handle: asyncio.Handle) -> str:
    callback: Any = getattr(handle, "_callback", None)
    inner = getattr(callback, "__func__", callback)
    name = getattr(inner, "__qualname__", None) or type(callback).__name__
    return str(name)


class LoopTurns:
    def __init__(self, loop: asyncio.AbstractEventLoop, threshold: float) -> None:
        self.loop, self.threshold = loop, threshold
        self.long: dict[str, list[float]] = defaultdict(list)  # callback -> seconds of each long run
        self.all_s: defaultdict[str, float] = defaultdict(float)  # callback -> seconds in all
        self.calls: Counter[str] = Counter()
        self.on = False
        self._run = asyncio.Handle._run

    def start(self) -> None:
        turns, run = self, self._run

        def timed(handle: asyncio.Handle) -> None:
            if not turns.on or getattr(handle, "_loop", None) is not turns.loop:
                run(handle)
                return
            began = time.perf_counter()
            try:
                run(handle)
            finally:
                spent = time.perf_counter() - began
                name = _name(handle)
                turns.all_s[name] += spent
                turns.calls[name] += 1
                if spent >= turns.threshold:
                    turns.long[name].append(spent)

        asyncio.Handle._run = timed  # type: ignore[method-assign,assignment]
        self.on = True

    def stop(self) -> None:
        self.on = False
        asyncio.Handle._run = self._run  # type: ignore[method-assign]

    def report(self, seconds: float, drains: list[int] | None = None) -> str:
        lines = [f"hub loop callbacks of {self.threshold * 1e3:.0f} ms or more in {seconds:.0f} s "
                 f"(n, ms in all, longest; then every call's share of the wall time):"]
        for name, spans in sorted(self.long.items(), key=lambda kv: -sum(kv[1])):
            lines.append(f"  {name:48s} {len(spans):5d} {sum(spans) * 1e3:8.0f} ms  longest {max(spans) * 1e3:6.1f} ms"
                         f"  (of {self.calls[name]} calls, {self.all_s[name] / seconds:.0%} of the time)")
        top = [n for n in sorted(self.all_s, key=lambda n: -self.all_s[n])[:6] if n not in self.long]
        for name in top:
            lines.append(f"  {name:48s}     0                      (of {self.calls[name]} calls, "
                         f"{self.all_s[name] / seconds:.0%} of the time)")
        if drains:
            q = statistics.quantiles(drains, n=100) if len(drains) > 1 else [drains[0]] * 99
            lines.append(f"  items per drain of the inbox: p50 {q[49]:.0f}, p99 {q[98]:.0f}, max {max(drains)} "
                         f"({len(drains)} drains, {sum(1 for d in drains if d >= 500)} of a full burst)")
        return "\n".join(lines)
