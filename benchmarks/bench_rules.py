"""Benchmark: replay ../shared/phh with our engine and with PokerKit, in one run; print hands/s.

Both sides are timed on the same 293 texts, already read from disk, twice: parse + replay,
and replay alone (the hand histories parsed beforehand). The runs of both engines alternate and
the best and the median of `--repeat` are kept for each, so that other load on the machine hits
both alike. Time is the process's CPU time: on a loaded machine a PokerKit run (about a second)
is far more often interrupted than one of ours (a twentieth of it), so wall-clock time would
count others' work against PokerKit only and flatter the ratio.
`--base DIR` times an earlier tree of the code too (`git archive <rev> | tar -x -C DIR`), in the same
process and the same alternation (each tree's `hub` package imported under its own modules), and
prints its figures and ours against it: a change measured against the code before it, side by side.
It prints which engine it timed as ours (`hub.rules.ENGINE`: compiled where `./setup.sh --compiled` built it
for these sources, else pure; TAPIS_ENGINE=pure forces pure); with the compiled one, the pure modules of
the same tree are imported beside it and timed too, so that pure, compiled and PokerKit share one run.
A base tree always runs pure (a compiled build is loaded once per process, for our tree).
`--without-pokerkit` leaves PokerKit's runs out: ours and the base then alternate alone, a pass of ours every 30 ms
rather than every second, so that a change of a few percent is not lost in the machine's load between them.
Run: python benchmarks/bench_rules.py [--repeat 5] [--phh DIR] [--base DIR] [--without-pokerkit]
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hub.rules import ENGINE  # noqa: E402
from hub.rules.phh import PhhHand, loads, replay_hand  # noqa: E402

Modules = dict[str, ModuleType]
KNOWN_BAD = 1  # the histories that must fail: ../shared/phh holds one defective file on purpose


def hub_modules() -> Modules:
    return {name: m for name, m in sys.modules.items() if name == "hub" or name.startswith("hub.")}


def install(modules: Modules) -> None:
    """Make `modules` the `hub` package that lazy imports find (each tree its own)."""
    for name in list(hub_modules()):
        del sys.modules[name]
    sys.modules.update(modules)


def import_beside(tree: Path) -> tuple[Callable[[str, str], PhhHand], Callable[[PhhHand], object], Modules]:
    """`loads` and `replay_hand` of the pure engine of `tree` (an earlier tree, or ours), imported beside ours."""
    ours = hub_modules()
    install({})
    sys.path.insert(0, str(tree))
    forced = os.environ.get("TAPIS_ENGINE")
    os.environ["TAPIS_ENGINE"] = "pure"
    try:
        other_phh = importlib.import_module("hub.rules.phh")
        importlib.import_module("hub.rules.rulesets").get_ruleset()  # its rulebooks, read now
    finally:
        sys.path.remove(str(tree))
        if forced is None:
            del os.environ["TAPIS_ENGINE"]
        else:
            os.environ["TAPIS_ENGINE"] = forced
    other = hub_modules()
    install(ours)
    return other_phh.loads, other_phh.replay_hand, other


def timed(fn: Callable[[], object]) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--phh", type=Path, default=ROOT.parent / "shared" / "phh")
    ap.add_argument("--base", type=Path, help="an earlier tree of the code, timed beside this one")
    ap.add_argument("--without-pokerkit", action="store_true", help="time ours (and the base) alone, no PokerKit")
    ns = ap.parse_args()
    if ns.base is not None and not (ns.base / "hub" / "rules" / "phh.py").is_file():
        print(f"--base {ns.base}: no hub/rules/phh.py there (git archive <rev> | tar -x -C DIR)")
        return 2
    files = sorted(ns.phh.glob("*/*.phh"))
    texts = [(str(f), f.read_text()) for f in files]
    n = len(texts)

    def engine(loads_fn: Callable[[str, str], PhhHand], replay_fn: Callable[[PhhHand], object]
               ) -> tuple[Callable[[], None], Callable[[], None]]:
        def parse_and_replay() -> None:
            for name, text in texts:
                try:
                    replay_fn(loads_fn(text, name))
                except Exception:  # noqa: BLE001 - the defective file errors, as it should
                    pass

        parsed: list[PhhHand] = [loads_fn(text, name) for name, text in texts]

        def replay() -> None:
            for h in parsed:
                try:
                    replay_fn(h)
                except Exception:  # noqa: BLE001
                    pass

        return parse_and_replay, replay

    def failures(loads_fn: Callable[[str, str], PhhHand], replay_fn: Callable[[PhhHand], object]) -> int:
        """The hands an engine does not replay: the timed loops pass over errors (the defective file must
        fail), so an engine that fails them all would time as fast as nothing. Counted before timing."""
        bad = 0
        for name, text in texts:
            try:
                replay_fn(loads_fn(text, name))
            except Exception:  # noqa: BLE001 - counted
                bad += 1
        return bad

    ours_modules = hub_modules()
    ours_parse_and_replay, ours_replay = engine(loads, replay_hand)
    checks = [("ours", failures(loads, replay_hand))]
    runs: list[tuple[str, Callable[[], None], Modules]] = [
        ("ours_full", ours_parse_and_replay, ours_modules), ("ours_only", ours_replay, ours_modules)]
    beside = [("pure", ROOT)] if ENGINE.compiled else []
    if ns.base is not None:
        beside.append(("base", ns.base))
    for who, tree in beside:
        other_loads, other_replay, other_modules = import_beside(tree)
        install(other_modules)
        other_full, other_only = engine(other_loads, other_replay)
        checks.append((who, failures(other_loads, other_replay)))
        install(ours_modules)
        runs += [(f"{who}_full", other_full, other_modules), (f"{who}_only", other_only, other_modules)]

    print(f"python {platform.python_version()} on {platform.machine()}, {n} PHH hands")
    print(f"ours: {ENGINE.line()}" + ("; pure: the same tree's pure modules, timed beside" if ENGINE.compiled
                                      else ""))
    for who, bad in checks:
        if bad != KNOWN_BAD:
            print(f"{who}: {bad} of {n} hands fail to replay, {KNOWN_BAD} expected (the defective file): "
                  "its figures would time errors, not hands")
            return 1
    try:
        import pokerkit
        have_pokerkit = not ns.without_pokerkit
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

    if have_pokerkit:
        runs += [("pk_full", pk_parse_and_replay, ours_modules), ("pk_only", pk_replay, ours_modules)]
    times: dict[str, list[float]] = {}
    for _ in range(ns.repeat):  # alternate, keep every run of each
        for key, fn, modules in runs:
            install(modules)
            times.setdefault(key, []).append(timed(fn))
    install(ours_modules)
    best = {key: min(runs) for key, runs in times.items()}
    median = {key: statistics.median(runs) for key, runs in times.items()}
    print(f"ours     parse+replay {n / best['ours_full']:10.0f} hands/s   replay only "
          f"{n / best['ours_only']:10.0f} hands/s   (best of {ns.repeat}, CPU time)")
    if ENGINE.compiled:
        print(f"pure     parse+replay {n / best['pure_full']:10.0f} hands/s   replay only "
              f"{n / best['pure_only']:10.0f} hands/s")
        for label, t in (("best", best), ("median", median)):
            print(f"ours/pure parse+replay {t['pure_full'] / t['ours_full']:9.2f} x        replay only "
                  f"{t['pure_only'] / t['ours_only']:10.2f} x   ({label}, compiled against pure)")
    if ns.base is not None:
        print(f"base     parse+replay {n / best['base_full']:10.0f} hands/s   replay only "
              f"{n / best['base_only']:10.0f} hands/s   ({ns.base})")
        for label, t in (("best", best), ("median", median)):
            print(f"ours/base parse+replay {t['base_full'] / t['ours_full']:9.2f} x        replay only "
                  f"{t['base_only'] / t['ours_only']:10.2f} x   ({label})")
    if not have_pokerkit:
        print("PokerKit left out (--without-pokerkit): no comparison" if ns.without_pokerkit
              else "pokerkit not installed: no comparison")
        return 0
    print(f"pokerkit parse+replay {n / best['pk_full']:10.0f} hands/s   replay only "
          f"{n / best['pk_only']:10.0f} hands/s")
    for label, t in (("best", best), ("median", median)):
        print(f"ratio    parse+replay {t['pk_full'] / t['ours_full']:10.1f} x        replay only "
              f"{t['pk_only'] / t['ours_only']:10.1f} x   ({label})")
    if ENGINE.compiled:
        for label, t in (("best", best), ("median", median)):
            print(f"pure's   parse+replay {t['pk_full'] / t['pure_full']:10.1f} x        replay only "
                  f"{t['pk_only'] / t['pure_only']:10.1f} x   ({label}, the pure engine against PokerKit)")
    if ns.base is not None:
        for label, t in (("best", best), ("median", median)):
            print(f"base's   parse+replay {t['pk_full'] / t['base_full']:10.1f} x        replay only "
                  f"{t['pk_only'] / t['base_only']:10.1f} x   ({label}, the base against PokerKit)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
