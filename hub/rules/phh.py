"""Poker Hand History (PHH) files replayed strictly through the engine: an outside check.

Used by `tapis phh` (`cli`), the tests and the benchmark. Consumes a `.phh` text (TOML); emits a
`ReplayResult` with our finishing stacks beside the recorded ones. Decimal amounts (online cash
games) are scaled to integer chips per file and scaled back for output.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from hub.rules.evaluator import _CARDS
from hub.rules.game_file import _BY_PHH, game_for_phh
from hub.rules.games import NLHE, Game
from hub.rules.hand import Hand
from hub.rules.phh_toml import (
    _PLAIN,
    _WANTED,
    _fast_toml,
    _Numbers,
    _numbers,
    _plain_list,
    _quote,
    _slow_toml,
    _Strings,
    _Unusual,
    _whole_lists,
)
from hub.rules.positions import Positions
from hub.rules.records import ActionKind, ActionStatus, PhhError, RulesError, UnknownGame, blank_twin
from hub.rules.rulesets import DEFAULT_RULESET, get_ruleset

Amount = int | Decimal

MAX_PHH_BYTES = 1_000_000  # one hand is a few kB; a bigger file is refused before it is parsed

# op, seat, amount, cards, original text; a player's op is his `ActionKind` and its amount the
# `to` of `Hand.act` (None but for a bet or raise): the replay hands them over as they are.
Step = tuple[str, int, int | None, tuple[str, ...], str]


@dataclass(frozen=True, slots=True)
class PhhHand:
    """A parsed hand (NLHE, PLO, short deck), amounts already scaled to integers (`scale` chips
    per unit)."""

    name: str
    scale: int
    starting_stacks: tuple[int, ...]
    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    min_bet: int
    actions: tuple[str, ...]
    recorded: tuple[Amount, ...] | None
    steps: tuple[Step, ...] = ()
    game: Game = NLHE


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


def _amount(text: str) -> Amount:
    return Decimal(text) if "." in text else int(text)


# PhhHand built as a blank twin and then frozen: a frozen dataclass's __init__ sets its ten fields
# through object.__setattr__, a few µs a hand (`records.action_record` does the same).
_PhhBlank = blank_twin(PhhHand)

# The common shape of a PHH file, read in one pass over its lines (issue #35): each wanted key once,
# at the start of its line, as `key = value`; numbers plain, in lists written `[1, 2.5]`; actions
# quoted the one way, of letters, digits, `?`, `.`, `-` and single spaces. Anything else, the
# broken files included, is read by the general reader (`_fast_toml`, tomllib), as before.
# What an action's text may hold, deleted from the list's bytes in one C pass: what is left must be the
# separators' quotes and commas, each where a separator stands; anything else is something else.
_TAME_BYTES = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789?. -"
_SEPARATOR = b"','"  # what `_TAME_BYTES` leaves of a separator `', '`
_RAISE, _ACCEPTED = ActionKind.RAISE, ActionStatus.ACCEPTED


# Each game's PHH code quoted as a file writes it (`'NT'`) to the game: `game_for_phh` of the code inside.
_QUOTED: dict[str | None, Game] = {f"'{code}'": game for code, game in _BY_PHH.items()}
_QUOTED_VARIANT = _QUOTED.get


def _tame_actions(listed: str) -> tuple[str, ...] | None:
    """`['d dh p1 AsKs', 'p1 f']` as its actions: quoted the one way, of letters, digits, `?`, `.`,
    `-` and spaces; None for anything else."""
    if listed == "[]":
        return ()
    if len(listed) < 4 or listed[:2] != "['" or listed[-2:] != "']":
        return None
    inner = listed[2:-2]
    if not inner.isascii():
        return None
    actions = inner.split("', '")
    # What the allowed characters leave is the separators' quotes and commas, each where one stands, and
    # nothing else (one C pass, no count of each); once every quote is a separator's, two in a row are an
    # empty action's: one C search, not a compare each.
    if inner.encode().translate(None, _TAME_BYTES) != _SEPARATOR * (len(actions) - 1) or "''" in listed:
        return None
    return tuple(actions)


def _common_loads(text: str, name: str) -> PhhHand | None:
    """`loads` of a file of the common shape, the same `PhhHand`; None for any other file."""
    if "\\" in text or "\r" in text:
        return None
    found: dict[str, str] = {}
    wanted = _WANTED
    for line in text.split("\n"):
        key, eq, value = line.partition(" = ")
        if eq:
            if key in wanted:
                if key in found:
                    return None
                found[key] = value
            # A dotted or quoted key, a table's line; or a multi-line string, whose lines could read as
            # keys. Its quotes are looked for in the values not read below, not in the whole text (a search
            # for three quotes is slow where quotes abound): the values read hold none (a variant quoted
            # once, numbers, actions without two quotes in a row), and a comment's are a comment's.
            elif not key.isidentifier() or "'''" in value or '"""' in value:
                return None
        elif line and (line[0] != "#" or "=" in line):  # neither blank nor a plain comment
            return None
    variant = found.get("variant")
    game = _QUOTED_VARIANT(variant)  # 'NT' and the other codes as written, one look-up
    if game is None:
        if variant is None or variant[:1] != "'" or variant[-1:] != "'" or variant.count("'") != 2:
            return None
        try:
            game = game_for_phh(variant[1:-1])
        except UnknownGame:
            return None
    stacks_text, antes_text = found.get("starting_stacks"), found.get("antes")
    blinds_text, finishing_text = found.get("blinds_or_straddles"), found.get("finishing_stacks")
    read_together = None
    if stacks_text is not None and antes_text is not None and blinds_text is not None:
        read_together = _whole_lists((stacks_text, antes_text, blinds_text) if finishing_text is None
                             else (stacks_text, antes_text, blinds_text, finishing_text))
    stacks: list[str] | tuple[int, ...] | None
    antes: list[str] | tuple[int, ...] | None
    blinds: list[str] | tuple[int, ...] | None
    finishing: list[str] | tuple[int, ...] | None
    if read_together is not None:  # most files: every list of whole numbers
        stacks, antes, blinds = read_together[0], read_together[1], read_together[2]
        finishing = [] if finishing_text is None else read_together[3]
    else:
        stacks, antes, blinds = _plain_list(stacks_text), _plain_list(antes_text), _plain_list(blinds_text)
        finishing = [] if finishing_text is None else _plain_list(finishing_text)
    min_bet = found.get("min_bet", "0")
    listed = found.get("actions")
    actions = None if listed is None else _tame_actions(listed)
    if (stacks is None or antes is None or blinds is None or finishing is None or actions is None
            or not (min_bet.isdigit() and min_bet.isascii() or _PLAIN.fullmatch(min_bet))):  # digits: no pattern
        return None
    n = len(stacks)
    if not (len(antes) == len(blinds) == n) or n < 2 or ("finishing_stacks" in found and len(finishing) != n):
        return None
    steps: list[Step] = []
    rescale = False  # a bet not in whole digits: its amount is made once the scale is known
    plain, head_of = _PLAIN_STEPS.get, _HEADS.get
    for action in actions:
        step = plain(action)
        if step is None:
            head, _, tail = action.rpartition(" ")
            known = head_of(head)
            if known is None or not tail:
                return None
            op, seat = known
            if op is _RAISE:
                if tail.isdigit():
                    step = (_RAISE, seat, int(tail), (), action)
                elif _PLAIN.fullmatch(tail):
                    step, rescale = (_RAISE, seat, 0, (), action), True
                else:
                    return None
            elif op == "db":
                size = len(tail)
                cards = (tail,) if size == 2 else (tail[:2], tail[2:4], tail[4:]) if size == 6 else _pairs(tail)
                step = ("db", 0, 0, cards, action)
            else:  # dh, sm: the cards as written
                step = (op, seat, 0, (tail,), action)
        steps.append(step)
    scale = 1
    if rescale or "." in text and (  # no point anywhere: no amount in decimals, one look
            "." in found["starting_stacks"] or "." in found["antes"] or "." in found["blinds_or_straddles"]
            or "." in min_bet):
        bets = [step[4].rpartition(" ")[2] for step in steps if step[0] is _RAISE]
        numbers = [x for x in (*stacks, *antes, *blinds) if type(x) is str] + [min_bet, *bets]  # ints: whole
        scale = 10 ** max((len(x) - x.index(".") - 1 for x in numbers if "." in x), default=0)
        rescale = True
    to_int: Callable[[str | int], int]
    if scale == 1:
        to_int = int
    else:
        def to_int(v: str | int) -> int:  # a whole number read as an int: Decimal(100) is Decimal("100")
            return int(Decimal(v) * scale)
    try:
        if rescale:
            steps = [(_RAISE, step[1], to_int(step[4].rpartition(" ")[2]), (), step[4]) if step[0] is _RAISE
                     else step for step in steps]
        recorded: tuple[Amount, ...] | None = None
        if isinstance(finishing, tuple):  # read as ints
            recorded = finishing
        elif "finishing_stacks" in found:
            recorded = tuple(map(_amount if "." in found["finishing_stacks"] else int, finishing))
        hand = _PhhBlank()  # the slots assigned one by one, in the fields' order, then frozen
        hand.name = name
        hand.scale = scale
        whole = to_int is int  # a list read as ints is then as it stands
        hand.starting_stacks = stacks if whole and type(stacks) is tuple else tuple(map(to_int, stacks))
        hand.antes = antes if whole and type(antes) is tuple else tuple(map(to_int, antes))
        hand.blinds = blinds if whole and type(blinds) is tuple else tuple(map(to_int, blinds))
        hand.min_bet = to_int(min_bet)
        hand.actions = actions
        hand.recorded = recorded
        hand.steps = tuple(steps)
        hand.game = game
    except ArithmeticError:
        return None
    hand.__class__ = PhhHand
    return hand


