"""Mutation score of the critical core (docs/testing.md): mutmut, one module at a time, each against
the fast tests that target it, in a throwaway copy of the working tree, within a time bound.

    .venv/bin/python tools/mutation.py                 # every module below, in order
    .venv/bin/python tools/mutation.py pots outbox     # some of them
    .venv/bin/python tools/mutation.py --list          # the modules and their tests
    TAPIS_MUTATION_BUDGET=600 ... (seconds per module, default 480; mutmut's own run is cut there)
    TAPIS_MUTATION_JOBS=1 ...     (mutmut's parallel children, default 2; 1 on a shared machine)

Each module prints its tally (killed / survived / no tests / timeout) and the surviving mutants'
names; `--keep` leaves the copy (/tmp/tapis-mutation/<module>) to read a survivor with
`mutmut show <name>` there. Needs mutmut (`pip install -e .[mutation]`). Exit 0 always: the
score is a figure to read and triage, not a gate.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = Path(os.environ.get("TAPIS_MUTATION_DIR", "/tmp/tapis-mutation"))
PACKAGES = ["firmware_bridge", "table_agent", "hub", "hw", "simulators", "tablewire", "tapis"]  # as pyproject's

# module -> (file to mutate, the fast tests that target it). Tests with brokers, browsers or ptys are
# left out on purpose: each mutant reruns the tests that cover it, so they must take seconds.
MODULES: dict[str, tuple[str, list[str]]] = {
    "pots": ("hub/rules/pots.py", ["tests/rules/test_showdown.py", "tests/rules/test_pots_dead_chips.py",
                                   "tests/rules/test_showdown_order_and_cards.py",
                                   "tests/rules/test_worked_examples.py", "tests/rules/test_phh.py"]),
    "showdown": ("hub/rules/showdown.py", ["tests/rules/test_showdown.py", "tests/rules/test_pots_dead_chips.py",
                                           "tests/rules/test_showdown_order_and_cards.py",
                                           "tests/rules/test_worked_examples.py", "tests/rules/test_phh.py"]),
    "outbox": ("table_agent/outbox.py", ["tests/agent/test_outbox.py", "tests/agent/test_outbox_sender.py",
                                        "tests/agent/test_outbox_power_cut.py"]),
    "presence": ("table_agent/presence.py", ["tests/agent/test_presence.py", "tests/agent/test_reader_silence.py",
                                                   "tests/agent/test_presence_edges.py"]),
    "public_views": ("hub/room/tables.py", ["tests/security/test_public_views.py", "tests/hub/test_public_faults.py",
                                       "tests/hub/test_wire_and_tables.py", "tests/hub/test_service_acks.py",
                                       "tests/hub/test_table_view.py"]),
    # ~1,000 mutants. The hypothesis "never raises" test is half the folder's time (2.6 s of 5 s) and
    # only checks that nothing raises, which the other dealing tests see too: left out so the run ends.
    "dealing": ("table_agent/dealing.py", ["tests/dealing", "--ignore=tests/dealing/test_never_raises.py"]),
    "rulings": ("hub/rulings/engine.py", ["tests/rulings/test_rulings_engine.py",
                                          "tests/rulings/test_rulings_per_ruleset.py",
                                          "tests/rulings/test_rulings_fields.py"]),
    # Issue 29: the modules where bugs lived that every test let through. The PokerKit differential
    # (25-40 s a run) is left out of the rules engine's: the cdc 10.9 check it makes is in
    # test_betting.py too.
    "betting": ("hub/rules/betting.py", ["tests/rules/test_betting.py", "tests/rules/test_betting_judge.py",
                                         "tests/rules/test_worked_examples.py",
                                         "tests/rules/test_pot_limit.py", "tests/rules/test_in_the_dark.py",
                                         "tests/rules/test_out_of_turn_and_time.py",
                                         "tests/rules/test_invariants.py"]),
    "store": ("hub/floor/store.py", ["tests/floor/test_store.py", "tests/floor/test_store_power_cut.py",
                                     "tests/floor/test_hub_restart.py"]),
    "hand_watch": ("table_agent/hand_watch.py", ["tests/agent/test_hand_watch.py"]),
    "clock": ("hub/tournament/clock.py", ["tests/tournament/test_structure_clock.py",
                                          "tests/tournament/test_clock_details.py"]),
    "payouts": ("hub/tournament/results.py", ["tests/tournament/test_payouts_pool.py",
                                              "tests/tournament/test_results.py",
                                              "tests/tournament/test_seating_payouts.py"]),
    "floor_service": ("hub/floor/service.py", ["tests/floor/test_floor_service.py",
                                               "tests/floor/test_desk_commands.py",
                                               "tests/floor/test_cancel_hand.py",
                                               "tests/tournament/test_concurrent_td.py::"
                                               "test_the_floors_own_step_rereads_what_the_command_line_stored",
                                               "tests/tournament/test_concurrent_td.py::"
                                               "test_a_floor_in_memory_sees_what_another_writer_stored"]),
    # The hub's MQTT 5 link (issue 28): the codec against paho's, and the packets-only tests of
    # test_hub_link (those against Mosquitto take seconds each and add nothing the codec tests miss)
    "mqtt5": ("hub/edge/mqtt5.py", ["tests/hub/test_mqtt5_codec.py", "tests/hub/test_hub_link.py",
                                    "-k", "not (both_ways or will_on or restart or refusals or broken_broker"
                                    " or stopped_link or stop_disconnects)"]),
    # The link itself is about connections: its tests meet a broker of the tests' own on loopback
    # (one to four seconds each, no Mosquitto but the packet-size case), a mutant reruns those covering it
    "link": ("hub/edge/link.py", ["tests/hub/test_link_brokers.py", "tests/hub/test_hub_link.py"]),
}


def _copy_tree(dest: Path) -> None:
    """The working tree as git sees it (tracked and untracked-not-ignored files): no .venv, no caches."""
    if dest.exists():
        shutil.rmtree(dest)
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                            capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


def _config(target: str, tests: list[str]) -> str:
    quoted = ", ".join(f'"{t}"' for t in tests)
    packages = ", ".join(f'"{p}"' for p in PACKAGES)
    return (f"\n[tool.mutmut]\nsource_paths = [{packages}]\nonly_mutate = [\"{target}\"]\n"
            f"pytest_add_cli_args_test_selection = [{quoted}]\n"
            "pytest_add_cli_args = [\"-p\", \"no:cacheprovider\", \"-x\", \"-q\"]\n"
            "use_git_change_detection = false\n")


def run_module(name: str, budget: float, keep: bool) -> dict[str, int]:
    target, tests = MODULES[name]
    where = WORK / name
    _copy_tree(where)
    pyproject = where / "pyproject.toml"
    text = pyproject.read_text()
    if "[tool.mutmut]" in text:  # ours wins: one target, its tests
        text = text[:text.index("[tool.mutmut]")]
    pyproject.write_text(text + _config(target, tests))
    env = {**os.environ, "TAPIS_SEED": os.environ.get("TAPIS_SEED", "1")}  # same random cases for each mutant
    started = time.monotonic()
    mutmut = [sys.executable, "-m", "mutmut"]
    try:
        subprocess.run([*mutmut, "run", "--max-children", os.environ.get("TAPIS_MUTATION_JOBS", "2")],
                       cwd=where, env=env, timeout=budget, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    except subprocess.TimeoutExpired:
        print(f"{name}: stopped after {budget:.0f} s (the tally counts what ran)")
    results = subprocess.run([*mutmut, "results", "--all", "true"], cwd=where, env=env,
                             capture_output=True, text=True).stdout
    tally: dict[str, int] = {}
    survivors = []
    for line in results.splitlines():
        if ":" not in line:
            continue
        mutant, status = (part.strip() for part in line.rsplit(":", 1))
        tally[status] = tally.get(status, 0) + 1
        if status == "survived":
            survivors.append(mutant)
    killed, survived = tally.get("killed", 0), tally.get("survived", 0)
    tried = killed + survived + tally.get("timeout", 0)
    score = 100.0 * (tried - survived) / tried if tried else 0.0
    print(f"{name} ({target}): {score:.1f} % of {tried} mutants tried, {tally} in "
          f"{time.monotonic() - started:.0f} s")
    for mutant in survivors:
        print(f"  survived: {mutant}")
    if not keep:
        shutil.rmtree(where, ignore_errors=True)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", choices=[[], *MODULES], metavar="MODULE",
                        help=f"some of: {', '.join(MODULES)} (default: all)")
    parser.add_argument("--list", action="store_true", help="the modules and their tests")
    parser.add_argument("--keep", action="store_true", help="keep the copy to read survivors")
    args = parser.parse_args(argv)
    if args.list:
        for name, (target, tests) in MODULES.items():
            print(f"{name:14} {target:28} {' '.join(tests)}")
        return 0
    budget = float(os.environ.get("TAPIS_MUTATION_BUDGET", "480"))
    for name in args.modules or MODULES:
        run_module(name, budget, args.keep)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
