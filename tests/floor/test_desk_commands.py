"""Issue 18 (points 2, 3, 5, 6): the registration desk, undo, results during play, clock controls and
the floor's rulings as TD commands, every refusal in plain French and English (never pydantic text)."""

from __future__ import annotations

import re
from typing import Any, cast

import pytest

from hub.floor.commands import CommandError, CommandResult
from hub.floor.results_view import results_csv
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.td import render, render_results
from hub.tournament.events import ActionReverted, ChipsColouredUp, PlayerEliminated
from tests.floor.service_helpers import started_floor

RAW = ("Input tag", "validation error", "pydantic", "Field required", "literal_error", "Input should")


def run(floor: FloorService, cmd: dict[str, Any], now: float = 1.0) -> CommandResult:
    return floor.execute(cmd, now)


def refused(result: CommandResult) -> tuple[str, str]:
    """The refusal's French and English, checked plain (no developer text in either)."""
    assert not result.ok and result.error_fr and result.error_en, result
    for text in (result.error_fr, result.error_en, result.error or ""):
        assert not any(raw in text for raw in RAW), text
    return result.error_fr, result.error_en


# --- registration desk -------------------------------------------------------------------------

@pytest.mark.parametrize("how", ["register", "reenter"])
def test_pouques_reentry_at_the_desk(how: str) -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 12, ruleset="pouques-2020", payouts="ruleset")
        assert run(floor, {"cmd": "eliminate", "player": "p01"}).ok
        pool = floor.snapshot(1.0)["prize_pool_cents"]
        cmd = {"cmd": "register", "players": ["p01"]} if how == "register" else {"cmd": "reenter", "player": "p01"}
        result = run(floor, cmd, 2.0)
        assert result.ok, result.error
        p = floor.require().state.players["p01"]
        assert p.alive and p.entries == 2 and p.chips == floor.require().state.structure.starting_stack
        snap = floor.snapshot(2.0)
        assert snap["entries"] == 13 and snap["prize_pool_cents"] > pool  # type: ignore[operator]
        fr, en = refused(run(floor, cmd, 3.0))  # re-entered: he is playing again
        assert ("p01 est déjà inscrit" in fr and "already entered" in en) if how == "register" else (
            "p01 n'est pas éliminé" in fr and "p01 is not eliminated" in en)


@pytest.mark.parametrize("ruleset,payouts", [("cdc-2013", "50,30,20"), ("brest-2011", "pouques"),
                                             ("pcpm", "60,40"), ("cpt87", "60,40")])
def test_freezeout_rulesets_refuse_a_reentry_in_plain_words(ruleset: str, payouts: str) -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 12, ruleset=ruleset, payouts=payouts)
        assert run(floor, {"cmd": "eliminate", "player": "p01"}).ok
        for cmd in ({"cmd": "register", "players": ["p01"]}, {"cmd": "reenter", "player": "p01"}):
            fr, en = refused(run(floor, cmd, 2.0))
            assert f"pas de réentrée sous {ruleset}" in fr and f"no re-entry under {ruleset}" in en


def test_pouques_reentry_closes_after_level_6() -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 12, ruleset="pouques-2020", payouts="ruleset")
        assert run(floor, {"cmd": "eliminate", "player": "p01"}).ok
        assert run(floor, {"cmd": "clock", "action": "level", "level": 7}, 2.0).ok
        fr, en = refused(run(floor, {"cmd": "reenter", "player": "p01"}, 3.0))
        assert "réentrées closes après le niveau 6" in fr and "re-entry closed after level 6" in en


def test_late_registration_until_the_ruleset_limit() -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 12, ruleset="pouques-2020", payouts="ruleset")
        assert run(floor, {"cmd": "register", "players": ["Late"]}, 2.0).ok  # pouques 9: the first 6 levels
        assert floor.require().state.players["Late"].alive
        assert run(floor, {"cmd": "clock", "action": "level", "level": 7}, 3.0).ok
        fr, en = refused(run(floor, {"cmd": "register", "players": ["Later"]}, 4.0))
        assert "les inscriptions sont closes" in fr and "registration is closed" in en


