"""Fault tests of a tournament whose table facts travel through MQTT (issue 7).

A simulated room (`simulators.tournament_room`: each table's facts through the agent's outbox path,
a real Mosquitto, the hub's `HubService` + `FloorTables` + `EventStore` on its installed link `HubLink`,
simulated time) is played
straight, then with a fault: the broker killed with SIGKILL (a real process) and restarted on the
same port, one table's cable pulled for ten minutes, one table's agent dying and restarted on its
outbox file, the hub dying and started again on its store. The table and hub "deaths" are in-process
(`simulators.tournament_room.sever`, `sever_hub`): the TCP connection cut both ways without a DISCONNECT, so the
broker fires the will (checked), and the thread stopped; a SIGKILL of a hub process is
tests/floor/test_kill.py.
After each: no fact lost or duplicated in the hub's store, every table's facts and hands as in the
straight run, the tournament (players, stacks, seats, ranking, prizes, level) equal.

The faults fall in stretches where the floor decides nothing across tables (only hands start and
end, or the clock changes level): the tests check that on the straight run. A late hand is set up as
of its table's time (`hub.floor.table_clock`), so a level change during a cut is played as dealt. The
last test cuts a table while the floor has something to decide across tables: busts heard late are
ranked by when they happened and the floor moves no one from or to a table it cannot reach, so the
tournament at the cut's end is the straight one's (docs/tournament.md, "Faults during a tournament").
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from hub.edge.broker import EmbeddedBroker
from hub.floor.store import JSON, EventStore
from simulators.tournament_demo import new_demo, open_room
from simulators.tournament_room import TournamentRoom, club_structure, stored_facts, tournament_state
from tests.support import wait_until

PLAYERS, TABLES, SEED = 20, 2, 11
STEPS = 1300  # about 21 simulated minutes at two tables (a fact a second)
CALM_KINDS = {"HandStarted", "HandEnded", "MoveConfirmed"}


@dataclass
class Run:
    facts: dict[str, list[dict[str, JSON]]]
    keys: list[tuple[str, str, int]]  # (table, boot, seq) of every stored fact
    state: dict[str, object]
    events: list[dict[str, JSON]]  # the floor's tournament events


Fault = Callable[[TournamentRoom, list[EmbeddedBroker]], None]


def _play(workdir: Path, fault: Fault | None = None, *, steps: int = STEPS) -> Run:
    """A fresh broker and room, `steps` facts; `fault(room, brokers)` is called after every step
    (`brokers[-1]` is the one running)."""
    workdir.mkdir()
    brokers = [EmbeddedBroker().start()]
    try:
        with TournamentRoom(workdir, host=brokers[0].host, port=brokers[0].port, players=PLAYERS,
                            tables=TABLES, seed=SEED, structure=club_structure()) as room:
            while room.steps < steps:
                room.step()
                if fault is not None:
                    fault(room, brokers)
            assert not room.views, "a fault was left open"
            with room.hub.floor_lock:
                rows = list(room.store.table_rows())
                events = list(room.store.tournament_events())
            return Run(room.facts(), [(r.table, r.boot, r.seq) for r in rows], room.state(), events)
    finally:
        brokers[-1].stop()


@pytest.fixture(scope="module")
def straight(tmp_path_factory: pytest.TempPathFactory) -> Run:
    return _play(tmp_path_factory.mktemp("straight") / "room")


def _calm(run: Run, start: float, end: float, *, also: frozenset[str] | set[str] = frozenset()) -> bool:
    """Between `start` and `end` the floor only started and ended hands (nothing across tables)."""
    return all(e["type"] in CALM_KINDS | also for e in run.events
               if isinstance(e.get("at"), float | int) and start <= float(e["at"]) <= end)  # type: ignore[arg-type]


def _timeless(events: list[dict[str, JSON]]) -> list[str]:
    """The floor's events as a sorted list without their times: late facts are decided later."""
    return sorted(json.dumps({k: v for k, v in e.items() if k != "at"}, sort_keys=True) for e in events)


def _assert_same_tournament(run: Run, straight: Run) -> None:
    assert len(run.keys) == len(set(run.keys))  # nothing stored twice
    assert run.facts == straight.facts  # nothing lost, nothing doubled, each table in its order
    assert run.state == straight.state  # players, stacks, seats, ranking, prizes, level, hands
    assert _timeless(run.events) == _timeless(straight.events)


