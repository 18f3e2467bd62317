"""The season's standings from tournaments' rankings: who scores, who keeps a place and loses the points
(brest-2011 IX.1-IX.6, cpt87 1.3), ties, a club's best results only."""

from __future__ import annotations

from typing import Any

from hub.season.points import PointsRule
from hub.season.standings import (
    Finish,
    NoPoints,
    TournamentRanking,
    disqualified,
    eliminations,
    knockouts,
    season,
)
from hub.tournament.events import PlayerEliminated, PlayerReentered, PlayerRemoved, RemovalReason

TABLE = PointsRule(by_place=(100, 80, 65, 50, 40), others=10)


def ranking(label: str, *places: str, finished: bool = True, **extra: Any) -> TournamentRanking:
    return TournamentRanking(label, finished, len(places), tuple(Finish(p, i + 1) for i, p in enumerate(places)),
                             **extra)


def points(s: object) -> dict[str, int]:
    return {line.player: line.hundredths for line in s.lines}  # type: ignore[attr-defined]


def test_points_add_up_over_the_tournaments_in_hundredths() -> None:
    s = season([ranking("oct", "Agnès", "Bruno", "Céline"), ranking("nov", "Bruno", "Céline", "Agnès")], TABLE)
    assert points(s) == {"Bruno": 18000, "Agnès": 16500, "Céline": 14500}
    assert [(line.rank, line.player, line.played, line.best_place) for line in s.lines] == [
        (1, "Bruno", 2, 1), (2, "Agnès", 2, 1), (3, "Céline", 2, 2)]
    assert [r.tournament for r in s.lines[0].results] == ["oct", "nov"]


def test_a_visitor_keeps_his_place_and_nobody_gains_his_points() -> None:
    # brest-2011 IX.3: the visitor second, his 80 points lost; Céline third still scores a third's 65
    s = season([ranking("oct", "Agnès", "Victor", "Céline")], TABLE, members=["Agnès", "Céline"])
    assert points(s) == {"Agnès": 10000, "Céline": 6500}
    (_, rows), = s.tournaments
    assert [(f.player, f.place, r.hundredths, r.none) for f, r in rows] == [
        ("Agnès", 1, 10000, None), ("Victor", 2, 0, NoPoints.VISITOR), ("Céline", 3, 6500, None)]


def test_members_are_matched_whatever_the_case_and_spacing_and_shown_as_the_club_writes_them() -> None:
    s = season([ranking("oct", "agnès  martin", "AGNES MARTIN")], TABLE, members=["Agnès Martin"])
    assert points(s) == {"Agnès Martin": 10000}  # accents are kept: "AGNES MARTIN" is not her
    assert s.tournaments[0][1][1][1].none is NoPoints.VISITOR


def test_a_disqualified_player_and_one_not_checked_out_keep_their_places_and_score_nothing() -> None:
    s = season([ranking("oct", "Agnès", "Bruno", "Céline", "Denis", disqualified=frozenset({"Bruno"}),
                        not_checked_out=frozenset({"denis"}))], TABLE)
    assert points(s) == {"Agnès": 10000, "Céline": 6500, "Bruno": 0, "Denis": 0}
    whys = {f.player: r.none for f, r in s.tournaments[0][1]}
    assert whys == {"Agnès": None, "Bruno": NoPoints.DISQUALIFIED, "Céline": None, "Denis": NoPoints.NOT_CHECKED_OUT}
    # a member with no points is in the standings (he played), unlike a visitor
    assert [line.player for line in s.lines][-2:] == ["Bruno", "Denis"]


def test_a_tournament_still_running_is_not_counted() -> None:
    s = season([ranking("oct", "Agnès", "Bruno"), ranking("nov", "Bruno", "Agnès", finished=False)], TABLE)
    assert points(s) == {"Agnès": 10000, "Bruno": 8000}
    assert s.in_progress == ["nov"] and [t.label for t, _ in s.tournaments] == ["oct"]


def test_ex_aequo_in_a_tournament_share_points_and_in_the_season_share_a_rank() -> None:
    tied = TournamentRanking("oct", True, 4, (Finish("Agnès", 1), Finish("Bruno", 2, 2), Finish("Céline", 2, 2),
                                              Finish("Denis", 4)))
    s = season([tied], TABLE)
    assert points(s) == {"Agnès": 10000, "Bruno": 7250, "Céline": 7250, "Denis": 5000}
    assert [(line.rank, line.tied, line.player) for line in s.lines] == [
        (1, 1, "Agnès"), (2, 2, "Bruno"), (2, 2, "Céline"), (4, 1, "Denis")]