def test_brest_wait_list_at_the_desk() -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 12, ruleset="brest-2011", payouts="pouques")
        assert run(floor, {"cmd": "wait_list", "player": "Wendy"}).ok
        assert floor.results()["wait_list"] == ["Wendy"]
        fr, _ = refused(run(floor, {"cmd": "wait_list", "action": "seat"}, 2.0))
        assert "après une élimination" in fr
        assert run(floor, {"cmd": "eliminate", "player": "p01"}, 3.0).ok
        assert run(floor, {"cmd": "wait_list", "action": "seat"}, 4.0).ok
        assert floor.require().state.players["Wendy"].alive and floor.results()["wait_list"] == []
        fr, en = refused(run(floor, {"cmd": "wait_list", "player": ""}))
        assert "nom du joueur" in fr and "player's name" in en


def test_no_wait_list_where_the_ruleset_has_none() -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 12)
        fr, en = refused(run(floor, {"cmd": "wait_list", "player": "Wendy"}))
        assert "pas de liste d'attente sous cdc-2013" in fr and "no wait-list under cdc-2013" in en


# --- eliminations: undo ------------------------------------------------------------------------

def test_an_elimination_is_undone_by_a_record_not_an_erasure(tmp_path: Any) -> None:
    with EventStore(tmp_path / "f.db") as store:
        floor = started_floor(store, 12)
        state = floor.require().state
        table, seat, chips = state.players["p05"].table, state.players["p05"].seat, state.players["p05"].chips
        total = state.chips_total
        out = run(floor, {"cmd": "eliminate", "player": "p05"}, 2.0)
        assert out.ok and isinstance(out.data.get("undo"), int)
        assert not floor.require().state.players["p05"].alive
        undo = run(floor, {"cmd": "undo", "action": out.data["undo"], "by": "alice"}, 3.0)
        assert undo.ok, undo.error
        p = floor.require().state.players["p05"]
        assert (p.alive, p.table, p.seat, p.chips) == (True, table, seat, chips)
        assert floor.require().state.chips_total == total and floor.require().state.outs == []
        events = floor.require().events
        assert any(isinstance(e, PlayerEliminated) for e in events)  # kept in the log
        assert isinstance(events[-1], ActionReverted) and events[-1].by == "alice"
        fr, en = refused(run(floor, {"cmd": "undo", "action": out.data["undo"]}, 4.0))
        assert "déjà annulée" in fr and "already undone" in en
        again = FloorService.open(store).require().state.players["p05"]  # the same after a restart
        assert (again.alive, again.table, again.seat, again.chips) == (True, table, seat, chips)


def test_an_undo_is_refused_once_the_table_has_played() -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 12)
        table = floor.require().state.players["p05"].table
        out = run(floor, {"cmd": "eliminate", "player": "p05"}, 2.0)
        stacks = floor.players_for_hand(f"t{table}")
        floor.hand_started(f"t{table}", 1, 3.0)
        floor.hand_ended(f"t{table}", 1, stacks, 4.0)
        fr, en = refused(run(floor, {"cmd": "undo", "action": out.data["undo"]}, 5.0))
        assert "trop tard" in fr and "too late" in en
        fr, en = refused(run(floor, {"cmd": "undo", "action": 9999}, 5.0))
        assert "rien à annuler" in fr and "nothing to undo" in en


@pytest.mark.parametrize("cmd", [{"cmd": "penalty", "player": "p03", "kind": "warning"},
                                 {"cmd": "register", "players": ["Late"]}])
