"""A fault the ruleset leaves to the TD, at a tournament table (issue #26, points 1 and 2): the table
waits for him (every press refused in words, the table told to stop), one decision per fault, and
whatever he decides is carried out by the table and the floor, chips included; a rebuilt hub decides
it again at the same point."""

from __future__ import annotations

from pathlib import Path

import pytest
from service_helpers import Clock, db, floor_hub, send, started_floor, tables_state

from hub.floor.service import FloorService
from hub.floor.store import JSON, EventStore
from hub.floor.tables import FloorTables
from hub.floor.td import render
from hub.room.game import Output
from hub.rulings.texts import DECISIONS, FAULTS
from tablewire import wire
from tablewire.faults import Decision, FaultKind


class Table:
    """One tournament table's facts, numbered as the agent numbers them."""

    def __init__(self, tables: FloorTables, table: str = "t1") -> None:
        self.tables, self.table, self.seq = tables, table, 0

    def send(self, event: wire.AnyTableEvent) -> Output:
        out = self.tables.receive(self.table, event, wire.encode(event), float(event.seq))
        assert out is not None
        return out

    def head(self) -> dict[str, object]:
        self.seq += 1
        return {"table": self.table, "boot": "b1", "seq": self.seq, "at": float(self.seq)}

    def press(self) -> Output:
        return self.send(wire.DealerPressed(**self.head(), button="new_hand", seat=None))

    def act(self, seat: int, action: str) -> Output:
        return self.send(wire.SeatActed(**self.head(), seat=seat, action=action, to=None))

    def boxed(self, hand: int, n: int, card: str) -> Output:
        return self.send(wire.FaultSeen(**self.head(), hand=hand, kind="boxed_card", seat=None,
                                        cards=[card], details={"during_deal": False, "boxed_in_deal": 0,
                                                               "boxed_after_deal": n}))


def betting(out: Output) -> wire.BettingCmd:
    return [c for c in out.commands if isinstance(c, wire.BettingCmd)][-1]


def two_boxed_cards(tables: FloorTables) -> tuple[Table, int, dict[int, int]]:
    """cpt87 6.3: a hand dealt, then two boxed cards: the TD may cancel it (pot shared) or set them aside."""
    t = Table(tables)
    start = next(e for e in t.press().events if e["type"] == "hand_start")
    hand = start["hand"]
    first = tables.game("t1")
    assert first is not None and first.hand is not None
    stacks = dict(first.stacks)
    first_boxed = t.boxed(hand, 1, "5h")
    assert not any(isinstance(c, wire.BettingCmd) and c.td_wait for c in first_boxed.commands)
    out = t.boxed(hand, 2, "6h")
    fault = next(e for e in out.events if e["type"] == "fault")
    assert fault["ruling"]["decision"] == "td_decision" and fault["ruling"]["article"] == "cpt87 6.3"
    assert betting(out).td_wait is True  # the table stops and says so
    return t, hand, stacks


