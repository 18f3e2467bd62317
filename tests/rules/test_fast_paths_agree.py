"""The engine's shortcuts of issue #35 against the general way they stand in for: the common-shape
PHH reader against the general reader, `Hand.play_in_turn` against `act` taking each action the
general way, the one-pot shortcut against the pot layers, the frozen twins against the records."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

import hub.rules.phh as phh_module
import hub.rules.phh_toml as phh_toml
from hub.rules import ActionKind, ActionRecord, ActionStatus, Hand, HandResult, Level, PotResult, RulesError, start_hand
from hub.rules.evaluator import RANKS, SUITS
from hub.rules.game_file import get_game
from hub.rules.phh import PhhHand, _common_loads, _general_loads, loads, replay_hand
from hub.rules.positions import Positions
from hub.rules.pots import build_pots
from hub.rules.records import Decision, FaultKind, HandEndKind, PhhError, Ruling, hand_result, pot_result
from hub.rules.rulesets import get_ruleset

PHH = Path(__file__).resolve().parents[3] / "shared" / "phh"
if not PHH.is_dir():
    PHH = Path("/work/shared/phh")
SHARED = sorted(PHH.glob("*/*.phh"))
GAMES = sorted((Path(__file__).resolve().parent / "phh_games").glob("*.phh"))
DECK = [r + s for r in RANKS for s in SUITS]


def variants(base: str) -> list[str]:
    """Shapes near the common one: each either read by the common reader or handed over."""
    return [
        base.replace("min_bet = 100", "min_bet = 100  # the big blind"),
        base.replace("min_bet = 100", "min_bet = 1_00"),
        base.replace("min_bet = 100", "min_bet = +100"),
        base.replace("min_bet = 100", "min_bet = 100.5"),
        base.replace("min_bet = 100\n", ""),
        base.replace("antes = [0, 0, 0, 0, 0, 0]", "antes = [\n  0, 0, 0,\n  0, 0, 0,\n]"),
        base.replace("antes = [0, 0, 0, 0, 0, 0]", "antes = [0,0,0,0,0,0]"),
        base.replace("antes = [0, 0, 0, 0, 0, 0]", "antes = [1.25, 0, 0, 0, 0, 0]"),
        base.replace("blinds_or_straddles = [50, 100,", "blinds_or_straddles = [-50, 100,"),
        base.replace("variant = 'NT'", 'variant = "NT"'),
        base.replace("variant = 'NT'", "variant = 'NT' # hold'em"),
        base.replace("variant = 'NT'", "variant = 'XX'"),
        base.replace("variant = 'NT'\n", ""),
        base.replace("'p6 cbr 225'", "'p6 cbr 2.25'"),
        base.replace("'p6 cbr 225'", "'p6 cbr +225'"),
        base.replace("'p6 cbr 225'", "'p6 cbr 2x5'"),
        base.replace("'p6 cbr 225'", "'p6 cbr'"),
        base.replace("'p6 cbr 225'", "'p6  cbr 225'"),
        base.replace("'p6 cbr 225'", "'p6 cbr 225 '"),
        base.replace("'p6 cbr 225'", "'p24 cbr 225'"),
        base.replace("'p3 f'", "'p3 f now'"),
        base.replace("'d db Ac'", "'d db AcAd'"),
        base.replace("'d db Ac'", "'d  db Ac'"),
        base.replace("'p6 sm QsQh'", "'p6 sm -'"),
        base.replace("actions = [", "actions = [\n"),
        base.replace("actions = [", "actions = ['x' "),
        base.replace("actions = [", "actions = ['', "),
        base.replace("actions = [", "actions = ['p1 f,x', "),
        base.replace("actions = [", "actions = ['p1 f' '', "),
        base.replace("antes = [0, 0, 0, 0, 0, 0]", "antes = [0, , 0, 0, 0, 0]"),
        base.replace("antes = [0, 0, 0, 0, 0, 0]", "antes = [0, 0, 0, 0, 0, \u0663]"),
        base.replace("antes = [0, 0, 0, 0, 0, 0]", "antes = [0, 0, 0, 0, 0, 0, ]"),
        base.replace("antes = [0, 0, 0, 0, 0, 0]", "antes = []"),
        base.replace("antes = [0, 0, 0, 0, 0, 0]", "antes = [0, 0, 0, 0, 0, -0]"),
        base.replace("finishing_stacks = [9950, 20050, 10000, 10000, 10000, 0]", "finishing_stacks = [1, 2]"),
        base.replace("finishing_stacks = [9950, 20050, 10000, 10000, 10000, 0]", ""),
        base.replace("finishing_stacks = [9950, 20050,", "finishing_stacks = [9950.5, 20050,"),
        base.replace("starting_stacks = [10000, 10000, 10000, 10000, 10000, 10000]", "starting_stacks = [1, 2]"),
        base + "\n[extra]\nnote = 1\n",
        base + "\n\"quoted\" = 1\n",
        base + "\nmin_bet = 200\n",
        base + "\nplayers.first = 'x'\n",
        base + "\n# a comment = with an equals sign\n",
        base + "\n  \n",
        # Multi-line strings whose lines read as keys (a finishing_stacks line where the file has none).
        *(base.replace("finishing_stacks = [9950, 20050, 10000, 10000, 10000, 0]", "")
          + f"\nnote = {q}\nfinishing_stacks = [1, 2, 3, 4, 5, 6]\nend = {q}\n" for q in ("'''", '"""')),
        base + "\n# a comment's '''quotes''' and \"\"\"quotes\"\"\"\n",
        base.replace("\n", "\r\n"),
    ]