def loads(text: str, name: str = "<phh>") -> PhhHand:
    hand = _common_loads(text, name)
    return hand if hand is not None else _general_loads(text, name)


def _general_loads(text: str, name: str) -> PhhHand:
    """Any PHH file, the broken ones too: each fault said in one line."""
    try:
        doc = _fast_toml(text)
    except _Unusual:
        doc = _slow_toml(text, name)
    try:
        game = game_for_phh(doc.get("variant"))
    except UnknownGame as err:
        raise PhhError(f"{name}: {err}") from None
    stacks = _numbers(doc, "starting_stacks", name)
    antes = _numbers(doc, "antes", name)
    blinds = _numbers(doc, "blinds_or_straddles", name)
    raw_min = doc.get("min_bet", 0)
    min_bet = _numbers({"min_bet": _Numbers([raw_min]) if isinstance(raw_min, str) and _PLAIN.fullmatch(raw_min)
                        else [raw_min]}, "min_bet", name)[0]
    actions = doc.get("actions")
    if not isinstance(actions, _Strings) and (
            not isinstance(actions, list) or not all(isinstance(a, str) for a in actions)):
        raise PhhError(f"{name}: `actions` must be a list of strings")
    recorded = None
    if doc.get("finishing_stacks") is not None:
        finishing = _numbers(doc, "finishing_stacks", name)
        recorded = tuple(map(_amount if "." in "".join(finishing) else int, finishing))
    numbers = [*stacks, *antes, *blinds, min_bet]
    for a in [a for a in actions if "cbr" in a]:  # the bets' amounts set the scale too
        words = a.split()
        if len(words) >= 2 and words[1] == "cbr":
            if len(words) < 3 or not _PLAIN.fullmatch(words[2]):
                raise PhhError(f"{name}: bad action {_quote(a)}: `cbr` needs a plain amount (p1 cbr 300)")
            numbers.append(words[2])
    digits = 0 if "." not in "".join(numbers) else max(
        (len(x) - x.index(".") - 1 for x in numbers if "." in x), default=0)
    scale = 10**digits
    to_int: Callable[[str], int]
    if scale == 1:
        to_int = int
    else:
        def to_int(v: str) -> int:
            return int(Decimal(v) * scale)

    n = len(stacks)
    if not (len(antes) == len(blinds) == n) or n < 2:
        raise PhhError(f"{name}: stacks, antes and blinds must list the same players (2 or more)")
    if recorded is not None and len(recorded) != n:
        raise PhhError(f"{name}: `finishing_stacks` lists {len(recorded)} players, `starting_stacks` {n}")
    try:
        return PhhHand(name, scale, tuple(map(to_int, stacks)), tuple(map(to_int, antes)),
                       tuple(map(to_int, blinds)), to_int(min_bet), tuple(actions), recorded,
                       _steps(tuple(actions), scale, name), game)
    except ArithmeticError as err:
        raise PhhError(f"{name}: bad amount: {err}") from err


