"""Hand histories (issue #32): one hand's hub events and card facts made into the TD's and the public
record, written as PHH that PokerKit and `tapis phh` replay to the hub's stacks; kept bounded in the
store; listed and exported by `tapis hands`, with one-line errors."""

from __future__ import annotations

import io
import json
import tomllib
import warnings
from pathlib import Path
from typing import Any

import pytest

from hub.floor.store import EventStore
from hub.history import cli
from hub.history.hand_record import CardFact, HandStart, build_record, public_record
from hub.history.phh_text import phh
from hub.history.recorder import HandRecorder
from hub.history.store import MAX_RECORD_BYTES, HistoryStore, Selection
from hub.room.game import Output, TableGame, TableSetup
from hub.rules import Level
from hub.rules.phh import loads, replay_hand
from simulators.tournament_demo import new_demo, open_room
from tablewire import wire

pokerkit = pytest.importorskip("pokerkit")
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = None
        for state in pokerkit.HandHistory.loads(text):  # noqa: B007 - the last state is the hand's end
            pass
    assert state is not None
    return [int(v) for v in state.stacks]


class Felt:
    """One table's game fed facts as a table sends them; the hand's record built as the recorder builds it."""

    def __init__(self, players: dict[int, int], button: int = 1, ruleset: str = "cdc-2013") -> None:
        self.setup = TableSetup(players=players, button=button, level=Level(50, 100), ruleset=ruleset, seats=6)
        self.game = TableGame("t1", self.setup)
        self.events: list[dict[str, Any]] = []
        self.cards: list[CardFact] = []
        self.seq = 0

    def _keep(self, out: Output) -> Output:
        self.events += out.events
        return out

    def new_hand(self) -> None:
        self._keep(self.game.new_hand(0.0))

    def card(self, zone: str, face: str) -> None:
        self.seq += 1
        self.cards.append(CardFact(self.seq, float(self.seq), float(self.seq) + 0.2, zone, face, True))
        self.events.append(wire.hub_event("t1", "card", hand=self.game.hand_no, zone=zone, card=face))  # the view's
        self._keep(self.game.card(wire.CardEvent(
            table="t1", boot="b", seq=self.seq, at=float(self.seq), type="card_arrived", zone=zone,
            uid=f"{DECK.index(face) + 1:08X}", card=face, deck="A", order=self.seq)))

    def deal(self, *faces: str) -> None:
        hand = self.game.hand
        assert hand is not None
        for i, face in enumerate(faces):
            self.card(f"seat:{hand.seats[i % len(hand.seats)]}", face)

    def act(self, seat: int, action: str, to: int | None = None) -> None:
        self._keep(self.game.action(seat, action, to))

    def fault(self, kind: str, cards: list[str], seat: int | None = None, **details: Any) -> None:
        self.seq += 1
        self._keep(self.game.fault(wire.FaultSeen(table="t1", boot="b", seq=self.seq, at=float(self.seq),
                                                  hand=self.game.hand_no, kind=kind, seat=seat, cards=cards,
                                                  details=details)))

    def record(self) -> dict[str, Any]:
        start = next(e for e in self.events if e["type"] == "hand_start")
        positions = [start["button"], start["small_blind"], start["big_blind"]]
        ctx = {"hand_no": start["hand"], "players": {str(s): v for s, v in self.setup.players.items()},
               "positions": positions, "level": [50, 100, 0, False, "nlhe"], "row": 1, "dead": {}}
        return build_record(HandStart.from_context("t1", ctx, self.setup.ruleset), self.events, self.cards,
                            names={s: f"Joueur {s}" for s in self.setup.players}, tournament="Mardi",
                            started_at=1.0, ended_at=1_800_000_000.0,
                            dealer={"seat": start["button"], "player": f"Joueur {start['button']}"})

    @property
    def stacks(self) -> dict[int, int]:
        end = [e for e in self.events if e["type"] == "hand_end"][-1]
        return {int(s): v for s, v in end["stacks"].items()}


