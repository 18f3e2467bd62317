"""Poker Hand History (PHH) files replayed strictly through the engine: an outside check.

Used by `tapis phh` (`cli`), the tests and the benchmark. Consumes a `.phh` text (TOML); emits a
`ReplayResult` with our finishing stacks beside the recorded ones. Decimal amounts (online cash
games) are scaled to integer chips per file and scaled back for output.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from hub.rules.hand import Hand
from hub.rules.positions import Positions
from hub.rules.records import ActionKind, ActionStatus, PhhError, RulesError
from hub.rules.rulesets import DEFAULT_RULESET, get_ruleset

Amount = int | Decimal


@dataclass(frozen=True, slots=True)
class PhhHand:
    """A parsed NLHE hand, amounts already scaled to integers (`scale` chips per unit)."""

    name: str
    scale: int
    starting_stacks: tuple[int, ...]
    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    min_bet: int
    actions: tuple[str, ...]
    recorded: tuple[Amount, ...] | None


@dataclass(frozen=True, slots=True)
class ReplayResult:
    file: str
    finishing_stacks: tuple[Amount, ...] | None
    recorded: tuple[Amount, ...] | None
    match: bool | None  # None: the file records no finishing stacks to compare with
    error: str | None = None

    def to_dict(self) -> dict[str, object]:
        def num(v: Amount) -> int | float:
            return v if isinstance(v, int) else (int(v) if v == v.to_integral() else float(v))

        return {
            "file": self.file,
            "finishing_stacks": None if self.finishing_stacks is None
            else [num(v) for v in self.finishing_stacks],
            "recorded": None if self.recorded is None else [num(v) for v in self.recorded],
            "match": self.match,
            **({"error": self.error} if self.error else {}),
        }


def _decimals(v: Amount) -> int:
    if isinstance(v, int):
        return 0
    exp = v.normalize().as_tuple().exponent
    return -exp if isinstance(exp, int) and exp < 0 else 0


def _amounts(doc: dict[str, object], key: str, name: str) -> list[Amount]:
    raw = doc.get(key)
    if not isinstance(raw, list) or not all(isinstance(v, (int, Decimal)) for v in raw):
        raise PhhError(f"{name}: `{key}` must be a list of numbers")
    return list(raw)


def loads(text: str, name: str = "<phh>") -> PhhHand:
    try:
        doc = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as err:
        raise PhhError(f"{name}: not a PHH (TOML) file: {err}") from err
    if doc.get("variant") != "NT":
        raise PhhError(f"{name}: variant {doc.get('variant')!r} is not no-limit hold'em ('NT')")
    stacks = _amounts(doc, "starting_stacks", name)
    antes = _amounts(doc, "antes", name)
    blinds = _amounts(doc, "blinds_or_straddles", name)
    min_bet = doc.get("min_bet", 0)
    actions = doc.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PhhError(f"{name}: `actions` must be a list of strings")
    if not isinstance(min_bet, (int, Decimal)):
        raise PhhError(f"{name}: `min_bet` must be a number")
    recorded_raw = doc.get("finishing_stacks")
    recorded = tuple(_amounts(doc, "finishing_stacks", name)) if recorded_raw is not None else None
    wagers = [Decimal(a.split()[2]) for a in actions if " cbr " in a]
    digits = max(_decimals(v) for v in (*stacks, *antes, *blinds, min_bet, *wagers))
    scale = 10**digits

    def to_int(v: Amount) -> int:
        return int(v * scale)

    n = len(stacks)
    if not (len(antes) == len(blinds) == n) or n < 2:
        raise PhhError(f"{name}: stacks, antes and blinds must list the same players (2 or more)")
    return PhhHand(name, scale, tuple(map(to_int, stacks)), tuple(map(to_int, antes)),
                   tuple(map(to_int, blinds)), to_int(min_bet), tuple(actions), recorded)


def load(path: str | Path) -> PhhHand:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise PhhError(f"{p}: cannot read: {err}") from err
    return loads(text, str(p))


def build_hand(h: PhhHand, ruleset_id: str = DEFAULT_RULESET) -> Hand:
    """PHH lists players from the small blind to the button; heads-up, player 1 is the big
    blind (and the button posts the small blind). Seat i+1 is player i+1."""
    n = len(h.starting_stacks)
    stacks = {i + 1: s for i, s in enumerate(h.starting_stacks)}
    # Antes and blinds are listed by position (small blind first); heads-up the small blind is
    # player 2 (the button), so both lists apply to the players in reverse.
    by_position = [2, 1] if n == 2 else list(range(1, n + 1))
    antes = {by_position[i]: a for i, a in enumerate(h.antes) if a > 0}
    dead = {by_position[i]: -b for i, b in enumerate(h.blinds) if b < 0}  # negative: dead blind
    if n == 2:
        positions = Positions(button=2, small_blind=2, big_blind=1)
        straddles: list[tuple[int, int]] = []
    else:
        positions = Positions(button=n, small_blind=1 if h.blinds[0] > 0 else None, big_blind=2)
        straddles = [(i + 1, b) for i, b in enumerate(h.blinds) if i >= 2 and b > 0]
    sb, bb = h.blinds[0], h.blinds[1]
    return Hand(get_ruleset(ruleset_id), stacks=stacks, positions=positions, sb=sb,
                bb=max(bb, h.min_bet), antes=antes, straddles=straddles, dead=dead,
                short_blind_is_full_bet=False)


def _seat(token: str, name: str, action: str) -> int:
    if len(token) < 2 or token[0] != "p" or not token[1:].isdigit():
        raise PhhError(f"{name}: bad actor in {action!r}")
    return int(token[1:])


def replay_hand(h: PhhHand, ruleset_id: str = DEFAULT_RULESET) -> tuple[int, ...]:
    """Finishing stacks in scaled chips; raises `PhhError` on the first action the engine
    does not expect or does not accept as it stands."""
    hand = build_hand(h, ruleset_id)
    name = h.name
    dealt: dict[int, str] = {}
    shown: dict[int, str | None] = {}
    for action in h.actions:
        parts = action.split()
        try:
            if parts[0] == "d":
                if parts[1] == "dh":
                    dealt[_seat(parts[2], name, action)] = parts[3]
                elif parts[1] == "db":
                    cards = parts[2]
                    hand.deal_board(*(cards[i : i + 2] for i in range(0, len(cards), 2)))
                else:
                    raise PhhError(f"{name}: unsupported dealing action {action!r}")
                continue
            seat = _seat(parts[0], name, action)
            op = parts[1]
            if op == "sm":
                cards = parts[2] if len(parts) > 2 else dealt.get(seat, "????")
                shown[seat] = None if cards in ("-", "") or "?" in cards else cards
                continue
            if seat != hand.to_act:
                raise PhhError(f"{name}: {action!r}: the engine expects p{hand.to_act} to act")
            if op == "f":
                rec = hand.act(seat, ActionKind.FOLD)
            elif op == "cc":
                rec = hand.act(seat, ActionKind.CALL)
            elif op == "cbr":
                rec = hand.act(seat, ActionKind.RAISE, int(Decimal(parts[2]) * h.scale))
            else:
                raise PhhError(f"{name}: unsupported action {action!r}")
            if rec.status is not ActionStatus.ACCEPTED:
                raise PhhError(f"{name}: {action!r} {rec.status}: {rec.reason}")
        except PhhError:
            raise
        except (RulesError, IndexError, ValueError) as err:
            raise PhhError(f"{name}: {action!r}: {err}") from err
    if hand.result is None:
        try:
            cards = {s: shown.get(s, dealt.get(s)) for s in hand.live}
            cards = {s: (None if c is None or "?" in c else c) for s, c in cards.items()}
            hand.showdown({s: tuple(c[i : i + 2] for i in range(0, len(c), 2)) if c else None
                           for s, c in cards.items()})
        except RulesError as err:
            raise PhhError(f"{name}: the actions end before the hand does: {err}") from err
    assert hand.result is not None
    return tuple(hand.result.stacks[i + 1] for i in range(len(h.starting_stacks)))


def _unscale(values: tuple[int, ...], scale: int) -> tuple[Amount, ...]:
    if scale == 1:
        return values
    return tuple(Decimal(v) / scale for v in values)


def replay_file(path: str | Path, ruleset_id: str = DEFAULT_RULESET) -> ReplayResult:
    name = str(path)
    try:
        h = load(path)
        stacks = _unscale(replay_hand(h, ruleset_id), h.scale)
    except PhhError as err:
        return ReplayResult(name, None, None, False, str(err))
    match = None if h.recorded is None else all(
        Decimal(a) == Decimal(b) for a, b in zip(stacks, h.recorded, strict=True))
    return ReplayResult(name, stacks, h.recorded, match)
