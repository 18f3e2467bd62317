"""Mutation score of the critical core (docs/testing.md): mutmut, one module at a time, each against
the fast tests that target it, in a throwaway copy of the working tree, within a time bound.

    .venv/bin/python tools/mutation.py                 # every module below, in order
    .venv/bin/python tools/mutation.py pots outbox     # some of them
    .venv/bin/python tools/mutation.py --list          # the modules and their tests
    TAPIS_MUTATION_BUDGET=600 ... (seconds per module, default 480; mutmut's own run is cut there)
    TAPIS_MUTATION_JOBS=1 ...     (mutmut's parallel children, default 2; 1 on a shared machine)
    .venv/bin/python tools/mutation.py --resume link   # go on in the kept copy: only untried mutants run
    .venv/bin/python tools/mutation.py --resume --only 'hub.edge.link.x_HubLink__mutmut_*' link
                                                       # a slice (mutmut name globs), tried or not
    .venv/bin/python tools/mutation.py --resume --rerun survived link   # the survivors again (new tests)
    .venv/bin/python tools/mutation.py --resume --report link           # the tally so far, nothing run

Each module prints its tally (killed / survived / no tests / timeout) and the surviving mutants'
names; `--keep` leaves the copy (/tmp/tapis-mutation/<module>) to read a survivor with
`mutmut show <name>` there. Needs mutmut (`pip install -e .[mutation]`).

Slices and merging: a module's copy keeps every mutant's result (mutmut's `mutants/*.meta`), so runs
cut by the budget, `--only` slices and `--rerun` passes add up in one copy (`--resume` copies the
working tree over it, tests included, and keeps the results; a mutant is rerun only when named). The
tally is always over every mutant of the module: `not checked` says what no slice has reached yet.

Left out of the score, by two rules, each counted and printed (the raw tally is printed too):
- a survivor whose only change is the case of an SQL string outside its quoted SQL literals
  (keywords, table and column names, PRAGMA values: SQLite reads them all case-insensitively); the
  tool exits 1 when a module leaves out more of them than its bound (`LEFT_OUT_BOUND`), so the rule
  cannot quietly grow;
- a survivor listed in `EQUIVALENT`, read one by one, with the reason it cannot change behaviour,
  matched on its code (function, line before and after), so a changed line counts again.
Every other survivor stays in the score. Exit 0 otherwise: the score is a figure to read and triage.
"""

from __future__ import annotations

import argparse
import difflib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tokenize
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
    # (one to four seconds each, no Mosquitto but the packet-size case), a mutant reruns those covering it;
    # issue 29's round two added those on a clock the test moves (milliseconds each)
    "link": ("hub/edge/link.py", ["tests/hub/test_link_brokers.py", "tests/hub/test_hub_link.py",
                                  "tests/hub/test_link_incidents.py", "tests/hub/test_link_packets.py",
                                  "tests/hub/test_link_flow.py", "tests/security/test_hub_link_secure.py"]),
    # Its routing (which handlers a message goes to), out of link.py since: milliseconds a test
    "routes": ("hub/edge/routes.py", ["tests/hub/test_routes.py"]),
}


# Most mutants a module may leave out by rule (see the docstring); more is a failure, to be looked at.
LEFT_OUT_BOUND: dict[str, int] = {"store": 50, "outbox": 20, "floor_service": 10}

# A Python string is SQL when it starts with one of these (a statement, or a clause continuing one)
_SQL_START = re.compile(r"\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|BEGIN|COMMIT|ROLLBACK|"
                        r"SAVEPOINT|RELEASE|WITH|REPLACE|VACUUM)\b", re.IGNORECASE)  # a statement's first word
_SQL_LITERAL = re.compile(r"'(?:[^']|'')*'")  # 'text' in SQL: compared case-sensitively, never left out


def _string_tokens(code: str) -> list[tuple[int, str]]:
    return [(t.type, t.string) for t in tokenize.generate_tokens(io.StringIO(code).readline)
            if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)]


def _body(token: str) -> str:
    """A string token's text between its quotes; an f-string's replacement fields without their quotes
    (in `f"PRAGMA synchronous={'FULL' if durable else 'OFF'}"` the value is a PRAGMA keyword)."""
    prefix = re.match(r"[a-zA-Z]*", token).group(0)  # type: ignore[union-attr]
    quoted = token[len(prefix):]
    quote = quoted[:3] if quoted[:3] in ('"""', "'''") else quoted[0]
    body = quoted[len(quote):-len(quote)]
    if "f" in prefix.lower():
        body = re.sub(r"\{[^}]*\}", lambda m: m.group(0).replace("'", "").replace('"', ""), body)
    return body