def replays(record: dict[str, Any]) -> None:
    """Both versions: PokerKit and our engine end on the hub's stacks."""
    for version in (record, public_record(record)):
        text = phh(version)
        assert pokerkit_stacks(text) == record["finishing_stacks"], text
        assert list(replay_hand(loads(text))) == record["finishing_stacks"], text


def showdown_record() -> tuple[Felt, dict[str, Any]]:
    """Three-handed to a showdown: seat 2 (As Ah) folds, seat 3 (Kd Ks) beats seat 1 (Qh 2c)."""
    felt = Felt({1: 5000, 2: 5000, 3: 5000})
    felt.new_hand()
    felt.deal("As", "Kd", "Qh", "Ah", "Ks", "2c")  # seats 2, 3, 1
    felt.act(1, "call")  # the button, first to act three-handed
    felt.act(2, "fold")
    felt.act(3, "check")
    for face in ("7c", "8d", "9h"):
        felt.card("board", face)
    felt.act(3, "bet", 200)
    felt.act(1, "call")
    for street in ("Tc", "3s"):
        felt.card("board", street)
        felt.act(3, "check")
        felt.act(1, "check")
    return felt, felt.record()


def test_a_hand_to_showdown_is_a_phh_pokerkit_replays_and_its_public_version_hides_the_folded_cards() -> None:
    felt, record = showdown_record()
    assert record["replayable"] and not record["problems"], record["problems"]
    assert record["finishing_stacks"] == [felt.stacks[s] for s in record["seats"]]
    assert record["seats"] == [2, 3, 1] and record["players"] == ["Joueur 2", "Joueur 3", "Joueur 1"]
    replays(record)
    public = public_record(record)
    assert "d dh p1 ????" in public["actions"]  # seat 2 folded: never shown
    assert "d dh p2 KdKs" in public["actions"]  # shown down, and won
    assert "d dh p3 ????" in public["actions"] and "p3 sm" in public["actions"]  # lost: mucked face down
    faces = {c["card"] for c in public["cards"]} - {None}
    assert faces == {"Kd", "Ks", "7c", "8d", "9h", "Tc", "3s"}
    assert not any(face in json.dumps(public) or face in phh(public) for face in ("As", "Ah", "Qh", "2c"))
    assert "As" in phh(record)  # the TD's version has every card, in the antennas' order
    assert [c["order"] for c in record["cards"]] == sorted(c["order"] for c in record["cards"])


def test_a_hand_a_ruling_kills_out_of_turn_folds_at_its_turn_in_the_phh() -> None:
    felt = Felt({1: 5000, 2: 5000, 3: 5000, 4: 5000})  # the button on 1: blinds 2 and 3, seat 4 speaks first
    felt.new_hand()
    felt.deal("As", "Kd", "Qh", "Jc", "Ah", "Ks", "Qd", "Jd")
    felt._keep(felt.game.dealer("away", 1, 0.0))  # seat 1 leaves with a live hand: it is thrown (cdc 5.1)
    felt.act(4, "call")
    felt.act(2, "call")
    felt.act(3, "check")

    def checked_round() -> None:
        while felt.game.hand is not None and felt.game.hand.round_open and felt.game.hand.to_act is not None:
            felt.act(felt.game.hand.to_act, "check")

    for street in (("2c", "3c", "4c"), ("5h",), ("9s",)):
        for face in street:
            felt.card("board", face)
        checked_round()
    record = felt.record()
    assert any(r["decision"] == "hand_dead" and r["seat"] == 1 for r in record["rulings"])
    assert record["actions"][4:8] == ["p3 cc", "p4 f", "p1 cc", "p2 cc"]  # seat 1 (p4) folds at his turn
    assert record["replayable"], record["problems"]
    replays(record)


def test_a_cancelled_hand_is_on_record_void_with_the_stacks_it_started_with() -> None:
    felt = Felt({1: 5000, 2: 5000, 3: 5000})
    felt.new_hand()
    felt.deal("As", "Kd")
    felt._keep(felt.game.cancel("TD"))  # the TD cancels the hand: bets returned (cdc)
    record = felt.record()
    assert record["void"] and record["result"] == "cancelled" and not record["replayable"]
    assert record["finishing_stacks"] == record["starting_stacks"]
    assert [(d["kind"], d["by"]) for d in record["decisions"]] == [("td_cancel", "TD")]