def test_room_through_mqtt_stores_what_the_in_process_demo_stores(straight: Run) -> None:
    """Without faults the room is the demo's tournament, fact for fact and decision for decision."""
    with EventStore(":memory:", durable=False) as store:
        new_demo(store, players=PLAYERS, tables=TABLES, ruleset="cdc-2013", seed=SEED, structure=club_structure())
        room = open_room(store, seed=SEED)
        while room.steps < STEPS:
            room.step()
        assert stored_facts(store) == straight.facts
        assert list(store.tournament_events()) == straight.events  # the same times too
        assert tournament_state(room.floor, room.tables) == straight.state
    assert {boot for _t, boot, _s in straight.keys} == {"t1-1", "t2-1"}
    assert [s for t, _b, s in straight.keys if t == "t1"] == list(range(1, len(straight.facts["t1"]) + 1))
    players = straight.state["players"]
    assert isinstance(players, dict)
    assert any(status == "out" for status, *_ in players.values())  # a tournament with busts


def test_broker_killed_mid_tournament_loses_and_doubles_nothing(straight: Run, tmp_path: Path) -> None:
    """kill -9 of Mosquitto mid-hand; both tables deal on for 40 s; a new one on the same port."""
    kill_at, outage = 700, 40
    seen: dict[str, float] = {}

    def fault(room: TournamentRoom, brokers: list[EmbeddedBroker]) -> None:
        if room.steps == kill_at:
            seen["killed"] = room.clock.now()
            with room.hub.floor_lock:
                seen["mid_hand"] = sum(1 for t in room.tables.tables if (g := room.tables.game(t)) and g.in_hand)
            brokers[-1].kill()  # no will, no goodbye, no session or retained message survives
            room.lose_hub()
        elif room.steps == kill_at + outage:
            seen["back"] = room.clock.now()
            seen["kept"] = sum(len(line.outbox) for line in room.lines.values())
            brokers.append(EmbeddedBroker(port=brokers[-1].port).start())
            room.found_hub()  # every outbox drained, the hub played each table as the table did
            seen["unsent"] = sum(len(line.outbox) for line in room.lines.values())

    run = _play(tmp_path / "room", fault)
    assert _calm(straight, seen["killed"], seen["back"])
    assert seen["mid_hand"] == TABLES  # every table was in a hand when the broker died
    assert seen["kept"] == outage  # every fact dealt meanwhile waited in its table's outbox
    assert seen["unsent"] == 0
    _assert_same_tournament(run, straight)


def test_table_cut_off_for_ten_minutes_keeps_dealing(straight: Run, tmp_path: Path) -> None:
    """t1's cable pulled for ten simulated minutes: it deals on; its backlog reaches the hub at once
    when it is back, and the hub plays it exactly as the table did (checked by `found_hub`)."""
    cut_at, minutes = 400, 10
    seen: dict[str, float] = {}

    def fault(room: TournamentRoom, _brokers: list[EmbeddedBroker]) -> None:
        if room.steps == cut_at:
            seen["cut"] = room.clock.now()
            seen["hand_at_cut"] = _hand(room, "t1")
            room.cut("t1")
        elif "cut" in seen and "back" not in seen and room.clock.now() >= seen["cut"] + 60 * minutes:
            seen["back"] = room.clock.now()
            seen["kept"] = len(room.lines["t1"].outbox)
            seen["hub_hand"] = _hand(room, "t1")  # the hub heard nothing of t1 meanwhile
            seen["own_hand"] = room.views["t1"].tables.game("t1").hand_no  # type: ignore[union-attr]
            room.rejoin("t1")
            seen["hand_after"] = _hand(room, "t1")

    run = _play(tmp_path / "room", fault)
    assert seen["back"] - seen["cut"] >= 600
    assert _calm(straight, seen["cut"], seen["back"])
    assert seen["hub_hand"] == seen["hand_at_cut"]
    assert seen["own_hand"] >= seen["hand_at_cut"] + 5  # the cut table dealt on: several hands
    assert seen["hand_after"] == seen["own_hand"]
    assert seen["kept"] > 250  # ten minutes of one table's facts, all kept
    _assert_same_tournament(run, straight)