def _sql_case_only(original: str, mutant: str) -> bool:
    """The one token that differs is (part of) a string of SQL whose case changed outside its quoted
    SQL literals. Adjacent string tokens are one string, as Python joins them."""
    try:
        before, after = _string_tokens(original), _string_tokens(mutant)
    except (tokenize.TokenError, SyntaxError):
        return False
    if len(before) != len(after):
        return False
    changed = [k for k, (b, a) in enumerate(zip(before, after, strict=True)) if b != a]
    if len(changed) != 1:
        return False
    at = changed[0]
    (kind, old), (kind_after, new) = before[at], after[at]
    if kind != tokenize.STRING or kind_after != tokenize.STRING or old.lower() != new.lower():
        return False
    first = last = at
    while first > 0 and before[first - 1][0] == tokenize.STRING:
        first -= 1
    while last + 1 < len(before) and before[last + 1][0] == tokenize.STRING:
        last += 1
    body_old = "".join(_body(t) for _, t in before[first:last + 1])
    body_new = "".join(_body(t) for _, t in after[first:last + 1])
    if not _SQL_START.match(body_old):
        return False
    return _SQL_LITERAL.findall(body_old) == _SQL_LITERAL.findall(body_new)


SQL_CASE = "case of SQL words (SQLite reads keywords, names and PRAGMA values in any case)"
REVIEWED = "reviewed one by one, cannot change behaviour (EQUIVALENT, with the reason of each)"

_NODELAY = ("asyncio's socket transport turns TCP_NODELAY on itself for every TCP socket (Python 3.7 and later): "
            "the link's own setsockopt only repeats it")

