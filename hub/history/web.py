"""The hand histories on the dashboard: a hand list per table, a page per finished hand, the TD's replay.

Consumes a request's path, query and whether a TD is logged in; reads the records from the hub's store
file on a read-only connection of its own (the hub's thread keeps its connection); answers (status,
content type, body), or None for a path that is not ours. A viewer gets the public record only, on the
page and from the API: no face of a card that was not shown at the table. The TD gets his record, and
the replay: the hand's cards one by one in the antennas' order (`?step=N`), with the actions, faults and
rulings that came after each, to the ruling an incident links to. Pages are written here, with no
script (the dashboard's Content-Security-Policy), French first then English.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Mapping
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from hub.history.stats import NOT_FAULTS, SCOPES, Line, faults_of, statistics, stats_csv, table_name
from hub.rulings.texts import DECISIONS, FAULTS
from tablewire.faults import Decision, FaultKind

Answer = tuple[int, str, bytes]
_HTML = "text/html; charset=utf-8"
_JSON = "application/json"
_LIST_LIMIT = 500  # a table's last hands on its page
_SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
# what a page says for the ids a record keeps (a fault's kind, a ruling's decision, an action), French then
# English: the rulings' own texts, and the few that are the hub's (a Time request, its answers, the actions)
_WORDS = {
    "time_request": ("Demande de Time (au DT d'accorder)", "Time request (the TD grants it)"),
    "grant_time": ("Time accordé", "Time granted"), "refuse_time": ("Time refusé par le DT", "Time refused by the TD"),
    "fold": ("passe", "fold"), "check": ("parole", "check"), "call": ("suit", "call"), "bet": ("mise", "bet"),
    "raise": ("relance", "raise"), "allin": ("tapis", "all-in"),
    "hand_cancelled_by_td": ("donne annulée par le DT", "hand cancelled by the TD"),
}
# the felt's zones on the replay, as the table's page names them (hub/dashboard/static/labels.js, `zone`)
_ZONES = {"board": ("cartes communes", "board"), "burn": ("brûlées", "burn"), "muck": ("cartes jetées", "muck"),
          "tray": ("cartes mortes", "dead cards")}
# how a hand ended, as the table's page says it (labels.js, `result`)
_RESULTS = {"showdown": ("abattage", "showdown"), "uncontested": ("sans abattage", "uncontested"),
            "misdeal": ("fausse donne", "misdeal"), "cancelled": ("annulée", "cancelled")}


def _said(word: object) -> str:
    """An id of the record in words, `français / English` (escaped); an id none of them knows, as it is."""
    text = str(word)
    if text in FaultKind.__members__.values():
        fr, en = FAULTS["fr"][FaultKind(text)], FAULTS["en"][FaultKind(text)]
    elif text in Decision.__members__.values():
        fr, en = DECISIONS["fr"][Decision(text)], DECISIONS["en"][Decision(text)]
    else:
        fr, en = _WORDS.get(text, (text, text))
    return escape(fr if fr == en else f"{fr} / {en}")


def _result(result: object) -> str:
    """How a hand ended in words, `français / English` (escaped); nothing for a hand without one."""
    if not result:
        return ""
    fr, en = _RESULTS.get(str(result), (str(result), str(result)))
    return escape(f"{fr} / {en}" if fr != en else fr)


def _zone(zone: object) -> str:
    """A zone of the felt in words (« siège / seat 3 », « cartes jetées / muck »), escaped; not its id."""
    text = str(zone)
    if text.startswith("seat:"):
        return f"siège / seat {escape(text[5:])}"
    fr, en = _ZONES.get(text, (text, text))
    return escape(f"{fr} / {en}" if fr != en else fr)


class HistoryReader:
    """Read-only access to `hand_history` in the hub's store file, safe from the dashboard's threads."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def _rows(self, sql: str, params: tuple[object, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                if self._db is None:
                    if not Path(self.path).is_file():
                        return []
                    self._db = sqlite3.connect(f"file:{quote(self.path)}?mode=ro", uri=True,
                                               check_same_thread=False)
                return list(self._db.execute(sql, params).fetchall())
            except sqlite3.OperationalError as err:
                if "no such table" in str(err):
                    return []  # no hand has ended yet
                raise

    def hands(self, table: str, *, td: bool = False) -> list[dict[str, Any]]:
        column = "td" if td else "public"
        rows = self._rows(f"SELECT {column} FROM hand_history WHERE tbl = ? ORDER BY hand DESC LIMIT ?",
                          (table, _LIST_LIMIT))
        return [json.loads(str(text)) for (text,) in rows]

    def every(self) -> list[dict[str, Any]]:
        """Every hand's public record, oldest first (the statistics)."""
        rows = self._rows("SELECT public FROM hand_history ORDER BY ended_at", ())
        return [json.loads(str(text)) for (text,) in rows]

    def hand(self, table: str, hand: int, *, td: bool = False) -> dict[str, Any] | None:
        column = "td" if td else "public"
        rows = self._rows(f"SELECT {column} FROM hand_history WHERE tbl = ? AND hand = ?", (table, hand))
        return json.loads(str(rows[0][0])) if rows else None

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None


