"""Felt to ruling: a card put on the felt -> the ruling at the hub, by fault kind, through the real code.

One 9-seat table wired as deploy/etc-tapis/table.toml (14 antennas: nine seats, the board on two, burn,
muck, tray), its reader board simulated on a real pty with the firmware's timing model
(`firmware_bridge.timing`: each antenna's inventory takes what the real firmware takes on the
register-level MFRC522 model at 1.95 MHz SPI, and a card is read only if it lies there when its antenna's
inventory starts). The table agent reads the pty through `SerialLink` (`tapis agent`'s own classes), the
hub runs the table's hands and rulings, Mosquitto between them. A simulated croupier makes one dealing
fault a hand (`simulators.fault_plan`), waiting until the table has read each card before the next.

For every fault the hub rules, the time from the felt moment (the simulated board's `place` or
`remove` of the fault's card, the last such before the ruling) to the hub's listener (called after the
ruling is published on MQTT), cut where it goes: the felt to the card's read at the agent (the scan
coming round, the antenna's inventory, USB), the read to the agent's judgement (a move waiting for the
card's old antenna, an order fault's doubt), the judgement to the hub's ruling (MQTT, the rules engine).
Agents side by side, on the same table, firmware and faults (each mode its own processes, `--jobs`
of them, run at the same time):
  - now: moves and the read-order doubt settled from the board's scan (issue #33: the board says when
    each antenna is done, `AntennaDone`; a card whose old antenna's last pass did not read it moves at
    its first read elsewhere; an order fault's doubt ends once every antenna has been read again);
  - before: no `AntennaDone`; moves waited for the old antenna in the same scan, the doubt for 1.5
    scan periods;
  - whole-scans (ask for it with --modes): the firmware before issue #33, a scan's frames sent at its end.
Times are CLOCK_MONOTONIC in one process. `--markdown` prints the table of docs/faults.md.

    python benchmarks/bench_felt_to_ruling.py [--hands 100] [--jobs 2] [--modes before,now] [--markdown]
"""

from __future__ import annotations

import argparse
import functools
import logging
import multiprocessing
import random
import statistics
import threading
import time
from dataclasses import dataclass, field
from typing import NamedTuple

from firmware_bridge.frames import BoardFrame, TagSeen
from firmware_bridge.timing import REFERENCE
from hub.edge.broker import EmbeddedBroker
from hw.decks import DeckRegistry
from hw.ports import MonotonicClock
from hw.profile import ReaderConfig, TableProfile
from hw.serial_link import SerialLink
from simulators import demo
from simulators.dealer import Felt
from simulators.fault_plan import INJECTABLE, FaultPlan
from simulators.reader_board import ReaderBoardSimulator
from table_agent.agent import TableAgent
from table_agent.dealing import FaultDetected
from table_agent.read_order import ORDER_FAULTS, Item
from tablewire import wire
from tablewire.faults import FaultKind
from tablewire.mqtt import MqttLink

ZONES = [f"seat:{s}" for s in range(1, 10)] + ["board", "board", "burn", "muck", "tray"]
SEAT_ANTENNAS = frozenset(range(9))
# what the hub rules without a card of the felt (betting), or from a press rather than a card
NO_CARD = frozenset({FaultKind.OUT_OF_TURN, FaultKind.INSUFFICIENT_BET, FaultKind.TIME_EXPIRED,
                     FaultKind.ABSENT_PLAYER, FaultKind.MISSING_HOLE_CARD})
KINDS = tuple(k for k in INJECTABLE if k not in NO_CARD)
MODES = ("before", "now", "whole-scans")
GROUPS = ("seat, judged at once", "seat, order (the doubt)", "other zones")


class Sample(NamedTuple):
    """One ruling: its kind, where the card went (`seat` or `other`), and ms felt -> ruling, cut in
    three: felt -> read at the agent, read -> judged, judged -> the hub's ruling."""

    kind: str
    where: str
    total: float
    read: float
    held: float
    sent: float
    missed: bool  # the board missed the card at a pass after the felt moment (RF: one more scan)


