"""The results as a TD shows, prints and exports them (hub, floor: tournament state -> JSON and CSV).

Consumes the tournament's standings and prizes; emits the `results` JSON of a TD command (players
still in are "en jeu / still playing", without a place or a prize until they are out) and its CSV
export. Pure: no IO.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping

from hub.floor.store import JSON
from hub.tournament.results import Standing
from hub.tournament.state import FloorState, PlayerStatus

PLAYING = ("en jeu", "still playing")


def results(state: FloorState, ranking: list[Standing], won: Mapping[str, int], pool_cents: int) -> dict[str, JSON]:
    """Places and prizes of the players out; the players still in listed by chips, unranked; then the
    players entered and not seated yet. When one player is left he has won: first place and his prize."""
    alive = {p.name for p in state.alive()}
    finished = state.clock.started and len(alive) <= 1 and bool(ranking)
    knocked: dict[str, list[JSON]] = {o.player: list(o.by) for o in state.outs}  # who knocked each out (a bounty)
    rows: list[JSON] = []
    for st in ranking:
        playing = st.player in alive and not finished
        p = state.players[st.player]
        rows.append({"place": None if playing else st.place, "player": st.player, "tied": st.tied,
                     "status": "playing" if playing else ("winner" if st.player in alive else "out"),
                     "chips": p.chips if playing else 0, "entries": p.entries,
                     "table": p.table if playing else None, "seat": p.seat if playing else None,
                     "prize_cents": 0 if playing else won.get(st.player, 0),
                     "knocked_out_by": knocked.get(st.player, [])})
    for p in sorted(state.players.values(), key=lambda p: p.name):
        if p.status is PlayerStatus.REGISTERED:  # entered, not seated yet (before the draw, or absent)
            rows.append({"place": None, "player": p.name, "tied": 1, "status": "registered", "chips": 0,
                         "entries": p.entries, "table": None, "seat": None, "prize_cents": 0, "knocked_out_by": []})
    waiting = [name for name in state.wait_list if state.players[name].status is PlayerStatus.WAITING]
    return {"name": state.name, "ruleset": state.policy.ruleset, "entries": state.entries,
            "players_left": len(alive), "finished": finished, "prize_pool_cents": pool_cents,
            "ranking": rows, "wait_list": list(waiting)}


def euros(cents: int) -> str:
    """1234567 -> "12 345,67" (French: a space between thousands, a comma before the cents)."""
    return f"{cents // 100:,}".replace(",", " ") + f",{cents % 100:02d}"


def results_csv(data: Mapping[str, JSON]) -> str:
    """The ranking as CSV for a spreadsheet (`;`-separated, as French spreadsheets read it)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(["Place", "Joueur / Player", "Statut / Status", "Entrées / Entries", "Prix / Prize (EUR)",
                     "Éliminé par / Knocked out by"])
    words = {"playing": "en jeu / still playing", "winner": "vainqueur / winner", "out": "éliminé / out",
             "registered": "inscrit / registered"}
    rows = data.get("ranking")
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, dict):
            continue
        place, tied, prize = row.get("place"), row.get("tied"), row.get("prize_cents")
        shown = "" if place is None else f"{place}" + (" ex aequo" if isinstance(tied, int) and tied > 1 else "")
        by = row.get("knocked_out_by")
        writer.writerow([shown, spreadsheet_cell(str(row.get("player", ""))), words.get(str(row.get("status")), ""),
                         row.get("entries", ""), euros(prize) if isinstance(prize, int) and prize else "",
                         spreadsheet_cell(", ".join(str(b) for b in by)) if isinstance(by, list) else ""])
    return out.getvalue()


def spreadsheet_cell(text: str) -> str:
    """A name a spreadsheet would run as a formula is quoted (CSV injection: =, +, -, @)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
