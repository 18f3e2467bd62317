"""Random hands through the hub's game, whatever the panels allow: no hand ever stalls.

A table of 2 to 9 random stacks (short ones too, so all-ins abound) plays hands through
`hub.room.game.TableGame` exactly as the table feeds it: hole cards and board cards as card events, seat
panel presses by any seat at any time (in turn or not, any button, any amount the dial can show),
Time called and run out, boxed cards after the deal, presses between rounds (in the dark), and the TD
deciding at random whatever the ruleset leaves to him (play waits for him: every press is refused). After a random
number of such presses the player to act only checks or calls; from then on the hand must end. Checked at every step:

- a hand in progress always has a legal way forward: a betting round waiting on a live seat with
  chips, or a street due from the dealer; in the closing phase a check or call is never refused;
- chips are conserved (stacks + pot during the hand, stacks after it);
- every refusal carries a message a dealer can read, in French and English, with no raw identifier.

`python -m tests.rules.no_stall --hands 5000` runs 5,000 hands per ruleset (seed printed; replay a
failure with `--seed`). The CI test runs a bounded number with a new seed each run.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from hub.room.game import TableGame, TableSetup
from hub.rules import RULESETS, Level, Street
from hub.rules.game_file import get_game
from hub.rules.positions import clockwise
from tablewire import wire

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
_RAW_ID = re.compile(r"\b[a-z]+_[a-z_]+\b")  # a reason id such as raise_not_allowed
_NEED = {0: 3, 3: 1, 4: 1}  # board cards the engine holds -> cards of the next street
MAX_STEPS = 400


class Stall(AssertionError):
    pass


@dataclass
class Stats:
    hands: int = 0
    ends: dict[str, int] = field(default_factory=dict)
    presses: int = 0
    refused: int = 0
    reasons: dict[str, int] = field(default_factory=dict)  # refusals by reason id
    time_outs: int = 0
    decisions: int = 0  # the TD's, while the table waited


class Table:
    """One random table; `play()` runs one hand and checks it."""

    def __init__(self, ruleset: str, rng: random.Random, label: str, game: str = "nlhe") -> None:
        self.rng, self.label, self.ruleset = rng, label, ruleset
        self.cards = get_game(game)
        seats = sorted(rng.sample(range(1, 10), rng.randint(2, 9)))
        sb = rng.choice([25, 50, 100])
        bb = sb * 2
        ante = rng.choice([0, 0, bb // 10, bb // 4])
        self.level = Level(sb, bb, ante, bb_ante=rng.random() < 0.3)
        stacks = {s: rng.choice([rng.randint(1, 3 * bb), rng.randint(3 * bb, 30 * bb),
                                 rng.randint(30 * bb, 200 * bb)]) for s in seats}
        self.game = TableGame("t1", TableSetup(players=stacks, button=rng.choice(seats), level=self.level,
                                               ruleset=ruleset, seats=9, game=game))
        self.total = sum(stacks.values())
        self.seq = 0
        self.now = 0.0

    # -- facts the table sends ----------------------------------------------------------------

    def _card(self, zone: str, face: str) -> None:
        self.seq += 1
        event = wire.CardEvent(table="t1", boot="b", seq=self.seq, at=self.now, type="card_arrived", zone=zone,
                               uid=f"{DECK.index(face) + 1:08X}", card=face, deck="A", order=self.seq)
        self.check(self.game.card(event).events)

    def _fault(self, kind: str, seat: int | None, cards: list[str], **details: Any) -> None:
        self.seq += 1
        f = wire.FaultSeen(table="t1", boot="b", seq=self.seq, at=self.now, hand=self.game.hand_no, kind=kind,
                           seat=seat, cards=cards, details=details)
        self.check(self.game.fault(f).events)

    # -- checks ---------------------------------------------------------------------------------

    def fail(self, why: str) -> Stall:
        hand = self.game.hand
        state = "" if hand is None else (f" street={hand.street} open={hand.round_open} to_act={hand.to_act}"
                                         f" board={len(hand.board)} live={sorted(hand.live)} bets={hand.bet}"
                                         f" stacks={hand.stack} pending={sorted(hand.pending)}")
        return Stall(f"{self.label} hand {self.game.hand_no}: {why};{state}")

    def check(self, events: list[dict[str, Any]]) -> None:
        for e in events:
            if e.get("status") == "rejected" or e["type"].endswith("_refused"):
                self.stats.refused += 1
                reason = str(e.get("reason"))
                self.stats.reasons[reason] = self.stats.reasons.get(reason, 0) + 1
                msg = e.get("message")
                if not isinstance(msg, dict) or not msg.get("fr") or not msg.get("en"):
                    raise self.fail(f"a refusal without a French and English message: {e}")
                for text in msg.values():
                    if _RAW_ID.search(text):
                        raise self.fail(f"a refusal message with a raw identifier: {text!r}")
            if e["type"] == "hand_end":
                self.stats.ends[e["result"]] = self.stats.ends.get(e["result"], 0) + 1
                if sum(e["stacks"].values()) != self.total:
                    raise self.fail(f"chips not conserved at the end: {e['stacks']} != {self.total}")
        hand = self.game.hand
        if hand is not None and hand.result is None:
            in_play = sum(hand.stack.values()) + hand.pot
            if in_play != sum(hand.starting_stacks.values()):
                raise self.fail(f"chips not conserved: {in_play} in play")

    # -- one hand -------------------------------------------------------------------------------

    def play(self, stats: Stats) -> bool:
        """One hand; False when the table has fewer than two players left."""
        self.stats = stats
        rng, g = self.rng, self.game
        out = g.new_hand(self.now)
        if any(e["type"] == "table_idle" for e in out.events):
            return False
        self.check(out.events)
        stats.hands += 1
        hand = g.hand
        assert hand is not None and g.positions is not None
        deck = [c for c in DECK if c[0] not in self.cards.excluded_ranks]
        rng.shuffle(deck)
        order = clockwise(hand.seats, g.positions.button)
        for _ in range(self.cards.hole_cards):
            for seat in order:
                if g.in_hand:
                    self._card(f"seat:{seat}", deck.pop())
        wild = rng.randint(0, 30)  # presses of any kind before the players only check or call
        boxed = 0
        for step in range(MAX_STEPS):
            if not g.in_hand:
                return True
            hand = g.hand
            assert hand is not None
            if g.waiting_td:
                self._td_decides(step)
                continue
            if not hand.round_open:
                if step < wild and rng.random() < 0.3:
                    self._random_press(rng.randint(1, 9))  # in the dark, or refused between rounds
                    if not g.in_hand:
                        return True
                self._way_forward_without_betting(deck)
                continue
            if hand.to_act is None or hand.to_act not in hand.live or hand.stack[hand.to_act] == 0:
                raise self.fail("a betting round open with nobody able to act")
            if all(hand.stack[s] == 0 for s in hand.live if s != hand.to_act) and hand.bet[hand.to_act] >= hand.max_bet:
                raise self.fail("asked to act with nobody left to face")
            self.now += rng.random() * 5
            if step >= wild:
                self._closing_press(hand.to_act)
                continue
            roll = rng.random()
            if roll < 0.03:
                self._time_out(hand.to_act)
            elif roll < 0.05 and boxed < 2:
                boxed += 1
                self._fault("boxed_card", None, [deck.pop()], during_deal=False, boxed_in_deal=0,
                            boxed_after_deal=boxed)
            else:
                seat = hand.to_act if roll < 0.75 else rng.randint(1, 9)
                self._random_press(seat)
        raise self.fail(f"the hand did not end within {MAX_STEPS} steps")

    def _way_forward_without_betting(self, deck: list[str]) -> None:
        """No round open: the dealer's next street must be due (or the hand is over)."""
        hand = self.game.hand
        assert hand is not None
        need = _NEED.get(len(hand.board))
        if need is None or hand.street not in (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER):
            raise self.fail("no betting round open and no street to deal")
        before = (len(hand.board), hand.round_open, hand.result)
        self._card("burn", deck.pop())
        for _ in range(need):
            self._card("board", deck.pop())
        hand = self.game.hand
        if hand is not None and (len(hand.board), hand.round_open, hand.result) == before:
            raise self.fail("a street dealt changed nothing")

    def _closing_press(self, seat: int) -> None:
        """The player to act checks or calls (now and then pushes all-in): never refused."""
        hand = self.game.hand
        assert hand is not None
        owed = hand.max_bet > hand.bet[seat]
        action = "allin" if self.rng.random() < 0.1 else "call" if owed else "check"
        self.stats.presses += 1
        out = self.game.action(seat, action, None)
        self.check(out.events)
        mine = [e for e in out.events if e["type"] == "action" and e["seat"] == seat]
        if any(e["status"] == "rejected" for e in mine):
            raise self.fail(f"the player to act cannot {action}: {mine}")

    def _td_decides(self, step: int) -> None:
        """The table waits for the TD: a press is refused (in words), then he picks one of the options."""
        rng, g = self.rng, self.game
        if step % 2:
            out = g.action(rng.randint(1, 9), "check", None)
            self.check(out.events)
            if any(e.get("status") != "rejected" for e in out.events if e["type"] == "action"):
                raise self.fail(f"a press accepted while the table waits for the TD: {out.events}")
        pending = [e for e in g.pending_td if e["hand"] == g.hand_no]
        # a Time request (cpt87 4.5) does not stop play: the TD first decides what does (a grant meanwhile is
        # refused in words, "that one first": checked by the game's tests)
        stopping = [e for e in pending if e["kind"] != "time_request"]
        event = rng.choice(stopping or pending)
        option = rng.choice(event["ruling"]["options"])
        out = g.decide(event["kind"], option, by="td")
        self.check(out.events)
        if any(e["type"] == "decision_refused" for e in out.events):
            raise self.fail(f"the TD's choice {option} refused: {out.events}")
        self.stats.decisions += 1

    def _time_out(self, seat: int) -> None:
        out = self.game.dealer("time", seat, self.now)
        self.check(out.events)
        self.now += 200.0
        before = self.game.hand_no
        out = self.game.tick(self.now)
        self.check(out.events)
        if any(e["type"] == "fault" and e["kind"] == "time_expired" for e in out.events):
            self.stats.time_outs += 1
        assert self.game.hand_no == before

    def _random_press(self, seat: int) -> None:
        rng, hand = self.rng, self.game.hand
        assert hand is not None
        button = rng.choice(["fold", "check_call", "check_call", "bet_raise", "bet_raise", "allin"])
        to: int | None = None
        if button == "check_call":
            owed = seat in hand.bet and hand.max_bet > hand.bet[seat]
            action = "call" if owed else "check"
        elif button == "bet_raise":
            action = "raise" if hand.max_bet > 0 else "bet"
            own, stack = hand.bet.get(seat, 0), hand.stack.get(seat, 0)
            to = rng.choice([None, hand.min_raise_to(), own + stack, own + stack + 1, hand.max_bet,
                             max(1, hand.max_bet - 1), rng.randint(1, max(2, (own + stack) * 2)),
                             hand.max_bet + rng.randint(1, max(1, hand.bb))])
        else:
            action = button
        self.stats.presses += 1
        events = self.game.action(seat, action, to).events
        self.check(events)
        if action == "allin" and hand.round_open and seat == hand.to_act:
            # Pushing every chip in is always accepted from the player to act (as a call where
            # he may not raise).
            refused = [e for e in events if e["type"] == "action" and e["seat"] == seat
                       and e["status"] == "rejected"]
            if refused:
                raise self.fail(f"the player to act cannot push all-in: {refused}")


