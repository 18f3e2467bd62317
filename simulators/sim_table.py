"""`tapis sim table`: one simulated table as its own process, installed as a real one but for its hardware.

The reader board's firmware simulator on a pty; the agent built by `table_agent.cli.start_agent` from the
table's profile and deck files (the very path `tapis agent` takes: only the serial URL, the pin factory
and the I2C bus are the simulator's; its outbox in memory or the SQLite file `--outbox` names); a croupier
dealing on that board, with the dealing faults of his `FaultPlan` (`--fault-rate`, `--faults`) ruled by the
hub and carried out, and players pressing that panel (gpiozero mock pins, the MCP23017 chips on a simulated
I2C bus). A room is `tapis hub` + N of these.
"""

from __future__ import annotations

import logging
import random
import sys
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass

from gpiozero.pins.mock import MockFactory

from hw.decks import FULL_DECK, DeckRegistry
from hw.errors import ConfigError
from hw.panel import Panel
from hw.panel_pins import PanelConfig
from hw.ports import ManualClock
from hw.profile import TableProfile
from simulators.croupier import Croupier
from simulators.dealer import Felt, Muck
from simulators.fault_plan import DEFAULT_KINDS, FaultPlan
from simulators.panel import PanelSimulator, SimulatedExpanderBus
from simulators.reader_board import ReaderBoardSimulator

log = logging.getLogger(__name__)


class FingerTime(ManualClock):
    """The panel simulator's clock for a live panel: holding a button for `s` seconds takes `s` seconds
    of real time, since the production panel times its holds (all-in, new hand) on the monotonic clock."""

    def now(self) -> float:
        return time.monotonic()

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError(f"time does not go backwards ({seconds} s)")
        time.sleep(seconds)
        return time.monotonic()


@dataclass(frozen=True)
class Players:
    """How the simulated players decide, from what their seat's LEDs and the dealer tell them."""

    rng: random.Random
    allin_rate: float = 0.005  # shoves now and then, so that stacks move and players bust over a night
    fold_rate: float = 0.15  # facing a bet: folds, half with the button, half by throwing the cards in
    fold_to_a_push: float = 0.8  # facing more than 5 big blinds: most fold, as a club's players do

    def choose(self, to_call: int, big_blind: int | None = None) -> str:
        """`check`, `call`, `fold`, `muck` (cards thrown in) or `allin`; `big_blind`: about what the first
        bet to call was this hand (a push is more than 5 of them)."""
        r = self.rng.random()
        if r < self.allin_rate:
            return "allin"
        if to_call == 0:
            return "check"
        fold = self.fold_to_a_push if big_blind and to_call > 5 * big_blind else self.fold_rate
        if r < self.allin_rate + fold / 2:
            return "fold"
        if r < self.allin_rate + fold:
            return "muck"
        return "call"


def sim_pins(config: PanelConfig | None) -> tuple[MockFactory, SimulatedExpanderBus | None]:
    """The Pi's pins (gpiozero mock pins) and, if the panel has seat expanders, their I2C bus: the
    MCP23017 chips at the profile's addresses, pulling the profile's interrupt line if it has one."""
    pins = MockFactory()
    if config is None or not config.expanders:
        return pins, None
    interrupt = pins.pin(config.expander_interrupt) if config.expander_interrupt else None
    return pins, SimulatedExpanderBus(config.expanders, interrupt=interrupt)


def seat_fingers(fingers: PanelSimulator, felt: Felt, players: Players) -> Callable[[int, int, int | None], str]:
    """The croupier's `act`: the player to act presses his seat's button (or throws his cards in); returns
    what he did, so the croupier knows who is still in the hand."""

    def act(seat: int, to_call: int, big_blind: int | None = None) -> str:
        choice = players.choose(to_call, big_blind)
        if choice == "muck":
            felt.perform(Muck(seat))  # a fold by the muck: the agent sees the cards go
        else:
            fingers.press(seat, choice)
        return choice

    return act