def test_other_desk_actions_are_undone_too(cmd: dict[str, Any]) -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 12, ruleset="pouques-2020", payouts="ruleset")
        entries, penalties = floor.require().state.entries, list(floor.require().state.players["p03"].penalties)
        out = run(floor, cmd, 2.0)
        assert out.ok, out.error
        assert run(floor, {"cmd": "undo", "action": out.data["undo"]}, 3.0).ok
        state = floor.require().state
        assert state.entries == entries and "Late" not in state.players
        assert state.players["p03"].penalties == penalties


# --- results during play -----------------------------------------------------------------------

def test_results_during_play_do_not_rank_the_players_still_in() -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 5)
        assert run(floor, {"cmd": "eliminate", "player": "p02"}, 2.0).ok
        results = floor.results()
        rows = results["ranking"]
        assert isinstance(rows, list)
        playing = [r for r in rows if isinstance(r, dict) and r["status"] == "playing"]
        assert len(playing) == 4 and all(r["place"] is None and r["prize_cents"] == 0 for r in playing)
        out = [r for r in rows if isinstance(r, dict) and r["status"] == "out"]
        assert [(r["player"], r["place"]) for r in out] == [("p02", 5)]
        lines = render_results(run(floor, {"cmd": "results"}, 3.0).data).splitlines()
        still = [line for line in lines if "en jeu / still playing" in line]
        assert len(still) == 4 and not any("€" in line or line.split()[0].isdigit() for line in still)
        assert lines[-1].split() == ["5", "p02"]
        csv = results_csv(results)
        assert "en jeu / still playing" in csv and ";p02;éliminé / out;" in csv


def test_the_winner_takes_first_place_and_every_prize_is_paid() -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 3, payouts="60,40")
        for n, name in enumerate(("p01", "p02"), start=2):
            assert run(floor, {"cmd": "eliminate", "player": name}, float(n)).ok
        results = floor.results()
        rows = cast(list[dict[str, Any]], results["ranking"])
        assert results["finished"] is True and rows[0]["status"] == "winner" and rows[0]["place"] == 1
        assert sum(r["prize_cents"] for r in rows) == results["prize_pool_cents"] == 15_000


def test_the_csv_export_does_not_run_a_name_as_a_formula() -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 3, ruleset="pouques-2020", payouts="ruleset")
        assert run(floor, {"cmd": "register", "players": ["=HYPERLINK(1)"]}, 2.0).ok
        assert "'=HYPERLINK(1)" in results_csv(floor.results())


# --- clock controls ----------------------------------------------------------------------------

def test_clock_remove_set_and_jump() -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 12)
        left = floor.snapshot(10.0)["time_left"]
        assert run(floor, {"cmd": "clock", "action": "remove", "seconds": 300}, 10.0).ok
        assert floor.snapshot(10.0)["time_left"] == pytest.approx(left - 300)  # type: ignore[operator]
        assert run(floor, {"cmd": "clock", "action": "set", "seconds": 90}, 10.0).ok
        assert floor.snapshot(10.0)["time_left"] == pytest.approx(90)
        assert run(floor, {"cmd": "clock", "action": "level", "level": 4}, 10.0).ok
        assert floor.snapshot(10.0)["level"] == 4


@pytest.mark.parametrize("cmd,fr,en", [
    ({"cmd": "clock", "action": "add", "seconds": -300}, "la durée : au moins 0", "the time: at least 0"),
    ({"cmd": "clock", "action": "add", "seconds": 0}, "plus de zéro minute", "more than zero minutes"),
    ({"cmd": "clock", "action": "remove", "seconds": 99_999}, "la durée : au plus", "the time: at most"),
    ({"cmd": "clock", "action": "remove", "seconds": 6 * 3600}, "il ne reste que", "s left, cannot remove"),
    ({"cmd": "clock", "action": "level", "level": 999}, "pas de niveau 999", "no level 999"),
    ({"cmd": "clock", "action": "level"}, "numéro du niveau", "level number"),
    ({"cmd": "clock", "action": "level", "level": "x"}, "le niveau : un nombre entier", "the level: a whole number"),
    ({"cmd": "clock", "action": "rewind"}, "l'action : une valeur parmi", "the action: one of"),
    ({"cmd": "frobnicate"}, "commande inconnue « frobnicate »", "unknown command 'frobnicate'"),
    ({"cmd": "penalty", "player": "p03", "kind": "caning"}, "le type de pénalité", "the kind of penalty"),
    ({"cmd": "penalty", "player": "p03", "kind": "suspension", "amount": 5}, "ne figure pas", "not in this ruleset"),
])
def test_refusals_in_plain_words(cmd: dict[str, Any], fr: str, en: str) -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 12)
        got_fr, got_en = refused(run(floor, cmd, 10.0))
        assert fr in got_fr and en in got_en