# Survivors read one by one and found unable to change what the module does: (module, function, the
# line as written, the line as mutated) -> why. Matched on the code, not on mutmut's numbers (which move
# with the file): an entry that matches no mutant any more is said ("stale") and its mutant, changed,
# counts again until read again.
EQUIVALENT: dict[tuple[str, str, str, str], str] = {
    ("link", "HubLink._take_from_threads", "self._woken = False", "self._woken = None"):
        "`_woken` is only read for its truth",
    ("link", "_Protocol.resume_writing", "self._link._pause(False)", "self._link._pause(None)"):
        "`_pause` stores it and reads it only for its truth (`_publish`, `_pump`: `not self._paused`)",
    ("link", "HubLink._send_publish", "packet_id = self._new_id() if qos else 0",
     "packet_id = self._new_id() if (qos) or True else 0"):
        "a QoS 0 PUBLISH carries no packet identifier (`mqtt5.publish` writes none for it) and is not kept "
        "in flight; taking one only moves the next along",
    ("link", "HubLink._send_publish", "packet_id = self._new_id() if qos else 0",
     "packet_id = self._new_id() if qos else 1"):
        "a QoS 0 PUBLISH carries no packet identifier (`mqtt5.publish` writes none for it)",
    ("link", "HubLink._subacked", "for pattern, code in zip(filters, codes, strict=False):",
     "for pattern, code in zip(filters, codes, strict=None):"): "`strict` is read for its truth; False is its default",
    ("link", "HubLink._subacked", "for pattern, code in zip(filters, codes, strict=False):",
     "for pattern, code in zip(filters, codes, ):"): "`strict=False` is `zip`'s default",
    ("link", "HubLink._pinger", "if self._transport is None or not self._up:",
     "if self._transport is None and not self._up:"):
        "the ping timer is set at CONNACK and cancelled by `_lost`, so it runs only with a transport and up",
    ("link", "HubLink._pinger", "self._heard_at = self.loop.time()", "self._heard_at = None"):
        "while reading is paused nothing is heard and nothing reads `_heard_at`; `pause_reading(False)` sets "
        "it again before the next check",
    ("link", "HubLink._new_id", "for _ in range(65535):", "for _ in range(65536):"):
        "identifiers cycle through 65,535 values: the 65,536th try is the first one again, still in use",
    ("store", "EventStore.__init__",
     "self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)",
     "self._db = sqlite3.connect(self.path, check_same_thread=False)"):
        "every write is inside `atomic()`'s own BEGIN IMMEDIATE / COMMIT, where Python's sqlite3 opens no "
        "transaction of its own (it opens one only before a write outside a transaction)",
    ("store", "EventStore.append_tournament_events", "last = int(cur.lastrowid or 0)",
     "last = int(cur.lastrowid or 1)"):
        "after an INSERT into a table with an INTEGER PRIMARY KEY, `lastrowid` is that row's id, never 0 or None",
    ("outbox", "OutboxSender.resend", "oldest: str | None = None", 'oldest: str | None = ""'):
        "read only through `oldest = oldest or boot`, where None and \"\" both give `boot`",
    ("link", "HubLink.__init__", "self._keepalive = keepalive  # this connection's: the broker's Server Keep Alive if it said one",  # noqa: E501
     "self._keepalive = None  # this connection's: the broker's Server Keep Alive if it said one"):
        'set again at each CONNACK, before the pings read it',
    ("link", "HubLink.__init__", 'self._flush_due = False',
     'self._flush_due = None'):
        'only read for its truth',
    ("link", "HubLink.__init__", "self._paused = False  # the socket's send buffer is full: publishes wait",
     "self._paused = None  # the socket's send buffer is full: publishes wait"):
        'only read for its truth',
    ("link", "HubLink.__init__", 'self._stopping = False',
     'self._stopping = None'):
        'only read for its truth',
    ("link", "HubLink.__init__", "self._last_error: str | None = None  # why the last attempt to connect failed, for start()'s error",  # noqa: E501
     'self._last_error: str | None = ""  # why the last attempt to connect failed, for start()\'s error'):
        'read only as `refused or _last_error` and `if why`: None and "" alike',
    ("link", "HubLink.__init__", 'self._receive_max = 65535',
     'self._receive_max = None'):
        'set at each CONNACK; read only while up',
    ("link", "HubLink.__init__", 'self._receive_max = 65535',
     'self._receive_max = 65536'):
        'set at each CONNACK; read only while up',
    ("link", "HubLink.__init__", "self._max_out = 0  # the broker's Maximum Packet Size on this connection; 0: it said none",  # noqa: E501
     "self._max_out = None  # the broker's Maximum Packet Size on this connection; 0: it said none"):
        'set at each CONNACK; read only while up',
    ("link", "HubLink.__init__", "self._max_out = 0  # the broker's Maximum Packet Size on this connection; 0: it said none",  # noqa: E501
     "self._max_out = 1  # the broker's Maximum Packet Size on this connection; 0: it said none"):
        'set at each CONNACK; read only while up',
    ("link", "HubLink.__init__", 'self._next_id = 0',
     'self._next_id = 1'):
        'identifiers only need to differ from those in use: the first being 2 instead of 1 changes nothing MQTT or the broker sees',  # noqa: E501
    ("link", "HubLink.__init__", 'self._woken = False',
     'self._woken = None'):
        'only read for its truth',
    ("link", "HubLink.__init__", 'self._heard_at = 0.0',
     'self._heard_at = None'):
        'set when each connection is made, before any read',
    ("link", "HubLink.__init__", 'self._heard_at = 0.0',
     'self._heard_at = 1.0'):
        'set when each connection is made, before any read',
    ("link", "HubLink.__init__", "self._up = False  # CONNACK said yes on this connection (the loop's own view of `connected`)",  # noqa: E501
     "self._up = None  # CONNACK said yes on this connection (the loop's own view of `connected`)"):
        'only read for its truth',
    ("link", "HubLink.__init__", 'self._reading_paused = False',
     'self._reading_paused = None'):
        'only read for its truth',
    ("link", "HubLink.__init__", "self._goodbye: int | None = None  # the reason of the broker's DISCONNECT on this connection",  # noqa: E501
     'self._goodbye: int | None = ""  # the reason of the broker\'s DISCONNECT on this connection'):
        'set to None when each connection is made, before any read',
    ("link", "HubLink.__init__", 'self._up_at = 0.0  # when CONNACK said yes on this connection',
     'self._up_at = None  # when CONNACK said yes on this connection'):
        'set at CONNACK; read only for a connection that was up',
    ("link", "HubLink.__init__", 'self._up_at = 0.0  # when CONNACK said yes on this connection',
     'self._up_at = 1.0  # when CONNACK said yes on this connection'):
        'set at CONNACK; read only for a connection that was up',
    ("link", 'HubLink._connect_until_up', 'server_hostname=self._host if self._tls else None),',
     'server_hostname=None),'):
        "asyncio's `create_connection` takes `host` as the TLS server name when `server_hostname` is None or left out",
    ("link", 'HubLink._connect_until_up', 'server_hostname=self._host if self._tls else None),',
     '),'):
        "asyncio's `create_connection` takes `host` as the TLS server name when `server_hostname` is None or left out",
    ("link", 'HubLink._connect_until_up', 'server_hostname=self._host if self._tls else None),',
     'server_hostname=self._host if (self._tls) and False else None),'):
        "asyncio's `create_connection` takes `host` as the TLS server name when `server_hostname` is None or left out",
    ("link", 'HubLink._made', 'sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)',
     'sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 2)'):
        'any value but 0 turns TCP_NODELAY on',
    ("link", "HubLink._connack", "self._max_out = max_out if isinstance(max_out, int) else 0",
     "self._max_out = max_out if (isinstance(max_out, int)) or True else 0"):
        "without the property `max_out` is None, read only for its truth as 0 is",
    ("link", "_Protocol.__init__", "self._transport: asyncio.Transport | None = None",
     'self._transport: asyncio.Transport | None = ""'):
        "asyncio calls `connection_made`, which sets it, before any `data_received` reads it",
    ("link", "HubLink._run", "asyncio.set_event_loop(self.loop)", "asyncio.set_event_loop(None)"):
        "everything on the link's thread runs inside `run_forever`, where asyncio answers the running loop",
    ("link", "HubLink._send", "self._flush_due = True", "self._flush_due = None"):
        "a flush is then scheduled per packet, but the first writes all of the turn's packets in one write "
        "and the others find nothing to write",
    ("link", "HubLink._send", "self._flush_due = True", "self._flush_due = False"):
        "a flush is then scheduled per packet, but the first writes all of the turn's packets in one write "
        "and the others find nothing to write",
    ("link", 'HubLink._made', 'sock = transport.get_extra_info("socket")',
     'sock = None'):
        _NODELAY,
    ("link", 'HubLink._made', 'sock = transport.get_extra_info("socket")',
     'sock = transport.get_extra_info(None)'):
        _NODELAY,
    ("link", 'HubLink._made', 'sock = transport.get_extra_info("socket")',
     'sock = transport.get_extra_info("XXsocketXX")'):
        _NODELAY,
    ("link", 'HubLink._made', 'sock = transport.get_extra_info("socket")',
     'sock = transport.get_extra_info("SOCKET")'):
        _NODELAY,
    ("link", 'HubLink._made', 'self._heard_at = self.loop.time()',
     'self._heard_at = None'):
        'the pinger starts at CONNACK, whose arrival (`_packets`) sets `_heard_at` first',
    ("link", 'HubLink._made', 'self._goodbye = None',
     'self._goodbye = ""'):
        'only compared with 0x8E',
    ("link", 'HubLink._connect_until_up', 'first = False',
     'first = None'):
        'only read for its truth',
    ("link", "HubLink.__init__", "self.refused: str | None = None", 'self.refused: str | None = ""'):
        "`start` reads it once `_answered` is set, which only `_connack` does, after setting it",
    ("link", "HubLink._lost", "self._up = False", "self._up = None"): "`_up` is only read for its truth",
    ("link", "HubLink._lost", "self._paused = False", "self._paused = None"): "`_paused` is only read for its truth",
    ("link", "HubLink._flush", "self._flush_due = False", "self._flush_due = None"):
        "`_flush_due` is only read for its truth",
    ("link", "HubLink._flush", "if self._out and self._transport is not None:",
     "if self._out or self._transport is not None:"):
        "an empty write is nothing to asyncio's transport, and `_out` is empty whenever the transport is "
        "gone (`_lost` clears it; nothing is sent while down)",
}