def run_sim_table(profile_path: str, decks_path: str, broker: str, link_options: dict[str, object] | None = None,
                  *, stop: threading.Event, pace: float = 0.12, seed: int = 1, boxed_rate: float = 0.0,
                  allin_rate: float = 0.05, scan_ms: int | None = None, hands: int | None = None,
                  fault_rate: float = 0.0, fault_kinds: Sequence[str] | None = None,
                  outbox: str | None = None, away_hands: int = 1) -> int:
    """Run until `stop` (SIGTERM) or `hands` hands played; exceptions of a wrong file or broker pass up.

    `fault_rate`: the chance that a hand carries one of `fault_kinds` (default: every kind the croupier
    makes, `simulators.fault_plan`); `outbox`: the agent's SQLite outbox file, as `tapis agent --outbox`
    (None: in memory); `away_hands`: the hands a player marked away (`absent_player`) stays away."""
    from table_agent.cli import start_agent

    profile = TableProfile.load(profile_path)
    registry = DeckRegistry.load(decks_path)
    full_decks(registry, profile)
    period = (scan_ms if scan_ms is not None else profile.reader.scan_period_ms) / 1000
    rng = random.Random(f"{seed}:{profile.table}")
    plan = FaultPlan(rate=fault_rate, rng=random.Random(f"{seed}:{profile.table}:faults"),
                     kinds=DEFAULT_KINDS if fault_kinds is None else fault_kinds)
    with ExitStack() as running:
        board = ReaderBoardSimulator(antennas=profile.antenna_count, scan_period=period,
                                     rng=random.Random(rng.random()))
        board.start()
        running.callback(board.close)
        pins, bus = sim_pins(profile.panel)
        running.callback(pins.close)
        running.callback(pins.reset)
        table = start_agent(profile_path, decks_path, broker, outbox, link_options, reader_url=board.port,
                            pin_factory=pins, bus=bus)
        running.callback(table.close)
        felt = Felt(profile=table.agent.profile, registry=registry, board=board)
        act, new_hand = _hands_on(table.panel, felt, Players(random.Random(rng.random()), allin_rate=allin_rate),
                                  bus)
        croupier = Croupier(agent=table.agent, felt=felt, rng=random.Random(rng.random()), pace=pace, stop=stop,
                            boxed_rate=boxed_rate, act=act, new_hand=new_hand, faults=plan, away_hands=away_hands)
        print(f"tapis sim table: table {profile.table}, reader board on {board.port}, "
              f"{'panel on simulated pins' if table.panel else 'no panel: players act through the agent'}",
              file=sys.stderr, flush=True)
        while not stop.is_set() and (hands is None or croupier.hands < hands):
            if not croupier.play_hand() and not stop.is_set():
                # no hand from the hub (no players here, a paused or broken table): the croupier asks again
                stop.wait(1.0)
        made = ", ".join(f"{k} {n}" for k, n in sorted(plan.made.items()))
        passed = ", ".join(f"{k} {n}" for k, n in sorted(plan.passed.items()))  # e.g. no other table's deck
        print(f"tapis sim table: table {profile.table} stopped after {croupier.hands} hands "
              f"({croupier.stuck} given up){f'; faults made: {made}' if made else ''}"
              f"{f'; not possible at this table: {passed}' if passed else ''}", file=sys.stderr, flush=True)
    return 0


def full_decks(registry: DeckRegistry, profile: TableProfile) -> None:
    """The croupier shuffles and deals all 52 cards of the table's first deck: refuse, in plain words, a
    registry that has fewer (the shipped `decks.toml` shows three lines per deck)."""
    registry.require_table_decks(profile.table, profile.deck_ids)
    deck = registry.deck(profile.deck_ids[0])
    missing = sorted(set(FULL_DECK) - set(deck.cards.values()))
    if missing:
        raise ConfigError(f"deck {deck.id!r} has {52 - len(missing)} cards, a simulated table deals all 52 "
                          f"(missing {', '.join(missing[:4])}{'...' if len(missing) > 4 else ''}): "
                          f"`tapis sim decks {profile.table} ...` writes the simulated tables' registry")


def _hands_on(panel: Panel | None, felt: Felt, players: Players, bus: SimulatedExpanderBus | None
              ) -> tuple[Callable[[int, int, int | None], str] | None, Callable[[], None] | None]:
    """The players' and the dealer's presses on the panel; without a panel, the croupier's own."""
    if panel is None:
        return None, None
    fingers = PanelSimulator(panel, FingerTime(), bus=bus)
    return seat_fingers(fingers, felt, players), lambda: fingers.dealer("new_hand")