def test_best_of_counts_each_players_best_results_and_shows_the_others() -> None:
    s = season([ranking("a", "Agnès", "Bruno"), ranking("b", "Bruno", "Agnès"), ranking("c", "Bruno", "Agnès")],
               TABLE, best_of=2)
    assert points(s) == {"Bruno": 20000, "Agnès": 18000}
    agnes = next(line for line in s.lines if line.player == "Agnès")
    assert [(r.tournament, r.hundredths, r.counted) for r in agnes.results] == [
        ("a", 10000, True), ("b", 8000, True), ("c", 8000, False)]


def test_the_formula_reads_the_tournaments_entries() -> None:
    rule = PointsRule(formula="entries - place + 1")
    small, big = ranking("small", "Agnès", "Bruno"), ranking("big", *"ABCDEFGH")
    assert points(season([small, big], rule))["Agnès"] == 200
    assert points(season([small, big], rule))["A"] == 800


def test_only_a_disqualification_makes_a_removed_player_score_nothing() -> None:
    removed = [PlayerRemoved(name, reason, 0, "brest-2011 IX.5", 0.0) for name, reason in (
        ("Agnès", RemovalReason.DISQUALIFIED), ("Bruno", RemovalReason.LEFT_NOTIFIED),
        ("Céline", RemovalReason.LEFT_WITHOUT_NOTICE), ("Denis", RemovalReason.ABSENT))]
    assert disqualified(removed) == {"Agnès"}


def test_bounties_add_points_per_player_knocked_out_shared_by_those_who_split_him() -> None:
    rule = PointsRule(by_place=(100, 80, 65, 50), per_knockout=10)
    oct_ = TournamentRanking("oct", True, 4, tuple(Finish(p, i + 1) for i, p in enumerate(
        ("Agnès", "Bruno", "Céline", "Denis"))), knocked_out=(
        ("Denis", ("Agnès", "Bruno")), ("Céline", ("Agnès",)), ("Bruno", ("Agnès",))))
    s = season([oct_], rule)
    # Agnès: 100 + 2.5 knockouts x 10; Bruno: 80 + half of Denis
    assert points(s) == {"Agnès": 12500, "Bruno": 8500, "Céline": 6500, "Denis": 5000}
    assert {line.player: line.knockouts for line in s.lines} == {"Agnès": 250, "Bruno": 50, "Céline": 0, "Denis": 0}


def test_a_knockout_split_three_ways_still_counts_one_and_a_disqualified_player_scores_no_bounty() -> None:
    assert knockouts([("Denis", ("Agnès", "Bruno", "Céline"))]) == {"Agnès": 34, "Bruno": 33, "Céline": 33}
    rule = PointsRule(by_place=(0,), per_knockout=10)
    oct_ = TournamentRanking("oct", True, 2, (Finish("Agnès", 1), Finish("Bruno", 2)),
                             disqualified=frozenset({"Agnès"}), knocked_out=(("Bruno", ("Agnès",)),))
    line, = (x for x in season([oct_], rule).lines if x.player == "Agnès")
    assert (line.hundredths, line.knockouts) == (0, 100)


def test_a_player_knocked_out_twice_re_entering_between_counts_two_knockouts() -> None:
    """pouques-2020 re-entry: Bruno's first bullet is not in the ranking (his last is), both were knockouts."""
    eliminated = [PlayerEliminated("Bruno", 1, 3, 9, 5_000, 1, True, "pouques-2020 82", 60.0, None, ("Agnès",)),
                  PlayerReentered("Bruno", 2, "pouques-2020 7", 70.0),
                  PlayerEliminated("Bruno", 1, 3, 2, 5_000, 2, True, "pouques-2020 82", 900.0, None, ("Agnès",)),
                  PlayerEliminated("Céline", 1, 5, 3, 5_000, 3, True, "pouques-2020 82", 950.0)]  # by the TD
    assert eliminations(eliminated) == (("Bruno", ("Agnès",)), ("Bruno", ("Agnès",)))
    oct_ = TournamentRanking("oct", True, 4, (Finish("Agnès", 1), Finish("Bruno", 2), Finish("Céline", 3)),
                             knocked_out=eliminations(eliminated))
    assert {x.player: x.knockouts for x in season([oct_], PointsRule(by_place=(0,))).lines}["Agnès"] == 200
