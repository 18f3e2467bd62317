"""The season's standings (classement du championnat): tournaments' rankings in, points per player out. Pure.

brest-2011 IX.1 and cpt87 1.3: only members score; IX.3: a visitor keeps his place in the tournament's
ranking and his points are lost (nobody else's place moves up); IX.4: an eliminated player who did not
check out with the organisers (non pointé) scores nothing; IX.6: nor does a disqualified player, who keeps
his place. Points are added in hundredths (IX.2); players ex aequo in the season share its rank. A club that
counts only each player's best results sets `best_of`.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from hub.season.points import PointsRule
from hub.tournament.events import Event, PlayerEliminated, PlayerRemoved, RemovalReason


class NoPoints(StrEnum):
    """Why a place scored nothing: the French words and the article, for the TD's screen."""

    VISITOR = "visitor"  # not a member (brest-2011 IX.1, IX.3; cpt87 1.3)
    DISQUALIFIED = "disqualified"  # brest-2011 IX.6
    NOT_CHECKED_OUT = "not_checked_out"  # non pointé, brest-2011 IX.4


WORDS: dict[NoPoints, tuple[str, str]] = {
    NoPoints.VISITOR: ("visiteur, points perdus (non adhérent)", "visitor, points lost (not a member)"),
    NoPoints.DISQUALIFIED: ("disqualifié, aucun point", "disqualified, no points"),
    NoPoints.NOT_CHECKED_OUT: ("non pointé, aucun point", "did not check out, no points"),
}


@dataclass(frozen=True, slots=True)
class Finish:
    """One player's place in one tournament (`tied`: players sharing it, ex aequo)."""

    player: str
    place: int
    tied: int = 1


@dataclass(frozen=True, slots=True)
class TournamentRanking:
    """A tournament as the season reads it: its ranking once it is over (`finished`)."""

    label: str
    finished: bool
    entries: int
    finishes: tuple[Finish, ...]
    disqualified: frozenset[str] = frozenset()
    not_checked_out: frozenset[str] = frozenset()  # from the season file: the organisers' list
    # every elimination a hand made, (the player out, who knocked him out): a re-entered player's first too
    knocked_out: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class Scored:
    """One player's result in one tournament: his place and the points it gave him (hundredths)."""

    tournament: str
    place: int
    tied: int
    hundredths: int  # his place's points and his bounties'
    none: NoPoints | None = None  # why nothing, when nothing
    counted: bool = True  # False: outside his `best_of` results
    knockouts: int = 0  # players he knocked out, in hundredths (one shared by two: 50)


@dataclass
class SeasonLine:
    rank: int
    tied: int
    player: str
    hundredths: int
    results: list[Scored] = field(default_factory=list)

    @property
    def played(self) -> int:
        return len(self.results)

    @property
    def best_place(self) -> int:
        return min(r.place for r in self.results)

    @property
    def knockouts(self) -> int:
        """Players knocked out over the season, in hundredths (every tournament, counted or not)."""
        return sum(r.knockouts for r in self.results)


@dataclass
class Season:
    """The standings of the members, and every tournament's scored places (visitors' too)."""

    lines: list[SeasonLine]
    tournaments: list[tuple[TournamentRanking, list[tuple[Finish, Scored]]]]
    in_progress: list[str]  # tournaments not over: not counted yet


def disqualified(records: Iterable[Event]) -> frozenset[str]:
    """The players a tournament's records (those that count: an undone penalty does not) disqualified; a
    player who left or never arrived is removed too, and scores."""
    return frozenset(e.player for e in records
                     if isinstance(e, PlayerRemoved) and e.reason is RemovalReason.DISQUALIFIED)


def name_key(name: str) -> str:
    """How a member's name is matched to a tournament's player: accents kept, case and spaces not."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def season(rankings: Sequence[TournamentRanking], rule: PointsRule, *, members: Iterable[str] | None = None,
           best_of: int | None = None) -> Season:
    """Score every finished tournament, then add each member's points (his `best_of` best results only
    when set). `members` None: a club without membership, every player scores."""
    member_names = None if members is None else {name_key(m): m for m in members}
    scored: list[tuple[TournamentRanking, list[tuple[Finish, Scored]]]] = []
    by_player: dict[str, list[Scored]] = {}
    shown: dict[str, str] = {}  # a player's key -> his name as the season file (or his first tournament) writes it
    for ranking in rankings:
        if not ranking.finished:
            continue
        rows = []
        knocked = knockouts(ranking.knocked_out)
        for finish in ranking.finishes:
            key = name_key(finish.player)
            why = _no_points(ranking, finish.player, key, member_names)
            kos = knocked.get(finish.player, 0)
            points = 0 if why else rule.shared(finish.place, finish.tied, entries=ranking.entries,
                                               players=len(ranking.finishes)) + rule.bounty(kos)
            result = Scored(ranking.label, finish.place, finish.tied, points, why, knockouts=kos)
            rows.append((finish, result))
            if why is not NoPoints.VISITOR:
                by_player.setdefault(key, []).append(result)
                shown.setdefault(key, finish.player if member_names is None else member_names[key])
        scored.append((ranking, rows))
    totals = []
    for key, results in by_player.items():
        if best_of is not None:
            kept = {id(r) for r in sorted(results, key=lambda r: -r.hundredths)[:best_of]}
            results = [r if id(r) in kept else _dropped(r) for r in results]
        totals.append((sum(r.hundredths for r in results if r.counted), shown[key], results))
    totals.sort(key=lambda t: (-t[0], name_key(t[1])))
    lines: list[SeasonLine] = []
    for points, player, results in totals:
        rank = lines[-1].rank if lines and lines[-1].hundredths == points else len(lines) + 1
        lines.append(SeasonLine(rank, 1, player, points, results))
    sharing = Counter(line.rank for line in lines)
    for line in lines:
        line.tied = sharing[line.rank]
    return Season(lines, scored, [r.label for r in rankings if not r.finished])


def _no_points(ranking: TournamentRanking, player: str, key: str, members: dict[str, str] | None) -> NoPoints | None:
    if members is not None and key not in members:
        return NoPoints.VISITOR
    if player in ranking.disqualified:
        return NoPoints.DISQUALIFIED
    if key in {name_key(n) for n in ranking.not_checked_out}:
        return NoPoints.NOT_CHECKED_OUT
    return None


def eliminations(records: Iterable[Event]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each player a hand put out and who knocked him out, from a tournament's records (those that count):
    every elimination, a re-entered player's earlier ones included (his ranking keeps only his last)."""
    return tuple((e.player, e.by) for e in records if isinstance(e, PlayerEliminated) and e.by)


def knockouts(knocked_out: Iterable[tuple[str, tuple[str, ...]]]) -> dict[str, int]:
    """Players each one knocked out, in hundredths: a player split by two counts half to each (the
    hundredths rounded so that the parts add up to one)."""
    out: dict[str, int] = {}
    for _, by in knocked_out:
        for i, player in enumerate(by):
            out[player] = out.get(player, 0) + 100 // len(by) + (1 if i < 100 % len(by) else 0)
    return out


def _dropped(result: Scored) -> Scored:
    return Scored(result.tournament, result.place, result.tied, result.hundredths, result.none, counted=False,
                  knockouts=result.knockouts)
