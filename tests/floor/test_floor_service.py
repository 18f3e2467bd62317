"""FloorService: TD commands validated and stored, hands started and ended per table, moves out,
and a floor rebuilt from its store equal to the original (clock position, seats, stacks, hands)."""

from __future__ import annotations

from pathlib import Path

from service_helpers import db, floor_state, started_floor, tables_state

from hub.floor.moves import table_id, table_number
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.tables import FloorTables
from hub.rules import Level as HandLevel
from hub.tournament.structure import pouques_2020, to_toml
from simulators.tournament_demo import SimRoom, new_demo, open_room


def test_commands_set_up_a_pouques_clock(tmp_path: Path) -> None:
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 12, ruleset="pouques-2020", tables=2)
        snap = floor.snapshot(60.0)
        # pouques-2020 34: level 1 is 50/100 without ante, 40 minutes; 50,000 chips (31).
        assert (snap["level"], snap["small_blind"], snap["big_blind"], snap["ante"]) == (1, 50, 100, 0)
        assert snap["time_left"] == 2340.0
        assert snap["players_left"] == 12 and snap["average_stack"] == 50_000
        assert sorted(snap["tables"]) == ["1", "2"]
        assert [len(t["seats"]) for t in snap["tables"].values()] == [6, 6]
        # Every record is in the store, in order.
        assert [e["type"] for e in store.tournament_events()] == [type(e).__name__ for e in floor.require().events]


def test_malformed_or_refused_commands_change_nothing(tmp_path: Path) -> None:
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 6)
        stored = store.count_tournament_events()
        cases = {
            b"{not json": "unreadable command: a JSON object with 'cmd'",
            b'{"cmd": "fly"}': "unknown command 'fly'",
            b'{"cmd": "clock", "action": "add"}': "give a time in minutes",
            b'{"cmd": "clock", "action": "pause", "extra": 1}': "unknown field 'extra'",
            b'{"cmd": "move", "player": "p01", "table": "t1", "seat": 11}': "the seat: at most 10",
            b'{"cmd": "eliminate", "player": "nobody"}': "unknown player 'nobody'",
            b'{"cmd": "clock", "action": "resume"}': "not paused",
        }
        for payload, words in cases.items():
            result = floor.execute(payload, 5.0)
            assert not result.ok and words in (result.error or ""), (payload, result.error)
        assert store.count_tournament_events() == stored


def test_clock_commands_are_stored_and_shown(tmp_path: Path) -> None:
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 6)
        assert floor.execute({"cmd": "clock", "action": "pause", "reason": "dealer change"}, 600.0).ok
        assert floor.snapshot(900.0)["time_left"] == 1800.0  # paused: 10 of 40 minutes used
        assert floor.execute({"cmd": "clock", "action": "add", "seconds": 120}, 900.0).ok
        assert floor.execute({"cmd": "clock", "action": "resume"}, 1000.0).ok
        assert floor.snapshot(1000.0)["time_left"] == 1920.0
        assert floor.execute({"cmd": "clock", "action": "level", "level": 3}, 1010.0).ok
        snap = floor.snapshot(1010.0)
        assert (snap["level"], snap["small_blind"], snap["big_blind"], snap["ante"]) == (3, 150, 300, 25)


def test_level_ending_mid_hand_applies_from_the_next_hand(tmp_path: Path) -> None:
    """cdc-2013 4.1: the hand keeps its level; pouques levels 1 -> 2 are 50/100 -> 100/200."""
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 6, tables=1)
        stacks = floor.players_for_hand("t1")
        assert floor.hand_started("t1", 1, 2390.0) == HandLevel(50, 100, 0, False)
        assert floor.hand_ended("t1", 1, stacks, 2410.0) == []
        assert floor.snapshot(2410.0)["level"] == 2
        assert floor.hand_started("t1", 2, 2420.0) == HandLevel(100, 200, 0, False)