@pytest.mark.skipif(not SHARED, reason="shared PHH data set not found")
def test_the_common_reader_reads_what_the_general_reader_reads() -> None:
    base = (PHH / "pluribus" / "100b_75.phh").read_text()
    texts = [(str(p), p.read_text()) for p in SHARED + GAMES] + [(f"v{i}", t) for i, t in enumerate(variants(base))]
    handed_over = []
    for name, text in texts:
        common = _common_loads(text, name)
        try:
            general: PhhHand | str = _general_loads(text, name)
        except PhhError as err:
            general = str(err)
        if common is None:
            handed_over.append(name)
            continue
        assert type(common) is PhhHand, name
        assert common == general and repr(common) == repr(general), name
    # The common shape is the files' shape: all of them but the hand-written one are read the short way.
    assert [n for n in handed_over if not n.startswith("v")] == [str(PHH / "historical" / "dwan-ivey-2009.phh")]
    assert 0 < sum(n.startswith("v") for n in handed_over) < len(variants(base))



def state(hand: Hand) -> dict[str, object]:
    """Every attribute of the hand (its slots: `Hand` has no instance dict), its log as read: the records
    `play_in_turn` keeps unwritten until then made first."""
    return {"log": list(hand.log)} | {k: getattr(hand, k) for k in Hand.__slots__ if k != "_unwritten"}


class _GeneralWay(Hand):
    """A `Hand` whose `play_in_turn` takes nothing (the same slots: a hand's class can be changed)."""

    __slots__ = ()

    def play_in_turn(self, steps: object, i: int = 0) -> int:
        return i


def general_way(hand: Hand) -> Hand:
    """The hand with `play_in_turn` taking nothing: `act` applies each action through `_apply`."""
    hand.__class__ = _GeneralWay
    return hand


