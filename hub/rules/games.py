"""The games a table may deal, as frozen data: deck, hole cards, discards, betting, evaluation.

Consumed by `hand` (pot-limit bounds), `showdown` (which evaluation) and, through the hub, by the
dealing monitor (hole cards, discards, ranks not in the deck). The definitions themselves are data
(`games.toml`, read and checked at the edge by `game_file`); this module only names their shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Betting(StrEnum):
    NO_LIMIT = "no_limit"  # no-limit: up to the whole stack
    POT_LIMIT = "pot_limit"  # pot-limit: up to the pot as the dealer announces it


class Evaluation(StrEnum):
    HOLDEM = "holdem"  # best five of hole and board, any mix
    OMAHA = "omaha"  # exactly two from the hand, three from the board
    SHORT_DECK = "short_deck"  # hold'em on 36 cards: flush over full house, A-6-7-8-9 straight


class DiscardWhen(StrEnum):
    NEVER = "never"
    BEFORE_FLOP = "before_flop"  # pineapple: one card thrown after the pre-flop betting
    AFTER_FLOP = "after_flop"  # crazy pineapple: one card thrown after the flop betting


SHORT_DECK_REMOVED = frozenset("2345")  # ranks missing from a 36-card deck


@dataclass(frozen=True, slots=True)
class Game:
    """One game: `name` is French (what the dealer's display and the TD read), `name_en` English."""

    id: str
    name: str
    name_en: str
    deck: int  # 52 or 36 cards
    hole_cards: int
    betting: Betting
    evaluation: Evaluation
    discards: int = 0
    discard_when: DiscardWhen = DiscardWhen.NEVER
    phh_variant: str | None = None  # the PHH code PokerKit writes for it ("NT", "PO", "NS")

    @property
    def excluded_ranks(self) -> frozenset[str]:
        """Ranks a card of this game's deck never has: one of them on the felt is a foreign card."""
        return SHORT_DECK_REMOVED if self.deck == 36 else frozenset()

    @property
    def kept_cards(self) -> int:
        """Hole cards a hand holds once its discards are made (what the showdown reads)."""
        return self.hole_cards - self.discards


# The engine's default, the game every rulebook is written for: the table file lists it too
# (a test keeps the two equal).
NLHE = Game(id="nlhe", name="No Limit Texas Hold'em", name_en="No-limit Texas hold'em", deck=52,
            hole_cards=2, betting=Betting.NO_LIMIT, evaluation=Evaluation.HOLDEM, phh_variant="NT")
