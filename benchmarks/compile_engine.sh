#!/usr/bin/env bash
# Experiment (session 16, docs/rules-engine.md "Tenth round"): the rules engine's hot modules compiled
# with mypyc in place, timed against the pure tree of main; then the .so files removed again.
# Not the default install: nothing here is wired into setup.sh, pyproject or deploy/.
# Run: benchmarks/compile_engine.sh [--keep]   (--keep leaves the .so files, e.g. to run the tests)
set -euo pipefail
cd "$(dirname "$0")/.."
# phh.py, records.py and phh_toml.py stay pure: their blank-twin `__class__` trick and their
# list/exception subclasses are what mypyc refuses (native classes).
MODULES=(hand betting showdown evaluator pots positions out_of_turn variant_eval)
base=$(mktemp -d)
trap 'rm -rf "$base"' EXIT
git archive main | tar -x -C "$base"
paths=()
for m in "${MODULES[@]}"; do paths+=("hub/rules/$m.py"); done
.venv/bin/mypyc "${paths[@]}" >/dev/null
.venv/bin/python benchmarks/bench_rules.py --repeat 5 --base "$base"
if [[ "${1:-}" != --keep ]]; then
    rm -rf build .mypyc ./*.so hub/rules/*.so
fi