@pytest.mark.parametrize("option", ["hand_cancelled_pot_split", "set_aside"])
def test_the_table_waits_for_the_td_then_carries_out_his_decision(tmp_path: Path, option: str) -> None:
    path = db(tmp_path)
    with EventStore(path) as store:
        floor = started_floor(store, 12, ruleset="cpt87", tables=2)
        tables = FloorTables(floor, store)
        t, hand, stacks = two_boxed_cards(tables)
        game = tables.game("t1")
        assert game is not None and game.waiting_td
        to_act = game.hand.to_act if game.hand else None
        assert to_act is not None
        refused = t.act(to_act, "fold").events
        assert [(e["status"], e["message"]["fr"]) for e in refused] == [
            ("rejected", "Jeu arrêté : le directeur de tournoi doit décider.")]
        third = next(e for e in t.boxed(hand, 3, "7h").events if e["type"] == "fault")
        assert third["ruling"].get("joins") is True and len(game.pending_td) == 1  # one decision per fault
        assert [e["type"] for e in tables.decide("t1", "boxed_card", "misdeal", "alice", float(t.seq)).events] == [
            "decision_refused"]  # not an option: nothing stored
        out = tables.decide("t1", "boxed_card", option, "alice", float(t.seq))
        assert out.events[0]["type"] == "ruling" and out.events[0]["decision"] == option
        decided = tables_state(tables)
        assert tables_state(FloorTables.open(FloorService.open(store), store)) == decided  # killed here
        if option == "set_aside":
            assert game.in_hand and not game.waiting_td and betting(out).td_wait is False
            assert floor.in_hand("t1") == hand
            assert t.act(to_act, "fold").events[0]["status"] == "accepted"  # play resumes
            return
        end = next(e for e in out.events if e["type"] == "hand_end")
        assert end["result"] == "cancelled" and not game.in_hand
        assert floor.in_hand("t1") is None  # the floor counted the hand: the table is not blocked
        assert sum(int(v) for v in end["stacks"].values()) == sum(stacks.values())  # chips to the unit
        floor_chips = floor.players_for_hand("t1")
        assert floor_chips == {int(s): int(v) for s, v in end["stacks"].items()}
        nxt = next(e for e in t.press().events if e["type"] == "hand_start")
        assert nxt["hand"] == hand + 1  # the pot was shared: the hand counts, the button moves on
    with EventStore(path) as store:
        rebuilt = FloorTables.open(FloorService.open(store), store)
        assert tables_state(rebuilt)["t1"]["hand_no"] == hand + 1


def test_a_decision_without_a_pending_fault_is_refused(tmp_path: Path) -> None:
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 12, ruleset="cpt87", tables=2)
        tables = FloorTables(floor, store)
        assert tables.decide("t1", "boxed_card", "set_aside", "alice", 1.0).events[0]["type"] == "decision_refused"
        Table(tables).press()
        out = tables.decide("t1", "boxed_card", "set_aside", "alice", 2.0)
        assert out.events[0]["type"] == "decision_refused"
        assert out.events[0]["message"] == {  # every refusal in words, as the tables' own (no_stall checks it)
            "fr": "aucune décision en attente dans cette donne", "en": "no decision pending for the TD in this hand"}
        over = tables.decide("t1", "boxed_card", "set_aside", "alice", 2.0, hand=99).events
        assert over[0]["message"] == {"fr": "la donne 99 est terminée", "en": "hand 99 is over"}
        assert store.get_config("td_decided/t1") is None


def test_the_td_decides_from_the_command_line_through_the_floor(tmp_path: Path) -> None:
    """`tapis tournament decide t1 set_aside` reaches the hub (its hook) like the dashboard's button; the
    kind may be left out when one decision is pending."""
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 12, ruleset="cpt87", tables=2)
        tables = FloorTables(floor, store)
        refused = floor.execute({"cmd": "decide", "table": "t1", "option": "set_aside"}, 1.0)
        assert not refused.ok and "no hand in progress" in str(refused.error)
        t, hand, _ = two_boxed_cards(tables)
        alone = floor.execute({"cmd": "decide", "table": "t1", "option": "set_aside"}, 2.0)
        assert not alone.ok and "--broker" in str(alone.error)
        asked: list[Output] = []

        def decide(table: str, kind: str, option: str, by: str, hand: int) -> dict[str, JSON]:
            asked.append(tables.decide(table, kind, option, by, float(t.seq), hand=hand))
            return {}
        floor.on_decide = decide
        result = floor.execute({"cmd": "decide", "table": "t1", "option": "set_aside", "by": "alice"}, 3.0)
        assert result.ok and (result.data["hand"], result.data["option"]) == (hand, "set_aside")
        ruling = asked[0].events[0]
        assert (ruling["type"], ruling["kind"], ruling["decision"], ruling["by"]) == (
            "ruling", "boxed_card", "set_aside", "alice")
        bad = floor.execute({"cmd": "decide", "table": "t1", "option": "set aside!"}, 4.0)
        assert not bad.ok


