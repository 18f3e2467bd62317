"""What follows a fault at a tournament's tables, in real processes as a club installs them: the shipped closed
Mosquitto, `tapis hub --db` with its dashboard, three `tapis sim table` of six players, the TD's commands with
`tapis tournament --broker`. The product is the aftermath: the ruling or the TD's decision carried out, the
chips moved to the unit, the next hand dealt from the right seat, no table left waiting (docs/faults.md, "A hand
dealt again at a tournament table", "A seat pressed away"; the same behaviours through `HubService` alone in
tests/floor/test_faults_through_the_hub.py).

- Misdeals and hands cancelled with every bet returned, made by the croupiers, and two the TD ends after
  asking out the big blind's player while the table waited for his decision (a club file leaves an extra
  hole card to him): each void hand is dealt again with its button, the departed blind as the dead-button rule
  places it (`hub.floor.tables._dealt_again`), every stack accounted for at every hand's start and end.
- A player the dealer marks away for several hands, the hub killed (SIGKILL) and started again on its store
  while he is away: his next hands are still ruled dead at the deadline, never dealt live.
- Hand for hand, called on the dashboard (the TD's login, its HTTP as the desk's page posts it): a table's
  misdeal is dealt again at once, not refused until the other tables have played (`HandEnded.void`).
- A penalty given on the dashboard (a warning: one hand dealt dead, cdc 12.1-12.2) whose hand the TD then
  voids with a misdeal: the redeal deals that hand dead again, and the hand after it live."""

from __future__ import annotations

import json
import signal
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_club_room import PLAYERS, club_tournament
from tests.e2e.test_room_as_installed import TABLES, Room, TdHttp, Watcher, installed, run
from tests.support import wait_until

STACK = 200_000  # club_tournament's starting stack, six players a table
CLUB = """# Le DT décide de chaque carte de trop à la donne (sinon cdc-2013).
id = "club-donne"
name = "Club de la donne au DT"
inherits = "cdc-2013"

[rulings.faults]
extra_hole_card = [
  { decision = "td_decision", article = "7", options = ["misdeal", "burn_as_first"] },
]

[texts]
"7" = "Une carte de trop à la donne : le directeur du tournoi décide d'une fausse donne ou de la brûler."
"""
CALM = ("--pace", "0.03", "--scan-ms", "40", "--allin-rate", "0", "--boxed-rate", "0")
VOID = ("misdeal", "cancelled")


class AftermathRoom(Room):
    sim_options = (*CALM, "--fault-rate", "0.5", "--faults", "wrong_deal_order,unknown_tag,extra_hole_card")


class AwayRoom(Room):
    sim_options = (*CALM, "--fault-rate", "0.5", "--faults", "absent_player", "--away-hands", "4")


class HandForHandRoom(Room):
    sim_options = (*CALM, "--fault-rate", "0.4", "--faults", "wrong_deal_order")


class PenaltyRoom(Room):
    """t1 deals an extra hole card in every hand, which the club's file leaves to the TD; t2 and t3 deal clean."""

    sim_options = CALM

    def agent_command(self, table: str) -> list[str]:
        faults = ("--fault-rate", "1", "--faults", "extra_hole_card") if table == "t1" else ()
        return [*super().agent_command(table), *faults]


@pytest.fixture
def aftermath(tmp_path: Path) -> Iterator[AftermathRoom]:
    with installed(AftermathRoom(tmp_path)) as ready:
        yield ready


@pytest.fixture
def away_room(tmp_path: Path) -> Iterator[AwayRoom]:
    with installed(AwayRoom(tmp_path)) as ready:
        yield ready


@pytest.fixture
def h4h_room(tmp_path: Path) -> Iterator[HandForHandRoom]:
    with installed(HandForHandRoom(tmp_path)) as ready:
        yield ready


@pytest.fixture
def penalty_room(tmp_path: Path) -> Iterator[PenaltyRoom]:
    with installed(PenaltyRoom(tmp_path)) as ready:
        yield ready


def _number(table: str) -> str:
    """The floor's number of a table (t1 is table 1 on the clock's topics)."""
    return str(TABLES.index(table) + 1)


def _events(watcher: Watcher, table: str, *types: str) -> list[dict[str, Any]]:
    return watcher.seen(lambda e: e["table"] == table and e["type"] in types)


def _next_seat(live: list[int], seat: int) -> int:
    return next((s for s in sorted(live) if s > seat), min(live))