@dataclass
class Felt_:
    """When each card last touched the felt: (monotonic time, antenna, placed)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    last: dict[str, tuple[float, int, bool]] = field(default_factory=dict)  # face or uid -> ...
    missed: dict[str, float] = field(default_factory=dict)  # face or uid -> when a pass last missed it
    unknown: str | None = None  # the last tag of no deck put down (an `unknown_tag` names no card)


class TimedBoard(ReaderBoardSimulator):
    """Notes the felt moment of every card: when the croupier puts it down or takes it off."""

    felt: Felt_
    registry: DeckRegistry

    def start(self) -> None:
        logic = self._logic
        read_antenna = logic.read_antenna

        def read_noting_misses(antenna: int) -> list[BoardFrame]:
            frames = read_antenna(antenna)
            seen = {f.uid for f in frames if isinstance(f, TagSeen)}
            now = time.monotonic()
            with self.felt.lock:
                for uid in logic.present(antenna):
                    if uid not in seen:
                        self.felt.missed[self._name(uid)] = now
            return frames

        logic.read_antenna = read_noting_misses  # type: ignore[method-assign]
        super().start()

    def _name(self, uid: bytes) -> str:
        face = self.registry.lookup(uid).card
        return str(face) if face is not None else uid.hex()

    def _touched(self, antenna: int, uid: bytes, placed: bool) -> None:
        name = self._name(uid)
        with self.felt.lock:
            self.felt.last[name] = (time.monotonic(), antenna, placed)
            if placed and self.registry.lookup(uid).card is None:
                self.felt.unknown = name

    def place(self, antenna: int, uid: bytes) -> None:
        self._touched(antenna, uid, True)
        super().place(antenna, uid)

    def remove(self, antenna: int, uid: bytes) -> None:
        self._touched(antenna, uid, False)
        super().remove(antenna, uid)


class TimedAgent(TableAgent):
    """Notes when each fault is judged (published) and when its card was read."""

    judged: dict[tuple[str, tuple[str, ...]], tuple[float, float]]

    def _publish(self, items: list[Item]) -> None:
        now = time.monotonic()
        for item in items:
            if isinstance(item, FaultDetected):
                self.judged[(str(item.kind), _cards(item.cards))] = (now, item.at)
        super()._publish(items)


def _cards(cards: object) -> tuple[str, ...]:
    return tuple(str(c) for c in cards) if isinstance(cards, list | tuple) else ()


def run(args: argparse.Namespace, mode: str, job: int) -> tuple[list[Sample], dict[str, float]]:
    """One table dealing `args.hands` hands; (the rulings timed, what the agent ran with)."""
    seed = args.seed + job
    registry = DeckRegistry.generate(["t1", "t2"])  # t2: the deck a foreign card comes from
    felt_times = Felt_()
    samples: list[Sample] = []
    with EmbeddedBroker() as broker:
        room = demo.Room(hub=None, tables=[], registry=registry)
        hub = demo.start_hub(room, host=broker.host, port=broker.port, ids=["t1"], seed=seed)
        judged: dict[tuple[str, tuple[str, ...]], tuple[float, float]] = {}

        def on_event(event: dict[str, object]) -> None:
            now = time.monotonic()
            if event.get("type") != "fault" or event.get("table") != "t1":
                return
            kind = str(event["kind"])
            cards = _cards(event.get("cards"))
            mark = judged.get((kind, cards))
            with felt_times.lock:
                named = cards or ((felt_times.unknown,) if kind == FaultKind.UNKNOWN_TAG and felt_times.unknown else ())
                touched = [felt_times.last[c] for c in named if c in felt_times.last]
                missed = [felt_times.missed.get(c, 0.0) for c in named]
            if not touched or mark is None:
                return
            at, antenna, placed = max(touched)
            published, read = mark
            where = "seat" if placed and antenna in SEAT_ANTENNAS else "other"
            samples.append(Sample(kind, where, (now - at) * 1000, (read - at) * 1000, (published - read) * 1000,
                                  (now - published) * 1000, any(at < m < now for m in missed)))

        hub.add_listener(on_event)
        board = TimedBoard(antennas=len(ZONES), scan_period=args.scan_period_ms / 1000, miss_rate=args.miss_rate,
                           dropout_rate=args.miss_rate / 2, rng=random.Random(f"{seed}:rf"),
                           timing=REFERENCE, whole_scans=mode == "whole-scans", report_antennas=mode == "now")
        board.felt, board.registry = felt_times, registry
        board.start()
        room._closers.append(board.close)
        profile = TableProfile(table="t1", seats=9, antennas=dict(enumerate(ZONES)),
                               reader=ReaderConfig(url=board.port, scan_period_ms=args.scan_period_ms))
        link = MqttLink(client_id="tapis-table-t1", host=broker.host, port=broker.port,
                        will=(wire.table_status("t1"), wire.OFFLINE))
        agent = TimedAgent(profile=profile, registry=registry, publisher=link, clock=MonotonicClock(),
                           open_link=functools.partial(SerialLink, board.port))
        agent.judged = judged
        if mode == "before":  # the agent and board before the budget's work: scan ends and the window only
            agent.presence.across_scans = False
            agent.watch.judge.by_scans = False
        link.start()
        room._closers.append(link.stop)
        agent.start()
        room._closers.append(agent.stop)
        seats, button = demo.seating("t1", seed)
        table = demo.SimTable(profile, board, agent, link, Felt(profile=profile, registry=registry, board=board),
                              seats, button=button)
        room.tables.append(table)
        plan = FaultPlan(rate=1.0, rng=random.Random(seed), kinds=args.kinds)
        started = time.monotonic()
        try:
            demo.deal(room, table, hands=args.hands, pace=args.pace, seed=seed, faults=plan)
        finally:
            ran = {"scan_period_ms": agent.stats.scan_period_ms, "window_ms": agent.watch.judge.window * 1000,
                   "seconds": time.monotonic() - started, "hands": table.croupier.hands if table.croupier else 0}
            room.close()
    return samples, ran


def _run_job(task: tuple[argparse.Namespace, str, int]) -> tuple[str, list[Sample], dict[str, float]]:
    logging.basicConfig(level=logging.ERROR)
    args, mode, job = task
    samples, ran = run(args, mode, job)
    return mode, samples, ran


def group_of(sample: Sample) -> str:
    if sample.where != "seat":
        return GROUPS[2]
    return GROUPS[1] if FaultKind(sample.kind) in ORDER_FAULTS else GROUPS[0]


def summary(samples: list[Sample]) -> str:
    """n, mean, worst, and the worst of the cards the board read at its first pass after the felt."""
    if not samples:
        return f"{0:>4} {'-':>6} {'-':>6} {'-':>6}"
    first = [s.total for s in samples if not s.missed]
    return (f"{len(samples):>4} {statistics.fmean(s.total for s in samples):>6.0f} "
            f"{max(s.total for s in samples):>6.0f} {max(first) if first else float('nan'):>6.0f}")


def rows(results: dict[str, list[Sample]]) -> list[tuple[str, str]]:
    """(kind, where) measured in any mode: seats first, then by kind."""
    keys = {(s.kind, s.where) for samples in results.values() for s in samples}
    return sorted(keys, key=lambda k: (k[1] != "seat", FaultKind(k[0]) in ORDER_FAULTS, k[0]))


def _cell(samples: list[Sample]) -> str:
    if not samples:
        return "- | - | -"
    first = [s.total for s in samples if not s.missed]
    once = f"{max(first):.0f}" if first else "-"
    return f"{statistics.fmean(s.total for s in samples):.0f} | {max(s.total for s in samples):.0f} | {once}"


def markdown(results: dict[str, list[Sample]], modes: list[str]) -> list[str]:
    """The table docs/faults.md shows: per kind, n, then per mode the mean, the worst and the worst of
    the cards read at the first pass; the parts of the last mode's mean."""
    last = modes[-1]
    head = ("| fault kind | the card goes to | n | "
            + " | ".join(f"{m}: mean | worst | worst, read at once" for m in modes)
            + f" | {last}: felt to read | read to judged | judged to ruling |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for kind, where in rows(results):
        picked = {m: [s for s in results[m] if (s.kind, s.where) == (kind, where)] for m in modes}
        n = "/".join(str(len(picked[m])) for m in modes)
        parts = [f"{statistics.fmean(getattr(s, part) for s in picked[last]):.0f}" if picked[last] else "-"
                 for part in ("read", "held", "sent")]
        order = " (order)" if FaultKind(kind) in ORDER_FAULTS else ""
        lines.append(f"| `{kind}`{order} | {'a seat' if where == 'seat' else 'another zone'} | {n} | "
                     + " | ".join(_cell(picked[m]) for m in modes) + " | " + " | ".join(parts) + " |")
    return lines


def markdown_groups(results: dict[str, list[Sample]], modes: list[str]) -> list[str]:
    """The budget by group, as docs/faults.md states it: per mode n, mean, worst, worst read at once."""
    head = "| group | " + " | ".join(f"{m}: n | mean | worst | worst, read at once" for m in modes) + " |"
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for name in GROUPS:
        cells = []
        for mode in modes:
            picked = [s for s in results[mode] if group_of(s) == name]
            cells.append(f"{len(picked)} | " + _cell(picked))
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=40, help="hands per job")
    ap.add_argument("--jobs", type=int, default=1, help="tables per mode, each in its own process (seeds apart)")
    ap.add_argument("--modes", default="before,now", help=f"comma-separated, of {', '.join(MODES)}")
    ap.add_argument("--scan-period-ms", type=int, default=50,
                    help="the profile's scan_period_ms (50: back to back, as deploy/etc-tapis/table.toml)")
    ap.add_argument("--pace", type=float, default=0.05,
                    help="seconds between the croupier's cards (it also waits until each is read)")
    ap.add_argument("--miss-rate", type=float, default=0.02, help="an antenna's whole read lost in a scan")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--budget-ms", type=float, default=400.0)
    ap.add_argument("--markdown", action="store_true", help="also print the table of docs/faults.md")
    ap.add_argument("--kinds", default=",".join(KINDS), help="the faults the croupier makes (default: all "
                    "but those of the betting and the presses)")
    args = ap.parse_args()
    args.kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    unknown = [k for k in args.kinds if k not in {str(x) for x in KINDS}]
    if unknown or not args.kinds:
        ap.error(f"--kinds: {', '.join(unknown) or 'none'}; expected some of {', '.join(KINDS)}")
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    strange = [m for m in modes if m not in MODES]
    if strange or not modes:
        ap.error(f"--modes: {', '.join(strange) or 'none'}; expected some of {', '.join(MODES)}")
    logging.basicConfig(level=logging.ERROR)  # the agents' pace notes and the hub's rulings: not figures
    tasks = [(args, mode, job) for job in range(args.jobs) for mode in modes]
    with multiprocessing.get_context("spawn").Pool(len(tasks)) as pool:
        done = pool.map(_run_job, tasks)
    results: dict[str, list[Sample]] = {m: [] for m in modes}
    ran: dict[str, list[dict[str, float]]] = {m: [] for m in modes}
    for mode, samples, info in done:
        results[mode] += samples
        ran[mode].append(info)
    dealt = REFERENCE.scan_ms((2,) * 9 + (5, 0, 3, 0, 0))
    print(f"felt -> ruling at the hub, ms: one 9-seat table, 14 antennas, the firmware's timing "
          f"(a dealt table's scan {dealt:.0f} ms, an empty one {REFERENCE.scan_ms((0,) * 14):.0f} ms), "
          f"profile scan_period_ms = {args.scan_period_ms}, {args.miss_rate:.0%} of antenna reads lost; "
          f"{len(tasks)} tables at once")
    for mode in modes:
        infos = ran[mode]
        print(f"  {mode}: {sum(i['hands'] for i in infos):.0f} hands on {len(infos)} tables in "
              f"{max(i['seconds'] for i in infos):.0f} s; the agents' scan period "
              f"{'/'.join(str(round(i['scan_period_ms'])) for i in infos)} ms (from the board's heartbeats)")
    print(f"{'fault kind':<28}{'card to':>7}" + "".join(f"{m + ': n  mean  worst  once':>30}" for m in modes)
          + f"   {modes[-1]}, means: felt>read  read>judged  judged>ruling")
    for kind, where in rows(results):
        order = " (order)" if FaultKind(kind) in ORDER_FAULTS else ""
        line = f"{kind + order:<28}{where:>7}"
        for mode in modes:
            line += f"{summary([s for s in results[mode] if (s.kind, s.where) == (kind, where)]):>30}"
        last = [s for s in results[modes[-1]] if (s.kind, s.where) == (kind, where)]
        if last:
            line += "  " + "".join(f"{statistics.fmean(getattr(s, p) for s in last):>12.0f}"
                                   for p in ("read", "held", "sent"))
        print(line)
    print("(once: the worst of the cards the board read at its first pass after the felt; a missed read "
          "costs one more scan)")
    for mode in modes:
        for name in GROUPS:
            picked = [s for s in results[mode] if group_of(s) == name]
            if picked:
                worst = max(s.total for s in picked)
                once = max((s.total for s in picked if not s.missed), default=float("nan"))
                verdict = "meets" if worst < args.budget_ms else "MISSES"
                mean = statistics.fmean(s.total for s in picked)
                print(f"{mode:<12} {name:<26} n {len(picked):>3}  mean {mean:>4.0f}  worst {worst:>4.0f} ms "
                      f"({once:.0f} read at once): {verdict} the "
                      f"{args.budget_ms:.0f} ms budget")
        seat = [s for s in results[mode] if s.where == "seat"]
        over = sorted({s.kind for s in seat if s.total >= args.budget_ms})
        over_once = sorted({s.kind for s in seat if s.total >= args.budget_ms and not s.missed})
        print(f"{mode:<12} seat kinds over {args.budget_ms:.0f} ms at worst: {', '.join(over) or 'none'}; "
              f"read at once: {', '.join(over_once) or 'none'}")
    if args.markdown:
        print()
        print("\n".join(markdown(results, modes)))
        print()
        print("\n".join(markdown_groups(results, modes)))


if __name__ == "__main__":
    main()