def run(ruleset: str, hands: int, seed: int, stats: Stats | None = None, game: str = "nlhe") -> Stats:
    """Play `hands` hands of `ruleset` (and `game`) from `seed`; raises `Stall` (naming the seed) on a failure."""
    rng = random.Random(f"{seed}/{ruleset}" if game == "nlhe" else f"{seed}/{ruleset}/{game}")
    stats = stats or Stats()
    table_no = 0
    while stats.hands < hands:
        table_no += 1
        table = Table(ruleset, rng, f"seed {seed} {ruleset} {game} table {table_no}", game)
        for _ in range(rng.randint(1, 12)):
            if stats.hands >= hands or not table.play(stats):
                break
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="hands per ruleset")
    parser.add_argument("--seed", type=int, default=None, help="replay a seed (default: a new one)")
    parser.add_argument("--ruleset", action="append", choices=sorted(RULESETS), help="default: all five")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"seed {seed}")
    failed = 0
    for ruleset in args.ruleset or list(RULESETS):
        start = time.perf_counter()
        try:
            stats = run(ruleset, args.hands, seed)
        except Stall as err:
            print(f"{ruleset}: FAILED: {err}")
            failed += 1
            continue
        ends = ", ".join(f"{k} {v}" for k, v in sorted(stats.ends.items()))
        print(f"{ruleset}: {stats.hands} hands, no stall ({ends}); {stats.presses} presses, "
              f"{stats.refused} refused, {stats.time_outs} Time run out, {stats.decisions} TD decisions; "
              f"{time.perf_counter() - start:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