def test_an_elimination_asked_during_a_hand_waits_for_its_end(tmp_path: Path) -> None:
    """Issue #30, point 7: the TD's "Éliminer" while the table plays is accepted and done at the hand's end
    (before, refused every time: hands come every few seconds)."""
    with EventStore(db(tmp_path)) as store:
        floor = started_floor(store, 12, ruleset="cdc-2013", tables=2)
        tables = FloorTables(floor, store)
        t = Table(tables)
        t.press()
        game = tables.game("t1")
        assert game is not None and game.hand is not None
        seat = game.hand.seats[0]
        name = floor.require().state.tables[1].seats[seat]
        result = floor.execute({"cmd": "eliminate", "player": name}, float(t.seq))
        assert result.ok and result.events == ["EliminationAsked"] and floor.require().state.players[name].alive
        tables.cancel_hand("t1", "TD", float(t.seq))  # the hand ends (any way it ends)
        assert not floor.require().state.players[name].alive
        assert name not in floor.players_for_hand("t1").values() and seat not in floor.players_for_hand("t1")


def test_tapis_tournament_decide_answers_the_td_in_words(tmp_path: Path) -> None:
    """What `tapis tournament decide t1 set_aside` prints once the hub carried it out: the fault and his decision
    in words, French then English, not the option's id (before: "set_aside envoyé au hub")."""
    store = EventStore(db(tmp_path))
    started_floor(store, 12, ruleset="cpt87", tables=2)
    hub, tables, _ = floor_hub(store, Clock(100.0), Clock(5.0))
    try:
        head = {"table": "t1", "boot": "b1"}
        send(hub, wire.DealerPressed(**head, seq=1, at=1.0, button="new_hand", seat=None))
        for n, card in ((1, "5h"), (2, "6h")):  # two boxed cards: cpt87 6.3 leaves it to the TD
            send(hub, wire.FaultSeen(**head, seq=1 + n, at=1.0 + n, hand=1, kind="boxed_card", seat=None, cards=[card],
                                     details={"during_deal": False, "boxed_in_deal": 0, "boxed_after_deal": n}))
        game = tables.game("t1")
        assert game is not None and game.waiting_td
        result = hub.floor_command({"cmd": "decide", "table": "t1", "option": "set_aside", "kind": "", "by": "Ada"})
        assert result is not None and result.ok, result
        assert render(result).splitlines() == [
            "Table 1, donne / hand 1",
            "  Feuille morte (carte retournée dans le paquet) — donne 1 — cpt87 6.3 (TD) : "
            f"{DECISIONS['fr'][Decision.SET_ASIDE]} (Ada)",
            f"  {FAULTS['en'][FaultKind.BOXED_CARD]} — hand 1 — cpt87 6.3 (TD): "
            f"{DECISIONS['en'][Decision.SET_ASIDE]} (Ada)"]
        assert not game.waiting_td
    finally:
        hub.stop()
        store.close()


def test_the_tds_decision_in_words_names_the_seat_and_the_cards() -> None:
    """What the TD reads once he decided (`tapis tournament decide`, the hub's answer) names the seat and the
    cards the fault was about, as the table's ruling said them (`Ruling.text`)."""
    from hub.room.table_rulings import decision_in_words

    ruling = {"type": "ruling", "table": "t1", "decision": "set_aside", "article": "cdc-2013 7.3",
              "kind": "exposed_card", "hand": 4, "seat": 3, "cards": ["As", "Kd"], "by": "Marie"}
    fr, en = decision_in_words(ruling)
    assert "donne 4 — siège 3 — As Kd — cdc-2013 7.3" in fr and fr.endswith("(Marie)")
    assert "hand 4 — seat 3 — As Kd — cdc-2013 7.3" in en and en.endswith("(Marie)")