def test_a_record_is_bounded_in_the_store(tmp_path: Path) -> None:
    felt = Felt({1: 5000, 2: 5000})
    felt.new_hand()
    felt.deal("As", "Kd", "Qh", "Jc")
    felt.act(1, "fold")  # heads-up the button (small blind) acts first
    record = felt.record()
    record["cards"] = [{"order": i, "at": 1.0, "hub_at": 1.0, "zone": "seat:1", "card": "As", "arrived": True}
                       for i in range(20_000)]  # a card shuffled on an antenna for an hour
    with EventStore(tmp_path / "hub.db") as store:
        history = HistoryStore(store)
        history.put(record, public_record(record))
        kept = history.record("t1", record["hand"], td=True)
        rows = store.run("SELECT length(td), length(public) FROM hand_history")
    assert kept is not None and kept["truncated"] and kept["cards"] == []
    assert all(int(str(n)) <= MAX_RECORD_BYTES for n in rows[0])
    replays(kept)


def test_the_hub_writes_every_hand_of_a_tournament_as_it_ends(tmp_path: Path) -> None:
    """The recorder on the real tables of a simulated tournament (as `tapis hub --db` runs it)."""
    with EventStore(tmp_path / "hub.db", durable=False) as store:
        new_demo(store, players=12, tables=2, ruleset="cdc-2013", seed=4)
        room = open_room(store, seed=4)
        recorder = HandRecorder(room.tables, wall=lambda: room.now)
        ended: list[dict[str, Any]] = []
        receive = room.tables.receive

        def listened(table: str, event: Any, payload: bytes, now: float) -> Output | None:
            out = receive(table, event, payload, now)
            for e in out.events if out is not None else []:
                recorder.event(e)
                if e["type"] == "hand_end":
                    ended.append(e)
            return out

        room.tables.receive = listened  # type: ignore[method-assign]
        while len(ended) < 12:
            room.step()
        history = HistoryStore(store)
        assert recorder.failed == 0 and history.count() == len(ended)
        for end in ended:
            record = history.record(end["table"], end["hand"], td=True)
            assert record is not None and record["tournament"] == "Démo 12 joueurs"
            assert record["finishing_stacks"] == [end["stacks"][str(s)] for s in record["seats"]]
            assert record["dealer"] == {"seat": record["button"], "player": record["players"][-1]} \
                or record["dealer"]["seat"] == record["button"]
            replays(record)
        assert history.count(Selection(table="t1")) + history.count(Selection(table="t2")) == len(ended)


def _listening(room: Any, recorder: HandRecorder, ended: list[dict[str, Any]]) -> None:
    receive = room.tables.receive

    def listened(table: str, event: Any, payload: bytes, now: float) -> Output | None:
        out = receive(table, event, payload, now)
        for e in out.events if out is not None else []:
            recorder.event(e)
            if e["type"] == "hand_end":
                ended.append(e)
        return out

    room.tables.receive = listened


def test_a_hand_the_hub_restarted_in_is_on_record_whole(tmp_path: Path) -> None:
    """The hub killed mid-hand and started again on its store: the hand's history has its actions from
    the start (`FloorTables.open` replays them to the recorder)."""
    with EventStore(tmp_path / "hub.db", durable=False) as store:
        new_demo(store, players=6, tables=1, ruleset="cdc-2013", seed=6)
        room = open_room(store, seed=6)
        ended: list[dict[str, Any]] = []
        _listening(room, HandRecorder(room.tables, wall=lambda: room.now), ended)
        while not ended:
            room.step()
        game = room.tables.game("t1")
        while game is None or not game.in_hand or game.hand is None or len(game.hand.log) < 3:
            room.step()
            game = room.tables.game("t1")
        midway = game.hand_no
        room = open_room(store, seed=6)  # the hub again, on the same store
        recorder = HandRecorder(room.tables, wall=lambda: room.now)
        _listening(room, recorder, ended)
        while not any(e["hand"] == midway for e in ended):
            room.step()
        record = HistoryStore(store).record("t1", midway, td=True)
    assert record is not None and record["replayable"], record and record["problems"]
    assert sum(1 for a in record["actions"] if a.startswith("p")) >= 3  # those before the restart too
    replays(record)


