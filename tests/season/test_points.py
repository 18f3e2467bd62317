"""Championship points for a place: a club's formula or table, to the hundredth (brest-2011 IX.2)."""

from __future__ import annotations

import pytest

from hub.season.points import PointsError, PointsRule


def test_a_formula_of_entries_and_place_gives_hundredths_rounded_half_up() -> None:
    rule = PointsRule(formula="100 * sqrt(entries) / sqrt(place)")
    # 100 * sqrt(20) = 447.2135..., / sqrt(2) = 316.2277..., / sqrt(3) = 258.1988...
    assert [rule.hundredths(p, entries=20, players=20) for p in (1, 2, 3)] == [44721, 31623, 25820]
    assert PointsRule(formula="place / 8").hundredths(1, entries=1, players=1) == 13  # 0.125 -> 0.13
    assert PointsRule(formula="players - place").hundredths(3, entries=12, players=10) == 700


def test_a_table_by_place_with_points_beyond_it() -> None:
    rule = PointsRule(by_place=(100, 80.5, 65), others=5)
    assert [rule.hundredths(p, entries=30, players=30) for p in (1, 2, 3, 4, 30)] == [10000, 8050, 6500, 500, 500]
    assert PointsRule(by_place=(10,)).hundredths(2, entries=2, players=2) == 0


def test_players_ex_aequo_share_the_points_of_the_places_they_hold() -> None:
    rule = PointsRule(by_place=(100, 80, 65, 50))
    assert rule.shared(2, 2, entries=9, players=9) == 7250  # (80 + 65) / 2
    assert rule.shared(2, 3, entries=9, players=9) == 6500  # (80 + 65 + 50) / 3
    assert rule.shared(1, 1, entries=9, players=9) == 10000


def test_a_formula_below_zero_scores_nothing() -> None:
    assert PointsRule(formula="50 - place").hundredths(60, entries=60, players=60) == 0


@pytest.mark.parametrize("formula, words", [
    ('__import__("os").system("true")', "only sqrt, log, log10, min, max, abs may be called"),
    ("place.real", "attribute is not allowed"),
    ("entries + x", "unknown name 'x'"),
    ("sqrt + 1", "unknown name 'sqrt'"),
    ("'10'", "'10' is not a number"),
    ("True + place", "True is not a number"),
    ("[place]", "list is not allowed"),
    ("lambda: 1", "lambda is not allowed"),
    ("place if place else 1", "ifexp is not allowed"),
    ("100 *", "is not a formula"),
    ("1 + " * 60 + "1", "at most 200"),
])
def test_a_formula_that_is_not_arithmetic_is_refused_when_read(formula: str, words: str) -> None:
    with pytest.raises(PointsError, match="^points: ") as err:
        PointsRule(formula=formula)
    assert words in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("formula, why", [
    ("100 / (place - 1)", "a division by zero"),
    ("log(place - 1)", "not a real number"),
    ("(-8) ** 0.5 + place", "not a real number"),
    ("10 ** place", "too large"),
    ("1e8 * place", "not a number of points"),
    ("min(place)", "too few or too many numbers"),
])
def test_a_formula_without_a_value_for_a_place_says_which_place(formula: str, why: str) -> None:
    rule = PointsRule(formula=formula)
    with pytest.raises(PointsError) as err:
        rule.hundredths(1 if "place - 1" in formula or "min" in formula or "0.5" in formula else 400,
                        entries=400, players=400)
    assert why in str(err.value) and "place=" in str(err.value) and "entries=400" in str(err.value)


@pytest.mark.parametrize("kwargs, words", [
    ({}, "either formula or by_place"),
    ({"formula": "place", "by_place": (1.0,)}, "either formula or by_place"),
    ({"by_place": (10.0, -1.0)}, "-1.0 is not a number of points"),
    ({"by_place": (float("nan"),)}, "nan is not a number of points"),
    ({"by_place": (1.0,), "others": 1e12}, "is not a number of points"),
])
def test_a_rule_must_be_one_formula_or_one_table_of_points(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(PointsError, match=words):
        PointsRule(**kwargs)  # type: ignore[arg-type]
