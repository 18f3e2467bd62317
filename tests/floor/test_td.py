"""The TD command line on the tournament file (hub not running) and over MQTT to a running floor on a
real Mosquitto: commands, the retained clock, and malformed commands answered without any change."""

from __future__ import annotations

import io
import json
import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hub.edge.broker import EmbeddedBroker
from hub.floor.commands import TOURNAMENT_CLOCK, TOURNAMENT_CMD, TOURNAMENT_RESULT, CommandResult
from hub.floor.service import FloorService
from hub.floor.store import EventStore
from hub.floor.td import td_main
from hw.ports import ManualClock
from tablewire.mqtt import MqttLink

PLAYERS = ["Ada", "Bea", "Cyd", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea"]


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return td_main(argv, out), out.getvalue()


def test_a_tournament_run_from_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = ["--db", str(tmp_path / "club.db")]
    code, text = run(["new", "--ruleset", "pouques-2020", "--structure", "pouques", "--tables", "2",
                      "--buy-in", "35", "--seed", "4", "--name", "Pouques test", *db])
    assert (code, text) == (0, "ok — Tournoi créé / tournament created\n")
    assert run(["register", *PLAYERS, *db]) == (  # the TD's way back printed, as the desk's button
        0, "ok — Inscription enregistrée / registered\n"
           "  pour l'annuler / to undo it: tapis tournament undo 1\n")
    assert run(["seat", *db]) == (0, "ok — Places tirées / seats drawn\n")
    assert run(["start", *db])[0] == 0
    assert run(["clock", "pause", "--reason", "dîner", *db])[0] == 0
    assert run(["clock", "add", "300", *db])[0] == 0
    assert run(["clock", "resume", *db])[0] == 0
    code, status = run(["status", *db])
    assert code == 0
    assert "Pouques test  [pouques-2020]" in status
    assert "horloge / clock     niveau / level 1  50/100" in status and "(en marche / running)" in status
    assert "12 restants sur 12 entrées / 12 left of 12 entries   tapis moyen / average stack 50 000" in status
    assert "Table 1    6 joueurs / players    300 000 jetons / chips  entre deux donnes / between hands" in status
    # pouques-2020 81: 96 % of 12 x 35 EUR = 403.20 EUR, 12 places below 120 entries.
    # Each place rounded down to the cent (2435 bp -> 98.17), the 8 cents left over to the winner.
    assert "prix / prizes       prize pool 403,20 € : 1. 98,25 €, 2. 70,35 €, 3. 50,40 €" in status
    code, js = run(["status", "--json", *db])
    snap = json.loads(js)["data"]
    assert snap["time_left"] > 2400 + 290  # 40 minutes + 5 added, minus the seconds this test took
    assert [len(t["seats"]) for t in snap["tables"].values()] == [6, 6]
    assert run(["eliminate", "Ada", *db])[0] == 0
    code, results = run(["results", *db])
    assert code == 0 and results.splitlines()[-1].strip().startswith("12  Ada")
    # Refusals in plain words, exit status 2, nothing stored.
    with EventStore(tmp_path / "club.db") as store:
        before = store.count_tournament_events()
    assert run(["eliminate", "Ada", *db])[0] == 2
    assert "Ada is not playing" in capsys.readouterr().err
    assert run(["move", "Bea", "t9", "1", *db])[0] == 2
    assert "no Table 9 in play" in capsys.readouterr().err
    assert run(["clock", "resume", *db])[0] == 2
    assert "not paused" in capsys.readouterr().err
    assert run(["new", "--ruleset", "cdc-2013", "--structure", "pouques", "--buy-in", "5", *db])[0] == 2
    assert "already holds a tournament" in capsys.readouterr().err
    with EventStore(tmp_path / "club.db") as store:
        assert store.count_tournament_events() == before


def test_plain_words_errors_without_a_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["status", "--db", str(tmp_path / "none.db")])[0] == 2
    assert "no tournament file" in capsys.readouterr().err
    assert run(["new", "--ruleset", "cdc-2013", "--structure", str(tmp_path / "nope.toml"), "--buy-in", "5",
                "--db", str(tmp_path / "x.db")])[0] == 2
    assert "cannot read the structure file" in capsys.readouterr().err
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"garbage" * 500)
    assert run(["status", "--db", str(bad)])[0] == 2
    assert "corrupt" in capsys.readouterr().err
    assert run(["clock", "level", "--db", str(bad)])[0] == 2
    assert run(["fly"])[0] == 2