def _function_of(mutant: str) -> str:
    """`hub.edge.link.xǁHubLinkǁ_pump__mutmut_3` -> `HubLink._pump`; `...x__matches__mutmut_1` -> `_matches`."""
    name = re.sub(r"__mutmut_\d+$", "", mutant).rsplit(".", 1)[-1]
    if "ǁ" in name:
        return ".".join(filter(None, name.split("ǁ")[1:]))
    return name[2:] if name.startswith("x_") else name


def _changed_line(original: str, mutant: str) -> tuple[str, str] | None:
    """The one line the mutant changes, as (written, mutated), stripped; None if it changes more."""
    gone = [line.strip() for line in difflib.ndiff(original.splitlines(), mutant.splitlines()) if line[:2] == "- "]
    came = [line.strip() for line in difflib.ndiff(original.splitlines(), mutant.splitlines()) if line[:2] == "+ "]
    if len(gone) != 1 or len(came) != 1:
        return None
    return gone[0][2:].strip(), came[0][2:].strip()


def _rule_for(module: str, mutant: str, original: str, mutated: str) -> str | None:
    if _sql_case_only(original, mutated):
        return SQL_CASE
    line = _changed_line(original, mutated)
    if line is not None and (module, _function_of(mutant), *line) in EQUIVALENT:
        return REVIEWED
    return None