def test_a_table_that_can_be_seated_elsewhere_breaks_and_its_players_move(tmp_path: Path) -> None:
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 18, tables=3)
        t = floor.require()
        occupied = {n: set(t.state.tables[n].seats) for n in (1, 2)}
        stacks = floor.players_for_hand("t3")
        floor.hand_started("t3", 1, 10.0)
        busted = sorted(stacks)[:2]
        winner = sorted(stacks)[2]
        after = dict(stacks)
        for seat in busted:
            after[winner] += after[seat]
            after[seat] = 0
        moves = floor.hand_ended("t3", 1, after, 20.0)
        # 16 players fit at two tables of 10: t3 breaks (cdc-2013 3.4, highest number first) and its
        # 4 players go to the shortest tables, 2 each, at free seats.
        assert len(moves) == 4
        assert {m.from_table for m in moves} == {"t3"}
        assert sorted(m.to_table for m in moves) == ["t1", "t1", "t2", "t2"]
        assert {m.reason for m in moves} == {"break"} and {m.article for m in moves} == {"cdc-2013 3.4"}
        for m in moves:
            assert m.to_seat not in occupied[table_number(m.to_table)]
        assert len({(m.to_table, m.to_seat) for m in moves}) == 4
        assert sorted(t.state.tables) == [1, 2]
        assert floor.can_start_hand("t3", 30.0) is False
        # The movers are dealt in at their new table's next hand and confirmed there.
        mover = moves[0]
        assert floor.players_for_hand(mover.to_table)[mover.to_seat] == t.state.players[mover.player].chips
        floor.hand_started(mover.to_table, 1, 30.0)
        assert t.state.players[mover.player].status.value == "seated"


def test_td_payout_table_and_pouques_table(tmp_path: Path) -> None:
    with EventStore(db(tmp_path, "a.db")) as store:
        floor = started_floor(store, 12, payouts="50,30,20", buy_in_cents=5_000)
        assert floor.snapshot(0.0)["payouts_cents"] == [30_000, 18_000, 12_000]
    with EventStore(db(tmp_path, "b.db")) as store:
        floor = started_floor(store, 60, payouts="pouques", buy_in_cents=5_000, tables=6)
        snap = floor.snapshot(0.0)
        # pouques-2020 81: 96 % of 60 x 50 EUR; 12 places below 120 entries; remainder to the winner.
        assert snap["prize_pool_cents"] == 288_000
        assert snap["payouts_cents"] == [70_132, 50_256, 36_000, 28_080, 23_040, 18_144, 15_120, 12_556,
                                         10_396, 8_092, 8_092, 8_092]
    with EventStore(db(tmp_path, "d.db")) as store:
        # issue #30, point 3: a pouques-2020 tournament whose TD gave his own payouts pays his, not
        # pouques 81's table (12 places at 96 %): 90 % of 19 x 20 EUR on three places
        floor = FloorService(store)
        assert floor.execute({"cmd": "new", "name": "x", "ruleset": "pouques-2020", "buy_in_cents": 2_000,
                              "structure_toml": to_toml(pouques_2020()), "payouts": "50,30,20",
                              "pool_percent": 90}, 0.0).ok
        assert floor.execute({"cmd": "register", "players": [f"p{i:02d}" for i in range(19)]}, 0.0).ok
        snap = floor.snapshot(0.0)
        assert snap["prize_pool_cents"] == 34_200 and snap["payouts_cents"] == [17_100, 10_260, 6_840]
    with EventStore(db(tmp_path, "c.db")) as store:
        floor = FloorService(store)
        result = floor.execute({"cmd": "new", "name": "x", "ruleset": "cdc-2013",
                                "structure_toml": to_toml(pouques_2020()), "payouts": "50,30"}, 0.0)
        assert not result.ok and "80 %" in (result.error or "")
        assert store.count_tournament_events() == 0


def test_table_ids() -> None:
    assert table_id(3) == "t3" and table_number("t12") == 12
    for bad in ("x1", "t0", "t", "table1"):
        try:
            table_number(bad)
        except ValueError as err:
            assert bad in str(err)
        else:
            raise AssertionError(bad)


def test_floor_rebuilt_from_the_store_equals_the_original(tmp_path: Path) -> None:
    path = db(tmp_path)
    with EventStore(path) as store:
        new_demo(store, players=30, tables=3, ruleset="cdc-2013", seed=11)
        room = open_room(store, seed=11)
        while room.steps < 1000 or not any(room.floor.in_hand(t) for t in ("t1", "t2", "t3")
                                           if table_number(t) in room.floor.require().state.tables):
            room.step()  # on to a moment some table is mid-hand
        steps = room.steps
        now = room.now
        original, original_tables = floor_state(room.floor, now), tables_state(room.tables)
    with EventStore(path) as store:
        floor = FloorService.open(store)
        tables = FloorTables.open(floor, store)
        assert floor_state(floor, now) == original
        assert tables_state(tables) == original_tables
        # And it plays on: the rebuilt room takes the next step from the same place.
        again = SimRoom(floor, tables, store, seed=11)
        assert again.steps == steps and again.now == now


