"""bench_load's tournament hub: the graph `tapis hub --db FILE` runs (`hub.cli.build_hub`: `HubLink`, the
service, `FloorTables` and the `FloorService` on a durable `EventStore`, SQLite WAL, synchronous FULL),
on a tournament seated on the simulated tables, its clock running, and what the floor does measured.

The tournament: nine players a table (nine seats), as many tables as the room, one-minute levels (no
break) so the blinds climb during a run; the tables' players move all in now and then
(`--allin`), so players bust, the floor balances and breaks tables as it does late in a festival.

`Probe` measures in the hub's process, on the hub's thread: every SQL statement the store runs
(its time, and the COMMITs), the floor's records by kind (eliminations, moves, broken tables, levels,
hand for hand), and, through the service's listeners, each hub event's latency from the table's
event that caused it (the table stamps `at` on CLOCK_MONOTONIC, shared by the processes here).
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from hub.cli import HubParts, build_hub, freeze_boot_heap
from hub.floor.commands import NewTournament
from hub.floor.service import FloorService
from hub.floor.store import JSON, EventStore
from hub.tournament.events import Event
from hub.tournament.structure import AnteKind, Level, Structure, to_toml

SEATS = 9  # the lightweight tables' profile has nine seats


def bench_structure() -> Structure:
    """One-minute levels, no break: a run of a minute or two sees the clock move and the blinds climb."""
    blinds = [25, 50, 75, 100, 150, 200, 300, 400, 500, 600, 800, 1000, 1500, 2000, 3000, 4000,
              5000, 6000, 8000, 10000, 15000, 20000, 30000, 40000, 50000, 60000, 80000, 100000]
    return Structure("bench", 10_000, tuple(
        Level(n, sb, 2 * sb, 1, sb // 5 if n >= 4 else 0, AnteKind.PER_PLAYER if n >= 4 else AnteKind.NONE)
        for n, sb in enumerate(blinds, start=1)))


def seed_tournament(path: str, tables: int, seed: int) -> None:
    """A new store holding the tournament: registered, seated by draw on `tables` tables, clock started."""
    now = time.time()
    with EventStore(path) as store:
        floor = FloorService(store)
        floor.create(NewTournament.model_validate({
            "name": f"bench {tables} tables", "ruleset": "cdc-2013", "structure_toml": to_toml(bench_structure()),
            "seats_per_table": SEATS, "buy_in_cents": 5_000, "payouts": "pouques", "seed": seed}), now)
        names: list[JSON] = [f"joueur{i:05d}" for i in range(1, tables * SEATS + 1)]
        commands: list[dict[str, JSON]] = [{"cmd": "register", "players": names[i:i + 1000]}
                                           for i in range(0, len(names), 1000)]
        commands += [{"cmd": "seat"}, {"cmd": "start"}]
        for command in commands:
            result = floor.execute(command, now)
            if not result.ok:
                raise SystemExit(f"bench_load: the tournament's setup failed: {result.error}")
        seated = len(floor.require().state.tables)
        if seated != tables:
            raise SystemExit(f"bench_load: the draw seated {seated} tables, not {tables}")


class Probe:
    """What the tournament hub does, measured on its own thread (see the module docstring)."""

    def __init__(self, parts: HubParts, tmp: str) -> None:
        self.parts, self.tmp = parts, tmp
        assert parts.store is not None and parts.floor_tables is not None
        self.store: EventStore = parts.store
        self.sql_s = 0.0  # seconds inside the store's statements
        self.statements = 0
        self.commits = 0
        self.records: Counter[str] = Counter()  # the floor's tournament records by kind
        self.kinds: Counter[str] = Counter()  # hub events by type
        self.latency: dict[str, list[float]] = {"hand_start": [], "fault": [], "floor_moves": []}
        self._at: float | None = None  # the table event being played: its `at`
        execute = self.store._exec  # noqa: SLF001 - the bench times the store's every statement

        def timed(sql: str, params: tuple[object, ...] = ()) -> Any:
            began = time.perf_counter()
            try:
                return execute(sql, params)
            finally:
                self.sql_s += time.perf_counter() - began
                self.statements += 1
                if sql == "COMMIT":
                    self.commits += 1

        self.store._exec = timed  # type: ignore[method-assign]  # noqa: SLF001
        self.sync_s = 0.0  # seconds in the link's barriers: the group commit's fsyncs
        self.sync_waits: list[float] = []  # each barrier that synced: its seconds
        barriers = parts.link._before_write  # noqa: SLF001 - the bench times the group commit's fsync

        def timing(barrier: Any) -> Any:
            def timed_barrier() -> None:
                began, syncs = time.perf_counter(), self.store.syncs
                try:
                    barrier()
                finally:
                    spent = time.perf_counter() - began
                    self.sync_s += spent
                    if self.store.syncs > syncs:
                        self.sync_waits.append(spent)
            return timed_barrier

        barriers[:] = [timing(b) for b in barriers]
        tables = parts.floor_tables
        receive = tables.receive

        def stamped(table: str, event: Any, payload: bytes, now: float) -> Any:
            self._at = event.at
            return receive(table, event, payload, now)

        tables.receive = stamped  # type: ignore[method-assign]
        tables.floor.listeners.append(self._records)
        parts.service.add_listener(self._hub_event)

    def _records(self, events: list[Event]) -> None:
        for event in events:
            self.records[type(event).__name__] += 1

    def _hub_event(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        self.kinds[kind] += 1
        if kind in self.latency and self._at is not None:
            self.latency[kind].append(time.monotonic() - self._at)

    def sample(self) -> dict[str, float]:
        return {"sql_s": self.sql_s + self.sync_s, "statements": self.statements, "commits": self.commits,
                "syncs": self.store.syncs,
                "hand_starts": self.kinds["hand_start"], "rulings": self.kinds["fault"],
                "hand_ends": self.kinds["hand_end"], "refused": self.kinds["hand_refused"],
                "eliminated": self.records["PlayerEliminated"], "moves": self.records["MoveOrdered"],
                "broken": self.records["TableBroken"], "levels": self.records["LevelStarted"]}

    def filesystem(self) -> str:
        """The store's directory and its filesystem (/proc/mounts): a tmpfs never waits for a disk."""
        where = str(Path(self.tmp).resolve())
        best, kind = "", "?"
        try:
            for line in Path("/proc/mounts").read_text().splitlines():
                _dev, mount, fstype, *_ = line.split()
                if (where == mount or where.startswith(mount.rstrip("/") + "/")) and len(mount) > len(best):
                    best, kind = mount, fstype
        except OSError:
            pass
        return f"{self.tmp} on {kind}" + (" (in memory: its fsyncs cost nothing)" if kind == "tmpfs" else "")

    def report(self, a: dict[str, float], b: dict[str, float], seconds: float, events: float) -> list[str]:
        """The floor's lines for the run between samples `a` and `b`."""
        def rate(key: str) -> float:
            return (b[key] - a[key]) / seconds

        def p(key: str) -> str:
            values = sorted(self.latency[key])
            if len(values) < 2:
                return "n/a"
            q = statistics.quantiles(values, n=100)
            return f"{statistics.median(values) * 1000:.1f} / {q[98] * 1000:.1f} ms ({len(values)})"

        tables = self.parts.floor_tables
        assert tables is not None
        state = tables.floor.require().state
        return [
            f"tournament: {rate('hand_starts'):.1f} hand starts/s, {rate('hand_ends'):.1f} hands ended/s, "
            f"{rate('rulings'):.1f} rulings/s, {rate('refused'):.1f} hand starts refused/s (a broken or short table); "
            f"{b['eliminated'] - a['eliminated']:.0f} players out, {b['moves'] - a['moves']:.0f} seat moves, "
            f"{b['broken'] - a['broken']:.0f} tables broken, {b['levels'] - a['levels']:.0f} levels started; "
            f"at the end {len(state.alive())} players on {len(state.tables)} tables"
            + (", hand for hand" if state.hand_for_hand else ""),
            f"table event -> hand start p50/p99 {p('hand_start')}; -> ruling {p('fault')}; "
            f"hand's last event -> seat moves {p('floor_moves')}",
            f"store ({self.filesystem()}): {rate('commits'):.0f} commits/s "
            f"({(b['commits'] - a['commits']) / events:.2f} per table event), "
            f"{rate('syncs'):.0f} group fsyncs/s ({(b['syncs'] - a['syncs']) / events:.2f} per table event; "
            "0: each COMMIT synced itself), "
            f"{(b['statements'] - a['statements']) / events:.1f} statements and "
            f"{(b['sql_s'] - a['sql_s']) / events * 1e6:.0f} us in the store per table event, its fsyncs included "
            f"({(b['sql_s'] - a['sql_s']) / seconds * 100:.0f} % of the wall time)"
            + (f"; a group fsync p50/p99 {sync_p}" if (sync_p := self._quantiles(self.sync_waits)) else "")]

    @staticmethod
    def _quantiles(values: list[float]) -> str:
        if len(values) < 2:
            return ""
        q = statistics.quantiles(values, n=100)
        slow = [v for v in values if v > 0.010]  # what holds the hub's thread long enough to show in a p99
        return (f"{statistics.median(values) * 1000:.1f} / {q[98] * 1000:.1f} ms ({len(values)}), "
                f"max {max(values) * 1000:.1f} ms, {len(slow)} over 10 ms ({sum(slow) * 1000:.0f} ms in all)")

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