def _summary(r: Mapping[str, Any]) -> dict[str, Any]:
    return {"table": r["table"], "hand": r["hand"], "ended_at": r["ended_at"], "result": r.get("result"),
            "void": r.get("void"), "players": len(r["seats"]), "faults": len(faults_of(r)),
            "board": r.get("board") or []}


def _card(face: str | None) -> str:
    if not face:
        return '<span class="card back">??</span>'
    red = " red" if face[1:] in ("h", "d") else ""
    rank = "10" if face[0] == "T" else face[0]  # as the table's page draws it (common.js, card)
    return f'<span class="card{red}">{escape(rank)}{_SUITS.get(face[1:], "?")}</span>'


def _page(title: str, body: str) -> bytes:
    return ("<!doctype html><html lang=\"fr\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
            "content=\"width=device-width, initial-scale=1\"><title>tapis — " + escape(title) + "</title>"
            "<link rel=\"stylesheet\" href=\"/static/style.css\"></head><body><header><h1>tapis · "
            + escape(title) + "</h1><a href=\"/\">Retour à la salle / Back to the room</a></header>"
            "<main class=\"hand-history\">" + body + "</main></body></html>").encode()


def _list_page(table: str, hands: list[dict[str, Any]]) -> bytes:
    rows = "".join(
        f"<tr><td><a href=\"/hand?t={quote(table)}&amp;h={int(r['hand'])}\">#{int(r['hand'])}</a></td>"
        f"<td>{_result(r.get('result'))}</td><td class=\"num\">{len(r['seats'])}</td>"
        f"<td>{''.join(_card(c) for c in r.get('board') or [])}</td>"
        f"<td class=\"num\">{len(faults_of(r))}</td></tr>" for r in hands)
    body = (f"<h2>{escape(table_name(table))} : mains jouées / hands played ({len(hands)})</h2>"
            "<table class=\"seats\"><tr><th>Main / Hand</th><th>Fin / End</th><th>Joueurs / Players</th>"
            "<th>Tableau / Board</th><th>Incidents / Faults</th></tr>" + rows + "</table>")
    return _page(table_name(table), body)


def _felt(record: Mapping[str, Any], step: int) -> dict[str, list[str | None]]:
    zones: dict[str, list[str | None]] = {}
    for c in record.get("cards", [])[:step]:
        cards = zones.setdefault(str(c["zone"]), [])
        if c["arrived"]:
            cards.append(c["card"])
        elif c["card"] in cards:
            cards.remove(c["card"])
    return zones


def _line(t: Mapping[str, Any], names: Mapping[int, str]) -> str:
    who = f"siège / seat {t.get('seat')} ({escape(names.get(int(t['seat']), ''))})" if t.get("seat") else ""
    if t["what"] == "action":
        amount = f" {int(t['amount'])}" if t.get("amount") and t.get("action") in ("bet", "raise", "allin") else ""
        return f"{who} : {_said(t.get('action'))}{amount}"
    ruled = " · ".join(x for x in (_said(t["decision"]) if t.get("decision") else "",
                                   escape(str(t.get("article") or ""))) if x)
    by = f" (DT / TD {escape(str(t['by']))})" if t.get("by") else ""
    cards = " " + "".join(_card(c) for c in t.get("cards") or []) if t.get("cards") else ""
    # a player's request left to the TD (a Time request, cpt87 4.5) is no fault of the deal: its own words alone
    label = "" if t["what"] == "fault" and t.get("kind") in NOT_FAULTS else \
        "Incident / Fault " if t["what"] == "fault" else "Décision / Ruling "
    return f"<b>{label}{_said(t['kind']) if t.get('kind') else ''}</b> {who}{cards} → {ruled}{by}"