class FakeLink:
    """Records what the floor publishes (the MQTT test runs the real broker)."""

    def __init__(self) -> None:
        self.published: list[tuple[str, bytes, bool]] = []
        self.handlers: dict[str, object] = {}

    def subscribe(self, pattern: str, handler: object) -> None:
        self.handlers[pattern] = handler

    def on_connect(self, hook: object) -> None:
        pass

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        self.published.append((topic, payload, retain))


def test_clock_published_retained_every_second_and_on_change(tmp_path: Path) -> None:
    from hub.floor.commands import TOURNAMENT_CLOCK

    link = FakeLink()
    with EventStore(db(tmp_path)) as store:
        started_floor(store, 6)
        floor = FloorService.open(store, link=link)  # type: ignore[arg-type]
        times = []
        for now in (10.0, 10.5, 10.9, 11.0, 11.2, 12.0):
            before = len(link.published)
            floor.pump(now)
            if len(link.published) > before:
                times.append(now)
        assert times == [10.0, 11.0, 12.0]
        assert floor.execute({"cmd": "clock", "action": "pause"}, 12.3).ok
        floor.pump(12.3)  # a change: published at once
        topic, payload, retain = link.published[-1]
        assert (topic, retain) == (TOURNAMENT_CLOCK, True)
        import json
        assert json.loads(payload)["running"] is False


def test_a_tables_hand_shows_on_the_clock_within_the_second_not_at_once(tmp_path: Path) -> None:
    """The snapshot holds every seat of the room: a festival's hands would republish it on every tick."""
    import json

    link = FakeLink()
    with EventStore(db(tmp_path)) as store:
        started_floor(store, 6)
        floor = FloorService.open(store, link=link)  # type: ignore[arg-type]
        floor.pump(10.0)
        published = len(link.published)
        floor.hand_started("t1", 1, 10.1)
        floor.pump(10.2)
        assert len(link.published) == published  # not at once
        floor.pump(11.0)
        (table, view, _), (clock, _, _) = link.published[published:]  # within the second, the hand in it
        assert (table, clock) == ("tapis/v1/hub/tournament/table/1", "tapis/v1/hub/tournament/clock")
        assert json.loads(view)["in_hand"] is True


def test_tables_refuse_hands_the_floor_does_not_allow(tmp_path: Path) -> None:
    from tablewire import wire

    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 6, tables=1)
        tables = FloorTables(floor, store)
        press = wire.DealerPressed(table="t1", boot="b", seq=1, at=5.0, button="new_hand", seat=None)
        out = tables.receive("t1", press, wire.encode(press), 5.0)
        assert out is not None and out.events[0]["type"] == "hand_start"
        assert tables.receive("t1", press, wire.encode(press), 5.5) is None  # a resend: stored once
        card = wire.CardEvent(table="t1", boot="b", seq=2, at=5.8, type="card_arrived", zone="seat:2", uid="0A0B",
                              card="As", deck=wire.table_deck_ids("t1")[0], order=1)
        tables.receive("t1", card, wire.encode(card), 5.8)  # dealt: pressed again, the hand stands
        again = wire.DealerPressed(table="t1", boot="b", seq=3, at=6.0, button="new_hand", seat=None)
        out = tables.receive("t1", again, wire.encode(again), 6.0)
        assert out is not None and out.events[0]["type"] == "hand_refused"
        stray = wire.DealerPressed(table="x9", boot="b", seq=1, at=7.0, button="new_hand", seat=None)
        out = tables.receive("x9", stray, wire.encode(stray), 7.0)
        assert out is not None and out.events[0]["type"] == "hand_refused"
        assert "not a tournament table" in out.events[0]["reason"]
        assert floor.in_hand("t1") == 1


