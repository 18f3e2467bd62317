"""Issue 32, the bag sheet over HTTP: the chip counts by table and seat for anyone (a club posts them), the
TD's "fin de journée" behind his login, and the day's bags and next day's draw the same on every reprint."""

from __future__ import annotations

import urllib.request

from hub.dashboard import Dashboard
from tests.dashboard.test_http import login, request


def test_the_counts_for_anyone_the_end_of_day_for_the_td_and_the_same_sheet_reprinted(dashboard: Dashboard) -> None:
    status, live, _ = request(dashboard, "GET", "/api/bags")
    assert status == 200 and live["kind"] == "play" and live["players_left"] == 60
    assert [(r["table"], r["seat"]) for r in live["rows"]] == sorted((r["table"], r["seat"]) for r in live["rows"])
    status, _, _ = request(dashboard, "POST", "/api/td/floor", {"cmd": "end_day"})
    assert status == 403  # a viewer cannot end the day
    cookie, csrf = login(dashboard)
    status, body, _ = request(dashboard, "POST", "/api/td/floor", {"cmd": "end_day"}, cookie=cookie, csrf=csrf)
    assert status == 200 and body["ok"] and "DayEnded" in body["events"], body
    status, day, _ = request(dashboard, "GET", "/api/bags")
    assert status == 200 and day["kind"] == "day_end" and day["next_day"] == 2
    assert sorted(r["bag"] for r in day["rows"]) == list(range(1, 61))
    assert sorted(r["player"] for r in day["draw"]) == sorted(r["player"] for r in live["rows"])
    assert request(dashboard, "GET", "/api/bags?day=1")[1] == day  # reprinted: the same sheet
    with urllib.request.urlopen(dashboard.url + "/api/bags.csv?day=1", timeout=10) as resp:
        assert resp.headers["Content-Type"] == "text/csv; charset=utf-8"
        assert 'filename="jetons-jour-1.csv"' in resp.headers["Content-Disposition"]
        lines = resp.read().decode("utf-8-sig").splitlines()
    assert lines[0].startswith("Table;Siège / Seat;Joueur / Player;Jetons / Chips;Sac / Bag;Jour 2 table")
    assert len(lines) == 61
    status, body, _ = request(dashboard, "POST", "/api/td/floor", {"cmd": "end_day"}, cookie=cookie, csrf=csrf)
    assert status == 409 and body["error_fr"].startswith("le jour 1 est déjà fini")
    with urllib.request.urlopen(dashboard.url + "/bags", timeout=10) as resp:
        assert resp.status == 200 and b"bags.js" in resp.read()


def test_a_day_not_ended_or_malformed(dashboard: Dashboard) -> None:
    assert request(dashboard, "GET", "/api/bags?day=2")[0] == 404
    for bad in ("0", "x", "99", "-1"):
        status, body, _ = request(dashboard, "GET", f"/api/bags?day={bad}")
        assert status == 400 and body["error"].startswith("jour"), bad
    dashboard.floor = None
    assert request(dashboard, "GET", "/api/bags")[0] == 404