def test_a_hand_heard_ending_after_the_next_one_started_is_on_record(tmp_path: Path) -> None:
    """The store keeps only a table's last hand context: when the next hand has started (its context
    stored) by the time the recorder hears this hand's end, the record is still written, from the context
    it kept at the hand's start. (A hub killed mid-hand and started again met this in the room's outage
    tests: "no stored start", every history of the restart lost.)"""
    with EventStore(tmp_path / "hub.db", durable=False) as store:
        new_demo(store, players=6, tables=1, ruleset="cdc-2013", seed=6)
        room = open_room(store, seed=6)
        recorder = HandRecorder(room.tables, wall=lambda: room.now)
        heard_ends: list[dict[str, Any]] = []
        late: list[dict[str, Any]] = []
        receive = room.tables.receive

        def one_step_late(table: str, event: Any, payload: bytes, now: float) -> Output | None:
            out = receive(table, event, payload, now)
            for e in late:  # the step before's events, heard once this one is stored too
                recorder.event(e)
                if e["type"] == "hand_end":
                    heard_ends.append(e)
            late[:] = out.events if out is not None else []
            return out

        room.tables.receive = one_step_late  # type: ignore[method-assign]
        while len(heard_ends) < 4:
            room.step()
        assert (recorder.failed, recorder.last_error) == (0, None)
        assert HistoryStore(store).count() == recorder.written == len(heard_ends)


def _store_with_hands(path: Path) -> None:
    felt = Felt({1: 5000, 2: 5000})
    with EventStore(path) as store:
        history = HistoryStore(store)
        for i in range(3):
            felt.new_hand()
            felt.deal("As", "Kd", "Qh", "Jc")
            felt.act(felt.game.hand.to_act if felt.game.hand and felt.game.hand.to_act else 1, "fold")
            record = {**felt.record(), "hand": i + 1, "ended_at": 1_800_000_000.0 + 60 * i,
                      "table": "t1" if i < 2 else "t2"}
            history.put(record, public_record(record))
            felt.events.clear()
            felt.cards.clear()


def test_tapis_hands_lists_and_exports_a_selection(tmp_path: Path) -> None:
    db = tmp_path / "hub.db"
    _store_with_hands(db)
    out = io.StringIO()
    assert cli.run(["list", "--db", str(db), "--table", "t1"], out) == 0
    assert out.getvalue().splitlines()[-1] == "2 main(s) / hand(s)"
    assert cli.run(["export", "--db", str(db), "--out", str(tmp_path / "phh"), "--since", "1800000030"],
                   io.StringIO()) == 0
    assert sorted(p.name for p in (tmp_path / "phh").iterdir()) == ["t1-000002.phh", "t2-000003.phh"]
    doc = tomllib.loads((tmp_path / "phh" / "t2-000003.phh").read_text(encoding="utf-8"))
    assert doc["_tapis_version"] == "public" and doc["table"] == "t2" and doc["event"] == "Mardi"
    lines = io.StringIO()
    assert cli.run(["export", "--db", str(db), "--out", "-", "--format", "jsonl", "--td",
                    "--until", "1800000030"], lines) == 0
    assert [json.loads(line)["hand"] for line in lines.getvalue().splitlines()] == [1]


def test_tapis_hands_list_counts_faults_as_the_statistics_do(tmp_path: Path) -> None:
    """A Time request (cpt87 4.5: a player's, the TD decides) is no fault of the deal: not counted on the list."""
    db = tmp_path / "hub.db"
    _, record = showdown_record()
    asked = {"kind": "time_request", "seat": 2, "cards": [], "decision": "td_decision", "article": "cpt87 4.5"}
    boxed = {"kind": "boxed_card", "seat": None, "cards": ["Qc"], "decision": "set_aside", "article": "cdc 6.3"}
    with EventStore(db) as store:
        r = {**record, "faults": [asked, boxed]}
        HistoryStore(store).put(r, public_record(r))
    out = io.StringIO()
    assert cli.run(["list", "--db", str(db)], out) == 0
    assert " 1 faute(s)/fault(s)" in out.getvalue(), out.getvalue()


