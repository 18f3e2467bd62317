"""PLO and short-deck hand histories, written by PokerKit (tests/rules/phh_games/make_phh.py),
replayed strictly by `tapis phh`: every hand must reach PokerKit's finishing stacks."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from hub.rules.cli import run
from hub.rules.phh import loads, replay_file
from hub.rules.records import PhhError

HERE = Path(__file__).resolve().parent / "phh_games"
FILES = sorted(HERE.glob("*.phh"))


def test_the_histories_are_there_for_both_games() -> None:
    assert len([f for f in FILES if f.name.startswith("plo_")]) >= 20
    assert len([f for f in FILES if f.name.startswith("short_deck_")]) >= 20
    assert all(f.read_text().startswith("variant = 'PO'") for f in FILES if f.name.startswith("plo_"))
    assert all(f.read_text().startswith("variant = 'NS'") for f in FILES if f.name.startswith("short_"))


def test_tapis_phh_replays_every_plo_and_short_deck_history_exactly() -> None:
    out = io.StringIO()
    assert run(["phh", *map(str, FILES)], out) == 0, out.getvalue()
    assert out.getvalue().splitlines()[-1] == (
        f"{len(FILES)} hands: {len(FILES)} match, 0 mismatch or error, 0 without recorded stacks")


def test_pot_limit_maxima_are_in_the_histories() -> None:
    """The PLO files do raise to the exact pot-limit maximum below a player's all-in (else their
    replay would prove little about it), and Omaha's evaluation decides some of them: replayed as
    hold'em, some hands end differently."""
    from hub.rules import ActionKind
    from hub.rules.phh import build_hand, replay_hand

    pot_raises = mismatched = 0
    for f in FILES:
        if not f.name.startswith("plo_"):
            continue
        h = loads(f.read_text(), f.name)
        hand = build_hand(h)
        for op, seat, amount, cards, _ in h.steps:
            if op == "db":
                hand.deal_board(*cards)
            elif type(op) is ActionKind:  # a player's step: his action and its `to`
                if amount is not None:
                    cap = hand.pot_limit_to(seat)
                    pot_raises += amount == cap and cap is not None and cap < hand.bet[seat] + hand.stack[seat]
                hand.act(seat, op, amount)
        as_nlhe = loads(f.read_text().replace("variant = 'PO'", "variant = 'NT'"), f.name)
        try:
            mismatched += replay_hand(as_nlhe) != as_nlhe.recorded
        except PhhError:
            mismatched += 1
    assert pot_raises >= 5 and mismatched > 0, (pot_raises, mismatched)


def test_a_raise_above_the_pot_is_refused_in_plo(tmp_path: Path) -> None:
    text = (HERE / "plo_01.phh").read_text()
    first = re.search(r"'(p\d) cbr (\d+)'", text)
    assert first is not None
    player, amount = first.groups()
    assert loads(text, "plo_01.phh").game.id == "plo"
    over = tmp_path / "over.phh"
    # Replace the first raise with one far above any pot-limit maximum of the hand's first street.
    over.write_text(text.replace(f"'{player} cbr {amount}'", f"'{player} cbr {int(amount) * 50}'", 1))
    r = replay_file(over)
    assert r.match is False and r.error is not None
    assert "above_pot_limit" in r.error or "more_than_stack" in r.error


@pytest.mark.parametrize("variant", ["FT", "PO/8", "", "7"])
def test_a_game_tapis_does_not_deal_is_one_clear_line(variant: str) -> None:
    text = (HERE / "plo_01.phh").read_text().replace("variant = 'PO'", f"variant = '{variant}'")
    with pytest.raises(PhhError) as err:
        loads(text, "x.phh")
    assert "x.phh" in str(err.value) and "\n" not in str(err.value)
    assert "'NT'" in str(err.value) and "'PO'" in str(err.value) and "'NS'" in str(err.value)


def test_a_short_deck_history_with_a_removed_rank_is_refused() -> None:
    text = (HERE / "short_deck_01.phh").read_text()
    first = re.search(r"'d dh p1 (\S\S)", text)
    assert first is not None
    r = replay_file_text(text.replace(f"'d dh p1 {first.group(1)}", "'d dh p1 2c", 1))
    assert r is not None and "2c is not in the 36-card deck" in r


def test_a_plo_history_dealing_two_cards_is_refused() -> None:
    text = (HERE / "plo_01.phh").read_text()
    bad = re.sub(r"'d dh p1 (\S{4})\S{4}'", r"'d dh p1 \1'", text, count=1)
    assert bad != text
    r = replay_file_text(bad)
    assert r is not None and "Pot-limit Omaha (4 cards) deals 4 hole cards" in r


def replay_file_text(text: str) -> str | None:
    from hub.rules.phh import replay_hand

    try:
        replay_hand(loads(text, "t.phh"))
    except PhhError as err:
        assert "\n" not in str(err)
        return str(err)
    return None