def load(path: str | Path) -> PhhHand:
    p = Path(path)
    try:
        with p.open("rb") as f:
            data = f.read(MAX_PHH_BYTES + 1)
    except OSError as err:
        raise PhhError(f"{p}: cannot read: {err.strerror or err}") from err
    if len(data) > MAX_PHH_BYTES:
        raise PhhError(f"{p}: more than {MAX_PHH_BYTES:,} bytes: not one hand's history")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise PhhError(f"{p}: not a text (UTF-8) file: byte {err.start}") from err
    if "\x00" in text:
        raise PhhError(f"{p}: not a text file (NUL bytes)")
    return loads(text, str(p))


_POSITIONS: dict[tuple[int, int | None, int], Positions] = {}


def _positions(button: int, small_blind: int | None, big_blind: int) -> Positions:
    """`Positions(...)`, one frozen instance per seating shape: a replay builds one per hand."""
    known = _POSITIONS.get((button, small_blind, big_blind))
    if known is None:
        known = _POSITIONS[(button, small_blind, big_blind)] = Positions(button, small_blind, big_blind)
    return known


def build_hand(h: PhhHand, ruleset_id: str = DEFAULT_RULESET) -> Hand:
    """PHH lists players from the small blind to the button; heads-up, player 1 is the big
    blind (and the button posts the small blind). Seat i+1 is player i+1."""
    n = len(h.starting_stacks)
    stacks = dict(enumerate(h.starting_stacks, 1))
    # Antes and blinds are listed by position (small blind first); heads-up the small blind is
    # player 2 (the button), so both lists apply to the players in reverse.
    antes: dict[int, int] = {}
    dead: dict[int, int] = {}
    if any(h.antes) or min(h.blinds) < 0:  # most hands have neither: no seat list to make
        by_position = [2, 1] if n == 2 else list(range(1, n + 1))
        antes = {by_position[i]: a for i, a in enumerate(h.antes) if a > 0}
        dead = {by_position[i]: -b for i, b in enumerate(h.blinds) if b < 0}
    sb, bb = h.blinds[0], h.blinds[1]
    straddles: list[tuple[int, int]] = []
    if n == 2:
        positions = _positions(2, 2, 1)
    elif sb > 0 and bb == 0 and not any(h.blinds[2:]):
        # The first player alone posts, a big blind (no small blind: its seat was empty), and acts last
        # before the flop and first after it, as PokerKit plays [bb, 0, ...] (tapis's own histories).
        positions, sb, bb = _positions(n, None, 1), 0, sb
    else:
        positions = _positions(n, 1 if h.blinds[0] > 0 else None, 2)
        if any(h.blinds[2:]):
            straddles = [(i + 1, b) for i, b in enumerate(h.blinds) if i >= 2 and b > 0]
    # One step (not `Hand.__new__` then `__init__`, a few µs faster in pure Python): a class compiled
    # by mypyc cannot be made blank (benchmarks/compile_engine.sh).
    return Hand(get_ruleset(ruleset_id), stacks=stacks, positions=positions, sb=sb,
                bb=max(bb, h.min_bet), antes=antes, straddles=straddles, dead=dead,
                short_blind_is_full_bet=False, game=h.game)


