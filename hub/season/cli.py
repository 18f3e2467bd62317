"""`tapis season standings|player|check FILE`: a club's championship from its tournaments' stores.

The edge of `hub.season`: reads the season file and each tournament's store (`tapis hub --db`, the file
`tapis tournament` writes), prints in French then English. A bad file or store is refused in one line,
exit status 2, never a traceback. A store is only read: a tournament still running is listed as in
progress and not counted.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO

from hub.floor.command_words import usage_words
from hub.floor.results_view import spreadsheet_cell
from hub.floor.store import JSON, StoreError
from hub.season.points import PointsError
from hub.season.season_file import SeasonError, SeasonFile, SeasonTournament, load_season
from hub.season.standings import (
    WORDS,
    Finish,
    Season,
    SeasonLine,
    TournamentRanking,
    disqualified,
    eliminations,
    name_key,
    season,
)
from hub.tournament.errors import FloorError


def read_tournament(t: SeasonTournament) -> TournamentRanking:
    """One tournament's ranking from its store, read only (never created: a missing file is an error)."""
    from hub.floor.service import FloorService
    from hub.floor.store import EventStore
    from hub.tournament.undo import counting

    if not t.db.is_file():
        raise SeasonError(f"{t.db}: no such tournament file (the --db of `tapis tournament new`)")
    with EventStore(t.db, durable=False) as store:
        floor = FloorService.open(store)
        if floor.tournament is None:
            raise SeasonError(f"{t.db}: holds no tournament")
        data = floor.results()
        records = list(counting(floor.tournament.events))
    rows = data["ranking"]
    assert isinstance(rows, list)
    finishes = tuple(Finish(str(r["player"]), place, tied) for r in rows if isinstance(r, dict)
                     and isinstance(place := r.get("place"), int) and isinstance(tied := r.get("tied"), int))
    label = t.label or f"{data['name']} ({data.get('date') or '?'})"
    return TournamentRanking(label, bool(data["finished"]), int(str(data["entries"])), finishes,
                             disqualified(records), t.not_checked_out, eliminations(records))


def read_season(f: SeasonFile) -> Season:
    return season([read_tournament(t) for t in f.tournaments], f.rule, members=f.members, best_of=f.best_of)


def points_words(hundredths: int) -> str:
    """12345 -> "123,45" (French: a space between thousands, a comma before the hundredths)."""
    return f"{hundredths // 100:,}".replace(",", " ") + f",{hundredths % 100:02d}"


def knockouts_words(hundredths: int) -> str:
    """Players knocked out: 3 -> "3", a shared one -> "2,5"."""
    whole, part = divmod(hundredths, 100)
    return f"{whole}" if not part else f"{whole},{part:02d}".rstrip("0")


def _place(place: int, tied: int) -> str:
    fr = "1re" if place == 1 else f"{place}e"
    return f"{fr} place{' ex aequo' if tied > 1 else ''} / place {place}{' (tied)' if tied > 1 else ''}"


def _head(f: SeasonFile, s: Season) -> list[str]:
    counted = len(s.tournaments)
    lines = [f"{f.name} : {counted} tournoi{'s' if counted > 1 else ''} compté{'s' if counted > 1 else ''} / "
             f"{counted} tournament{'s' if counted != 1 else ''} counted"]
    if s.in_progress:
        lines.append(f"  en cours, pas encore comptés / in progress, not counted yet: {', '.join(s.in_progress)}")
    if f.best_of is not None:
        lines.append(f"  les {f.best_of} meilleurs résultats de chacun comptent / each player's {f.best_of} best "
                     "results count")
    return lines


def render_standings(f: SeasonFile, s: Season) -> str:
    lines = _head(f, s)
    if not s.lines:
        lines.append("  aucun point marqué pour l'instant / no points scored yet")
    width = max((len(line.player) for line in s.lines), default=6)
    for line in s.lines:
        rank = f"{line.rank}" + ("=" if line.tied > 1 else "")
        lines.append(f"  {rank:>5}  {line.player:<{width}}  {points_words(line.hundredths):>10} pts  "
                     f"{line.played} tournoi{'s' if line.played > 1 else ''} / played, "
                     f"meilleure place / best {line.best_place}, KO {knockouts_words(line.knockouts)}")
    return "\n".join(lines)