def _hole(record: Mapping[str, Any]) -> list[list[str | None]]:
    """Each player's hole cards as the record has them (the public record: only those shown; else None)."""
    out: list[list[str | None]] = [[] for _ in record["seats"]]
    for action in record["actions"]:
        words = action.split()
        if words[:2] == ["d", "dh"] and len(words) == 4 and words[2][1:].isdigit():
            i = int(words[2][1:]) - 1
            if 0 <= i < len(out):
                out[i] = [None if "?" in words[3][j:j + 2] else words[3][j:j + 2] for j in range(0, len(words[3]), 2)]
    return out


def _hand_page(record: Mapping[str, Any], *, td: bool, step: int | None, fault: str) -> bytes:
    table, hand = str(record["table"]), int(record["hand"])
    ante = f" ante {int(record['level']['ante'])}" if record["level"]["ante"] else ""
    names = dict(zip(record["seats"], record["players"], strict=False))
    hole = _hole(record)
    players = "".join(
        f"<tr><td class=\"num\">{int(s)}</td><td>{escape(str(n))}</td><td>{''.join(_card(c) for c in hole[i])}</td>"
        f"<td class=\"num\">{int(a)}</td><td class=\"num\">{int(b)}</td></tr>"
        for i, (s, n, a, b) in enumerate(zip(record["seats"], record["players"], record["starting_stacks"],
                                             record["finishing_stacks"], strict=False)))
    head = (f"<h2>{escape(table_name(table))}, main / hand {hand} · {escape(str(record.get('ruleset')))} · "
            f"{_result(record.get('result'))}{' (annulée / void)' if record.get('void') else ''}</h2>"
            f"<p>Bouton / button : {int(record['button'])} · blinds {int(record['level']['sb'])}/"
            f"{int(record['level']['bb'])}" + ante + "</p><table class=\"seats\"><tr><th>Siège / Seat</th>"
            "<th>Joueur / Player</th><th>Cartes / Cards</th><th>Début / Start</th>"
            "<th>Fin / End</th></tr>" + players + "</table>"
            f"<p>Tableau / Board : {''.join(_card(c) for c in record.get('board') or [])}</p>")
    timeline = record.get("timeline") or []
    if not td or step is None:
        lines = "".join(f"<li>{_line(t, names)}</li>" for t in timeline)
        rest = f"<h3>Déroulement / Play</h3><ol class=\"timeline\">{lines}</ol>"
        if td:
            rest += f"<p><a href=\"/hand?t={quote(table)}&amp;h={hand}&amp;step=0\">Rejouer carte par carte / " \
                    "Replay card by card</a></p>"
        return _page(f"{table_name(table)} #{hand}", head + rest)
    cards = record.get("cards") or []
    step = max(0, min(step, len(cards)))
    base = f"/hand?t={quote(table)}&amp;h={hand}" + (f"&amp;fault={quote(fault)}" if fault else "")
    nav = " · ".join(f"<a id=\"{i}\" href=\"{base}&amp;step={n}\">{label}</a>" for i, n, label in (
        ("first", 0, "⏮ début / start"), ("previous", max(0, step - 1), "◀ précédente / previous"),
        ("next", min(len(cards), step + 1), "suivante / next ▶"), ("last", len(cards), "fin / end ⏭")))
    felt = "".join(f"<tr><td>{_zone(zone)}</td><td>{''.join(_card(c) for c in faces)}</td></tr>"
                   for zone, faces in sorted(_felt(record, step).items()) if faces)
    shown = [t for t in timeline if int(t.get("after", 0)) <= step]
    last = cards[step - 1] if step else None
    now = (f"<p id=\"current\">Carte / card {step} / {len(cards)} : {_card(last['card'])} → "
           f"{_zone(last['zone'])}{'' if last['arrived'] else ' (retirée / left)'} à / at "
           f"{float(last['at']):.2f} s</p>") if last else f"<p id=\"current\">Carte / card 0 / {len(cards)}</p>"
    lines = "".join(f"<li class=\"{escape(str(t['what']))}\">{_line(t, names)}</li>" for t in shown)
    body = (head + f"<h3>Rejeu / Replay</h3><p class=\"nav\">{nav}</p>{now}"
            f"<table class=\"seats\" id=\"felt\"><tr><th>Zone</th><th>Cartes / Cards</th></tr>{felt}</table>"
            f"<h3>Jusqu'ici / So far</h3><ol class=\"timeline\" id=\"so-far\">{lines}</ol>")
    return _page(f"{table_name(table)} #{hand}", body)