def _pairs(cards: str) -> tuple[str, ...]:
    if len(cards) == 4:  # hold'em hole cards, most of a replay's calls
        return (cards[:2], cards[2:])
    return tuple([cards[i : i + 2] for i in range(0, len(cards), 2)])


_PLAYER_OPS = {"f": ActionKind.FOLD, "cc": ActionKind.CALL, "cbr": ActionKind.RAISE}


_ACTION = re.compile(
    r"d dh p([0-9]+) (\S+)|d db (\S+)|p([0-9]+) (f|cc|cbr|sm)(?: (\S+))?(?: .*)?"
)


def _plain_steps() -> dict[str, Step]:
    """The lines with neither an amount nor a card: a fold, a call, a hand shown as dealt, hole
    cards dealt face down. They are most of a history and few: looked up whole, not matched."""
    table: dict[str, Step] = {}
    for seat in range(1, 24):
        for op in ("f", "cc", "sm"):
            kind = _PLAYER_OPS.get(op)
            table[f"p{seat} {op}"] = (op, seat, 0, (), f"p{seat} {op}") if kind is None else (
                kind, seat, None, (), f"p{seat} {op}")
        for hole in range(1, 8):
            line = f"d dh p{seat} " + "??" * hole
            table[line] = ("dh", seat, 0, (line[7 + len(str(seat)):],), line)
    return table


