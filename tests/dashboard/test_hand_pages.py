"""Hand histories on the dashboard (issue #32): a table's hand list, a public page per finished hand, and
the TD's replay card by card behind his login; a viewer gets no face of a card that was not shown, from
the page or the API."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from typing import Any

import pytest

from hub.dashboard import Dashboard
from hub.floor.service import FloorService
from hub.history.hand_record import public_record
from hub.history.store import HistoryStore
from hub.history.web import _said
from hub.rules.records import ActionKind
from tests.dashboard.test_http import login
from tests.hub.test_hand_history import showdown_record

FOLDED = ("As", "Ah", "Qh", "2c")  # seat 2's cards (folded) and seat 1's (lost the showdown, mucked)


def get(dash: Dashboard, path: str, cookie: str | None = None) -> tuple[int, str]:
    req = urllib.request.Request(dash.url + path, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def _stored(floor: FloorService) -> dict[str, object]:
    _, record = showdown_record()
    HistoryStore(floor.store).put(record, public_record(record))
    return record


def shows(text: str, face: str) -> bool:
    """A face as JSON names it ("As") or as a page draws it (A♠)."""
    suit = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[face[1]]
    return f'"{face}"' in text or f"'{face}'" in text or f">{face[0]}{suit}<" in text


def test_a_viewer_reads_the_hands_played_and_never_a_card_not_shown(dashboard: Dashboard, floor: FloorService) -> None:
    _stored(floor)
    status, listed = get(dashboard, "/api/hands?t=t1")
    assert status == 200 and [h["hand"] for h in json.loads(listed)["hands"]] == [1]
    status, page = get(dashboard, "/hands?t=t1")
    assert status == 200 and 'href="/hand?t=t1&amp;h=1"' in page
    for path in ("/api/hand?t=t1&h=1", "/hand?t=t1&h=1", "/hand?t=t1&h=1&step=3"):
        status, text = get(dashboard, path)
        assert status == 200, (path, text)
        assert not any(shows(text, face) for face in FOLDED), (path, text)
        assert shows(text, "Kd") and shows(text, "Ks"), path  # the winner's hand, shown down, is public
    assert 'id="next"' not in get(dashboard, "/hand?t=t1&h=1&step=3")[1]  # no replay for a viewer
    assert get(dashboard, "/api/hand?t=t1&h=9")[0] == 404
    assert get(dashboard, "/api/hand?t=t1")[0] == 400


def test_the_td_steps_through_the_hand_card_by_card_to_the_ruling(dashboard: Dashboard, floor: FloorService) -> None:
    record = _stored(floor)
    cookie, _ = login(dashboard)
    status, text = get(dashboard, "/api/hand?t=t1&h=1", cookie)
    assert status == 200 and json.loads(text)["actions"][0] == "d dh p1 AsAh"  # the TD's: every card
    _, first = get(dashboard, "/hand?t=t1&h=1&step=1", cookie)
    on_felt = first.split('id="felt"')[1].split("</table>")[0]  # the felt after the first card
    assert "card 1 / " in first and shows(on_felt, "As") and not shows(on_felt, "Kd")
    assert 'href="/hand?t=t1&amp;h=1&amp;step=2"' in first  # next
    cards = len(record["cards"])  # type: ignore[arg-type]
    _, before = get(dashboard, "/hand?t=t1&h=1&step=8", cookie)  # six hole cards, two of the flop
    assert "seat 2 (Joueur 2) : passe / fold" in before and "bet 200" not in before  # what came before, not after
    _, flop = get(dashboard, "/hand?t=t1&h=1&step=9", cookie)
    assert "seat 3 (Joueur 3) : mise / bet 200" in flop
    _, end = get(dashboard, f"/hand?t=t1&h=1&step={cards}", cookie)
    assert "seat 3 (Joueur 3) : mise / bet 200" in end and f"card {cards} / {cards}" in end


def test_the_statistics_page_and_csv_count_each_hand_and_fault(dashboard: Dashboard, floor: FloorService) -> None:
    _, record = showdown_record()
    history = HistoryStore(floor.store)
    faults = [{"kind": "boxed_card", "seat": None, "cards": ["Qc"], "decision": "set_aside", "article": "cdc 6.3"},
              # a player's Time request the TD decides (cpt87 4.5): no fault of the deal, not counted as one
              {"kind": "time_request", "seat": 2, "cards": [], "decision": "td_decision", "article": "cpt87 4.5"}]
    granted = {"kind": "time_request", "seat": 2, "decision": "grant_time", "article": "cpt87 4.5 (TD)", "by": "Ada"}
    for hand, table in ((1, "t1"), (2, "t1"), (3, "t2")):
        r = {**record, "hand": hand, "table": table, "faults": faults if hand != 2 else [],
             "decisions": [granted] if hand == 1 else []}
        history.put(r, public_record(r))
    status, text = get(dashboard, "/api/stats")
    lines = {(d["scope"], d["name"]): d for d in json.loads(text)["lines"]}
    assert status == 200 and lines[("tournament", "Mardi")]["by_kind"] == {"boxed_card": 2}
    assert lines[("table", "t1")]["td_decisions"] == 1  # his decision on the request: among the TD's
    # the table's hand list counts the faults as the statistics do: hand 1 had one, and a Time request
    assert {h["hand"]: h["faults"] for h in json.loads(get(dashboard, "/api/hands?t=t1")[1])["hands"]} == {1: 1, 2: 0}
    assert '<td class="num">1</td></tr>' in get(dashboard, "/hands?t=t1")[1]
    assert lines[("table", "t1")]["hands"] == 2 and lines[("table", "t1")]["faults_per_100"] == 50.0
    assert lines[("dealer", "Joueur 1")]["hands"] == 3  # the button deals (a dealerless room)
    status, csv_text = get(dashboard, "/api/stats.csv")
    assert status == 200 and csv_text.splitlines()[1].startswith("tournoi / tournament;Mardi;3;0;")
    assert "table;t2;1;0;" in csv_text and csv_text.splitlines()[0].endswith(";boxed_card")
    assert 'id="stats"' in get(dashboard, "/stats")[1]


RAW = re.compile(r"\b[a-z]+_[a-z_]+\b")  # an id of the code (`flop_without_burn`), never words for a TD


def test_the_pages_say_faults_rulings_and_actions_in_words(dashboard: Dashboard, floor: FloorService) -> None:
    _, record = showdown_record()
    flop: dict[str, Any] = {"kind": "flop_without_burn", "seat": None, "decision": "designate_burn",
                            "article": "cdc-2013 8.3", "cards": []}
    said: list[dict[str, Any]] = [
        {"after": 1, "what": "fault", "by": None, **flop},
        {"after": 1, "what": "fault", "kind": "time_request", "seat": 2, "decision": "td_decision",
         "article": "cpt87 4.5", "by": None, "cards": []},
        {"after": 1, "what": "ruling", "kind": "time_request", "seat": 2, "decision": "grant_time",
         "article": "cpt87 4.5 (TD)", "by": "Ada", "cards": []}]
    faults: list[dict[str, Any]] = [flop]
    r = {**record, "timeline": [*said, *record["timeline"]], "faults": faults}
    HistoryStore(floor.store).put(r, public_record(r))
    cookie, _ = login(dashboard)
    for path in ("/hand?t=t1&h=1&step=2", "/stats"):
        status, page = get(dashboard, path, cookie)
        shown = re.sub(r"<[^>]+>", " ", page.split("<body", 1)[1])  # what the page reads, not its markup
        assert status == 200 and RAW.findall(shown) == [], (path, RAW.findall(shown))
    _, replay = get(dashboard, "/hand?t=t1&h=1&step=2", cookie)
    assert "Flop sans carte brûlée / Flop without a burn" in replay, replay
    assert "Time accordé / Time granted" in replay
    # a Time request is the player's, not a fault of the deal: not headed as one (it counts as none either)
    assert "<b>Demande de Time (au DT d&#x27;accorder) / Time request (the TD grants it)</b>" in replay, replay
    assert "<b>Incident / Fault Flop sans carte brûlée" in replay
    stats = get(dashboard, "/stats", cookie)[1]
    assert "<td>tournoi / tournament</td>" in stats and "<td>donneur / dealer</td>" in stats  # the scope too


def test_the_replay_names_the_felt_as_the_table_s_page_does(dashboard: Dashboard, floor: FloorService) -> None:
    """The zones a card lies on or goes to, in words (« siège / seat 2 », « cartes jetées / muck »), not their
    ids (seat:2, muck): here seat 2's folded hand, taken from his seat and thrown to the muck."""
    _, record = showdown_record()
    cards: list[dict[str, Any]] = list(record["cards"])
    at = float(cards[-1]["at"])
    for card in [c for c in cards if c["zone"] == "seat:2"]:
        for zone in ("seat:2", "muck"):  # off his seat, onto the muck
            at += 1.0
            cards.append({**card, "order": len(cards) + 1, "at": at, "hub_at": at + 0.2, "zone": zone,
                          "arrived": zone == "muck"})
    r = {**record, "cards": cards}
    HistoryStore(floor.store).put(r, public_record(r))
    cookie, _ = login(dashboard)
    _, page = get(dashboard, f"/hand?t=t1&h=1&step={len(cards)}", cookie)
    felt = page.split('id="felt"')[1].split("</table>")[0]
    assert "<td>cartes jetées / muck</td>" in felt and "<td>siège / seat 3</td>" in felt, felt
    assert "<td>cartes communes / board</td>" in felt and "siège / seat 2" not in felt, felt  # his seat is bare
    current = page.split('id="current"')[1].split("</p>")[0]
    assert "→ cartes jetées / muck à / at" in current, current
    shown = re.sub(r"<[^>]+>", " ", page.split("<body", 1)[1])  # what the page reads, not its markup
    assert "seat:" not in shown and shown.count("muck") == shown.count("cartes jetées / muck"), shown