# --- penalties, redraw, hand for hand, chip race -------------------------------------------------

def test_penalty_and_hand_for_hand_commands() -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 20)
        assert run(floor, {"cmd": "penalty", "player": "p03", "kind": "missed_rounds", "amount": 1}).ok
        assert floor.require().state.players["p03"].dead_hands > 0
        assert run(floor, {"cmd": "hand_for_hand", "on": True}).ok and floor.snapshot(1.0)["hand_for_hand"]
        assert run(floor, {"cmd": "hand_for_hand", "on": False}, 2.0).ok
        assert not floor.snapshot(2.0)["hand_for_hand"]
        assert run(floor, {"cmd": "penalty", "player": "p04", "kind": "disqualification"}, 3.0).ok
        assert not floor.require().state.players["p04"].alive


def test_the_final_table_redraw_on_the_tds_word() -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 8)  # one table from the start: no automatic final draw
        result = run(floor, {"cmd": "redraw"}, 1.0)
        assert result.ok, result.error
        assert floor.snapshot(1.0)["final_table"] == 1
        fr, en = refused(run(floor, {"cmd": "redraw"}, 2.0))
        assert "déjà tirée" in fr and "already drawn" in en
    with EventStore(":memory:") as store:
        floor = started_floor(store, 30)
        fr, en = refused(run(floor, {"cmd": "redraw"}, 1.0))
        assert "il reste 30 joueurs" in fr and "30 players are left" in en


def test_chip_race_command() -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 6)
        players = sorted(floor.require().state.tables[1].seats.values())
        result = run(floor, {"cmd": "chip_race", "table": "t1", "small_value": 25, "big_value": 100,
                             "leftovers": {players[0]: 3, players[1]: 1}}, 1.0)
        assert result.ok, result.error
        assert "ChipsColouredUp" in result.events
        raced = [e for e in floor.require().events if isinstance(e, ChipsColouredUp)]
        # four chips of 25 held: one chip of 100, to the best card of the two players who held them
        assert len(raced) == 1 and len(raced[0].winners) == 1 and raced[0].winners[0] in players[:2]


def test_the_command_line_reenters_sets_the_time_and_shows_who_is_still_playing(tmp_path: Any,
                                                                                capsys: Any) -> None:
    from hub.floor.td import td_main

    db = str(tmp_path / "cli.db")
    assert td_main(["new", "--db", db, "--ruleset", "pouques-2020", "--structure", "pouques", "--buy-in", "10",
                    "--seed", "1"]) == 0
    assert td_main(["register", "--db", db, "Ada", "Bob", "Cy"]) == 0
    assert td_main(["seat", "--db", db]) == 0 and td_main(["start", "--db", db]) == 0
    assert td_main(["eliminate", "--db", db, "Ada"]) == 0
    assert td_main(["reenter", "--db", db, "Ada"]) == 0
    assert td_main(["clock", "--db", db, "set", "600"]) == 0
    assert td_main(["clock", "--db", db, "add", "-300"]) == 2
    assert "la durée : au moins 0 / the time: at least 0" in capsys.readouterr().err
    capsys.readouterr()
    assert td_main(["results", "--db", db]) == 0
    text = capsys.readouterr().out
    assert "3 left of 4 entries" in text and text.count("en jeu / still playing") == 3
    assert "€" not in "".join(text.splitlines()[1:])