def test_agent_dies_mid_tournament_and_restarts_on_its_outbox_file(straight: Run, tmp_path: Path) -> None:
    """t2 loses the hub (its connection dies without a DISCONNECT: the broker fires its will), then its
    agent dies in-process (memory dropped, outbox file kept) and restarts with a new boot id: the dead
    run's facts reach the hub first, then the new run's, none twice."""
    cut_at = 1050
    seen: dict[str, float] = {}

    def fault(room: TournamentRoom, _brokers: list[EmbeddedBroker]) -> None:
        if room.steps == cut_at:
            seen["cut"] = room.clock.now()
            room.cut("t2")
            seen["will"] = wait_until(lambda: not room.hub.tables["t2"].online)  # no goodbye was said
        elif room.steps == cut_at + 15:
            seen["kept"] = len(room.lines["t2"].outbox)
            room.power_cut("t2")  # restarts at once, on the same outbox file; t2 deals next
        elif room.steps == cut_at + 25:
            seen["back"] = room.clock.now()
            room.found_hub("t2")

    run = _play(tmp_path / "room", fault)
    assert _calm(straight, seen["cut"], seen["back"])
    assert seen["will"], "the broker never published t2's will: its connection ended with a DISCONNECT"
    assert seen["kept"] == 7  # t2's facts of those 15 steps (the tables take turns)
    t2 = [(boot, seq) for table, boot, seq in run.keys if table == "t2"]
    first = [seq for boot, seq in t2 if boot == "t2-1"]
    second = [seq for boot, seq in t2 if boot == "t2-2"]
    assert first == list(range(1, len(first) + 1)) and second == list(range(1, len(second) + 1))
    assert len(second) > 0 and len(first) + len(second) == len(straight.facts["t2"])
    _assert_same_tournament(run, straight)


def _hand(room: TournamentRoom, table: str) -> int:
    with room.hub.floor_lock:
        game = room.tables.game(table)
        return game.hand_no if game is not None else 0


def _across_level_2(seen: dict[str, float], start: Callable[[TournamentRoom], None],
                    end: Callable[[TournamentRoom], None]) -> Fault:
    """A fault from 1000 s to about 1285 s of the room's clock, across level 2's start; `seen` gets
    when it began ("from") and ended ("back")."""
    def fault(room: TournamentRoom, _brokers: list[EmbeddedBroker]) -> None:
        now = room.clock.now()
        if "from" not in seen and now >= 1000.0:
            seen["from"] = now
            start(room)
        elif "from" in seen and "back" not in seen and now >= 1285.0:
            seen["back"] = now
            end(room)
    return fault


def _level_2_started(run: Run) -> float:
    change = [float(e["at"]) for e in run.events  # type: ignore[arg-type]
              if e["type"] == "LevelStarted" and e["index"] == 1]
    assert len(change) == 1
    return change[0]


def test_table_cut_across_a_level_change_keeps_its_level(straight: Run, tmp_path: Path) -> None:
    """t1 cut from 1000 s to about 1290 s, across level 2's start at 1200 s: the hands its dealer
    started at level 1 reach the hub after the change and are still dealt at level 1 there (the hub
    places each "new hand" at the table's time, learned from its clock's offset), so the hub plays the
    backlog as the table did (`found_hub`) and the tournament equals the straight run."""
    seen: dict[str, float] = {}

    def rejoin(room: TournamentRoom) -> None:
        with room.hub.floor_lock:
            seen["level_before"] = room.floor.require().state.clock.index
        room.rejoin("t1")

    run = _play(tmp_path / "room", _across_level_2(seen, lambda room: room.cut("t1"), rejoin))
    seen["cut"] = seen["from"]
    level_change = _level_2_started(straight)
    assert seen["cut"] < level_change < seen["back"]
    assert seen["level_before"] == 1  # the hub was at level 2 when t1's backlog came
    late = [e for e in run.events if e["type"] == "HandStarted" and e["table"] == 1
            and seen["cut"] <= float(e["at"]) < level_change]  # type: ignore[arg-type]
    assert late and all(e["level"] == 1 for e in late)  # dealt at level 1, heard at level 2
    assert _calm(straight, seen["cut"], seen["back"], also={"LevelStarted"})
    _assert_same_tournament(run, straight)