def test_an_id_no_words_know_is_shown_as_text_not_markup(dashboard: Dashboard, floor: FloorService) -> None:
    """A record's ids come from the tables' messages and the store: one the pages have no words for is shown as
    it is, escaped (the TD's replay is behind his login: no markup of a record runs in his session)."""
    _, record = showdown_record()
    odd = "<img src=x onerror=alert(1)>"
    r = {**record, "timeline": [{"after": 1, "what": "fault", "kind": odd, "seat": None, "decision": odd,
                                 "article": "cdc-2013 8.3", "by": None, "cards": []}, *record["timeline"]]}
    HistoryStore(floor.store).put(r, public_record(r))
    cookie, _ = login(dashboard)
    _, replay = get(dashboard, "/hand?t=t1&h=1&step=2", cookie)
    assert odd not in replay and "&lt;img src=x onerror=alert(1)&gt;" in replay


def test_every_action_the_engine_records_reads_in_french_then_english() -> None:
    """An action on a replay step is the engine's (`ActionKind`): each one in words, French first."""
    for kind in ActionKind:
        fr, _, en = _said(kind.value).partition(" / ")
        assert en and fr != en and en.replace("-", "") == kind.value, kind


def test_the_pages_name_the_table_the_hand_s_end_and_a_ten_as_the_room_does(dashboard: Dashboard,
                                                                             floor: FloorService) -> None:
    """A TD reads « Table 1 », « abattage / showdown » and 10♣ on the hand pages as on the room's (common.js
    tableName, labels.js `result`, card): not the hub's `t1`, the record's `showdown` or misdeal, nor « T♣ »."""
    _, record = showdown_record()  # its turn is the ten of clubs
    misdeal = {**record, "hand": 2, "result": "misdeal", "void": True}
    history = HistoryStore(floor.store)
    for r in (record, misdeal):
        history.put(r, public_record(r))
    cookie, _ = login(dashboard)
    _, listed = get(dashboard, "/hands?t=t1", cookie)
    _, page = get(dashboard, "/hand?t=t1&h=1", cookie)
    _, replay = get(dashboard, "/hand?t=t1&h=2&step=0", cookie)
    for text in (listed, page, replay):
        shown = re.sub(r"<[^>]+>", " ", text.split("<body", 1)[1])  # what the page reads, not its markup
        assert "t1" not in shown and "Table 1" in shown, shown
        assert "T♣" not in shown, shown
    assert "<td>abattage / showdown</td>" in listed and "<td>fausse donne / misdeal</td>" in listed, listed
    assert ">10♣<" in listed and ">10♣<" in page
    assert "Table 1, main / hand 1 · cdc-2013 · abattage / showdown</h2>" in page, page
    assert "· fausse donne / misdeal (annulée / void)</h2>" in replay, replay