def _dealt_again(start: dict[str, Any], again: dict[str, Any]) -> tuple[int, int | None, int]:
    """The button and blinds a void hand's redeal must have: its own (cdc 6.3, 7.1); a blind whose player left
    at its end as the dead-button rule places it without him (the big blind to the next player, the small one
    where it was if its player is still there)."""
    live = [int(s) for s in again["stacks"]]
    big = start["big_blind"] if start["big_blind"] in live else _next_seat(live, start["big_blind"])
    small = start["small_blind"] if start["small_blind"] in live and start["small_blind"] != big else None
    return start["button"], small, big


def _posted(start: dict[str, Any]) -> int:
    return start["level"]["bb"] + (start["level"]["sb"] if start["small_blind"] is not None else 0)


def _chips_accounted(watcher: Watcher, left: dict[tuple[str, int], int]) -> None:
    """At every table, every hand's start (its blinds in) and end hold the table's chips to the unit: six
    stacks, less those of the players asked out at the end of hand (table, hand) (`left`: their seat)."""
    for table in TABLES:
        total, story = 6 * STACK, []
        for e in _events(watcher, table, "hand_start", "hand_end"):
            chips = sum(e["stacks"].values()) + (_posted(e) if e["type"] == "hand_start" else 0)
            story.append((e["hand"], e["type"], e.get("result"), chips))
            assert chips == total, (table, story)
            if e["type"] == "hand_end" and (table, e["hand"]) in left:
                total -= e["stacks"][str(left[table, e["hand"]])]


def _room_chips(room: Room, expected: int) -> None:
    """The floor's count: the chips in play, and the seats' chips, are the chips bought less the players out."""
    snap = json.loads(room.td("status", "--json"))["data"]
    seats = sum(s["chips"] for t in snap["tables"].values() for s in t["seats"].values())
    assert (snap["chips_in_play"], seats) == (expected, expected), snap