_PLAIN_STEPS = _plain_steps()
# What the words before an action's last one say (op, seat), for the reader of the common shape:
# hole cards dealt, the board, a bet or raise, a hand shown.
_HEADS: dict[str, tuple[str, int]] = {"d db": ("db", 0)} | {
    head: (op, seat) for seat in range(1, 24)
    for head, op in ((f"d dh p{seat}", "dh"), (f"p{seat} cbr", ActionKind.RAISE), (f"p{seat} sm", "sm"))}


def _steps(actions: tuple[str, ...], scale: int, name: str) -> tuple[Step, ...]:
    """Actions parsed once: (op, seat, amount, cards, text)."""
    steps: list[Step] = []
    match = _ACTION.fullmatch
    plain = _PLAIN_STEPS.get
    for action in actions:
        step = plain(action)
        if step is not None:
            steps.append(step)
            continue
        m = match(action.strip())
        if m is None:
            raise PhhError(f"{name}: unsupported action {_quote(action)}")
        hole_seat, hole, board, seat, op, arg = m.groups()
        if hole_seat is not None:
            steps.append(("dh", int(hole_seat), 0, (hole,), action))
        elif board is not None:
            steps.append(("db", 0, 0, _pairs(board), action))
        elif op == "cbr":
            if arg is None:
                raise PhhError(f"{name}: bad action {_quote(action)}")
            try:
                amount = int(arg) if scale == 1 else int(Decimal(arg) * scale)
            except (ValueError, ArithmeticError) as err:
                raise PhhError(f"{name}: bad amount in {_quote(action)}") from err
            steps.append((ActionKind.RAISE, int(seat), amount, (), action))
        elif op == "sm":
            steps.append(("sm", int(seat), 0, (arg,) if arg else (), action))
        else:
            steps.append((_PLAYER_OPS[op], int(seat), None, (), action))
    return tuple(steps)


# Hold'em's two hole cards as usually spelt, two different cards ("AsKd"), to the two cards' texts: one look-up
# instead of two slices, whose texts would each be hashed again in the set of cards seen.
_TWO: dict[str | None, tuple[str, str]] = {a + b: (a, b) for a in _CARDS for b in _CARDS if a != b}
_TWO_CARDS = _TWO.get


def _once(h: PhhHand, seen: set[str], action: str, cards: tuple[str, ...]) -> None:
    """The cards of `action` into `seen`, each once and of the game's deck (one deck: a card dealt twice
    makes the whole history wrong)."""
    removed = h.game.excluded_ranks
    for card in cards:
        if "?" in card:
            continue
        if card[:1] in removed:
            raise PhhError(f"{h.name}: {_quote(action)}: {card} is not in the {h.game.deck}-card deck")
        if card in seen:
            raise PhhError(f"{h.name}: {_quote(action)}: {card} was already dealt (one deck, each card once)")
        seen.add(card)