def random_request(rng: random.Random, hand: Hand) -> tuple[int, ActionKind, int | None]:
    seat = hand.to_act
    assert seat is not None
    if rng.random() < 0.05:  # out of turn now and then: held, and the runs after it wait for it
        seat = rng.choice(sorted(hand.live))
    own, stack, top = hand.bet[seat], hand.stack[seat], hand.max_bet
    all_in, min_to = own + stack, hand.min_raise_to()
    r = rng.random()
    if r < 0.2:
        return seat, ActionKind.FOLD, None
    if r < 0.5:
        return seat, rng.choice((ActionKind.CALL, ActionKind.CHECK)), None
    if r < 0.55:
        return seat, ActionKind.ALLIN, None
    if r < 0.6:
        return seat, ActionKind.CALL, top
    to = rng.choice((min_to, all_in, all_in + 1, top, own, max(top + 1, min_to - 1),
                     rng.randint(min(min_to, all_in), max(min_to, all_in)), (top + min_to) // 2))
    return seat, rng.choice((ActionKind.RAISE, ActionKind.BET)), to


@pytest.mark.parametrize("seed", range(6))
def test_play_in_turn_leaves_what_act_the_general_way_leaves(seed: int) -> None:
    rng = random.Random(seed)
    rulesets = ("cdc-2013", "pcpm", "pouques-2020", "brest-2011", "cpt87")
    for _ in range(150):
        n = rng.randint(2, 9)
        bb = rng.choice((100, 200))
        stacks = {s: rng.choice((bb // 2, bb, bb * 3, bb * 10, bb * 40, bb * 100)) + bb for s in range(1, n + 1)}
        level = Level(bb // 2, bb, rng.choice((0, 0, bb // 4)), rng.random() < 0.2)
        game = get_game(rng.choice(("nlhe", "nlhe", "plo")))
        ruleset, button = rng.choice(rulesets), rng.randint(1, n)
        fast = start_hand(ruleset, level, button, stacks, game=game)
        slow = general_way(start_hand(ruleset, level, button, stacks, game=game))
        deck = DECK[:]
        rng.shuffle(deck)
        while fast.result is None:
            assert state(fast) == state(slow)
            if fast.to_act is not None:
                request = random_request(rng, fast)
                assert fast.act(*request) == slow.act(*request)
            elif len(fast.board) < 5:
                cards = [deck.pop() for _ in range(3 if not fast.board else 1)]
                assert fast.deal_board(*cards) == slow.deal_board(*cards)
            else:
                fast.showdown({})
                slow.showdown({})
        assert state(fast) == state(slow)


def _after_a_run(hand: Hand, writer: str) -> None:
    if writer == "rejected":
        hand.act(2, ActionKind.CHECK)  # the small blind facing the big blind: cannot_check
    elif writer == "held":
        hand.act(3, ActionKind.CHECK)  # the big blind before the small blind: out of turn, held
    elif writer == "judged":
        hand.act(2, ActionKind.RAISE, 150)  # short of the minimum: corrected
    elif writer == "killed":
        hand.kill_hand(2, Ruling(Decision.HAND_DEAD, "cdc-2013 4.5", 2, FaultKind.TIME_EXPIRED))
    else:  # Time called and run out
        hand.call_time(2, now=0.0)
        hand.tick(now=1_000.0)


@pytest.mark.parametrize("writer", ["rejected", "held", "judged", "killed", "time"])
def test_records_a_run_keeps_unwritten_come_before_what_is_written_next(writer: str) -> None:
    """`play_in_turn` writes its records when the log is read: whatever else writes to the log next (a
    refusal, a held action, a judged one, a ruling) comes after them, as when each action went through `act`."""
    stacks = {1: 1_000, 2: 1_000, 3: 1_000, 4: 1_000}
    fast = start_hand("cdc-2013", Level(50, 100), 1, stacks)
    slow = general_way(start_hand("cdc-2013", Level(50, 100), 1, stacks))
    assert fast.play_in_turn([(ActionKind.CALL, 4, None, (), ""), (ActionKind.FOLD, 1, None, (), "")]) == 2
    slow.act(4, ActionKind.CALL)
    slow.act(1, ActionKind.FOLD)
    _after_a_run(fast, writer)
    _after_a_run(slow, writer)
    assert fast.log == slow.log and len(fast.log) > 2
    assert state(fast) == state(slow)


@pytest.mark.skipif(not SHARED, reason="shared PHH data set not found")
def test_a_replay_by_runs_is_the_replay_one_action_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[Hand] = []
    build = phh_module.build_hand

    def keep(h: PhhHand, *rest: str) -> Hand:
        built.append(build(h, *rest))
        return built[-1]

    monkeypatch.setattr(phh_module, "build_hand", keep)
    by_runs = Hand.play_in_turn

    def replay(text: str, name: str, one_by_one: bool) -> tuple[object, object]:
        built.clear()
        if one_by_one:  # each action through `act`, the general way
            monkeypatch.setattr(Hand, "play_in_turn", lambda self, steps, i=0: i)
        try:
            result: object = replay_hand(loads(text, name))
        except RulesError as err:
            result = str(err)
        monkeypatch.setattr(Hand, "play_in_turn", by_runs)
        return result, [state(h) for h in built]

    for path in SHARED:
        text = path.read_text()
        assert replay(text, path.name, False) == replay(text, path.name, True), path.name


def test_the_one_pot_shortcut_gives_the_layers() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        seats = list(range(1, rng.randint(2, 9) + 1))
        level = rng.choice((100, 250))
        contributed = {s: rng.choice((0, level, level, level, rng.randint(1, 400))) for s in seats}
        live = [s for s in seats if rng.random() < 0.7] or seats[:1]
        # {0: 0}: a dead-money table with nothing in it, which the shortcut leaves to the general way.
        assert build_pots(contributed, live) == build_pots(contributed, live, {0: 0})


def test_the_frozen_twins_are_the_records() -> None:
    pot, plain = pot_result(300, (1, 2), (2,), ((2, 300),)), PotResult(300, (1, 2), (2,), ((2, 300),))
    assert type(pot) is PotResult and pot == plain and hash(pot) == hash(plain) and repr(pot) == repr(plain)
    stacks, returned = {1: 0, 2: 600}, {1: 50}
    result = hand_result(HandEndKind.SHOWDOWN, (pot,), stacks, returned, (2, 1), "cdc-2013 11.8")
    plain_result = HandResult(HandEndKind.SHOWDOWN, (pot,), stacks, returned, (2, 1), "cdc-2013 11.8")
    assert type(result) is HandResult and result == plain_result and repr(result) == repr(plain_result)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.article = ""  # type: ignore[misc]


def test_a_record_assigned_slot_by_slot_is_the_record() -> None:
    """`action_record` and `play_in_turn` fill a blank twin's slots one by one: each field in its place."""
    from hub.rules.records import Decision, Ruling, Street, action_record

    ruling = Ruling(Decision.TREATED_AS_CALL, "cdc-2013 10.9", 4)
    fields = (4, ActionKind.RAISE, 700, ActionStatus.CORRECTED, ActionKind.CALL, 300, 250, "short", ruling,
              True, Street.TURN)
    fast, plain = action_record(*fields), ActionRecord(*fields)
    assert type(fast) is ActionRecord and fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
    assert [getattr(fast, f.name) for f in dataclasses.fields(ActionRecord)] == list(fields)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.to = 0  # type: ignore[misc]


def test_the_tame_actions_check_is_the_pattern_it_stands_for() -> None:
    """`_tame_actions` deletes the allowed bytes instead of matching this pattern: the same lists pass."""
    import re

    pattern = re.compile(r"\['[A-Za-z0-9?. ',-]*'\]")

    def by_pattern(listed: str) -> tuple[str, ...] | None:
        if listed == "[]":
            return ()
        if not pattern.fullmatch(listed):
            return None
        actions = listed[2:-2].split("', '")
        if "" in actions or listed.count("'") != 2 * len(actions) or listed.count(",") != len(actions) - 1:
            return None
        return tuple(actions)

    rng = random.Random(35)
    alphabet = "pdhcbrfsm 0123456789?.'[],-_#\"=\t\né♠AKQJTs"
    lists = ["[]", "[']", "['']", "['p1 f']", "['p1 f', 'p2 cc']", "['p1 f','p2 cc']", "['d dh p1 ????']"]
    for _ in range(20000):
        body = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        lists.append(rng.choice(("['{}']", "[{}]", "['{}'", "{}", "['p1 f', '{}']")).format(body))
    assert [phh_module._tame_actions(x) for x in lists] == [by_pattern(x) for x in lists]
    assert sum(by_pattern(x) is not None for x in lists) > 1000  # both ways taken


def test_get_ruleset_is_the_rulebooks_ruleset_in_one_look_up() -> None:
    """`get_ruleset` reads the rulebooks' table itself: the `RULESETS` mapping's answer, a club's file too."""
    import hub.rulebooks as rb
    from hub.rules.records import UnknownRuleset
    from hub.rules.rulesets import RULESETS, get_ruleset

    rb.register_file(Path(__file__).resolve().parents[1] / "rulebooks" / "club-bords-de-loire.toml")
    assert "pcbl-2026" in rb.known()
    for rid in rb.known():
        assert get_ruleset(rid) is RULESETS[rid] is rb.get(rid).ruleset
    with pytest.raises(UnknownRuleset, match=r"^.unknown ruleset 'nope' \(known: cdc-2013, brest-2011, "):
        get_ruleset("nope")


def test_the_seating_zero_bets_are_copied_never_changed() -> None:
    """Each hand copies its seating's zero bets (`turn_order`'s third part): one hand's chips never
    reach the next hand's bets through the shared template."""
    first = start_hand("cdc-2013", Level(50, 100), 1, {1: 5_000, 2: 5_000, 3: 5_000})
    first.act(1, ActionKind.RAISE, 400)
    first.act(2, ActionKind.CALL)
    first.act(3, ActionKind.CALL)
    first.deal_board("2c", "7d", "9h")
    assert first.act(2, ActionKind.BET, 300).applied is ActionKind.BET and first.bet[2] == 300
    second = start_hand("cdc-2013", Level(50, 100), 1, {1: 5_000, 2: 5_000, 3: 5_000})
    assert second.bet == {2: 50, 3: 100, 1: 0} and second.contributed == {2: 50, 3: 100, 1: 0}
    assert first._zeros is second._zeros and set(first._zeros.values()) == {0}


@pytest.mark.skipif(not SHARED, reason="shared PHH data set not found")
def test_a_turn_or_river_card_already_dealt_is_said_as_before() -> None:
    """The turn's and river's card is checked in line (`replay_hand`); a card seen before is the same error."""
    base = (PHH / "pluribus" / "100b_75.phh").read_text()
    cases = {"'d db Ac'": "'d db Kd'", "'d db 7d'": "'d db Qs'"}
    for written, repeated in cases.items():
        with pytest.raises(PhhError) as err:
            replay_hand(loads(base.replace(written, repeated), "x"))
        card = repeated[6:8]
        assert str(err.value) == f"x: {repeated}: {card} was already dealt (one deck, each card once)"
    assert replay_hand(loads(base, "x"))  # the file itself replays


@pytest.mark.skipif(not SHARED, reason="shared PHH data set not found")
def test_a_flop_card_already_dealt_is_said_as_before() -> None:
    """The flop's three cards are checked in line (`replay_hand`): a card dealt before, in any of the three
    places, or twice in the flop, is the same error as card by card, naming the card; a face-down card is left
    to the deal, as before; a card spelt otherwise is not the same text (as before)."""
    base = (PHH / "pluribus" / "100b_75.phh").read_text()  # p2 holds KsKh; the flop is 5dKdTh
    said = {"Ks5dTh": "Ks", "5dKsTh": "Ks", "5dThKs": "Ks", "5d5dTh": "5d", "5dKdKd": "Kd", "Th5dTh": "Th",
            "5d??Ks": "Ks", "??Ks5d": "Ks"}
    for flop, card in said.items():
        with pytest.raises(PhhError) as err:
            replay_hand(loads(base.replace("'d db 5dKdTh'", f"'d db {flop}'"), "x"))
        assert str(err.value) == f"x: 'd db {flop}': {card} was already dealt (one deck, each card once)"
    with pytest.raises(PhhError, match=r"^x: 'd db \?\?KdTh': a card is rank then suit"):
        replay_hand(loads(base.replace("'d db 5dKdTh'", "'d db ??KdTh'"), "x"))
    assert replay_hand(loads(base.replace("'d db 5dKdTh'", "'d db 5dkdTh'"), "x")) == replay_hand(loads(base, "x"))


def test_a_hole_card_already_dealt_is_said_as_before() -> None:
    """Hold'em's hole cards as usually spelt are looked up whole (`replay_hand`); the first card, the second
    or the same card twice seen before is the same error as card by card, naming the card."""
    base = (PHH / "pluribus" / "100b_75.phh").read_text()
    first = next(a for a in loads(base, "x").actions if a.startswith("d dh p1 "))
    cards = first[8:]
    for dealt, card in ((cards[:2] + "2c", cards[:2]), ("2c" + cards[2:], cards[2:]), ("2c2c", "2c")):
        repeated = f"d dh p2 {dealt}"
        text = base.replace(f"'{first}', ", f"'{first}', '{repeated}', ", 1) if card != "2c" else base.replace(
            f"'{first}'", f"'d dh p1 {dealt}'", 1)
        said = repeated if card != "2c" else f"d dh p1 {dealt}"
        with pytest.raises(PhhError) as err:
            replay_hand(loads(text, "x"))
        assert str(err.value) == f"x: '{said}': {card} was already dealt (one deck, each card once)"


def test_a_board_counted_once_scores_every_hand_as_all_its_cards_do() -> None:
    """The showdown counts the board once (`counted`) and each hand on top of it (`scorer`)."""
    from hub.rules.evaluator import counted, evaluate
    from hub.rules.variant_eval import score, scorer

    rng = random.Random(35)
    games = [get_game(g) for g in ("nlhe", "plo", "short_deck")]
    for _ in range(4000):
        repeated = [rng.randrange(52) for _ in range(9)]  # a card twice counts the same way too
        board, hole = repeated[:rng.choice((0, 3, 4, 5))], repeated[5:5 + rng.choice((0, 1, 2, 4))]
        assert evaluate(hole, counted(board)) == evaluate((*hole, *board))
        cards = rng.sample(range(52), 9)
        board, hole = cards[:rng.choice((0, 3, 4, 5))], cards[5:5 + rng.choice((0, 1, 2, 4))]
        assert evaluate(hole, counted(board)) == evaluate((*hole, *board))
        game = rng.choice(games)
        if game.deck == 36:
            board, hole = [c for c in board if c >> 2 >= 4], [c for c in hole if c >> 2 >= 4]
        assert scorer(game, board)(hole) == score(game, hole, board)


def test_a_run_never_plays_for_a_seat_out_of_the_hand_even_to_act() -> None:
    """`play_in_turn` checks once that the seat to act is live with chips (the seats it finds after are)."""
    hand = start_hand("cdc-2013", Level(50, 100), 1, {1: 1_000, 2: 1_000, 3: 1_000})
    seat = hand.to_act
    assert seat is not None
    hand.live.discard(seat)  # a state the engine never leaves: to_act out of the hand
    assert hand.play_in_turn([(ActionKind.CALL, seat, None, (), "")]) == 0
    hand.live.add(seat)
    hand.stack[seat] = 0
    assert hand.play_in_turn([(ActionKind.CALL, seat, None, (), "")]) == 0
    hand.stack[seat] = 1_000
    assert hand.play_in_turn([(ActionKind.CALL, seat, None, (), "")]) == 1


def test_a_run_closes_the_round_when_an_all_in_leaves_one_seat_with_chips() -> None:
    """The run's search for the next seat counts the live seats with chips only when the seat that acted
    folded or is all-in: here the small blind calls all-in for less, and the big blind, the only one left
    with chips, has nobody to face: the round closes, as the general way closes it."""
    stacks = {1: 1_000, 2: 80, 3: 1_000}
    fast = start_hand("cdc-2013", Level(50, 100), 1, stacks)
    slow = general_way(start_hand("cdc-2013", Level(50, 100), 1, stacks))
    run = [(ActionKind.FOLD, 1, None, (), ""), (ActionKind.CALL, 2, None, (), "")]
    assert fast.play_in_turn(run) == 2
    for kind, seat, to, _, _ in run:
        slow.act(seat, kind, to)
    assert fast.to_act is None and not fast.round_open
    assert state(fast) == state(slow)


def _next_to_act_by_count(hand: Hand, after: int) -> int | None:
    """The search for the next seat as it was: the live seats with chips counted for a seat yet to act."""
    for s in hand._after[after]:
        if s in hand.live and hand.stack[s]:
            if hand.bet[s] < hand.max_bet:
                return s
            if s not in hand._acted and sum(1 for t in hand.live if hand.stack[t]) > 1:
                return s
    return None


def test_the_next_seat_found_without_a_count_is_the_one_found_by_counting() -> None:
    """`_next_to_act` asks whether another live seat has chips only when it finds a seat yet to act, by
    what it passed and then the seats after him, not by a count: the same seat on random states."""
    rng = random.Random(35)
    for _ in range(3000):
        seats = list(range(1, rng.randint(2, 9) + 1))
        hand = start_hand("cdc-2013", Level(50, 100), 1, dict.fromkeys(seats, 1_000))
        hand.max_bet = rng.choice((0, 100, 300))
        for s in seats:
            hand.bet[s] = rng.choice((0, 100, 300))
            hand.stack[s] = rng.choice((0, 0, 500))
            if rng.random() < 0.3:
                hand.live.discard(s)
            if rng.random() < 0.5:
                hand._acted[s] = (0, 0, hand.bet[s])
            elif s in hand._acted:
                del hand._acted[s]
        for after in seats:
            assert hand._next_to_act(after) == _next_to_act_by_count(hand, after)


@pytest.mark.parametrize("kind", [ActionKind.CALL, ActionKind.CHECK])
def test_a_blind_above_the_highest_bet_is_left_to_the_general_way(kind: ActionKind) -> None:
    """A history may post its small blind above its big blind (a mutated file did): that seat's check or
    call is no check of the highest bet, the run leaves it to `act` (it stopped on an unbound name before)."""
    def posted() -> Hand:
        return Hand(get_ruleset("cdc-2013"), stacks={1: 1_000, 2: 1_000, 3: 1_000},
                    positions=Positions(3, 1, 2), sb=500, bb=100, short_blind_is_full_bet=False)

    fast, slow = posted(), general_way(posted())
    run = [(ActionKind.CALL, 3, None, (), ""), (kind, 1, None, (), "")]
    assert fast.play_in_turn(run) == 1
    slow.act(3, ActionKind.CALL)
    assert fast.act(1, kind) == slow.act(1, kind)
    assert state(fast) == state(slow)


def test_whole_number_lists_read_as_ints_are_what_int_reads_of_each() -> None:
    """`_plain_list` reads a list of whole numbers with JSON's scanner: the ints `int` makes of its texts,
    and anything JSON does not read (a leading zero, an empty item) the way it was read before."""

    def by_texts(value: str) -> list[str] | None:  # `_plain_list` before the scanner
        inner = value[1:-1]
        if not inner:
            return []
        digits = inner.replace(", ", "")
        if digits.isdigit() and digits.isascii():
            items = inner.split(", ")
            return None if "" in items else items
        return inner.split(", ") if phh_toml._PLAIN_LIST.fullmatch(value) else None

    rng = random.Random(12)
    pieces = ["0", "7", "50", "100", "10000", "00", "01", "9" * 30, "", "2.5", " 3", "\u0663"]
    read_as_ints = 0
    for _ in range(5000):
        items = [rng.choice(pieces) for _ in range(rng.randint(0, 7))]
        value = "[" + rng.choice((", ", ",", ",  ")).join(items) + "]"
        fast, texts = phh_module._plain_list(value), by_texts(value)
        if isinstance(fast, tuple):
            read_as_ints += 1
            assert texts is not None and all(t.isdigit() for t in texts) and fast == tuple(map(int, texts)), value
        else:
            assert fast == texts, value
    assert read_as_ints > 200


def test_lists_read_together_are_each_list_read_alone() -> None:
    """`_whole_lists` reads a hand's lists in one pass of JSON's scanner: what `_plain_list` reads of each,
    or None (each read alone then) when any of them is not a plain list of whole numbers."""
    rng = random.Random(35)
    pieces = ["0", "7", "50", "100", "10000", "01", "", "2.5", " 3", "-5", "[", "]", "], [", "\u0663"]
    cases: list[tuple[str, ...]] = [("[1], [2", "3]", "[4]"), ("[1, 2]", "[3]]", "[[4]"), ("[1]", "[]", "[2]"),
                                    ("[1]", "[2]", "[3] ")]
    for _ in range(6000):
        lists = []
        for _ in range(rng.choice((3, 4))):
            items = [rng.choice(pieces) if rng.random() < 0.03 else str(rng.randint(0, 20_000))
                     for _ in range(rng.randint(0, 6))]
            lists.append("[" + rng.choice((", ", ", ", ",")).join(items) + "]" + (" " if rng.random() < 0.02 else ""))
        if rng.random() < 0.3:  # no antes: the second list all zeros (looked up whole), or nearly so
            zeros = ["0"] * rng.randint(1, 9)
            zeros[rng.randrange(len(zeros))] = rng.choice(("0", "0", "0", "00", "1", "0 ", "", "-0"))
            lists[1] = "[" + rng.choice((", ", ", ", ",")).join(zeros) + "]"
        cases.append(tuple(lists))
    together = no_antes = 0
    for values in cases:
        alone = [phh_module._plain_list(v) for v in values]
        whole = phh_module._whole_lists(values)
        if whole is not None:
            together += 1
            no_antes += values[1] in phh_toml._ZEROS
            assert whole == alone and all(type(w) is tuple for w in whole), values
        else:  # handed over only when one of them is not read as ints
            assert not all(isinstance(a, tuple) for a in alone), values
    assert together > 500 and no_antes > 80, (together, no_antes)


def test_a_raise_nobody_else_could_call_is_judged_the_general_way() -> None:
    """`play_in_turn` asks in line whether a seat yet to act on the street faces someone who could call
    a raise (`_may_raise`): when nobody could (the big blind all-in on his blind), `act` judges it."""
    for ruleset in ("cdc-2013", "pcpm", "pouques-2020", "brest-2011", "cpt87"):
        stacks = {1: 5_000, 2: 5_000, 3: 100, 4: 5_000}
        fast = start_hand(ruleset, Level(50, 100), 1, stacks)
        slow = general_way(start_hand(ruleset, Level(50, 100), 1, stacks))
        for request in ((4, ActionKind.FOLD, None), (1, ActionKind.FOLD, None), (2, ActionKind.RAISE, 1_000)):
            assert fast.act(*request) == slow.act(*request)
            assert state(fast) == state(slow)
        last = fast.log[-1]
        assert isinstance(last, ActionRecord)
        assert last.status is ActionStatus.REJECTED and last.reason == "raise_not_allowed"


def test_get_ruleset_reads_the_seeds_in_when_the_table_lacks_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """A book missing from the rulebooks' table (no seed read yet) is found through `known_books`, which reads
    the seeds in: the first hand of a process is not refused."""
    import hub.rulebooks as rb

    monkeypatch.setattr(rb, "_BOOKS", {})
    assert get_ruleset("brest-2011") is rb.get("brest-2011").ruleset
    assert set(rb.SEED_IDS) <= set(rb._BOOKS)