def test_the_desks_floor_actions_have_their_command_line_words(tmp_path: Any, capsys: Any) -> None:
    """A TD at a terminal (no dashboard) gives a penalty, runs hand for hand, the wait-list, a chip race and
    undoes what he did, as the desk's buttons do (td-guide's known limit: "no command-line verb yet")."""
    from hub.floor.td import td_main

    db = str(tmp_path / "cli.db")
    players = [f"P{n}" for n in range(1, 21)]
    assert td_main(["new", "--db", db, "--ruleset", "brest-2011", "--structure", "pouques", "--buy-in", "10",
                    "--tables", "2", "--payouts", "50,30,20", "--seed", "1"]) == 0
    assert td_main(["register", "--db", db, *players]) == 0
    assert td_main(["seat", "--db", db]) == 0 and td_main(["start", "--db", db]) == 0
    capsys.readouterr()

    def said(*argv: str) -> str:
        assert td_main([*argv, "--db", db]) == 0, capsys.readouterr().err
        return str(capsys.readouterr().out)

    def state() -> Any:
        with EventStore(db) as store:
            return FloorService.open(store).require().state

    assert "tapis tournament undo " in said("penalty", "P1", "suspension", "10")
    assert state().players["P1"].penalties
    said("hand-for-hand", "on")
    assert state().hand_for_hand
    said("hand-for-hand", "off")
    assert not state().hand_for_hand
    said("wait-list", "Zed")
    said("eliminate", "P2")
    undo = said("wait-list", "--seat").split("undo ")[-1].strip()
    assert state().players["Zed"].alive and state().players["Zed"].table
    said("undo", undo)
    assert not state().players["Zed"].table  # back on the list, his seat free again
    # at table 2 (not the first table: the race is the table named)
    racer = next(p.name for p in state().players.values() if p.table == 2 and p.alive)
    assert "ok" in said("chip-race", "2", "25", "100", f"{racer}=3")
    with EventStore(db) as store:
        raced = [e for e in FloorService.open(store).require().events if type(e).__name__ == "ChipsColouredUp"]
    assert [e.table for e in raced] == [2], raced  # type: ignore[attr-defined]
    assert td_main(["chip-race", "--db", db, "2", "25", "100", f"{racer}=three"]) == 2
    assert "NAME=COUNT expected" in capsys.readouterr().err
    assert td_main(["wait-list", "--db", db]) == 2  # neither a name nor --seat: said, not guessed


def test_undoing_an_elimination_puts_back_the_player_it_moved() -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 20, tables=2)  # 10 and 10; cdc 3.3 balances at three apart
        state = floor.require().state
        first = sorted(state.tables[1].seats.values())
        for name in first[:2]:
            assert run(floor, {"cmd": "eliminate", "player": name}, 2.0).ok
        seats = {p.name: (p.table, p.seat) for p in state.alive()}
        out = run(floor, {"cmd": "eliminate", "player": first[2]}, 3.0)
        moved = out.data["moves"]
        assert len(moved) == 1 and moved[0]["to_table"] == "t1"  # 7 against 10: one comes over
        undo = run(floor, {"cmd": "undo", "action": out.data["undo"]}, 4.0)
        assert undo.ok, undo.error
        state = floor.require().state
        assert {p.name: (p.table, p.seat) for p in state.alive()} == seats  # every seat as before
        back = {m["player"]: m for m in undo.data["moves"]}
        assert back[moved[0]["player"]]["to_table"] == moved[0]["from_table"]  # the dealers are told
        assert back[first[2]]["from_table"] == "" and back[first[2]]["to_table"] == "t1"
        assert not state.pending_moves and state.players[first[2]].alive


