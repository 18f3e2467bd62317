"""Benchmark: replay ../shared/phh with our engine and with PokerKit, in one run; print hands/s.

Both sides are timed on the same 293 texts, already read from disk, twice: parse + replay,
and replay alone (the hand histories parsed beforehand). The runs of both engines alternate and
the best and the median of `--repeat` are kept for each, so that other load on the machine hits
both alike. Time is the process's CPU time: on a loaded machine a PokerKit run (about a second)
is far more often interrupted than one of ours (a twentieth of it), so wall-clock time would
count others' work against PokerKit only and flatter the ratio.
Run: python benchmarks/bench_rules.py [--repeat 5] [--phh DIR]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hub.rules.phh import PhhHand, loads, replay_hand  # noqa: E402


def timed(fn: Callable[[], object]) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--phh", type=Path, default=ROOT.parent / "shared" / "phh")
    ns = ap.parse_args()
    files = sorted(ns.phh.glob("*/*.phh"))
    texts = [(str(f), f.read_text()) for f in files]
    n = len(texts)

    def ours_parse_and_replay() -> None:
        for name, text in texts:
            try:
                replay_hand(loads(text, name))
            except Exception:  # noqa: BLE001 - the defective file errors, as it should
                pass

    parsed: list[PhhHand] = [loads(text, name) for name, text in texts]

    def ours_replay() -> None:
        for h in parsed:
            try:
                replay_hand(h)
            except Exception:  # noqa: BLE001
                pass

    print(f"python {platform.python_version()} on {platform.machine()}, {n} PHH hands")
    try:
        import pokerkit
        have_pokerkit = True
    except ImportError:
        have_pokerkit = False
    warnings.simplefilter("ignore")

    def pk_parse_and_replay() -> None:
        for _, text in texts:
            try:
                for _state in pokerkit.HandHistory.loads(text):
                    pass
            except Exception:  # noqa: BLE001
                pass

    pk_parsed = [] if not have_pokerkit else [pokerkit.HandHistory.loads(t) for _, t in texts]

    def pk_replay() -> None:
        for hh in pk_parsed:
            try:
                for _state in hh:
                    pass
            except Exception:  # noqa: BLE001
                pass

    times: dict[str, list[float]] = {}
    for _ in range(ns.repeat):  # alternate, keep every run of each
        for key, fn in (("ours_full", ours_parse_and_replay), ("ours_only", ours_replay),
                        ("pk_full", pk_parse_and_replay), ("pk_only", pk_replay)):
            if key.startswith("pk") and not have_pokerkit:
                continue
            times.setdefault(key, []).append(timed(fn))
    best = {key: min(runs) for key, runs in times.items()}
    median = {key: statistics.median(runs) for key, runs in times.items()}
    print(f"ours     parse+replay {n / best['ours_full']:10.0f} hands/s   replay only "
          f"{n / best['ours_only']:10.0f} hands/s   (best of {ns.repeat}, CPU time)")
    if not have_pokerkit:
        print("pokerkit not installed: no comparison")
        return 0
    print(f"pokerkit parse+replay {n / best['pk_full']:10.0f} hands/s   replay only "
          f"{n / best['pk_only']:10.0f} hands/s")
    for label, t in (("best", best), ("median", median)):
        print(f"ratio    parse+replay {t['pk_full'] / t['ours_full']:10.1f} x        replay only "
              f"{t['pk_only'] / t['ours_only']:10.1f} x   ({label})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
