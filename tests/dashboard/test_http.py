"""The dashboard over HTTP without a browser: what each role's stream carries, logins, CSRF, TD actions."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from firmware_bridge import FaultCode
from hub.dashboard import Dashboard, hash_password
from hub.dashboard.auth import Sessions
from hub.dashboard.model import DecisionTaken
from hw.felt import Zone
from table_agent import reader_words as words
from tablewire import wire
from tests.dashboard.conftest import PASSWORD
from tests.dashboard.helpers import ScriptedRoom, SseClient

HOLE = {2: ("As", "Ah"), 3: ("Kd", "Kc"), 1: ("7c", "2d")}  # button 1: seat 2 is dealt first


def request(dash: Dashboard, method: str, path: str, body: Any = None, *, cookie: str | None = None,
            csrf: str | None = None) -> tuple[int, dict[str, Any], dict[str, str]]:
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = cookie
    if csrf:
        headers["X-CSRF-Token"] = csrf
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(dash.url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read()), dict(resp.headers)
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read()), dict(err.headers)


def login(dash: Dashboard) -> tuple[str, str]:
    status, body, headers = request(dash, "POST", "/api/login", {"user": "alice", "password": PASSWORD})
    assert status == 200
    cookie = headers["Set-Cookie"].split(";")[0]
    return cookie, body["csrf"]


def deal_hole_cards(room: ScriptedRoom, table: str = "t1") -> None:
    room.configure(table, {1: 20_000, 2: 20_000, 3: 20_000}, button=1, ruleset="cpt87")
    room.status(table, True)
    room.new_hand(table)
    for i in range(2):
        for seat in (2, 3, 1):
            room.card(table, f"seat:{seat}", HOLE[seat][i])
    room.settle()


def faces_in(raw: bytes) -> set[str]:
    return {face for pair in HOLE.values() for face in pair if re.search(rf"\b{face}\b", raw.decode())}


def test_viewer_stream_never_carries_live_hole_cards_the_td_stream_does(room: ScriptedRoom,
                                                                          dashboard: Dashboard) -> None:
    cookie, _ = login(dashboard)
    viewer, td = SseClient(dashboard.url), SseClient(dashboard.url, cookie)
    try:
        viewer.wait_for(lambda n, d: n == "room")
        td.wait_for(lambda n, d: n == "room")
        deal_hole_cards(room)
        room.act("t1", 1, "call")
        # cpt87 6.3: the second boxed card of the deal is the TD's decision; the fault names the card.
        room.fault("t1", 1, "boxed_card", seat=2, cards=["As"], boxed_in_deal=2, during_deal=True)
        room.settle()
        for client in (viewer, td):
            client.wait_for(lambda n, d: n == "fault" and d["kind"] == "boxed_card")
        assert faces_in(bytes(td.raw)) == {"As", "Ah", "Kd", "Kc", "7c", "2d"}
        assert faces_in(bytes(viewer.raw)) == set()
        last = [d for n, d, _ in viewer.events if n == "update"][-1]["table"]
        assert last["zones"] == {"seat:2": 2, "seat:3": 2, "seat:1": 2}
        assert {s["seat"]: s["hole_count"] for s in last["seats"]} == {1: 2, 2: 2, 3: 2}
        # The button called the big blind: the small blind (seat 2) is to act, 200 in the pot.
        assert (last["to_act"], last["pot"]) == (2, 250)
        # And the JSON endpoint a reloading viewer reads: no faces either.
        status, body, _ = request(dashboard, "GET", "/api/room")
        assert status == 200 and faces_in(json.dumps(body).encode()) == set()
        _, td_room, _ = request(dashboard, "GET", "/api/room", cookie=cookie)
        assert td_room["tables"]["t1"]["zones"]["seat:2"] == ["As", "Ah"]
        # The table view's log of the hand so far: the deal in order, faces for the TD only.
        _, log, _ = request(dashboard, "GET", "/api/log?t=t1")
        assert faces_in(json.dumps(log).encode()) == set()
        assert [e["zone"] for e in log["events"] if e["type"] == "card"] == ["seat:2", "seat:3", "seat:1"] * 2
        _, td_log, _ = request(dashboard, "GET", "/api/log?t=t1", cookie=cookie)
        assert [e["card"] for e in td_log["events"] if e["type"] == "card"] == ["As", "Kd", "7c", "Ah", "Kc", "2d"]
    finally:
        viewer.close()
        td.close()


def test_offline_table_and_lost_reader_reach_the_room(room: ScriptedRoom, dashboard: Dashboard) -> None:
    viewer = SseClient(dashboard.url)
    try:
        room.status("t2", True)
        room.status("t2", False)
        data = viewer.wait_for(lambda n, d: n == "update" and d["event"]["type"] == "table_status"
                               and not d["event"]["online"])
        assert data["table"]["online"] is False and data["table"]["table"] == "t2"
        room.send(wire.ReaderStatus(**room._base("t3"), state="lost", detail="/dev/ttyACM0: no answer"))
        lost = viewer.wait_for(lambda n, d: n == "update" and d["event"]["type"] == "reader")
        assert (lost["table"]["reader"], lost["table"]["reader_detail"]) == ("lost", "/dev/ttyACM0: no answer")
    finally:
        viewer.close()


def test_a_silent_antenna_s_words_reach_the_page_data_whole_for_the_td_and_viewers(room: ScriptedRoom,
                                                                                  dashboard: Dashboard) -> None:
    """The agent's words for a silent seat antenna (French, English, what to do: the longest it says)
    reach the room's data whole; they hold no card, so a viewer reads them too."""
    said = words.fault(FaultCode.READER_TIMEOUT, words.place(5, Zone.seat_zone(3)), "reader chip silent", unread=True)
    room.send(wire.ReaderStatus(**room._base("t1"), state="fault", detail=said))
    room.settle()
    cookie, _ = login(dashboard)
    for who in (cookie, None):
        _, body, _ = request(dashboard, "GET", "/api/room", cookie=who)
        table = body["tables"]["t1"]
        assert (table["reader"], table["reader_detail"]) == ("fault", said)
    assert said.startswith("siège 3 (antenne 5) : ") and len(said) > 200