def _first_press(run: Run, table: str) -> int:
    """The step at which `table` deals its first fact (its first "new hand"): tables take turns."""
    return sorted(run.facts).index(table)


@pytest.mark.parametrize("kill", ["between facts", "stored, not played", "played, not acknowledged",
                                  "a table's first press stored, not played"])
def test_hub_dies_mid_tournament_and_is_started_again_from_its_store(straight: Run, tmp_path: Path,
                                                                      kill: str) -> None:
    """The hub dies in-process (its connection cut without a goodbye, its thread ended, nothing flushed
    beyond SQLite's commits); the tables deal on for 40 facts, their facts waiting in their outboxes;
    a new hub opens the same store (`FloorService.open`, `FloorTables.open`) under the same client id.
    Killed between two facts mid-hand, or on a fact it had stored but not played or not acknowledged:
    that one is played once (on open, or already), acknowledged when the table sends it again."""
    kill_at = _first_press(straight, "t2") if kill.startswith("a table's") else 250
    outage = 40
    seen: dict[str, float] = {}

    def fault(room: TournamentRoom, _brokers: list[EmbeddedBroker]) -> None:
        if room.steps == kill_at:
            seen["killed"] = room.clock.now()
            with room.hub.floor_lock:
                seen["mid_hand"] = sum(1 for t in room.tables.tables if (g := room.tables.game(t)) and g.in_hand)
            if kill == "between facts":
                room.kill_hub()
            else:
                table = room.kill_hub_on_next_fact(played=kill.startswith("played"))
                seen["unacknowledged"] = len(room.lines[table].outbox)  # the fact it died on
        elif room.steps == kill_at + outage:
            seen["back"] = room.clock.now()
            seen["kept"] = sum(len(line.outbox) for line in room.lines.values())
            room.restart_hub()  # every outbox drained, the hub played each table as the table did
            seen["unsent"] = sum(len(line.outbox) for line in room.lines.values())

    run = _play(tmp_path / "room", fault)
    assert _calm(straight, seen["killed"], seen["back"])
    if kill_at == 250:
        assert seen["mid_hand"] == TABLES  # every table was in a hand when the hub died
    assert seen["kept"] == (outage if kill == "between facts" else outage - 1 + seen["unacknowledged"])
    assert seen["unsent"] == 0
    _assert_same_tournament(run, straight)


def test_hub_and_its_broker_killed_together_resume_from_the_store(straight: Run, tmp_path: Path) -> None:
    """The hub's machine loses power with its embedded Mosquitto: the retained acknowledgements die
    with the broker, and the hub had stored a fact it never acknowledged. The new hub learns where each
    table stands from its store (the last sequence stored per table and boot), acknowledges it at
    once, and the tables' outboxes drain; without that it would wait forever for facts the outboxes
    had already forgotten."""
    kill_at, outage = 600, 30
    seen: dict[str, float] = {}

    def fault(room: TournamentRoom, brokers: list[EmbeddedBroker]) -> None:
        if room.steps == kill_at:
            seen["killed"] = room.clock.now()
            room.kill_hub_on_next_fact(played=True)
            brokers[-1].kill()
        elif room.steps == kill_at + outage:
            seen["back"] = room.clock.now()
            brokers.append(EmbeddedBroker(port=brokers[-1].port).start())
            room.restart_hub()

    run = _play(tmp_path / "room", fault)
    assert _calm(straight, seen["killed"], seen["back"])
    _assert_same_tournament(run, straight)


def test_hub_killed_across_a_level_change_deals_each_hand_at_its_level(straight: Run, tmp_path: Path) -> None:
    """The hub dies at 1000 s and comes back at about 1285 s, after level 2's start at 1200 s: the
    clock nobody ran meanwhile starts level 2 when it should have (its event dated 1200 s on the
    straight run, any time after on this one), and every hand the tables started during the outage is
    dealt at the level in force when its dealer pressed "new hand", as on the straight run."""
    seen: dict[str, float] = {}
    run = _play(tmp_path / "room", _across_level_2(seen, TournamentRoom.kill_hub, TournamentRoom.restart_hub))
    seen["killed"] = seen["from"]
    assert seen["killed"] < _level_2_started(straight) < seen["back"]
    started = [e for e in run.events if e["type"] == "HandStarted"
               and seen["killed"] <= float(e["at"]) < seen["back"]]  # type: ignore[arg-type]
    assert {e["level"] for e in started} == {1, 2}  # hands on both sides of the change, each at its own
    assert _calm(straight, seen["killed"], seen["back"], also={"LevelStarted"})
    _assert_same_tournament(run, straight)


