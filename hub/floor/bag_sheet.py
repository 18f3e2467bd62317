"""The bag sheet (relevé des jetons): every player still in, his table and seat, his chips (hub, floor -> TD).

Consumes the `FloorState`: at a break (or during play) the chips as the hands played left them; at the end
of a day the `DayEnded` record, with each bag's number and the next day's seat draw, so a reprint, or one
after a hub restart, is the same sheet. Emits a JSON-ready dict (`tapis tournament bags`, the dashboard's
/bags page) and its CSV and text. Pure: no IO.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from hub.floor.results_view import spreadsheet_cell
from hub.floor.store import JSON
from hub.tournament.errors import FloorError
from hub.tournament.events import DayEnded
from hub.tournament.state import FloorState
from hub.tournament.structure import Break


def sheet(state: FloorState, *, day: int | None = None) -> dict[str, JSON]:
    """`day`: that day's end, as recorded; None: the day that just ended while the players are bagged,
    else the counts now (a break's)."""
    if day is not None:
        if not 1 <= day <= len(state.days):
            raise FloorError(f"le jour {day} n'est pas fini / day {day} has not ended")
        return _day_sheet(state, state.days[day - 1])
    if state.day_over:
        return _day_sheet(state, state.days[-1])
    clock = state.clock
    item = clock.item if clock.started else None
    rows: list[JSON] = [{"player": p.name, "table": p.table, "seat": p.seat, "chips": p.chips}
                        for p in sorted(state.alive(), key=lambda p: (p.table or 0, p.seat or 0, p.name))]
    return {**_facts(state), "kind": "break" if isinstance(item, Break) else "play", "day": state.day,
            "break": item.name if isinstance(item, Break) else None, "level": clock.level().number,
            "at": state.now, "rows": rows, **_totals([p.chips for p in state.alive()]),
            "in_hand": [n for n, t in sorted(state.tables.items()) if t.in_hand]}


def _day_sheet(state: FloorState, e: DayEnded) -> dict[str, JSON]:
    seats = {name: (table, seat) for name, table, seat in e.draw}
    rows: list[JSON] = [{"player": name, "table": table, "seat": seat, "chips": chips, "bag": bag,
                         "next_table": seats[name][0], "next_seat": seats[name][1]}
                        for name, table, seat, chips, bag in e.bags]
    draw: list[JSON] = [{"player": name, "table": table, "seat": seat} for name, table, seat in e.draw]
    return {**_facts(state), "kind": "day_end", "day": e.day, "next_day": e.day + 1, "reason": e.reason,
            "at": e.at, "rows": rows, **_totals([chips for _, _, _, chips, _ in e.bags]), "draw": draw,
            "buttons": [{"table": table, "seat": seat} for table, seat in e.buttons], "in_hand": []}


def _facts(state: FloorState) -> dict[str, JSON]:
    return {"name": state.name, "ruleset": state.policy.ruleset, "entries": state.entries,
            "days_ended": len(state.days)}


def _totals(chips: list[int]) -> dict[str, JSON]:
    return {"players_left": len(chips), "chips_total": sum(chips),
            "average": sum(chips) // len(chips) if chips else 0}


def _n(value: int) -> str:
    return f"{value:,}".replace(",", " ")


def bags_csv(data: Mapping[str, Any]) -> str:
    """The sheet as CSV for a spreadsheet (`;`-separated, as French spreadsheets read it), by table and seat;
    at the end of a day with the bag numbers and the next day's table and seat."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    day_end = data.get("kind") == "day_end"
    head = ["Table", "Siège / Seat", "Joueur / Player", "Jetons / Chips"]
    if day_end:
        nxt = data.get("next_day")
        head += ["Sac / Bag", f"Jour {nxt} table / Day {nxt} table", f"Jour {nxt} siège / Day {nxt} seat"]
    writer.writerow(head)
    for row in data.get("rows") or []:
        line = [row.get("table"), row.get("seat"), spreadsheet_cell(str(row.get("player", ""))), row.get("chips")]
        if day_end:
            line += [row.get("bag"), row.get("next_table"), row.get("next_seat")]
        writer.writerow(line)
    return out.getvalue()


def bags_text(data: Mapping[str, Any]) -> str:
    """The sheet as printable text, French then English: what `tapis tournament bags` prints."""
    kind = data.get("kind")
    if kind == "day_end":
        title = f"Fin du jour {data['day']} — jetons en sac / End of day {data['day']} — chips bagged"
    elif kind == "break":
        title = f"Pause ({data['break']}) — relevé des jetons / Break ({data['break']}) — chip counts"
    else:
        title = f"Niveau {data['level']} — jetons en jeu / Level {data['level']} — chips in play"
    lines = [f"{data['name']}", title,
             f"{data['players_left']} joueurs / players   {_n(data['chips_total'])} jetons / chips   "
             f"moyenne / average {_n(data['average'])}"]
    if data.get("in_hand"):
        tables = ("Table " if len(data["in_hand"]) == 1 else "Tables ") + ", ".join(str(n) for n in data["in_hand"])
        lines.append(f"  ! {tables} : donne en cours, jetons du début de la donne / "
                     f"hand in progress, chips as it started")
    lines.append("")
    day_end = kind == "day_end"
    nxt = data.get("next_day")
    head = f"{'Table':>5} {'Siège':>5}  {'Joueur / Player':<28} {'Jetons / Chips':>14}"
    lines.append(head + (f" {'Sac/Bag':>7}  Jour {nxt} / Day {nxt}" if day_end else ""))
    for row in data.get("rows") or []:
        line = f"{row['table']:>5} {row['seat']:>5}  {row['player']:<28} {_n(row['chips']):>14}"
        if day_end:
            line += f" {row['bag']:>7}  Table {row['next_table']} siège/seat {row['next_seat']}"
        lines.append(line)
    if day_end:
        lines += ["", f"Tirage du jour {nxt} / Day {nxt} seat draw"]
        buttons = {b["table"]: b["seat"] for b in data.get("buttons") or []}
        table = None
        for row in data.get("draw") or []:
            if row["table"] != table:
                table = row["table"]
                lines.append(f"  Table {table} (bouton / button: siège/seat {buttons.get(table, '?')})")
            lines.append(f"    {row['seat']:>3}  {row['player']}")
    return "\n".join(lines)