def test_login_refused_with_a_bad_password_and_td_posts_need_the_csrf_token(dashboard: Dashboard) -> None:
    status, body, _ = request(dashboard, "POST", "/api/login", {"user": "alice", "password": "wrong"})
    assert (status, body) == (401, {"error": "bad user or password", "code": "bad_login"})
    status, _, _ = request(dashboard, "POST", "/api/login", {"user": "mallory", "password": PASSWORD})
    assert status == 401
    cookie, csrf = login(dashboard)
    assert request(dashboard, "GET", "/api/me", cookie=cookie)[1]["role"] == "td"
    assert request(dashboard, "GET", "/api/me")[1] == {"role": "viewer", "user": None, "csrf": None, "floor": True}
    pause = {"cmd": "clock", "action": "pause"}
    assert request(dashboard, "POST", "/api/td/floor", pause)[0] == 403  # a viewer
    assert request(dashboard, "POST", "/api/td/floor", pause, cookie=cookie)[0] == 403  # no token
    assert request(dashboard, "POST", "/api/td/floor", pause, cookie=cookie, csrf="forged")[0] == 403
    form = urllib.request.Request(dashboard.url + "/api/td/floor", data=b"cmd=clock", method="POST",
                                  headers={"Cookie": cookie, "X-CSRF-Token": csrf,
                                           "Content-Type": "application/x-www-form-urlencoded"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(form, timeout=10)
    assert refused.value.code == 400  # only JSON: a cross-site form cannot post it
    status, _, _ = request(dashboard, "POST", "/api/logout", {}, cookie=cookie, csrf=csrf)
    assert status == 200
    assert request(dashboard, "GET", "/api/me", cookie=cookie)[1]["role"] == "viewer"


def test_a_session_the_hub_no_longer_knows_is_told_apart_from_no_login(dashboard: Dashboard) -> None:
    """After a hub restart (sessions live in memory) the page's cookie is unknown: the refusal says
    `session_expired`, so the page offers to log in again; no cookie at all is `login_required`."""
    cookie, csrf = login(dashboard)
    pause = {"cmd": "clock", "action": "pause"}
    dashboard.sessions = Sessions({"alice": hash_password(PASSWORD)})  # what a restart leaves
    status, body, _ = request(dashboard, "POST", "/api/td/floor", pause, cookie=cookie, csrf=csrf)
    assert (status, body["code"]) == (403, "session_expired")
    status, body, _ = request(dashboard, "POST", "/api/td/floor", pause)
    assert (status, body["code"]) == (403, "login_required")
    cookie, _ = login(dashboard)
    status, body, _ = request(dashboard, "POST", "/api/td/floor", pause, cookie=cookie, csrf="forged")
    assert (status, body["code"]) == (403, "csrf")


class _LaterWall:
    """The routes' `time` module, read `ahead` seconds later than the wall (the hub runs on)."""

    def __init__(self, ahead: float) -> None:
        self.ahead = ahead

    def time(self) -> float:
        return time.time() + self.ahead

    @staticmethod
    def monotonic() -> float:
        return time.monotonic()


def test_a_td_login_expires_after_a_tournament_day_while_the_hub_runs(
        dashboard: Dashboard, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sessions last SESSION_SECONDS (12 h); the hub that issued one refuses it afterwards,
    without a restart: `/api/me` says viewer and a TD post is refused as `session_expired`."""
    from hub.dashboard import routes
    from hub.dashboard.auth import SESSION_SECONDS

    cookie, csrf = login(dashboard)
    pause = {"cmd": "clock", "action": "pause"}
    wall = _LaterWall(SESSION_SECONDS - 60)
    monkeypatch.setattr(routes, "time", wall)
    assert request(dashboard, "GET", "/api/me", cookie=cookie)[1]["role"] == "td"  # a minute left
    wall.ahead = SESSION_SECONDS + 1
    assert request(dashboard, "GET", "/api/me", cookie=cookie)[1]["role"] == "viewer"
    status, body, _ = request(dashboard, "POST", "/api/td/floor", pause, cookie=cookie, csrf=csrf)
    assert (status, body["code"]) == (403, "session_expired")
    wall.ahead = 0.0  # the clock going back does not revive it: it was forgotten
    assert request(dashboard, "GET", "/api/me", cookie=cookie)[1]["role"] == "viewer"


def test_a_session_is_forgotten_at_its_expiry_not_before() -> None:
    sessions = Sessions({"alice": hash_password(PASSWORD)})
    session = sessions.login("alice", PASSWORD, 1_000.0)
    assert session is not None
    assert sessions.get(session.token, session.expires - 0.001) == session
    assert sessions.get(session.token, session.expires) is None
    assert sessions.get(session.token, 1_000.0) is None  # forgotten, not only refused once


def test_fault_acknowledged_and_td_decision_taken_reach_every_stream(room: ScriptedRoom,
                                                                     dashboard: Dashboard) -> None:
    decided: list[DecisionTaken] = []
    dashboard.on_decision = decided.append
    cookie, csrf = login(dashboard)
    viewer = SseClient(dashboard.url)
    try:
        deal_hole_cards(room)
        room.fault("t1", 1, "boxed_card", seat=2, cards=["As"], boxed_in_deal=2, during_deal=True)
        room.settle()
        fault = viewer.wait_for(lambda n, d: n == "fault")
        assert (fault["needs_decision"], fault["options"]) == (True, ["set_aside", "hand_cancelled_pot_split"])
        assert fault["ruling"]["article"] == "cpt87 6.3"
        status, body, _ = request(dashboard, "POST", "/api/td/decide", {"fault": fault["id"], "option": "misdeal"},
                                  cookie=cookie, csrf=csrf)
        assert status == 409 and "not an option" in body["error"]
        status, body, _ = request(dashboard, "POST", "/api/td/decide",
                                  {"fault": fault["id"], "option": "hand_cancelled_pot_split"},
                                  cookie=cookie, csrf=csrf)
        assert status == 200 and body["option"] == "hand_cancelled_pot_split" and body["by"] == "alice"
        seen = viewer.wait_for(lambda n, d: n == "fault" and d["decision"] is not None)
        assert (seen["open"], seen["acked_by"], seen["decision"]) == (False, "alice", "hand_cancelled_pot_split")
        assert [(d.table, d.hand, d.option) for d in decided] == [("t1", 1, "hand_cancelled_pot_split")]
        status, _, _ = request(dashboard, "POST", "/api/td/ack", {"fault": "f404"}, cookie=cookie, csrf=csrf)
        assert status == 404
    finally:
        viewer.close()


def test_clock_commands_go_through_the_floor(dashboard: Dashboard) -> None:
    cookie, csrf = login(dashboard)
    viewer = SseClient(dashboard.url)
    try:
        clock = viewer.wait_for(lambda n, d: n == "clock" and d["clock"] is not None)["clock"]
        # demo structure: level 1 is 25/50 for 6 minutes, 60 players, 10 000 chips each, pouques payouts.
        assert (clock["level"], clock["small_blind"], clock["big_blind"], clock["ante"]) == (1, 25, 50, 0)
        assert (clock["players_left"], clock["average_stack"], clock["running"]) == (60, 10_000, True)
        # pouques 81: 96 % of 60 x 50 EUR, 12 places below 120 entries, 1st 24.35 %.
        assert clock["prize_pool_cents"] == 288_000 and len(clock["payouts_cents"]) == 12
        assert sum(clock["payouts_cents"]) == 288_000  # rounding leftovers go to the top places
        assert clock["payouts_cents"][:3] == [70_132, 50_256, 36_000]
        assert 300 < clock["time_left"] <= 360
        status, body, _ = request(dashboard, "POST", "/api/td/floor", {"cmd": "clock", "action": "pause"},
                                  cookie=cookie, csrf=csrf)
        assert status == 200 and body["ok"] and body["events"] == ["ClockPaused"]
        paused = viewer.wait_for(lambda n, d: n == "clock" and d["clock"]["running"] is False)["clock"]
        status, body, _ = request(dashboard, "POST", "/api/td/floor",
                                  {"cmd": "clock", "action": "add", "seconds": 120}, cookie=cookie, csrf=csrf)
        assert status == 200 and body["ok"]
        added = viewer.wait_for(lambda n, d: n == "clock" and d["clock"]["time_left"] > paused["time_left"] + 100)
        assert added["clock"]["time_left"] == pytest.approx(paused["time_left"] + 120, abs=0.01)
        status, body, _ = request(dashboard, "POST", "/api/td/floor", {"cmd": "eliminate", "player": "nobody"},
                                  cookie=cookie, csrf=csrf)
        assert status == 409 and body["ok"] is False and "nobody" in body["error"]
        status, body, _ = request(dashboard, "POST", "/api/td/floor", {"cmd": "eliminate", "player": "joueur07"},
                                  cookie=cookie, csrf=csrf)
        assert status == 200 and body["ok"]
        left = viewer.wait_for(lambda n, d: n == "clock" and d["clock"]["players_left"] == 59)["clock"]
        assert left["average_stack"] == 590_000 // 59  # his 10 000 chips left play with him
    finally:
        viewer.close()


def test_pages_and_static_files_are_served(dashboard: Dashboard) -> None:
    for path, needle in (("/", b"room.js"), ("/table?t=t1", b"table.js"), ("/clock", b"clock.js"),
                         ("/login", b"login.js"), ("/static/style.css", b"--bg")):
        with urllib.request.urlopen(dashboard.url + path, timeout=10) as resp:
            assert resp.status == 200 and needle in resp.read()
            assert resp.headers["X-Content-Type-Options"] == "nosniff"
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(dashboard.url + "/static/../server.py", timeout=10)
    assert missing.value.code == 404
    # a mistyped address: a page in words with the way to the room for a browser, JSON for a script
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(dashboard.url + "/sale", timeout=10)
    page = missing.value.read().decode()
    assert missing.value.code == 404 and missing.value.headers["Content-Type"].startswith("text/html")
    assert "Cette page n&#x27;existe pas" in page or "Cette page n'existe pas" in page
    assert "This page does not exist" in page and '"error"' not in page
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(dashboard.url + "/api/sale", timeout=10)
    assert missing.value.code == 404 and json.loads(missing.value.read())["error"].startswith("Cette page")
