"""Championship points for a place (points de championnat, brest-2011 IX.2, cpt87 1.2): pure.

A club writes its rule in the season file, either as a formula of `place`, `entries` and `players`
(`100 * sqrt(entries) / sqrt(place)`) or as a table of points by place. Points are kept in hundredths
(brest IX.2: "calculés au centième près"). A formula is checked once, when the file is read: numbers, the
three names, + - * / ** and sqrt, log, log10, min, max, abs, nothing else (a season file is text a club
edits, never code that runs).
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass

NAMES = ("place", "entries", "players")
FUNCTIONS: Mapping[str, Callable[..., float]] = {
    "sqrt": math.sqrt, "log": math.log, "log10": math.log10, "min": min, "max": max, "abs": abs}
OPERATORS: Mapping[type, Callable[[float, float], float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Pow: operator.pow}
MAX_FORMULA = 200  # characters: a club's formula is one line
MAX_POINTS = 10**9  # hundredths: a formula that runs away is refused, never stored


class PointsError(ValueError):
    """A formula or table that cannot give points; the message names what is wrong, in one line."""


@dataclass(frozen=True, slots=True)
class PointsRule:
    """`formula` (checked) or `by_place` (points of 1st, 2nd... place; `others` beyond the table);
    `per_knockout`: points for each player knocked out (a bounty, la prime), shared by those who split him."""

    formula: str | None = None
    by_place: tuple[float, ...] = ()
    others: float = 0.0
    per_knockout: float = 0.0

    def __post_init__(self) -> None:
        if (self.formula is None) == (not self.by_place):
            raise PointsError("points: give either formula or by_place, not both or neither")
        if self.formula is not None:
            _parse(self.formula)
        for value in (*self.by_place, self.others, self.per_knockout):
            if not (math.isfinite(value) and 0 <= value * 100 <= MAX_POINTS):
                raise PointsError(f"points: {value!r} is not a number of points from 0 to {MAX_POINTS // 100:,}")

    def hundredths(self, place: int, *, entries: int, players: int) -> int:
        """The points of one place, in hundredths, rounded half up; never below 0."""
        if self.formula is None:
            value = self.by_place[place - 1] if place <= len(self.by_place) else self.others
        else:
            value = evaluate(self.formula, {"place": place, "entries": entries, "players": players})
        return max(0, round(value * 100 + 1e-9))

    def shared(self, place: int, tied: int, *, entries: int, players: int) -> int:
        """Players ex aequo share the points of the places they hold together (cdc 2.10: tied players
        share places), each the mean of those places' points, in hundredths."""
        total = sum(self.hundredths(p, entries=entries, players=players) for p in range(place, place + tied))
        return round(total / tied)


    def bounty(self, knockouts: int) -> int:
        """The points of `knockouts` hundredths of players knocked out (a shared one counts a part), in
        hundredths, rounded half up."""
        return round(self.per_knockout * knockouts + 1e-9)


def evaluate(formula: str, names: Mapping[str, int]) -> float:
    """The formula's value for these names; PointsError in one line when it has none (log(0), 1/0...)."""
    try:
        value = _value(_parse(formula).body, names)
    except OverflowError:
        why = "too large"
    except ZeroDivisionError:
        why = "a division by zero"
    except ValueError:  # log(0), sqrt(-1), (-8) ** 0.5
        why = "not a real number"
    except TypeError:  # min(1), sqrt(1, 2)
        why = "a function given too few or too many numbers"
    else:
        why = ""
    if why:
        raise PointsError(f"points: formula {formula!r} has no value for "
                          f"{', '.join(f'{k}={v}' for k, v in names.items())} ({why})")
    if not math.isfinite(value) or abs(value) * 100 > MAX_POINTS:
        raise PointsError(f"points: formula {formula!r} gives {value:g} for "
                          f"{', '.join(f'{k}={v}' for k, v in names.items())}: not a number of points")
    return value


def _parse(formula: str) -> ast.Expression:
    if len(formula) > MAX_FORMULA:
        raise PointsError(f"points: the formula is {len(formula)} characters long; at most {MAX_FORMULA}")
    try:
        tree = ast.parse(formula.strip(), mode="eval")
    except SyntaxError:
        raise PointsError(f"points: formula {formula!r} is not a formula (numbers, {', '.join(NAMES)}, "
                          f"+ - * / ** and {', '.join(FUNCTIONS)})") from None
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise PointsError(f"points: formula {formula!r}: {type(node).__name__.lower()} is not allowed "
                              f"(numbers, {', '.join(NAMES)}, + - * / ** and {', '.join(FUNCTIONS)})")
        if isinstance(node, ast.Name) and node.id not in (FUNCTIONS if id(node) in called else NAMES):
            raise PointsError(f"points: formula {formula!r}: unknown name {node.id!r} "
                              f"(known: {', '.join(NAMES)}, and {', '.join(FUNCTIONS)} called with arguments)")
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS
                                               and node.args and not node.keywords):
            raise PointsError(f"points: formula {formula!r}: only {', '.join(FUNCTIONS)} may be called")
        if isinstance(node, ast.Constant) and (isinstance(node.value, bool)
                                               or not isinstance(node.value, (int, float))):
            raise PointsError(f"points: formula {formula!r}: {node.value!r} is not a number")
    return tree


_ALLOWED = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Call, ast.Load, ast.USub,
            ast.UAdd, *OPERATORS)


def _value(node: ast.expr, names: Mapping[str, int]) -> float:
    if isinstance(node, ast.Constant):
        assert isinstance(node.value, (int, float))  # `_parse` let no other constant through
        return float(node.value)
    if isinstance(node, ast.Name):
        return float(names[node.id])
    if isinstance(node, ast.UnaryOp):
        inner = _value(node.operand, names)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp):
        value = OPERATORS[type(node.op)](_value(node.left, names), _value(node.right, names))
        if isinstance(value, complex):  # a negative number to a fractional power
            raise ValueError("complex")
        return float(value)
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    return float(FUNCTIONS[node.func.id](*(_value(a, names) for a in node.args)))
