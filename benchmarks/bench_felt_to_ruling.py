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
ruling is published on MQTT). Two boards side by side, in turn, on the same table and faults:
  - per antenna: the firmware since issue #33, each antenna's frames sent as it is read;
  - whole scans: the firmware before, a scan's frames sent at its end.
Times are CLOCK_MONOTONIC in one process. Measure on a quiet machine.

    python benchmarks/bench_felt_to_ruling.py [--hands 40] [--scan-period-ms 50] [--only per-antenna]
"""

from __future__ import annotations

import argparse
import functools
import logging
import random
import statistics
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field

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
from table_agent.read_order import ORDER_FAULTS
from tablewire import wire
from tablewire.faults import FaultKind
from tablewire.mqtt import MqttLink

ZONES = [f"seat:{s}" for s in range(1, 10)] + ["board", "board", "burn", "muck", "tray"]
SEAT_ANTENNAS = frozenset(range(9))
# what the hub rules without a card of the felt (betting), or from a press rather than a card
NO_CARD = frozenset({FaultKind.OUT_OF_TURN, FaultKind.INSUFFICIENT_BET, FaultKind.TIME_EXPIRED,
                     FaultKind.ABSENT_PLAYER, FaultKind.MISSING_HOLE_CARD})
KINDS = tuple(k for k in INJECTABLE if k not in NO_CARD)


@dataclass
class Felt_:
    """When each card last touched the felt: (monotonic time, antenna, placed)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    last: dict[str, tuple[float, int, bool]] = field(default_factory=dict)  # face -> ...


class TimedBoard(ReaderBoardSimulator):
    """Notes the felt moment of every card: when the croupier puts it down or takes it off."""

    felt: Felt_
    registry: DeckRegistry

    def _touched(self, antenna: int, uid: bytes, placed: bool) -> None:
        face = self.registry.lookup(uid).card
        with self.felt.lock:
            self.felt.last[str(face) if face is not None else uid.hex()] = (time.monotonic(), antenna, placed)

    def place(self, antenna: int, uid: bytes) -> None:
        self._touched(antenna, uid, True)
        super().place(antenna, uid)

    def remove(self, antenna: int, uid: bytes) -> None:
        self._touched(antenna, uid, False)
        super().remove(antenna, uid)


def run(args: argparse.Namespace, *, whole_scans: bool) -> tuple[dict[str, list[float]], dict[str, float]]:
    """One table dealing `args.hands` hands; (ms felt -> ruling by kind, what the agent ran with)."""
    registry = DeckRegistry.generate(["t1", "t2"])  # t2: the deck a foreign card comes from
    felt_times = Felt_()
    latencies: dict[str, list[float]] = defaultdict(list)
    with EmbeddedBroker() as broker:
        room = demo.Room(hub=None, tables=[], registry=registry)
        hub = demo.start_hub(room, host=broker.host, port=broker.port, ids=["t1"], seed=args.seed)

        def on_event(event: dict[str, object]) -> None:
            now = time.monotonic()
            if event.get("type") != "fault" or event.get("table") != "t1":
                return
            kind = str(event["kind"])
            cards = [str(c) for c in event.get("cards") or []]  # type: ignore[attr-defined]
            with felt_times.lock:
                touched = [felt_times.last[c] for c in cards if c in felt_times.last]
            if not touched:
                return
            at, antenna, placed = max(touched)
            where = "seat" if placed and antenna in SEAT_ANTENNAS else "other"
            latencies[f"{kind}|{where}"].append((now - at) * 1000)

        hub.add_listener(on_event)
        board = TimedBoard(antennas=len(ZONES), scan_period=args.scan_period_ms / 1000, miss_rate=args.miss_rate,
                           dropout_rate=args.miss_rate / 2, rng=random.Random(f"{args.seed}:rf"),
                           timing=REFERENCE, whole_scans=whole_scans)
        board.felt, board.registry = felt_times, registry
        board.start()
        room._closers.append(board.close)
        profile = TableProfile(table="t1", seats=9, antennas=dict(enumerate(ZONES)),
                               reader=ReaderConfig(url=board.port, scan_period_ms=args.scan_period_ms))
        link = MqttLink(client_id="tapis-table-t1", host=broker.host, port=broker.port,
                        will=(wire.table_status("t1"), wire.OFFLINE))
        agent = TableAgent(profile=profile, registry=registry, publisher=link, clock=MonotonicClock(),
                           open_link=functools.partial(SerialLink, board.port))
        link.start()
        room._closers.append(link.stop)
        agent.start()
        room._closers.append(agent.stop)
        seats, button = demo.seating("t1", args.seed)
        table = demo.SimTable(profile, board, agent, link, Felt(profile=profile, registry=registry, board=board),
                              seats, button=button)
        room.tables.append(table)
        plan = FaultPlan(rate=1.0, rng=random.Random(args.seed), kinds=KINDS)
        started = time.monotonic()
        try:
            demo.deal(room, table, hands=args.hands, pace=args.pace, seed=args.seed, faults=plan)
        finally:
            ran = {"scan_period_ms": agent.stats.scan_period_ms, "window_ms": agent.watch.judge.window * 1000,
                   "seconds": time.monotonic() - started, "hands": table.croupier.hands if table.croupier else 0}
            room.close()
    return latencies, ran