def test_the_statistics_page_names_tables_as_the_room_does(dashboard: Dashboard, floor: FloorService) -> None:
    """« table t1 », « croupier t1 », « siège / seat 4 (t2) » were the hub's ids: « Table 1 » as on every page."""
    _, record = showdown_record()
    history = HistoryStore(floor.store)
    for hand, table, dealer in ((1, "t1", {"croupier": True}), (2, "t2", {"seat": 4})):
        r = {**record, "hand": hand, "table": table, "dealer": dealer}
        history.put(r, public_record(r))
    _, page = get(dashboard, "/stats")
    shown = re.sub(r"<[^>]+>", " ", page.split("<body", 1)[1])  # what the page reads, not its markup
    assert not re.search(r"\bt\d\b", shown), shown
    assert "<td>Table 1</td>" in page and "<td>croupier Table 1</td>" in page, page
    assert "<td>siège / seat 4 (Table 2)</td>" in page, page


def test_a_hand_not_on_record_yet_is_said_in_words_on_a_page(dashboard: Dashboard, floor: FloorService) -> None:
    """An incident's « La donne, carte par carte » followed while its hand is still played has no record yet: the
    TD read raw JSON (« {"error": "pas de main 6 \\u00e0 la table t1 ..."} »). A page in words; scripts keep JSON."""
    _stored(floor)
    cookie, _ = login(dashboard)
    for path in ("/hand?t=t1&h=6", "/hand?t=t1&h=6&step=0&fault=f3"):
        req = urllib.request.Request(dashboard.url + path, headers={"Cookie": cookie})
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(req, timeout=10)
        assert caught.value.code == 404 and caught.value.headers["Content-Type"].startswith("text/html")
        page = caught.value.read().decode()
        assert "Pas de relevé de la donne 6 à la Table 1 : une donne en cours a le sien quand elle se termine." in page
        assert "No record of hand 6 at Table 1: a hand in progress has its record when it ends." in page
        assert '"error"' not in page and 'href="/"' in page  # words, and the way back to the room
    status, text = get(dashboard, "/api/hand?t=t1&h=6", cookie)
    assert status == 404 and "hand 6" in json.loads(text)["error"]