def test_a_guaranteed_prize_pool_is_paid_when_the_entries_do_not_reach_it(tmp_path: Path) -> None:
    """Issue #30: a guaranteed pool (1,000 EUR): 19 entries at 20 EUR pay 1,000 EUR on the TD's 50/30/20;
    once the entries pass it, they pay their own pool."""
    with EventStore(db(tmp_path)) as store:
        floor = FloorService(store)
        assert floor.execute({"cmd": "new", "name": "x", "ruleset": "cdc-2013", "buy_in_cents": 2_000,
                              "structure_toml": to_toml(pouques_2020()), "payouts": "50,30,20",
                              "guarantee_cents": 100_000}, 0.0).ok
        assert floor.execute({"cmd": "register", "players": [f"p{i:02d}" for i in range(19)]}, 0.0).ok
        snap = floor.snapshot(0.0)
        assert snap["prize_pool_cents"] == 100_000 and snap["payouts_cents"] == [50_000, 30_000, 20_000]
        assert FloorService.open(store).snapshot(0.0)["prize_pool_cents"] == 100_000  # kept in the store
        assert floor.execute({"cmd": "register", "players": [f"q{i:02d}" for i in range(40)]}, 0.0).ok
        assert floor.snapshot(0.0)["prize_pool_cents"] == 59 * 2_000


class _AlwaysSeatMap(FloorService):
    """The floor as it was: every player's seat mapped before every hand's end."""

    def _final_draw_possible(self, number: int) -> bool:
        return True


def _bust_to_the_final(floor: FloorService) -> list[list[object]]:
    """Each table in turn plays a hand in which its two shortest seats bust, until the final table is
    drawn; the move instructions of every hand's end."""
    out: list[list[object]] = []
    now = 10.0
    t = floor.require()
    while t.state.final_table is None:
        for number in sorted(t.state.tables):
            table = f"t{number}"
            stacks = floor.players_for_hand(table)
            if len(stacks) < 2 or not floor.can_start_hand(table, now):
                continue
            floor.hand_started(table, t.state.tables[number].hand_no + 1, now)
            after = dict(stacks)
            seats = sorted(after)
            for seat in seats[:2] if len(seats) > 3 else seats[:1]:
                after[seats[-1]] += after[seat]
                after[seat] = 0
            now += 10.0
            out.append([m.to_dict() for m in floor.hand_ended(table, t.state.tables[number].hand_no, after, now)])
            if t.state.final_table is not None:
                break
    return out


def test_the_final_tables_draw_is_instructed_as_with_every_seat_mapped(tmp_path: Path) -> None:
    """The seat map before a hand's end is made only where the final draw can follow it; the moves
    instructed, the draw's "final" ones from the seats the players had, are the same as with it always."""
    with EventStore(db(tmp_path, "a.db")) as store:
        started_floor(store, 27, tables=3)
        lean = _bust_to_the_final(FloorService.open(store))
    with EventStore(db(tmp_path, "b.db")) as store:
        started_floor(store, 27, tables=3)
        full = _bust_to_the_final(_AlwaysSeatMap.open(store))
    finals = [m for moves in lean for m in moves if m["reason"] == "final"]  # type: ignore[index]
    assert finals and all(m["from_table"] for m in finals)  # type: ignore[index]
    assert lean == full


def test_a_tick_with_nothing_due_leaves_nothing_to_sync(tmp_path: Path) -> None:
    """The hub pumps the floor every 0.2 s: a tick that records nothing takes no write transaction (its
    empty COMMIT marked the store for an fsync before the hub's next packets, five a second for
    nothing); a level change still marks it: nothing acknowledged before it is on the disk. The store
    is read again all the same: a late registration by the TD's command line shows without a write."""
    from hub.floor.commands import Register

    with EventStore(db(tmp_path)) as store, EventStore(db(tmp_path)) as beside:
        started_floor(store, 6, ruleset="pouques-2020")  # the clock started at 0.0; level 1: 40 minutes
        floor = FloorService.open(store)
        sync = store.group_sync()
        sync()
        synced = store.syncs
        assert FloorService.open(beside).execute(Register(players=["late"]), 5.0).ok
        for now in (10.0, 10.2, 10.4):
            floor.pump(now)
        sync()
        assert store.syncs == synced
        assert "late" in floor.require().state.players
        floor.pump(40 * 60 + 0.2)
        assert floor.require().state.clock.level().number == 2
        sync()
        assert store.syncs == synced + 1