@pytest.mark.parametrize(("argv", "said"), [
    (["penalty", "Ada", "missed"], "tapis tournament penalty : le type de pénalité : « missed » n'est pas possible "
     "(au choix : warning, missed_hands, missed_rounds, suspension, disqualification) / the kind of penalty: "
     "'missed' is not one of warning, missed_hands, missed_rounds, suspension, disqualification"),
    (["penalty", "Ada", "suspension", "dix"], "le nombre de mains, de tours ou de minutes : « dix » n'est pas un "
     "nombre entier / the hands, rounds or minutes: 'dix' is not a whole number"),
    (["move", "Ada", "t2"], "tapis tournament move : il manque le siège / missing: the seat"),
    (["clock", "add", "une"], "la valeur (secondes ou niveau) : « une » n'est pas un nombre / "
     "the value (seconds or level): 'une' is not a number"),
    (["penalti"], "tapis tournament : la commande : « penalti » n'est pas possible"),
    (["seat", "now"], "arguments en trop : now / unrecognized arguments: now"),
    (["penalty"], "tapis tournament penalty : il manque le nom du joueur, le type de pénalité / missing: the "
     "player's name, the kind of penalty"),
    (["status", "--db"], "tapis tournament status : --db : une valeur attendue / --db: expects a value"),
])
def test_a_mistyped_command_line_is_answered_in_the_tds_words(argv: list[str], said: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """argparse's own errors (a kind not in the list, a word for a number, an argument missing) in one line,
    French first, never argparse's English alone nor its usage block."""
    assert run(argv)[0] == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and "usage:" not in err and "error:" not in err, err


@pytest.fixture
def running_floor(broker: EmbeddedBroker, tmp_path: Path) -> Iterator[tuple[FloorService, ManualClock]]:
    store = EventStore(tmp_path / "hub.db")
    link = MqttLink(client_id="floor-under-test", host=broker.host, port=broker.port)
    floor = FloorService.open(store, link=link)
    link.start()
    clock = ManualClock(1000.0)
    stop = threading.Event()
    thread = threading.Thread(target=floor.serve, args=(clock, stop), kwargs={"period": 0.02}, daemon=True)
    thread.start()
    yield floor, clock
    stop.set()
    thread.join(5)
    link.stop()
    store.close()


def test_td_commands_over_mqtt(broker: EmbeddedBroker, running_floor: tuple[FloorService, ManualClock],
                               capsys: pytest.CaptureFixture[str]) -> None:
    floor, clock = running_floor
    url = ["--broker", broker.url]
    assert run(["new", "--ruleset", "cdc-2013", "--structure", "pouques", "--buy-in", "20", "--tables", "2",
                "--payouts", "50,30,20", "--seed", "9", *url])[0] == 0
    assert run(["register", *PLAYERS, *url])[0] == 0
    assert run(["seat", *url])[0] == 0
    assert run(["start", *url])[0] == 0
    clock.advance(600)
    assert run(["clock", "pause", *url])[0] == 0

    clocks: queue.Queue[dict[str, object]] = queue.Queue()
    results: queue.Queue[CommandResult] = queue.Queue()
    viewer = MqttLink(client_id="viewer", host=broker.host, port=broker.port)
    viewer.subscribe(TOURNAMENT_CLOCK, lambda m: clocks.put(json.loads(m.payload)))
    viewer.subscribe(TOURNAMENT_RESULT, lambda m: results.put(CommandResult.model_validate_json(m.payload)))
    viewer.start()
    try:
        snap = clocks.get(timeout=5)  # retained: the screen shows the clock as soon as it connects
        assert (snap["level"], snap["running"], snap["players_left"]) == (1, False, 12)
        assert snap["time_left"] == 1800.0  # paused after 10 of 40 minutes
        assert snap["payouts_cents"] == [12_000, 7_200, 4_800]  # 12 x 20 EUR, 50/30/20 %

        stored = floor.store.count_tournament_events()
        for payload in (b"not json", b'{"cmd": "clock", "action": "warp"}', b'{"cmd": "eliminate"}'):
            viewer.publish(TOURNAMENT_CMD, payload)
            answer = results.get(timeout=5)
            # in plain words, French then English (issue 18), never pydantic's text
            assert not answer.ok and answer.error_fr and answer.error_en and "Input" not in (answer.error or "")
        assert floor.store.count_tournament_events() == stored

        code, text = run(["status", *url])
        assert code == 0 and "(ARRÊTÉE / PAUSED)" in text and "12 left of 12 entries" in text
        assert run(["clock", "resume", *url])[0] == 0
        assert _next_where(clocks, lambda snap: snap["running"] is True)  # published on the change
        assert run(["clock", "pause", *url])[0] == 0
        assert run(["clock", "pause", *url])[0] == 2
        assert "refusé : l'horloge est déjà arrêtée / refused: the clock is already paused" in capsys.readouterr().err
    finally:
        viewer.stop()
    # Everything the hub did over MQTT is in its store: a reopened floor is the same tournament.
    with EventStore(floor.store.path) as again:
        assert [e["type"] for e in again.tournament_events()] == [type(e).__name__ for e in floor.require().events]


def test_no_hub_on_the_broker_is_a_plain_words_timeout_exit_3_not_a_refusal(
        broker: EmbeddedBroker, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import hub.floor.td as td

    real = td.run_remote
    monkeypatch.setattr(td, "run_remote", lambda b, c, **kw: real(b, c, timeout=0.5, **kw))
    assert run(["status", "--broker", broker.url])[0] == 3  # 2 is a refusal: the hub answered
    assert "no answer from the hub" in capsys.readouterr().err


def _next_where(q: queue.Queue[dict[str, object]], wanted: Callable[[dict[str, object]], bool]) -> bool:
    while True:
        try:
            if wanted(q.get(timeout=5)):
                return True
        except queue.Empty:
            return False