def test_void_hands_at_tournament_tables_are_dealt_again_from_their_button(aftermath: AftermathRoom) -> None:
    room = aftermath
    club = room.etc / "rulebooks" / "donne-au-dt.toml"
    club.write_text(CLUB, encoding="utf-8")
    assert "ok: club-donne" in run("rules", "check", str(club))
    club_tournament(room, club)
    decided: set[tuple[str, int]] = set()
    asked_out: dict[tuple[str, int], int] = {}  # (table, hand) -> the big blind's seat, his player asked out
    out_chips: list[int] = []
    with ExitStack() as cleanup:
        hub, watcher = room.start_hub(cleanup)
        room.td("start")
        assert wait_until(lambda: len(watcher.clock.get("tables", {})) == len(TABLES), 15), watcher.clock
        for table in TABLES:
            room.start(table, room.agent_command(table))

        def td(fault: dict[str, Any]) -> None:
            """The TD at a table waiting for him: the first two times (at two tables), he asks the big blind's
            player out (issue #30: he left) and ends the hand, by a misdeal, then by "annuler la donne";
            otherwise he burns the extra card."""
            table, hand = fault["table"], fault["hand"]
            tables_out = {t for t, _ in asked_out}
            if len(asked_out) < 2 and table not in tables_out:
                [start] = _events(watcher, table, "hand_start")[-1:]
                assert start["hand"] == hand, (start, fault)
                seat = start["big_blind"]
                player = watcher.clock["tables"][_number(table)]["seats"][str(seat)]["player"]
                room.td("eliminate", player)
                asked_out[table, hand] = seat
                if len(asked_out) == 1:
                    room.td("decide", table, "misdeal", "--kind", "extra_hole_card")
                else:
                    room.td("cancel-hand", table)
            else:
                room.td("decide", table, "burn_as_first", "--kind", "extra_hole_card")
            decided.add((table, hand))

        def redealt(test: Callable[[dict[str, Any]], bool]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
            """The void hands (their start, their end) whose fault passes `test`, dealt again since."""
            pairs = []
            for table in TABLES:
                starts = {e["hand"]: e for e in _events(watcher, table, "hand_start")}
                faults = {e["hand"]: e for e in _events(watcher, table, "fault") if test(e)}
                for end in _events(watcher, table, "hand_end"):
                    if end["result"] in VOID and end["hand"] in faults and end["hand"] + 1 in starts:
                        pairs.append((end, starts[end["hand"] + 1]))
            return pairs

        def dealt_on() -> bool:
            assert hub.poll() is None, room.log("hub")
            for fault in watcher.seen(lambda e: e["type"] == "fault" and e["ruling"]["decision"] == "td_decision"):
                if (fault["table"], fault["hand"]) not in decided:
                    td(fault)
            by_td = [(end, start) for end, start in redealt(lambda e: (e["table"], e["hand"]) in asked_out)
                     if _events(watcher, end["table"], "hand_end")[-1]["hand"] > end["hand"]]  # and played on
            misdeals = redealt(lambda e: e["kind"] == "wrong_deal_order")
            cancels = redealt(lambda e: e["kind"] == "unknown_tag")
            return len(by_td) == 2 and len(misdeals) >= 2 and len(cancels) >= 2

        assert wait_until(dealt_on, 150), (
            sorted({(e["table"], e["hand"], e["type"], e.get("kind"), e.get("result")) for e in watcher.seen(
                lambda e: e["type"] in ("fault", "hand_end", "hand_refused"))}), asked_out,
            {t: room.log(t)[-1500:] for t in TABLES}, room.log("hub")[-3000:])
        assert "Traceback" not in room.log("hub"), room.log("hub")[-4000:]
        assert not watcher.seen(lambda e: e["type"] in ("hand_refused", "table_idle")), \
            watcher.seen(lambda e: e["type"] in ("hand_refused", "table_idle"))
        ends = {(e["table"], e["hand"]): e for e in watcher.seen(lambda e: e["type"] == "hand_end")}
        starts = {(e["table"], e["hand"]): e for e in watcher.seen(lambda e: e["type"] == "hand_start")}
        again = [(starts[key], starts[key[0], key[1] + 1]) for key, end in ends.items()
                 if end["result"] in VOID and (key[0], key[1] + 1) in starts]
        assert again
        for start, redeal in again:  # every void hand dealt again: its button, its blinds (a departed one moved)
            assert (redeal["button"], redeal["small_blind"], redeal["big_blind"]) == _dealt_again(start, redeal), \
                (start, redeal)
        for (table, hand), seat in asked_out.items():
            end, redeal = ends[table, hand], starts[table, hand + 1]
            assert end["result"] in VOID and str(seat) not in redeal["stacks"], (end, redeal)
            assert redeal["big_blind"] != seat and redeal["small_blind"] != seat, redeal
            out_chips.append(end["stacks"][str(seat)])
        _chips_accounted(watcher, asked_out)
        _room_chips(room, STACK * len(PLAYERS) - sum(out_chips))
        codes = room.stop()
        assert codes == {name: 0 for name in ("hub", *TABLES)}, room.stopped_logs(codes)


def test_a_seat_away_across_a_hub_killed_and_restarted_stays_away(away_room: AwayRoom) -> None:
    room = away_room
    club_tournament(room, Path("cdc-2013"))  # a seed's id where a club's file goes: the same `--ruleset`
    with ExitStack() as cleanup:
        hub, watcher = room.start_hub(cleanup)
        room.td("start")
        for table in TABLES:
            room.start(table, room.agent_command(table))

        def ruled_absent(table: str, seat: int) -> list[int]:
            """The hands of `table` in which `seat`'s hand was ruled dead, its player away."""
            return [e["hand"] for e in _events(watcher, table, "fault")
                    if e["kind"] == "absent_player" and e["seat"] == seat and e["ruling"]["decision"] == "hand_dead"]

        def away_since_a_hand_before() -> tuple[str, int, int] | None:
            """(table, seat, hand) of a seat still away, ruled dead in a hand after the one he left in."""
            assert hub.poll() is None, room.log("hub")
            for table in TABLES:
                for press in _events(watcher, table, "seat"):
                    seat, hand = press["seat"], press["hand"]
                    back = [e for e in _events(watcher, table, "seat") if e["seat"] == seat and e["state"] == "back"
                            and e["hand"] >= hand]
                    later = [h for h in ruled_absent(table, seat) if h > hand]
                    if press["state"] == "away" and not back and later:
                        return table, seat, later[-1]
            return None

        assert wait_until(lambda: away_since_a_hand_before() is not None, 90), (
            watcher.seen(lambda e: e["type"] in ("seat", "fault")), {t: room.log(t)[-1500:] for t in TABLES})
        found = away_since_a_hand_before()
        assert found is not None
        table, seat, _hand = found
        hub.send_signal(signal.SIGKILL)  # the hub's machine loses power, the seat still away
        hub.wait(10)
        mark = len(watcher.events)
        again = room.start("hub-again", room.hub_command())  # as systemd starts it again, on its store

        def after(*types: str) -> list[dict[str, Any]]:
            with watcher.lock:
                return [e for e in watcher.events[mark:] if e["table"] == table and e["type"] in types]

        def back_and_dealt_in() -> bool:
            """He came back after the restart, and a hand since was played to its end."""
            assert again.poll() is None, room.log("hub-again")
            pressed = [e for e in after("seat") if e["seat"] == seat and e["state"] == "back"]
            return bool(pressed) and any(e["hand"] > pressed[0]["hand"] and e["result"] not in VOID
                                         for e in after("hand_end"))

        assert wait_until(back_and_dealt_in, 90), ([e for e in after("seat", "fault", "hand_start", "hand_end")],
                                                   room.log(table)[-2500:], room.log("hub-again")[-3000:])
        back = next(e["hand"] for e in after("seat") if e["seat"] == seat and e["state"] == "back")
        away_hands = [e["hand"] for e in after("hand_start") if e["hand"] <= back and str(seat) in e["stacks"]]
        dead = ruled_absent(table, seat)
        acted = [e for e in after("action") if e["seat"] == seat and e["hand"] <= back]
        # every hand dealt after the restart while he was away: his hand ruled dead, never played (one at least)
        assert away_hands and all(h in dead for h in away_hands) and not acted, (away_hands, dead, acted)
        for name in ("hub", "hub-again"):
            assert "Traceback" not in room.log(name), room.log(name)[-4000:]
        assert not watcher.seen(lambda e: e["type"] == "hand_refused")
        _room_chips(room, STACK * len(PLAYERS))
        watcher.link.stop()


def _open_room(room: Room, cleanup: ExitStack, rulebook: Path) -> tuple[Any, Watcher, TdHttp]:
    """The club's tournament, the hub as installed and started, the TD logged in on its dashboard."""
    club_tournament(room, rulebook)
    hub, watcher = room.start_hub(cleanup)
    room.td("start")
    assert wait_until(lambda: len(watcher.clock.get("tables", {})) == len(TABLES), 15), watcher.clock
    return hub, watcher, TdHttp(room)


def test_at_hand_for_hand_a_misdealt_table_deals_again_at_once(h4h_room: HandForHandRoom) -> None:
    room = h4h_room
    with ExitStack() as cleanup:
        hub, watcher, desk = _open_room(room, cleanup, Path("cdc-2013"))
        desk.floor(cmd="hand_for_hand", on=True)  # the bubble is near: every table plays one hand a round
        assert wait_until(lambda: watcher.clock.get("hand_for_hand"), 15), watcher.clock
        for table in TABLES:
            room.start(table, room.agent_command(table))

        def redealt_meanwhile() -> list[tuple[dict[str, Any], dict[str, Any]]]:
            """(misdeal's end, redeal's start) where another table was in its hand of the round as the misdeal
            ended (the redeal would wait for it if the misdeal were that table's hand), the redeal played out."""
            assert hub.poll() is None, room.log("hub")
            with watcher.lock:
                events = [e for e in watcher.events if e["type"] in ("hand_start", "hand_end")]
            open_hands: dict[str, int] = {}
            pairs = []
            for i, e in enumerate(events):
                if e["type"] == "hand_start":
                    open_hands[e["table"]] = e["hand"]
                    continue
                open_hands.pop(e["table"], None)
                if e["result"] != "misdeal" or not set(open_hands) - {e["table"]}:
                    continue
                later = [x for x in events[i + 1:] if x["table"] == e["table"] and x["hand"] == e["hand"] + 1]
                if len(later) == 2:  # dealt again and played to its end
                    pairs.append((e, later[0]))
            return pairs

        assert wait_until(lambda: len(redealt_meanwhile()) >= 2, 120), (
            [(e["table"], e["hand"], e["type"], e.get("result")) for e in watcher.seen(
                lambda e: e["type"] in ("hand_start", "hand_end", "hand_refused"))], room.log("hub")[-3000:])
        with watcher.lock:
            events = list(watcher.events)
        for end, redeal in redealt_meanwhile():
            table = end["table"]
            between = events[events.index(end):events.index(redeal)]
            refused = [e for e in between if e["table"] == table and e["type"] == "hand_refused"]
            assert not refused, (end, refused)  # dealt at once: his table's hand of the round is still to play
            start = next(e for e in events if e["type"] == "hand_start" and e["table"] == table
                         and e["hand"] == end["hand"])
            assert (redeal["button"], redeal["small_blind"], redeal["big_blind"]) == _dealt_again(start, redeal)
        assert "Traceback" not in room.log("hub"), room.log("hub")[-4000:]
        _chips_accounted(watcher, {})
        _room_chips(room, STACK * len(PLAYERS))


def test_a_penalty_hand_voided_by_a_misdeal_is_dealt_dead_again(penalty_room: PenaltyRoom) -> None:
    room = penalty_room
    club = room.etc / "rulebooks" / "donne-au-dt.toml"
    club.write_text(CLUB, encoding="utf-8")
    waits: list[dict[str, Any]] = []  # t1's hands stopped for the TD, in order
    punished: dict[str, Any] = {}
    with ExitStack() as cleanup:
        hub, watcher, desk = _open_room(room, cleanup, club)
        for table in TABLES:
            room.start(table, room.agent_command(table))

        def td() -> bool:
            """t1 waits for the TD at every hand: the first time, he gives a player a warning (his next hand
            dealt dead) and has the extra card burned; the next hand, the warning's, he calls a misdeal; then
            he has the card burned (the redeal, and the hand after it)."""
            assert hub.poll() is None, room.log("hub")
            for fault in watcher.seen(lambda e: e["type"] == "fault" and e["table"] == "t1"
                                      and e["ruling"]["decision"] == "td_decision"):
                if fault["hand"] in [w["hand"] for w in waits]:
                    continue
                if not waits:
                    [start] = [e for e in _events(watcher, "t1", "hand_start") if e["hand"] == fault["hand"]]
                    seat = next(int(s) for s in start["stacks"]
                                if int(s) not in (start["small_blind"], start["big_blind"], start["button"]))
                    player = watcher.clock["tables"]["1"]["seats"][str(seat)]["player"]
                    desk.floor(cmd="penalty", player=player, kind="warning", amount=1)
                    punished.update(seat=seat, player=player)
                option = "misdeal" if len(waits) == 1 else "burn_as_first"
                room.td("decide", "t1", option, "--kind", "extra_hole_card")
                waits.append(fault)
            return len(waits) >= 4 and any(e["hand"] == waits[3]["hand"] for e in _events(watcher, "t1", "hand_end"))

        assert wait_until(td, 120), ([(e["hand"], e["type"], e.get("kind"), e.get("result"), e.get("seat"))
                                      for e in _events(watcher, "t1", "fault", "hand_end", "hand_start")],
                                     room.log("t1")[-2000:], room.log("hub")[-3000:])
        first, warned, redeal, after = (w["hand"] for w in waits[:4])
        assert (warned, redeal, after) == (first + 1, first + 2, first + 3), waits
        seat = punished["seat"]
        ends = {e["hand"]: e for e in _events(watcher, "t1", "hand_end")}
        starts = {e["hand"]: e for e in _events(watcher, "t1", "hand_start")}
        assert ends[warned]["result"] == "misdeal" and ends[redeal]["result"] not in VOID, (ends[warned], ends[redeal])
        assert starts[redeal]["button"] == starts[warned]["button"], (starts[warned], starts[redeal])
        # dealt dead by the hub as each hand began (its ruling; the table seeing him away is that ruling, no fault)
        dead = {e["hand"] for e in _events(watcher, "t1", "ruling")
                if e.get("kind") == "absent_player" and e["seat"] == seat and e["decision"] == "hand_dead"}
        acted = {e["hand"] for e in _events(watcher, "t1", "action") if e["seat"] == seat}
        # dead in the warning's hand and in its redeal, never acting there; live again the hand after
        assert {warned, redeal} <= dead and after not in dead and not {warned, redeal} & acted, (dead, acted)
        assert "Traceback" not in room.log("hub"), room.log("hub")[-4000:]
        assert not watcher.seen(lambda e: e["type"] == "hand_refused")
        _chips_accounted(watcher, {})
        _room_chips(room, STACK * len(PLAYERS))
        codes = room.stop()
        assert codes == {name: 0 for name in ("hub", *TABLES)}, room.stopped_logs(codes)
