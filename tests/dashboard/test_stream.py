"""The delayed stream over HTTP (`tapis hub --stream-delay`): off unless asked for, never without a stream
login (not a TD's, not anonymous), and a hand's hole cards reach it only once the hand is over and the
delay has passed, on a clock the test moves (hw.ports.ManualClock), through the real hub and dashboard."""

from __future__ import annotations

import http.client
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from hub.cli import main as tapis_main
from hub.cli import stream_options
from hub.dashboard import Dashboard, hash_password
from hw.ports import ManualClock
from tests.dashboard.conftest import PASSWORD
from tests.dashboard.helpers import ScriptedRoom, SseClient
from tests.dashboard.test_http import HOLE, deal_hole_cards, faces_in, login, request

DELAY = 300.0
WATCHER = "obs-stream-2026"


class StreamClient(SseClient):
    """`SseClient` on `/stream/events` (the stream's own cookie)."""

    def __init__(self, url: str, cookie: str) -> None:  # noqa: D107 - SseClient's reading, another path
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
        self.conn.request("GET", "/stream/events", headers={"Accept": "text/event-stream", "Cookie": cookie})
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        self.raw = bytearray()
        self.events = []
        self.changed = threading.Condition()
        self.on_event = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(1000.0)


@pytest.fixture
def streaming(room: ScriptedRoom, clock: ManualClock) -> Iterator[Dashboard]:
    # the consumer's own tick (every clock_period) left to the test: it releases when the test says
    dash = Dashboard(room.hub, users={"alice": hash_password(PASSWORD)}, clock=clock, clock_period=3600,
                     stream_delay=DELAY, stream_users={"obs": hash_password(WATCHER)}).start()
    yield dash
    dash.stop()


def stream_login(dash: Dashboard) -> str:
    status, _, headers = request(dash, "POST", "/api/stream/login", {"user": "obs", "password": WATCHER})
    assert status == 200
    cookie = headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    return cookie.split(";")[0]


def test_without_stream_delay_there_is_no_stream(dashboard: Dashboard) -> None:
    for path in ("/stream/events", "/api/stream/me"):
        status, body, _ = request(dashboard, "GET", path)
        assert (status, body["code"]) == (404, "no_stream"), path
    with pytest.raises(urllib.error.HTTPError) as page:  # a browser is told in words, not JSON
        urllib.request.urlopen(dashboard.url + "/stream", timeout=10)
    assert page.value.code == 404 and "Pas de flux différé sur ce hub" in page.value.read().decode()
    status, body, _ = request(dashboard, "POST", "/api/stream/login", {"user": "alice", "password": PASSWORD})
    assert (status, body["code"]) == (404, "no_stream")


def test_the_stream_needs_its_own_login(streaming: Dashboard) -> None:
    assert request(streaming, "GET", "/stream/events")[:2] == (403, {
        "error": "connexion au flux nécessaire / stream login needed", "code": "login_required"})
    td_cookie, _ = login(streaming)  # a TD's session is not a stream login
    assert request(streaming, "GET", "/stream/events", cookie=td_cookie)[0] == 403
    assert request(streaming, "GET", "/stream/events", cookie="tapis_stream=forged")[1]["code"] == "session_expired"
    assert request(streaming, "POST", "/api/stream/login", {"user": "alice", "password": PASSWORD})[0] == 401
    assert request(streaming, "POST", "/api/stream/login", {"user": "obs", "password": "wrong-pass"})[0] == 401
    cookie = stream_login(streaming)
    assert request(streaming, "GET", "/api/stream/me", cookie=cookie)[1] == {
        "user": "obs", "delay": DELAY, "words": {"fr": "différé de 5 min", "en": "5-min delay"}}
    # a stream login is no TD: the TD's routes and the live room treat it as a viewer
    assert request(streaming, "GET", "/api/me", cookie=cookie)[1]["role"] == "viewer"
    assert request(streaming, "POST", "/api/td/ack", {"fault": "f1"}, cookie=cookie)[1]["code"] == "login_required"
    assert request(streaming, "POST", "/api/login", {"user": "obs", "password": WATCHER})[0] == 401