def test_table_cut_while_the_floor_decides_across_tables_plays_as_dealt_and_ranks_by_time(tmp_path: Path) -> None:
    """t1 cut from 900 s to 1500 s (docs/tournament.md's case). Meanwhile t1 busts two players (at its
    time 1362 s, heard at 1500 s) and t2 one at 1371 s, heard live: t2 is then three short of t1 (10
    against 7 as the hub knows them), which would move a player from t1. The floor cannot reach t1: it
    moves no one and says why; the hub plays t1's backlog exactly as t1 dealt it (`found_hub`); t1's busts
    are ranked before t2's, by when they happened. At 1500 s the tournament (players, seats, stacks,
    ranking, prizes, games) is the one a room without the cut has at 1500 s."""
    steps = 1510  # past 1500 s
    straight_seen: dict[str, object] = {}
    seen: dict[str, object] = {}

    def straight_probe(room: TournamentRoom, _brokers: list[EmbeddedBroker]) -> None:
        if "back" not in straight_seen and room.clock.now() >= 1500.0:
            straight_seen["back"], straight_seen["state"] = room.clock.now(), room.state()

    def fault(room: TournamentRoom, _brokers: list[EmbeddedBroker]) -> None:
        now = room.clock.now()
        if "cut" not in seen and now >= 900.0:
            seen["cut"] = now
            room.cut("t1")
        elif "cut" in seen and "back" not in seen:
            with room.hub.floor_lock:
                waits = room.floor.snapshot(now)["floor_waits"]
            if waits and "waits" not in seen:
                seen["waits"], seen["waited_from"] = waits, now
            if now >= 1500.0:
                seen["back"] = now
                room.rejoin("t1")  # raises if the hub played t1's backlog otherwise than t1 dealt it
                seen["state"] = room.state()

    plain = _play(tmp_path / "straight", straight_probe, steps=steps)
    run = _play(tmp_path / "room", fault, steps=steps)
    cut, back = float(seen["cut"]), float(seen["back"])  # type: ignore[arg-type]
    assert straight_seen["back"] == back

    def out(events: list[dict[str, JSON]], table: int) -> list[float]:
        return [float(e.get("happened") or e["at"]) for e in events  # type: ignore[arg-type]
                if e["type"] == "PlayerEliminated" and e["table"] == table and cut <= float(e["at"]) < back]  # type: ignore[arg-type]
    # the case: without the cut, t1 busts before t2 and the floor would then move a player from t1
    t1_busts, t2_busts = out(plain.events, 1), out(plain.events, 2)
    assert t1_busts and t2_busts and max(t1_busts) < min(t2_busts)
    late = [e for e in run.events if e["type"] == "PlayerEliminated" and e.get("happened") is not None]
    assert late and all(e["table"] == 1 and float(e["at"]) >= back for e in late)  # type: ignore[arg-type]
    assert sorted(float(e["happened"]) for e in late) == sorted(t1_busts)  # type: ignore[arg-type]  # its time
    assert any(e["type"] == "PlacesCorrected" for e in run.events)  # t2's bust, heard first, ranked after
    assert not [e for e in run.events if e["type"] == "MoveOrdered" and 1 in (e["from_table"], e["to_table"])
                and cut <= float(e["at"]) < back]  # type: ignore[arg-type]
    assert seen["waits"] == {"1": {
        "fr": "Table 1 injoignable : le placement l'attend, aucun joueur n'y va ni n'en part avant son retour",
        "en": "Table 1 unreachable: seating waits for it, no player moves to or from it until it is back"}}
    assert min(t2_busts) <= float(seen["waited_from"]) < back  # type: ignore[arg-type]  # from t2's bust on
    assert seen["state"] == straight_seen["state"]
