"""The TD cancels the hand in progress ("annuler la donne"): what happens to the bets, by the ruleset.

A table blocked mid-hand (tables restarted, the hand can never end) is unblocked by the TD. The
rulebooks have no clause for a TD's cancel; they say what a cancelled hand does to the chips where
the deck proves irregular, a hand no player caused to fail: cdc-2013 6.4 (and the rooms silent on it,
which follow cdc) give every player back what he put in; brest-2011 III.11 and cpt87 6.4 share the
pot among the live hands and return the unfinished round. Pure: consumed by `hub.room.game` (which
applies it) and `hub.floor.service` (which answers the TD's command with it).
"""

from __future__ import annotations

from dataclasses import dataclass

from hub import rulings
from hub.rulings.texts import DECISIONS
from tablewire.faults import FaultKind

KIND = "td_cancel"  # the ruling's kind on the hub's events (not a dealing fault)
_CANCELLED = (rulings.Decision.HAND_CANCELLED_BETS_RETURNED, rulings.Decision.HAND_CANCELLED_POT_SPLIT)


@dataclass(frozen=True, slots=True)
class CancelRuling:
    decision: rulings.Decision
    article: str

    @property
    def split(self) -> bool:
        return self.decision is rulings.Decision.HAND_CANCELLED_POT_SPLIT

    def text(self, lang: str = "fr") -> str:
        head = "Donne annulée par le DT" if lang == "fr" else "Hand cancelled by the TD"
        colon = " : " if lang == "fr" else ": "
        return f"{head} — {self.article}{colon}{DECISIONS['fr' if lang == 'fr' else 'en'][self.decision]}"

    def to_dict(self) -> dict[str, str]:
        return {"decision": str(self.decision), "article": self.article, "text": self.text("fr"),
                "text_en": self.text("en")}


def cancel_ruling(ruleset: str) -> CancelRuling:
    """The ruleset's cancelled hand (its irregular-deck clause); `UnknownRuleset` for an unknown id."""
    for clause, article in rulings.clauses_for(FaultKind.DUPLICATE_CARD, ruleset):
        if clause.decision in _CANCELLED:
            return CancelRuling(clause.decision, article)
    raise AssertionError(f"{ruleset}: no cancelled-hand clause, not even cdc-2013's")  # cdc-2013 6.4 has one