def _stats_page(lines: list[Line]) -> bytes:
    rows = "".join(
        f"<tr><td>{escape(SCOPES.get(d['scope'], d['scope']))}</td>"
        f"<td>{escape(table_name(str(d['name'])) if d['scope'] == 'table' else str(d['name']))}</td>"
        f"<td class=\"num\">{d['hands']}</td>"
        f"<td class=\"num\">{d['hands_per_hour'] or ''}</td><td class=\"num\">{d['faults']}</td>"
        f"<td class=\"num\">{d['faults_per_100']}</td><td class=\"num\">{d['td_decisions']}</td>"
        f"<td>{', '.join(f'{_said(k)} {v}' for k, v in d['by_kind'].items())}</td></tr>"
        for d in (line.to_dict() for line in lines))
    body = ("<h2>Statistiques des tables / Table statistics</h2><p><a href=\"/api/stats.csv\">CSV</a></p>"
            "<table class=\"seats\" id=\"stats\"><tr><th>Portée / Scope</th><th>Nom / Name</th><th>Mains / Hands</th>"
            "<th>Mains par heure / Hands per hour</th><th>Incidents / Faults</th><th>Pour 100 mains / Per 100 hands"
            "</th><th>Décisions du DT / TD decisions</th><th>Par type / By kind</th></tr>" + rows + "</table>")
    return _page("statistiques / statistics", body)


def _int(query: Mapping[str, list[str]], key: str) -> int | None:
    raw = (query.get(key) or [""])[0]
    return int(raw) if raw.isdigit() and len(raw) < 10 else None


def refused(path: str, status: int, fr: str, en: str) -> Answer:
    """A request the pages cannot answer: JSON for a script, a page in words for a TD's browser (a link to the
    hand in progress, followed before it ended, showed him raw JSON; so did an address mistyped)."""
    if path.startswith("/api/"):
        return status, _JSON, json.dumps({"error": f"{fr} / {en}"}).encode()
    return status, _HTML, _page("introuvable / not found", f"<h2>{escape(fr)}</h2><p>{escape(en)}</p>")


def answer(reader: HistoryReader | None, path: str, query: Mapping[str, list[str]], *, td: bool) -> Answer | None:
    """The answer to a hand-history request, or None when `path` is not one."""
    if path not in ("/hands", "/hand", "/api/hands", "/api/hand", "/stats", "/api/stats", "/api/stats.csv"):
        return None
    if reader is None:
        return refused(path, 404, "pas de tournoi", "no tournament")
    if path in ("/stats", "/api/stats", "/api/stats.csv"):
        lines = statistics(reader.every())
        if path == "/api/stats.csv":
            return 200, "text/csv; charset=utf-8", ("\ufeff" + stats_csv(lines)).encode()
        if path == "/api/stats":
            return 200, _JSON, json.dumps({"lines": [line.to_dict() for line in lines]}).encode()
        return 200, _HTML, _stats_page(lines)
    table = (query.get("t") or [""])[0][:40]
    if not table:
        return refused(path, 400, "?t=TABLE attendu", "?t=TABLE expected")
    if path in ("/hands", "/api/hands"):
        hands = reader.hands(table)
        if path == "/api/hands":
            return 200, _JSON, json.dumps({"table": table, "hands": [_summary(r) for r in hands]}).encode()
        return 200, _HTML, _list_page(table, hands)
    hand = _int(query, "h")
    if hand is None:
        return refused(path, 400, "&h=MAIN attendu", "&h=HAND expected")
    record = reader.hand(table, hand, td=td)
    if record is None:
        name = table_name(table)
        return refused(path, 404, f"Pas de relevé de la donne {hand} à la {name} : une donne en cours a le sien "
                                   "quand elle se termine.",
                        f"No record of hand {hand} at {name}: a hand in progress has its record when it ends.")
    if path == "/api/hand":
        return 200, _JSON, json.dumps(record).encode()
    return 200, _HTML, _hand_page(record, td=td, step=_int(query, "step") if td else None,
                                  fault=(query.get("fault") or [""])[0][:20])