_DIFFS = """
import json, sys
from mutmut.mutation.diff_apply import get_diff_for_mutant  # noqa: F401 (loads mutmut's config)
from mutmut.mutation import diff_apply as d
import libcst as cst
out = {}
names = json.load(sys.stdin)
path = d.find_mutant(names[0]).path  # one module, one file: finding it walks every source file
for name in names:
    functions = d.read_functions_from_index(name, path)
    if functions is None:
        module = d.read_mutants_module(path)
        functions = (d.read_original_function(module, name), d.read_mutant_function(module, name))
    out[name] = [cst.Module([f]).code for f in functions]
json.dump(out, sys.stdout)
"""


def _left_out(module: str, where: Path, names: list[str], env: dict[str, str], *,
              say_stale: bool = True) -> dict[str, str]:
    """mutant -> the rule that leaves it out, for the mutants some rule matches."""
    if not names:
        return {}
    done = subprocess.run([sys.executable, "-c", _DIFFS], cwd=where, env=env, input=json.dumps(names),
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"mutation: cannot read the mutants' code in {where}: {done.stderr.strip()[-300:]}")
    code = json.loads(done.stdout)
    rules = {name: _rule_for(module, name, orig, mutant) for name, (orig, mutant) in code.items()}
    matched = {(module, _function_of(name), *line) for name, (orig, mutant) in code.items()
               if rules[name] == REVIEWED and (line := _changed_line(orig, mutant)) is not None}
    for entry in EQUIVALENT if say_stale else ():
        if entry[0] == module and entry not in matched:
            print(f"  stale EQUIVALENT entry (matches no surviving mutant): {entry[1]}: {entry[2]!r} -> {entry[3]!r}")
    return {name: rule for name, rule in rules.items() if rule is not None}


def _copy_tree(dest: Path, *, fresh: bool = True) -> None:
    """The working tree as git sees it (tracked and untracked-not-ignored files): no .venv, no caches.
    `fresh=False` copies over what is there, keeping mutmut's `mutants/` and its results."""
    if dest.exists() and fresh:
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


def _mutmut_run(where: Path, env: dict[str, str], names: list[str], budget: float, name: str) -> None:
    """mutmut's run, in its own process group: cut at the budget (each result so far is kept; mutmut
    goes on past a ^C, so SIGTERM), its workers ended with it, not left running."""
    jobs = os.environ.get("TAPIS_MUTATION_JOBS", "2")
    run = subprocess.Popen([sys.executable, "-m", "mutmut", "run", "--max-children", jobs, *names], cwd=where,
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        run.wait(timeout=budget)
    except subprocess.TimeoutExpired:
        print(f"{name}: stopped after {budget:.0f} s (the tally counts what ran)")
        os.killpg(run.pid, signal.SIGTERM)
        try:
            run.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()


def _results(where: Path, env: dict[str, str]) -> dict[str, str]:
    """mutant -> its status, for every mutant of the module (`not checked`: no slice reached it yet)."""
    out = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"], cwd=where, env=env,
                         capture_output=True, text=True).stdout
    return dict((part.strip() for part in line.rsplit(":", 1))  # type: ignore[misc]
                for line in out.splitlines() if ":" in line)