def render_player(f: SeasonFile, s: Season, player: str) -> str:
    line = next((x for x in s.lines if name_key(x.player) == name_key(player)), None)
    if line is None:
        raise SeasonError(f"{player[:80]!r}: pas au classement de {f.name} (aucun tournoi compté, ou pas "
                          f"adhérent) / not in the standings (no tournament counted, or not a member)")
    rank = f"{line.rank}" + (" ex aequo" if line.tied > 1 else "")
    lines = [f"{line.player} : rang {rank}, {points_words(line.hundredths)} points en {line.played} tournoi"
             f"{'s' if line.played > 1 else ''} / rank {rank}, {points_words(line.hundredths)} points in "
             f"{line.played} tournament{'s' if line.played != 1 else ''}"]
    for r in line.results:
        why = "" if r.none is None else f"  ({WORDS[r.none][0]} / {WORDS[r.none][1]})"
        dropped = "" if r.counted else "  (hors des meilleurs résultats / not among the best results)"
        kos = f", KO {knockouts_words(r.knockouts)}" if r.knockouts else ""
        lines.append(f"  {r.tournament}  {_place(r.place, r.tied)}{kos}  {points_words(r.hundredths)}{why}{dropped}")
    return "\n".join(lines)


def render_check(f: SeasonFile, s: Season) -> str:
    who = ("tous les joueurs marquent / every player scores" if f.members is None else
           f"{len(f.members)} adhérent(s) / member(s)")
    lines = [f"ok — saison lisible / season readable: {f.name}, {len(f.tournaments)} tournoi(s) / "
             f"tournament(s), {who}"]
    lines += _head(f, s)[1:]
    for ranking, rows in s.tournaments:
        none = [f"{finish.player} ({WORDS[r.none][0]} / {WORDS[r.none][1]})" for finish, r in rows if r.none]
        lines.append(f"  {ranking.label} : {ranking.entries} entrées / entries, {len(rows)} classés / ranked" +
                     (f"; sans points / no points: {'; '.join(none)}" if none else ""))
    return "\n".join(lines)


def standings_json(f: SeasonFile, s: Season) -> dict[str, JSON]:
    def line(x: SeasonLine) -> JSON:
        return {"rank": x.rank, "tied": x.tied, "player": x.player, "hundredths": x.hundredths,
                "played": x.played, "best_place": x.best_place, "knockouts_hundredths": x.knockouts,
                "results": [{"tournament": r.tournament, "place": r.place, "tied": r.tied, "hundredths": r.hundredths,
                             "knockouts_hundredths": r.knockouts, "no_points": None if r.none is None else str(r.none),
                             "counted": r.counted} for r in x.results]}
    return {"name": f.name, "counted": [t.label for t, _ in s.tournaments], "in_progress": list(s.in_progress),
            "best_of": f.best_of, "standings": [line(x) for x in s.lines]}


def standings_csv(s: Season) -> str:
    """For a spreadsheet: `;`-separated, points with a decimal comma, as French spreadsheets read them."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(["Rang / Rank", "Joueur / Player", "Points", "Tournois / Played", "Meilleure place / Best",
                     "KO"])
    for x in s.lines:
        writer.writerow([f"{x.rank}" + (" ex aequo" if x.tied > 1 else ""), spreadsheet_cell(x.player),
                         points_words(x.hundredths).replace(" ", ""), x.played, x.best_place,
                         knockouts_words(x.knockouts)])
    return out.getvalue()


class _Parser(argparse.ArgumentParser):
    """argparse's errors in one line, French first, as `tapis tournament` says them."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog} : {usage_words(message)} (tapis season --help)\n")


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="tapis season", description="La saison du club / the club's season: "
                                "championship points from the tournaments' stores (brest-2011 IX, cpt87 1.2)")
    sub = p.add_subparsers(dest="cmd", required=True, metavar="{standings,player,check}")
    standings = sub.add_parser("standings", help="classement du championnat / the season's standings")
    standings.add_argument("file", metavar="FILE", help="the season file (TOML; docs/season.md)")
    form = standings.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print JSON")
    form.add_argument("--csv", action="store_true", help="print CSV for a spreadsheet")
    player = sub.add_parser("player", help="un joueur, tournoi par tournoi / one player's results")
    player.add_argument("file", metavar="FILE")
    player.add_argument("name", metavar="NAME")
    check = sub.add_parser("check", help="lire le fichier et chaque tournoi / read the file and every store")
    check.add_argument("file", metavar="FILE")
    return p


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = sys.stdout if out is None else out
    words = list(sys.argv[1:] if argv is None else argv)
    while words[:1] and words[0] in ("season", "-v", "-vv", "-vvv", "--verbose"):  # as `tapis` hands them on
        words = words[1:]
    args = parser().parse_args(words)
    try:
        f = load_season(args.file)
        s = read_season(f)
        if args.cmd == "standings" and args.json:
            text = json.dumps(standings_json(f, s), ensure_ascii=False)
        elif args.cmd == "standings" and args.csv:
            out.write(standings_csv(s))
            return 0
        elif args.cmd == "standings":
            text = render_standings(f, s)
        elif args.cmd == "player":
            text = render_player(f, s, args.name)
        else:
            text = render_check(f, s)
    except (SeasonError, PointsError, StoreError, FloorError) as err:
        print(f"tapis season {args.cmd}: {err}", file=sys.stderr)
        return 2
    out.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
