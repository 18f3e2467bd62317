#!/usr/bin/env bash
# The compiled rules engine (docs/rules-engine.md, "The compiled engine as installed") built by
# tools/build_engine.py into a temporary folder, then timed by bench_rules.py beside the same tree's pure
# modules and PokerKit, and against `git archive main` (pure). Nothing is written in the tree, nor over
# .venv's own build (TAPIS_ENGINE_BUILD points the build and the bench at the temporary folder).
# Run: benchmarks/compile_engine.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/main"
git archive main | tar -x -C "$work/main"
export TAPIS_ENGINE_BUILD="$work/build" TAPIS_ENGINE=compiled
.venv/bin/python tools/build_engine.py
.venv/bin/python benchmarks/bench_rules.py --repeat 5 --base "$work/main"