def run_module(name: str, budget: float, *, keep: bool, resume: bool = False, only: list[str] | None = None,
               rerun: list[str] | None = None, report: bool = False) -> tuple[dict[str, int], bool]:
    """Run (or go on with) one module; returns its tally and whether its left-out count is within bound."""
    target, tests = MODULES[name]
    where = WORK / name
    resuming = resume and (where / "mutants").is_dir()
    if resuming:
        copied = where / target
        if copied.read_bytes() != (ROOT / target).read_bytes():
            raise SystemExit(f"mutation: {target} changed since the copy's mutants were made: run without --resume")
    if not report:
        _copy_tree(where, fresh=not resuming)
        pyproject = where / "pyproject.toml"
        text = pyproject.read_text()
        if "[tool.mutmut]" in text:  # ours wins: one target, its tests
            text = text[:text.index("[tool.mutmut]")]
        pyproject.write_text(text + _config(target, tests))
    env = {**os.environ, "TAPIS_SEED": os.environ.get("TAPIS_SEED", "1")}  # same random cases for each mutant
    started = time.monotonic()
    names = list(only or [])
    if report:
        if not resuming:
            raise SystemExit(f"mutation: --report needs a kept copy of {name} (--resume)")
    elif rerun and resuming:
        names += [m for m, status in _results(where, env).items() if status in rerun]
    elif not names:
        # What no slice has tried yet, less what a rule leaves out: those are not worth their test time.
        # mutmut makes its mutants on a run that matches none of them (its stats and clean run, ~1 min)
        if not (where / "mutants").is_dir():
            _mutmut_run(where, env, ["no-mutant-is-named-so*"], budget, name)
        untried = [m for m, status in _results(where, env).items() if status == "not checked"]
        skipped = _left_out(name, where, untried, env, say_stale=False)
        names = [m for m in untried if m not in skipped]
        print(f"{name}: {len(untried)} mutants not tried yet, {len(skipped)} of them left out by rule (not run)")
    if names and not report:
        _mutmut_run(where, env, names, budget, name)
    status_of = _results(where, env)
    left_out = _left_out(name, where, [m for m, status in status_of.items()
                                       if status in ("survived", "not checked")], env)
    tally: dict[str, int] = {}
    for mutant, status in status_of.items():
        key = "left out" if mutant in left_out else status
        tally[key] = tally.get(key, 0) + 1
    killed, survived, timeout = tally.get("killed", 0), tally.get("survived", 0), tally.get("timeout", 0)
    tried = killed + survived + timeout
    score = 100.0 * (tried - survived) / tried if tried else 0.0
    raw_tried = tried + len(left_out)
    raw = 100.0 * (killed + timeout) / raw_tried if raw_tried else 0.0
    print(f"{name} ({target}): {score:.1f} % of {tried} mutants tried, left out apart ({len(status_of)} in all; "
          f"raw {raw:.1f} % of {raw_tried}), {tally} in {time.monotonic() - started:.0f} s")
    reasons: dict[str, int] = {}
    for rule in left_out.values():
        reasons[rule] = reasons.get(rule, 0) + 1
    bound = LEFT_OUT_BOUND.get(name, 0)
    for rule, count in reasons.items():
        print(f"  left out: {count} ({rule})")
    for mutant, rule in sorted(left_out.items()):
        if rule == REVIEWED:
            print(f"  left out, reviewed: {mutant}")
    within = reasons.get(SQL_CASE, 0) <= bound
    if not within:
        print(f"  left out for the case of SQL: {reasons.get(SQL_CASE, 0)}, over this module's bound of {bound}: "
              "look at what the rule now takes")
    for mutant, status in sorted(status_of.items()):
        if status == "survived" and mutant not in left_out:
            print(f"  survived: {mutant}")
    if not keep and not resume:
        shutil.rmtree(where, ignore_errors=True)
    return tally, within


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", choices=[[], *MODULES], metavar="MODULE",
                        help=f"some of: {', '.join(MODULES)} (default: all)")
    parser.add_argument("--list", action="store_true", help="the modules and their tests")
    parser.add_argument("--keep", action="store_true", help="keep the copy to read survivors")
    parser.add_argument("--resume", action="store_true",
                        help="go on in the kept copy (its results kept, the working tree copied over it)")
    parser.add_argument("--only", action="append", metavar="GLOB",
                        help="run these mutants (mutmut names, globs allowed), tried or not: a slice")
    parser.add_argument("--report", action="store_true", help="with --resume, run nothing: the tally so far")
    parser.add_argument("--rerun", action="append", metavar="STATUS",
                        help="with --resume, run again the mutants of this status (survived, timeout)")
    args = parser.parse_args(argv)
    if args.list:
        for name, (target, tests) in MODULES.items():
            print(f"{name:14} {target:28} {' '.join(tests)}")
        return 0
    budget = float(os.environ.get("TAPIS_MUTATION_BUDGET", "480"))
    within = True
    for name in args.modules or MODULES:
        within &= run_module(name, budget, keep=args.keep, resume=args.resume, only=args.only,
                             rerun=args.rerun, report=args.report)[1]
    return 0 if within else 1


if __name__ == "__main__":
    raise SystemExit(main())