def summary(values: list[float]) -> str:
    if not values:
        return f"{0:>4} {'-':>7} {'-':>7}"
    return f"{len(values):>4} {statistics.fmean(values):>7.0f} {max(values):>7.0f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--scan-period-ms", type=int, default=50,
                    help="the profile's scan_period_ms (50: back to back, as deploy/etc-tapis/table.toml)")
    ap.add_argument("--pace", type=float, default=0.05,
                    help="seconds between the croupier's cards (it also waits until each is read)")
    ap.add_argument("--miss-rate", type=float, default=0.02, help="an antenna's whole read lost in a scan")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--only", choices=("per-antenna", "whole-scans"))
    ap.add_argument("--budget-ms", type=float, default=400.0)
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)  # the agents' pace notes and the hub's rulings: not figures
    modes = [m for m in ("per-antenna", "whole-scans") if args.only in (None, m)]
    results = {}
    for mode in modes:
        results[mode] = run(args, whole_scans=mode == "whole-scans")
    dealt = REFERENCE.scan_ms((2,) * 9 + (5, 0, 3, 0, 0))
    print(f"felt -> ruling at the hub, ms: one 9-seat table, 14 antennas, the firmware's timing "
          f"(a dealt table's scan {dealt:.0f} ms, an empty one {REFERENCE.scan_ms((0,) * 14):.0f} ms), "
          f"profile scan_period_ms = {args.scan_period_ms}, {args.miss_rate:.0%} of antenna reads lost")
    for mode, (_, ran) in results.items():
        print(f"  {mode}: {ran['hands']} hands in {ran['seconds']:.0f} s; the agent's scan period "
              f"{ran['scan_period_ms']} ms (from the board's heartbeats), order window {ran['window_ms']:.0f} ms")
    keys = sorted({k for lat, _ in results.values() for k in lat})
    print(f"{'fault kind':<24}{'card to':>8}" + "".join(f"{m + ': n  mean  worst':>30}" for m in modes))
    for key in keys:
        kind, where = key.split("|")
        order = " (order)" if FaultKind(kind) in ORDER_FAULTS else ""
        print(f"{kind + order:<30}{where:>6}" + "".join(f"{summary(results[m][0].get(key, [])):>24}      "
                                                       for m in modes))
    for mode, (lat, _) in results.items():
        groups: dict[str, list[float]] = {"seat, judged at once": [], "seat, order (held for the window)": [],
                                          "other zones": []}
        for key, values in lat.items():
            kind, where = key.split("|")
            if where != "seat":
                groups["other zones"] += values
            elif FaultKind(kind) in ORDER_FAULTS:
                groups["seat, order (held for the window)"] += values
            else:
                groups["seat, judged at once"] += values
        for name, values in groups.items():
            if values:
                verdict = "meets" if max(values) < args.budget_ms else "MISSES"
                print(f"{mode:<12} {name:<36} n {len(values):>3}  mean {statistics.fmean(values):>4.0f}  "
                      f"worst {max(values):>4.0f} ms: {verdict} the {args.budget_ms:.0f} ms budget")


if __name__ == "__main__":
    main()
