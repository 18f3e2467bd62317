"""Issue 18 (points 3, 5, 6) over HTTP: the results as JSON and CSV, the desk's pages, and the TD's floor
commands that failed with developer text (penalty, redraw, -5 minutes) answered in plain words."""

from __future__ import annotations

import urllib.request

from hub.dashboard import Dashboard
from tests.dashboard.test_http import login, request


def test_results_json_and_csv_during_play(dashboard: Dashboard) -> None:
    cookie, csrf = login(dashboard)
    status, body, _ = request(dashboard, "POST", "/api/td/floor", {"cmd": "eliminate", "player": "joueur07"},
                              cookie=cookie, csrf=csrf)
    assert status == 200 and isinstance(body["data"]["undo"], int)
    status, results, _ = request(dashboard, "GET", "/api/results")
    assert status == 200 and results["players_left"] == 59 and results["finished"] is False
    out = [row for row in results["ranking"] if row["status"] == "out"]
    assert [(row["player"], row["place"]) for row in out] == [("joueur07", 60)]
    assert all(row["place"] is None for row in results["ranking"] if row["status"] == "playing")
    with urllib.request.urlopen(dashboard.url + "/api/results.csv", timeout=10) as resp:
        assert resp.headers["Content-Type"] == "text/csv; charset=utf-8"
        assert "attachment" in resp.headers["Content-Disposition"]
        text = resp.read().decode("utf-8-sig")
    lines = text.splitlines()
    assert lines[0] == ("Place;Joueur / Player;Statut / Status;Entrées / Entries;Prix / Prize (EUR);"
                        "Éliminé par / Knocked out by")
    assert lines[-1] == "60;joueur07;éliminé / out;1;;" and len(lines) == 61  # ruled out by the TD: by nobody
    for page in ("/desk", "/results"):
        with urllib.request.urlopen(dashboard.url + page, timeout=10) as resp:
            assert resp.status == 200 and b"desk-i18n.js" in resp.read()


def test_the_floor_buttons_that_failed_now_work_or_say_why(dashboard: Dashboard) -> None:
    cookie, csrf = login(dashboard)
    status, body, _ = request(dashboard, "POST", "/api/td/floor",
                              {"cmd": "penalty", "player": "joueur03", "kind": "warning", "amount": 1},
                              cookie=cookie, csrf=csrf)
    assert status == 200 and body["ok"] and body["events"] == ["PenaltyGiven"]
    status, body, _ = request(dashboard, "POST", "/api/td/floor", {"cmd": "redraw"}, cookie=cookie, csrf=csrf)
    assert status == 409 and body["error_fr"] == "la table finale est à 9 : il reste 60 joueurs"
    assert body["error_en"] == "the final table seats 9: 60 players are left"
    status, body, _ = request(dashboard, "POST", "/api/td/floor", {"cmd": "clock", "action": "add", "seconds": -300},
                              cookie=cookie, csrf=csrf)
    assert status == 409 and body["error_fr"] == "la durée : au moins 0" and body["error_en"] == "the time: at least 0"
    for bad in ({"cmd": "penalty"}, {"cmd": "penalty", "player": "x", "kind": "x"}, {"cmd": 7}, {}):
        status, body, _ = request(dashboard, "POST", "/api/td/floor", bad, cookie=cookie, csrf=csrf)
        assert status == 409 and body["error_fr"] and body["error_en"], bad
        assert "Input" not in body["error"] and "tag" not in body["error"], body["error"]


def test_no_results_without_a_tournament(dashboard: Dashboard) -> None:
    dashboard.floor = None
    status, body, _ = request(dashboard, "GET", "/api/results")
    assert status == 404 and body["error"] == "pas de tournoi / no tournament"