def replay_hand(h: PhhHand, ruleset_id: str = DEFAULT_RULESET) -> tuple[int, ...]:
    """Finishing stacks in scaled chips; raises `PhhError` on the first action the engine
    does not expect or does not accept as it stands."""
    hand = build_hand(h, ruleset_id)
    name = h.name
    dealt: dict[int, str] = {}
    shown: dict[int, str | None] = {}
    accepted = _ACCEPTED
    seen: set[str] = set()  # one deck: a card dealt twice makes the whole history wrong
    removed = h.game.excluded_ranks
    hole_chars = 2 * h.game.hole_cards
    face_down = "?" * hole_chars
    two_known = hole_chars == 4 and not removed  # hold'em's two cards, checked here in line
    steps = h.steps
    i, n = 0, len(steps)
    while i < n:
        op, seat, amount, cards, action = steps[i]
        i += 1
        try:
            if op == "dh":  # hole cards first: the step this loop visits most (a run of actions is one visit)
                dealt_text = cards[0]
                if two_known and (pair := _TWO_CARDS(dealt_text)) is not None:  # two cards as usually spelt
                    first, second = pair
                    if first in seen or second in seen:
                        _once(h, seen, action, pair)  # says which card, as it would have
                    seen.add(first)
                    seen.add(second)
                elif len(dealt_text) != hole_chars:
                    raise PhhError(f"{name}: {_quote(action)}: {h.game.name_en} deals {h.game.hole_cards} "
                                   "hole cards")
                elif dealt_text == face_down:  # face down: no card to check
                    pass
                elif two_known and "?" not in dealt_text:
                    first, second = dealt_text[:2], dealt_text[2:]
                    if first in seen or second in seen or first == second:
                        _once(h, seen, action, (first, second))  # says which card, as it would have
                    seen.add(first)
                    seen.add(second)
                else:
                    _once(h, seen, action, _pairs(dealt_text))
                dealt[seat] = dealt_text
            elif type(op) is ActionKind:  # a run of players' actions: one visit of this loop
                played = hand.play_in_turn(steps, i - 1)  # this one and those after it, in turn
                if played >= i:
                    i = played
                    continue
                # Not played: out of turn, or to be judged, `act` says how (the general way).
                if seat != hand.to_act:
                    raise PhhError(f"{name}: {_quote(action)}: the engine expects p{hand.to_act} "
                                   "to act")
                rec = hand.act(seat, op, amount)
                if rec.status is not accepted:
                    raise PhhError(f"{name}: {_quote(action)} {rec.status}: {rec.reason}")
            elif op == "db":
                if len(cards) == 1 and not removed and "?" not in cards[0] and cards[0] not in seen:
                    seen.add(cards[0])  # `once` in line: the turn and the river, a card not seen yet
                elif len(cards) == 3 and not removed and not (  # the flop, the same: three cards not seen, nor twice
                        "?" in (first := cards[0]) or "?" in (second := cards[1]) or "?" in (third := cards[2])
                        or first in seen or second in seen or third in seen or first == second or first == third
                        or second == third):
                    seen.update(cards)
                else:  # face down, a card dealt before (said by name), short deck's ranks
                    _once(h, seen, action, cards)
                hand.deal_board(*cards)
            elif op == "sm":
                c = cards[0] if cards else dealt.get(seat, "????")
                shown[seat] = None if c in ("-", "") or "?" in c else c
            else:
                raise PhhError(f"{name}: {_quote(action)}: unsupported step {op!r}")
        except PhhError:
            raise
        except RulesError as err:
            raise PhhError(f"{name}: {_quote(action)}: {err}") from err
    if hand.result is None:
        hole: dict[int, tuple[str, ...] | None] = {}
        for s in hand.live:
            held = shown.get(s, dealt.get(s))
            pair = _TWO_CARDS(held)  # hold'em's two cards as usually spelt: their texts, no slices
            hole[s] = (pair if pair is not None else None if held is None or "?" in held
                       else (held[:2], held[2:]) if len(held) == 4 else _pairs(held))
        try:
            hand.showdown(hole)
        except RulesError as err:
            raise PhhError(f"{name}: the actions end before the hand does: {err}") from err
    assert hand.result is not None
    return tuple(map(hand.result.stacks.__getitem__, range(1, len(h.starting_stacks) + 1)))  # seats 1..n, in C


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
