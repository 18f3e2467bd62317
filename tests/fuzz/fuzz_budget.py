"""How hard the fuzz tests try: a few hundred examples in the default run, `TAPIS_FUZZ_EXAMPLES=N`
for the large run. Each test tallies the examples it really ran; `conftest` prints the figures."""

from __future__ import annotations

import os
import time
from collections import Counter

from hypothesis import HealthCheck, settings

LARGE = int(os.environ.get("TAPIS_FUZZ_EXAMPLES", "0") or 0)
EXAMPLES: Counter[str] = Counter()
SECONDS: dict[str, float] = {}
_started: dict[str, float] = {}


def budget(default: int) -> settings:
    """`default` examples normally, `TAPIS_FUZZ_EXAMPLES` in the large run; fresh random inputs every
    run (no derandomize, no example database: CI explores instead of replaying the same examples);
    a failure prints its `@reproduce_failure` blob to replay it (docs/testing.md); no deadline (a
    slow example is not a failure here). Every health check runs (a strategy that filters out most
    of what it draws, or draws data too large, fails the test) but `too_slow`: how long drawing
    takes on a shared 2-core machine says nothing of the code, and it would fail under load."""
    return settings(max_examples=LARGE or default, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow], database=None,
                    print_blob=True)


def tally(name: str) -> None:
    """Call once per example."""
    EXAMPLES[name] += 1
    now = time.perf_counter()
    SECONDS[name] = now - _started.setdefault(name, now)  # first to last example, Hypothesis included