def test_an_undo_takes_back_the_tds_action_not_what_the_clock_did_meanwhile() -> None:
    from hub.floor.commands import NewTournament
    from hub.tournament.structure import pouques_2020, to_toml

    with EventStore(":memory:") as store:
        floor = FloorService(store)
        floor.create(NewTournament(name="B", ruleset="brest-2011", structure_toml=to_toml(pouques_2020()),
                                   buy_in_cents=1_000, payouts="pouques", seed=2), 0.0)
        for cmd in ({"cmd": "register", "players": [f"p{i:02d}" for i in range(12)]},
                    {"cmd": "register", "players": ["Zoé"], "present": False}, {"cmd": "seat"}, {"cmd": "start"},
                    {"cmd": "wait_list", "player": "Wendy"}):
            assert run(floor, cmd, 0.0).ok
        late = 40 * 60 + 5.0  # level 1 is over: Zoé never came, Wendy takes her seat (brest II.1)
        out = run(floor, {"cmd": "penalty", "player": "p03", "kind": "warning"}, late)
        assert out.ok and floor.require().state.players["Wendy"].alive
        assert run(floor, {"cmd": "undo", "action": out.data["undo"]}, late + 1).ok
        state = floor.require().state
        assert state.players["p03"].penalties == [] and state.players["Wendy"].alive
        assert not state.players["Zoé"].alive and floor.snapshot(late + 1)["level"] == 2


def test_results_before_the_draw_list_the_players_entered() -> None:
    from hub.floor.commands import NewTournament
    from hub.tournament.structure import pouques_2020, to_toml

    with EventStore(":memory:") as store:
        floor = FloorService(store)
        floor.create(NewTournament(name="T", ruleset="cdc-2013", structure_toml=to_toml(pouques_2020()),
                                   payouts="50,50"), 0.0)
        assert run(floor, {"cmd": "register", "players": ["Ada", "Bob"]}).ok
        results = floor.results()
        rows = cast(list[dict[str, Any]], results["ranking"])
        assert results["finished"] is False
        assert [(r["player"], r["status"], r["place"]) for r in rows] == [("Ada", "registered", None),
                                                                          ("Bob", "registered", None)]
        assert "inscrit / registered" in results_csv(results)


def test_the_command_line_says_what_each_command_did_in_words() -> None:
    """What `tapis tournament` prints once a command is done (`render`): the desk's words, French then English,
    and an elimination asked during a hand says when it takes effect (the player plays it out)."""
    from hub.floor.td import render

    with EventStore(":memory:") as store:
        floor = started_floor(store, 12)
        table = floor.require().state.players["p05"].table
        floor.hand_started(f"t{table}", 1, 3.0)
        later = run(floor, {"cmd": "eliminate", "player": "p05"}, 4.0)
        assert render(later).splitlines()[0] == \
            "ok — Sortira à la fin de la donne en cours / out when the hand in progress ends"
        now = run(floor, {"cmd": "penalty", "player": "p07", "kind": "warning"}, 5.0)
        assert render(now).splitlines()[0] == "ok — Sanction enregistrée / penalty recorded"
        undo = f"  pour l'annuler / to undo it: tapis tournament undo {now.data['undo']}"
        assert render(now).splitlines()[-1] == undo
        race = CommandResult(cmd="chip_race", ok=True, events=["ChipsColouredUp"])
        assert render(race) == "ok — Course aux jetons faite / chip race done"