def test_hole_cards_reach_the_stream_only_once_the_hand_is_over_and_delayed(
        room: ScriptedRoom, streaming: Dashboard, clock: ManualClock) -> None:
    td_cookie, _ = login(streaming)
    td, viewer = SseClient(streaming.url, td_cookie), SseClient(streaming.url)
    stream = StreamClient(streaming.url, stream_login(streaming))
    feed = streaming.stream
    assert feed is not None
    try:
        stream.wait_for(lambda n, d: n == "room")
        deal_hole_cards(room)  # hand 1 in play, every hole card on the felt
        room.status("t2", True)  # a sentinel: no hand, so it only waits for the delay
        td.wait_for(lambda n, d: n == "update" and d["event"].get("table") == "t2")
        clock.advance(DELAY - 1)
        assert feed.tick() == 0  # nothing before the delay, not even a table's status
        clock.advance(1 + 9 * DELAY)  # ten delays: the hand is still in play
        assert feed.tick() >= 2  # t1 online before its hand, t2 online
        assert "t1" not in feed.room()["logs"] or [e["type"] for e in feed.room()["logs"]["t1"]] == ["table_status"]
        stream.wait_for(lambda n, d: n == "update" and d["event"].get("table") == "t2")
        assert faces_in(bytes(stream.raw)) == set()  # anything released is fanned out before the sentinel
        assert b'"hand_start"' not in bytes(stream.raw)  # nothing of the hand in play, not even its start

        room.act("t1", 1, "fold")  # the button acts first three-handed; the big blind wins
        room.act("t1", 2, "fold")
        room.settle()
        td.wait_for(lambda n, d: n == "update" and d["event"]["type"] == "hand_end")
        feed.tick()  # over, and its cards long a delay old: out; its end not yet (a delay after it)
        stream.wait_for(lambda n, d: n == "update" and d["event"]["type"] == "card"
                        and d["event"].get("card") == HOLE[1][1])
        assert faces_in(bytes(stream.raw)) == {face for pair in HOLE.values() for face in pair}
        assert "hand_end" not in [e["type"] for e in feed.room()["logs"]["t1"]]
        clock.advance(DELAY - 1)
        assert feed.tick() == 0
        clock.advance(1)
        assert feed.tick() >= 1
        end = stream.wait_for(lambda n, d: n == "update" and d["event"]["type"] == "hand_end")
        assert end["at"] == 1000.0 + 10 * DELAY
        assert faces_in(bytes(viewer.raw)) == set()  # the live viewer never: the hand ended with no showdown
        assert faces_in(bytes(td.raw)) == faces_in(bytes(stream.raw))
        # a page that connects now gets the released room, the hand's log with its cards
        late = StreamClient(streaming.url, stream_login(streaming))
        first = late.wait_for(lambda n, d: n == "room")
        assert first["words"]["en"] == "5-min delay"
        assert {e.get("card") for e in first["logs"]["t1"]} >= set(HOLE[2])
    finally:
        streaming.stop()  # ends every stream first: a client closed while its reader waits would wait for it
        for client in (td, viewer, stream):
            client.close()


def test_the_hub_refuses_a_stream_without_a_login_or_with_a_bad_delay(
        tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["hub", "--stream-delay", "2"], ["hub", "--stream-delay", "trente"],
                 ["hub", "--stream-delay", "30"], ["hub", "--stream-users", "nowhere"],
                 ["hub", "--stream-delay", "30", "--dashboard", "0", "--stream-users", "x"]):
        assert tapis_main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "stream" in err and "Traceback" not in err, err
    assert stream_options(None, None, 8080) == (None, {})


def test_what_the_bound_drops_is_said_to_the_stream(caplog: pytest.LogCaptureFixture) -> None:
    from hub.dashboard.delayed import DelayLine
    from hub.dashboard.stream import StreamFeed

    clock = ManualClock(0.0)
    feed = StreamFeed(DELAY, clock=clock, line=DelayLine(DELAY, max_events=2))
    client, first = feed.subscribe()
    assert b'"dropped":0' in first
    for seat in (1, 2, 3):
        feed.offer({"type": "action", "table": "t1", "hand": 1, "seat": seat, "action": "fold"}, None)
    feed.tick()
    said = client.messages.get_nowait()
    assert said == b'event: dropped\ndata: {"dropped": 1}\n\n'
    assert "1 held events dropped" in caplog.text


def test_a_card_put_down_between_hands_waits_for_the_next_hand(
        room: ScriptedRoom, streaming: Dashboard, clock: ManualClock) -> None:
    """Dealt before the dealer pressed "new hand": the card is the next hand's, through the real hub."""
    td = SseClient(streaming.url, login(streaming)[0])
    feed = streaming.stream
    assert feed is not None
    try:
        deal_hole_cards(room)
        room.act("t1", 1, "fold")
        room.act("t1", 2, "fold")  # hand 1 over, its six cards still on the felt
        room.card("t1", "seat:2", "9s")  # hand 2's first card, before its start
        room.settle()
        td.wait_for(lambda n, d: n == "update" and d["event"].get("card") == "9s")
        clock.advance(10 * DELAY)
        feed.tick()
        released = json.dumps(feed.room())
        assert "As" in released and "hand_end" in released  # hand 1 is out, whole
        assert "9s" not in released  # the early card is not, ten delays on
        room.new_hand("t1")
        room.settle()
        td.wait_for(lambda n, d: n == "update" and d["event"]["type"] == "hand_start" and d["event"].get("hand") == 2)
        clock.advance(10 * DELAY)
        feed.tick()
        assert "9s" not in json.dumps(feed.room())  # hand 2 in play: still not
    finally:
        streaming.stop()
        td.close()