@pytest.mark.parametrize(("argv", "said"), [
    (["list", "--db", "{tmp}/none.db"], "no such store"),
    (["list", "--db", "{db}", "--since", "hier"], "neither a date and time"),
    (["list", "--db", "{db}", "--since", "1800000060", "--until", "1800000000"], "--since must come before"),
    (["export", "--db", "{db}", "--out", "-"], "PHH is one file per hand"),
    (["export", "--db", "{db}"], "required: --out"),
    (["export", "--db", "{db}", "--out", "{tmp}", "--format", "jsonl"], "is a folder"),
    (["frobnicate"], "invalid choice"),
])
def test_tapis_hands_says_what_is_wrong_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   argv: list[str], said: str) -> None:
    db = tmp_path / "hub.db"
    _store_with_hands(db)
    code = cli.main(["hands", *[a.format(tmp=tmp_path, db=db) for a in argv]])
    err = capsys.readouterr().err
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


def test_a_big_blind_alone_first_after_the_button_replays_as_pokerkit_plays_it() -> None:
    """No small blind (its seat emptied) and the big blind the first seat after the button: tapis writes
    PHH's `[bb, 0, ...]`; `tapis phh` plays it as PokerKit does (last before the flop, first after)."""
    text = "\n".join([
        "variant = 'NT'", "antes = [0, 0, 0, 0]", "blinds_or_straddles = [100, 0, 0, 0]", "min_bet = 100",
        "starting_stacks = [1000, 1000, 1000, 1000]",
        "actions = ['d dh p1 AsAh', 'd dh p2 KdKs', 'd dh p3 QhQd', 'd dh p4 2c7d', 'p2 cc', 'p3 cbr 300', "
        "'p4 f', 'p1 cc', 'p2 cc', 'd db 3c4d9h', 'p1 cbr 200', 'p2 f', 'p3 cc', 'd db Ts', 'p1 cc', 'p3 cc', "
        "'d db Jd', 'p1 cc', 'p3 cc', 'p1 sm AsAh', 'p3 sm QhQd']", ""])
    assert list(replay_hand(loads(text))) == pokerkit_stacks(text) == [1800, 700, 500, 1000]


@pytest.mark.parametrize(("ruleset", "first_winner"), [("cdc-2013", 118), ("brest-2011", 117)])
def test_a_pot_split_three_ways_with_two_odd_chips_says_whether_a_phh_replay_gives_them(
        ruleset: str, first_winner: int) -> None:
    """350 shared by seats 3, 4 and 1 (the board plays): cdc 11.8 gives both odd chips to seat 3, the
    nearest on the button's left, as PokerKit does; brest VIII.13 gives one each to seats 3 and 4, which
    no PHH replay gives: the record keeps the hub's stacks and says why it cannot be replayed."""
    felt = Felt({1: 5000, 2: 5000, 3: 5000, 4: 5000}, ruleset=ruleset)
    felt.new_hand()
    felt.deal("2c", "3d", "4s", "5c", "2d", "3c", "4d", "5s")  # seats 2, 3, 4, 1
    felt.act(4, "call")
    felt.act(1, "call")
    felt.act(2, "fold")
    felt.act(3, "check")
    for street in (("Ah", "Kh", "Qh"), ("Jh",), ("Th",)):
        for face in street:
            felt.card("board", face)
        for seat in (3, 4, 1):
            felt.act(seat, "check")
    assert felt.stacks[3] - 4900 == first_winner, felt.stacks
    record = felt.record()
    assert record["finishing_stacks"] == [felt.stacks[s] for s in record["seats"]]
    if ruleset == "cdc-2013":
        assert record["replayable"], record["problems"]
        replays(record)
    else:
        assert not record["replayable"]
        assert record["problems"] == ["odd chips one each (brest-2011 VIII.13): a PHH replay gives them all to the "
                                      "first winner"]
        assert pokerkit_stacks(phh(record)) != record["finishing_stacks"]