def test_the_command_line_records_a_late_arrival(tmp_path: Any, capsys: Any) -> None:
    """`tapis tournament arrive NAME`: a player registered not arrived yet (`register --absent`) is there,
    and the TD reads the desk's words for it."""
    from hub.floor.td import td_main

    db = str(tmp_path / "cli.db")
    assert td_main(["new", "--db", db, "--ruleset", "cdc-2013", "--structure", "pouques", "--buy-in", "10",
                    "--payouts", "50,30,20", "--seed", "1"]) == 0
    assert td_main(["register", "--db", db, "Ada", "Bob", "Cy"]) == 0
    assert td_main(["register", "--db", db, "--absent", "Zoé"]) == 0
    assert td_main(["seat", "--db", db]) == 0 and td_main(["start", "--db", db]) == 0
    capsys.readouterr()
    assert td_main(["arrive", "--db", db, "Zoé"]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out == "ok — Arrivée enregistrée / arrival recorded\n"
    with EventStore(db) as store:
        assert FloorService.open(store).require().state.players["Zoé"].arrived


@pytest.mark.parametrize(("argv", "command"), [
    (["arrive", "Zoé"], {"cmd": "arrive", "player": "Zoé"}),
    # a name may hold `=`: the count is after the last one
    (["chip-race", "2", "25", "100", "Jean=Luc=3", "Ada=0"],
     {"cmd": "chip_race", "table": "t2", "small_value": 25, "big_value": 100, "leftovers": {"Jean=Luc": 3, "Ada": 0}}),
    # the TD's name goes in the record of the undo; the action's number as the number the wire expects
    (["undo", "4", "--by", "Marie"], {"cmd": "undo", "action": 4, "by": "Marie"}),
])
def test_the_command_lines_words_make_the_floors_command(argv: list[str], command: dict[str, Any]) -> None:
    from hub.floor.td import build_command, parser

    assert build_command(parser().parse_args(argv)) == command


@pytest.mark.parametrize(("argv", "said"), [
    (["wait-list"], "un nom pour l'inscrire, ou --seat pour placer le premier / a name to join, or --seat"),
    (["wait-list", "Zed", "--seat"], "un nom pour l'inscrire, ou --seat pour placer le premier / a name to join"),
    (["chip-race", "2", "25", "100", "=3"], "« =3 » : NOM=NOMBRE attendu / NAME=COUNT expected"),
    (["chip-race", "2", "25", "100", "Ada=three"], "« Ada=three » : NOM=NOMBRE attendu / NAME=COUNT expected"),
])
def test_the_command_line_says_what_it_cannot_read(argv: list[str], said: str) -> None:
    """Refused before anything reaches the floor, in words that say what to type (not the floor's own
    refusal of an empty name, which would not mention `--seat` or the `NAME=COUNT` form)."""
    from hub.floor.td import build_command, parser

    with pytest.raises(CommandError, match=re.escape(said)):
        build_command(parser().parse_args(argv))


def test_the_desk_lists_a_move_asked_during_a_hand_and_says_why_it_was_not_made() -> None:
    with EventStore(":memory:") as store:
        floor = started_floor(store, 18, tables=2)
        state = floor.require().state
        name = state.tables[1].seats[min(state.tables[1].seats)]
        free = min(s for s in range(1, state.capacity(2) + 1) if s not in state.tables[2].seats)
        floor.hand_started("t1", state.tables[1].hand_no + 1, 1.0)
        asked = run(floor, {"cmd": "move", "player": name, "table": "t2", "seat": free}, 2.0)
        assert asked.ok and asked.events == ["MoveAsked"]
        assert "Changera de table à la fin de la donne en cours" in render(asked)
        entry = floor.history()[0]
        assert cast(dict[str, Any], entry["event"])["type"] == "MoveAsked" and entry["undoable"]
        assert entry["lapsed"] is None
        t1 = state.tables[1]
        stacks = {seat: state.players[p].chips for seat, p in t1.seats.items() if seat in t1.start_stacks}
        winner = next(seat for seat in stacks if t1.seats[seat] != name)
        stacks[winner] += stacks[state.players[name].seat or 0]
        stacks[state.players[name].seat or 0] = 0  # he busts in that hand
        floor.hand_ended("t1", t1.hand_no, stacks, 3.0)
        entry = floor.history()[0]
        assert entry["lapsed"] == f"{name} est éliminé / {name} is out" and not entry["undoable"]