def start_tournament_hub(port: int, tables: int, seed: int, db_dir: str | None, *,
                         group_sync: bool = True, record_hands: bool = True, turns: bool = True,
                         durable: bool = True, gather: bool = True) -> tuple[HubParts, Probe]:
    """`tapis hub --broker mqtt://127.0.0.1:PORT --db FILE --dashboard 0`'s graph on a fresh tournament;
    `group_sync=False`: its store synced at every COMMIT, as before the group commit; `record_hands=False`:
    no hand history written (the recorder off); `turns=False`: one transaction per table event, as before
    the hub's turn (`hub.edge.service_store`); `gather=False`: a busy room's turn drained at once, as before
    the turn gathered (`hub.edge.service_loop.GATHER_SECONDS`)."""
    tmp = tempfile.mkdtemp(prefix="tapis-bench-db-", dir=db_dir)
    path = str(Path(tmp) / "tournament.db")
    seed_tournament(path, tables, seed)
    parts = build_hub("127.0.0.1", port, path, group_sync=group_sync, record_hands=record_hands, durable=durable)
    freeze_boot_heap()  # as `tapis hub` does once it is built
    if not turns:  # the code before the turn: each event in its own transaction (the bench's comparison only)
        parts.service._open_turn = lambda: None  # type: ignore[method-assign]  # noqa: SLF001
    if not gather:  # the code before the gathering (the bench's comparison only)
        parts.service._gather = 0.0  # noqa: SLF001
    return parts, Probe(parts, tmp)
